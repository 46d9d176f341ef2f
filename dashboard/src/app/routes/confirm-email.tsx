// /confirm-email?token=: a chunk of its own, as /unsubscribe (it validates with the shared
// schemas, zod, which /login does not need).
import { ConfirmEmailPage } from '../../features/mail-consent';
import { QueryProvider } from '../../lib/query-provider';
import { registerPublicPageTranslations } from '../../locales/public-pages';

registerPublicPageTranslations();

export default function ConfirmEmailRoute() {
  return (
    <QueryProvider>
      <ConfirmEmailPage />
    </QueryProvider>
  );
}

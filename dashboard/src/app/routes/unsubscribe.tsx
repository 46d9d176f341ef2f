// /unsubscribe?token=: a chunk of its own, since it validates with the shared schemas (zod), which
// /login does not need.
import { UnsubscribePage } from '../../features/unsubscribe';
import { QueryProvider } from '../../lib/query-provider';
import { registerPublicPageTranslations } from '../../locales/public-pages';

registerPublicPageTranslations();

export default function UnsubscribeRoute() {
  return (
    <QueryProvider>
      <UnsubscribePage />
    </QueryProvider>
  );
}

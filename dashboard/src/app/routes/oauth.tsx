// /oauth/{service}: the integration authorisation's return page, without the dashboard's shell
// (it lives in a popup).
import { OAuthReturnPage } from '../../features/integrations';
import { QueryProvider } from '../../lib/query-provider';

export default function OAuthRoute() {
  return (
    <QueryProvider>
      <OAuthReturnPage />
    </QueryProvider>
  );
}

export { supabaseIntegrationsApi, type IntegrationsApi } from './api/integrations';
export { IntegrationsPage } from './components/integrations-page';
export { OAuthReturnPage } from './components/oauth-return-page';

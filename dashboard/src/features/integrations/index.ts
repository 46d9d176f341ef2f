export {
  IntegrationsPage,
  supabaseIntegrationsApi,
  type IntegrationsApi,
} from './components/integrations-page';
export { OAuthReturnPage } from './components/oauth-return-page';

// /login and /not_supported: no zod and no schemas, so the sign-in page stays light.
export { LoginPage, NotSupportedPage } from '../../features/auth';

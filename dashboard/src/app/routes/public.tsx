export { LoginPage, NotSupportedPage } from '../../features/auth';

export { LoginPage } from './components/login-page';
export { NotSupportedPage } from './components/not-supported-page';

export { LoginPage, NotSupportedPage } from '../../features/auth';
export { UnsubscribePage } from '../../features/unsubscribe';

export { SenderEmailsPage } from './components/sender-emails-page';

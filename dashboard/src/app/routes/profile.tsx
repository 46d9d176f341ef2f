import { ProfilePage } from '../../features/profile';

export { SenderEmailsPage } from '../../features/sender-emails';
export { IntegrationsPage } from '../../features/integrations';
export default ProfilePage;

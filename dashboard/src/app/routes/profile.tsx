import { ProfilePage } from '../../features/profile';

export { SenderEmailsPage } from '../../features/sender-emails';
export default ProfilePage;

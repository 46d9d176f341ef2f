import { ProfilePage } from '../../features/profile';

export default ProfilePage;

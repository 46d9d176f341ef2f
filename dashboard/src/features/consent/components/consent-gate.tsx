// Shows the consent modal to a signed-in user whose profile has not agreed yet.
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { deleteUser } from '../../../lib/delete-user';
import { submitAgreement } from '../api/submit-agreement';
import { ConsentModal } from './consent-modal';

export function ConsentGate() {
  const { user, profile, refreshProfile, signOut } = useSession();
  const navigate = useNavigate();
  const open = !!profile && profile.agree === false;
  return (
    <ConsentModal
      open={open}
      onAgree={async () => {
        if (user) await submitAgreement(user.id);
        await refreshProfile();
      }}
      onDecline={async () => {
        try {
          await deleteUser();
        } finally {
          await signOut();
          navigate(paths.home);
        }
      }}
    />
  );
}

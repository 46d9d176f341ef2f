// Shows the consent modal to a signed-in user whose profile has not agreed yet.
import { useSession } from '../../../lib/session';
import { useRemoveAccount } from '../../../lib/delete-user';
import { submitAgreement } from '../api/submit-agreement';
import { ConsentModal } from './consent-modal';

export function ConsentGate() {
  const { user, profile, refreshProfile } = useSession();
  const removeAccount = useRemoveAccount({ leaveAnyway: true });
  const open = !!profile && profile.agree === false;
  return (
    <ConsentModal
      open={open}
      onAgree={async () => {
        if (user) await submitAgreement(user.id);
        await refreshProfile();
      }}
      onDecline={removeAccount}
    />
  );
}

import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { useRemoveAccount } from '../../../lib/delete-user';
import { addressLanguage, currentLanguage, setLanguage, toLanguage } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { updateProfile } from '../api/update-profile';
import { ProfileForm } from './profile-form';
import { PageHeading } from '../../../components/ui/page-heading';

export function ProfilePage() {
  const { t } = useTranslation();
  const { user, profile, refreshProfile } = useSession();
  const removeAccount = useRemoveAccount();
  if (!user || !profile) return <Spinner />;
  const metadata = user.user_metadata as { avatar_url?: string; picture?: string } | undefined;
  return (
    <section className="profile-page">
      <PageHeading>{t('profile.title')}</PageHeading>
      <ProfileForm
        key={profile.id}
        email={profile.email ?? user.email ?? ''}
        initial={{
          name: profile.name ?? '',
          // The sign-in photo is the fallback when no profile image is set.
          photoUrl: profile.photo_url ?? metadata?.avatar_url ?? metadata?.picture ?? '',
          homeUrl: profile.home_url ?? '',
          language: toLanguage(profile.language) ?? currentLanguage(),
        }}
        onSave={async (values) => {
          await updateProfile(values);
          await setLanguage(values.language, false);
          await refreshProfile();
        }}
        onRemoveAccount={removeAccount}
        visitLanguage={addressLanguage()}
      />
    </section>
  );
}

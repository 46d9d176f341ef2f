// /profile Account: image URL, name, email (read-only), homepage URL, language; remove account.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/fields';
import { LanguageField } from '../../../components/ui/language-field';
import { failureReason } from '../../../lib/errors';
import type { Language } from '../../../lib/i18n';
import {
  INVALID_URL,
  PROFILE_LIMITS,
  TOO_LONG,
  ZUpdateProfileInput,
  type TUpdateProfileInput,
} from '../api/update-profile';
import { ErrorText } from '../../../components/ui/error-text';
import { DangerButton } from '../../../components/ui/danger-button';

export interface ProfileFormProps {
  initial: TUpdateProfileInput;
  email: string;
  onSave: (values: TUpdateProfileInput) => Promise<void>;
  onRemoveAccount: () => Promise<void>;
  /** The language this visit is shown in when the address named another than the saved one. */
  visitLanguage?: Language | null;
}

type Field = keyof TUpdateProfileInput;

export function ProfileForm({
  initial,
  email,
  onSave,
  onRemoveAccount,
  visitLanguage,
}: ProfileFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<TUpdateProfileInput>(initial);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const parsed = ZUpdateProfileInput.safeParse(values);
  const errors: Partial<Record<Field, string>> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      errors[field] ??=
        issue.message === TOO_LONG
          ? t('common.tooLong')
          : issue.message === INVALID_URL
            ? t('profile.invalidUrl')
            : issue.message;
    }
  }

  const set = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setStatus('idle');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success || status === 'saving') return;
    setStatus('saving');
    setServerError(null);
    try {
      await onSave(parsed.data);
      setStatus('saved');
    } catch (cause) {
      // update-profile's answer in the reader's language, never its English words
      setServerError(failureReason(cause, { not_found: 'profile.notFound' }));
      setStatus('error');
    }
  };

  const textField = (field: 'photoUrl' | 'name' | 'homeUrl', type: 'url' | 'text', max: number) => (
    <TextField
      label={t(`profile.${field}`)}
      name={field}
      type={type}
      value={values[field]}
      max={max}
      error={errors[field]}
      onChange={set(field)}
    />
  );

  return (
    <>
      <form className="profile-form" onSubmit={(event) => void submit(event)} noValidate>
        {values.photoUrl && !errors.photoUrl ? (
          <img className="profile-photo" src={values.photoUrl} alt="" width={72} height={72} />
        ) : null}
        {textField('photoUrl', 'url', PROFILE_LIMITS.photoUrl)}
        {textField('name', 'text', PROFILE_LIMITS.name)}
        <TextField label={t('profile.email')} type="email" value={email} readOnly />
        {textField('homeUrl', 'url', PROFILE_LIMITS.homeUrl)}
        <LanguageField
          label={t('profile.language')}
          value={values.language}
          onChange={set('language')}
          hint={
            visitLanguage && visitLanguage !== initial.language
              ? t('profile.visitLanguage', {
                  visit: t(`languages.${visitLanguage}`),
                  locale: visitLanguage,
                  saved: t(`languages.${initial.language}`),
                })
              : undefined
          }
        />
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!parsed.success || status === 'saving'}
          >
            {status === 'saving' ? t('profile.saving') : t('profile.save')}
          </button>
          <span role="status" className="form-status">
            {status === 'saved' ? t('profile.saved') : ''}
          </span>
        </div>
        {serverError ? <ErrorText>{t('profile.error', { message: serverError })}</ErrorText> : null}
      </form>
      <section className="danger-zone">
        <DangerButton onClick={() => setConfirmRemove(true)}>
          {t('profile.removeAccount')}
        </DangerButton>
      </section>
      <ConfirmDialog
        open={confirmRemove}
        title={t('profile.removeTitle')}
        cancelLabel={t('profile.removeBack')}
        confirmLabel={t('profile.removeConfirm')}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={onRemoveAccount}
        errorText={(cause) => t('profile.removeFailed', { message: failureReason(cause) })}
      >
        <p>{t('profile.removeText')}</p>
      </ConfirmDialog>
    </>
  );
}

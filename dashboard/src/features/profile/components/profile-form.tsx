// /profile Account: image URL, name, email (read-only), homepage URL, language; remove account.
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { messageOf } from '../../../lib/errors';
import { LANGUAGES } from '../../../lib/i18n';
import {
  INVALID_URL,
  PROFILE_LIMITS,
  TOO_LONG,
  ZUpdateProfileInput,
  type TUpdateProfileInput,
} from '../api/update-profile';

export interface ProfileFormProps {
  initial: TUpdateProfileInput;
  email: string;
  onSave: (values: TUpdateProfileInput) => Promise<void>;
  onRemoveAccount: () => Promise<void>;
}

type Field = keyof TUpdateProfileInput;

export function ProfileForm({ initial, email, onSave, onRemoveAccount }: ProfileFormProps) {
  const { t } = useTranslation();
  const base = useId();
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
      setServerError(messageOf(cause));
      setStatus('error');
    }
  };

  const textField = (field: 'photoUrl' | 'name' | 'homeUrl', type: 'url' | 'text', max: number) => {
    const id = `${base}-${field}`;
    const error = errors[field];
    return (
      <div className="field">
        <label htmlFor={id}>{t(`profile.${field}`)}</label>
        <input
          id={id}
          name={field}
          type={type}
          value={values[field]}
          maxLength={max}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => set(field)(event.target.value)}
        />
        <span className="field-count" aria-hidden="true">
          {values[field].length}/{max}
        </span>
        {error ? (
          <span id={`${id}-error`} className="error-text">
            {error}
          </span>
        ) : null}
      </div>
    );
  };

  return (
    <>
      <form className="profile-form" onSubmit={(event) => void submit(event)} noValidate>
        {values.photoUrl && !errors.photoUrl ? (
          <img className="profile-photo" src={values.photoUrl} alt="" width={72} height={72} />
        ) : null}
        {textField('photoUrl', 'url', PROFILE_LIMITS.photoUrl)}
        {textField('name', 'text', PROFILE_LIMITS.name)}
        <div className="field">
          <label htmlFor={`${base}-email`}>{t('profile.email')}</label>
          <input id={`${base}-email`} type="email" value={email} readOnly />
        </div>
        {textField('homeUrl', 'url', PROFILE_LIMITS.homeUrl)}
        <div className="field">
          <label htmlFor={`${base}-language`}>{t('profile.language')}</label>
          <select
            id={`${base}-language`}
            value={values.language}
            onChange={(event) => set('language')(event.target.value)}
          >
            {LANGUAGES.map((lng) => (
              <option key={lng} value={lng} lang={lng}>
                {t(`languages.${lng}`)}
              </option>
            ))}
          </select>
        </div>
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
        {serverError ? (
          <p className="error-text" role="alert">
            {t('profile.error', { message: serverError })}
          </p>
        ) : null}
      </form>
      <section className="danger-zone">
        <button
          type="button"
          className="button button-danger"
          onClick={() => setConfirmRemove(true)}
        >
          {t('profile.removeAccount')}
        </button>
      </section>
      <ConfirmDialog
        open={confirmRemove}
        title={t('profile.removeTitle')}
        cancelLabel={t('profile.removeBack')}
        confirmLabel={t('profile.removeConfirm')}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={onRemoveAccount}
      >
        <p>{t('profile.removeText')}</p>
      </ConfirmDialog>
    </>
  );
}

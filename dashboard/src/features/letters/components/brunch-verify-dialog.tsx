// The brunch profile verification modal: the writer's profile link and the verified sender
// email they wrote in it (verify-brunch-id checks the profile page for it).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/form-dialog';
import { SelectField, TextField } from '../../../components/ui/fields';
import { useSubmit } from '../../../lib/use-submit';
import { LETTER_MESSAGES, normalizeBrunchProfile } from '@reaction-blocks/contracts/letters';
import { verifyBrunchId } from '../api/letters';
import { letterReason } from '../model/messages';

export interface BrunchVerifyDialogProps {
  blockId: string;
  emails: string[];
  onVerified: (profile: string) => void;
  onClose: () => void;
}

export function BrunchVerifyDialog({
  blockId,
  emails,
  onVerified,
  onClose,
}: BrunchVerifyDialogProps) {
  const { t } = useTranslation();
  const [link, setLink] = useState('');
  const [email, setEmail] = useState(emails[0] ?? '');
  const { busy, error, run } = useSubmit();
  // the dialog's own answers, then the letter messages, then failureReason
  const own = {
    [LETTER_MESSAGES.brunchLinkError]: 'letters.brunchDialog.link_error',
    [LETTER_MESSAGES.brunchFailed]: 'letters.brunchDialog.failed',
  };
  const linkProblem = link !== '' && 'error' in normalizeBrunchProfile(link);
  const submit = () =>
    void run(
      async () => {
        const res = await verifyBrunchId({ blockId, brunchProfilePage: link, email });
        onVerified(res.brunchProfilePage);
      },
      (cause) => letterReason(t, cause, own),
    );
  return (
    <FormDialog
      title={t('letters.brunchDialog.title')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('letters.brunchDialog.verify')}
      busyLabel={t('letters.brunchDialog.verifying')}
      canSubmit={link !== '' && !linkProblem && email !== ''}
      busy={busy}
      error={error}
    >
      <p>{t('letters.brunchDialog.intro')}</p>
      <TextField
        label={t('letters.brunchDialog.link')}
        value={link}
        type="url"
        max={500}
        placeholder="https://brunch.co.kr/@…"
        error={linkProblem ? t('letters.brunchDialog.link_error') : undefined}
        onChange={setLink}
      />
      <SelectField
        label={t('letters.brunchDialog.email')}
        value={email}
        options={emails.map((e) => ({ value: e, label: e }))}
        onChange={setEmail}
      />
    </FormDialog>
  );
}

// A form's mail question may send one of the owner's letters to the address it collects (issue
// 18; spec: triggerLetterBlock). Paid. A letter with nothing loaded or no verified sender is
// listed but cannot be picked, and its label says why; one already picked stays shown even if
// it is deleted meanwhile (the server skips it, the owner can clear it).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, type SelectOption } from '../../../components/ui/fields';
import { useSession } from '../../../lib/session';
import { useTriggerLetters } from '../api/list-trigger-letters';
import { PaidHint } from '../components/paid-hint';

export interface TriggerLetterFieldProps {
  value: string | null;
  paid: boolean;
  onChange: (letterId: string | null) => void;
}

export function TriggerLetterField({ value, paid, onChange }: TriggerLetterFieldProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const paidHintId = useId();
  const letters = useTriggerLetters(user?.id);
  const rows = letters.data ?? [];
  const options: SelectOption<string>[] = [
    { value: '', label: t('editor.question.triggerNone') },
    ...rows.map((l) => ({
      value: l.id,
      label: !l.has_html
        ? t('editor.question.triggerNoHtml', { name: l.name })
        : !l.sender_verified
          ? t('editor.question.triggerNoSender', { name: l.name })
          : l.name,
      // the one already chosen stays choosable, so the select shows it
      disabled: (!paid || !l.has_html || !l.sender_verified) && l.id !== value,
    })),
  ];
  if (value && !rows.some((l) => l.id === value)) {
    options.push({ value, label: t('common.loading') });
  }
  const blocked = rows.some((l) => !l.has_html || !l.sender_verified);
  const hint = letters.isError
    ? t('editor.question.triggerLoadFailed')
    : letters.isSuccess && rows.length === 0
      ? t('editor.question.triggerNoLetters')
      : blocked
        ? `${t('editor.question.triggerHint')} ${t('editor.question.triggerWhy')}`
        : t('editor.question.triggerHint');
  return (
    <>
      <SelectField
        label={t('editor.question.triggerLetter')}
        value={value ?? ''}
        options={options}
        disabled={!paid && !value}
        hint={hint}
        describedBy={paid ? undefined : paidHintId}
        onChange={(id) => onChange(id === '' ? null : id)}
      />
      {!paid ? <PaidHint id={paidHintId} text={t('editor.paidFeature')} /> : null}
    </>
  );
}

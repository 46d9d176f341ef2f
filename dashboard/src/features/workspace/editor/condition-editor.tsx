// One condition of a custom ending: question, type (equal, empty, not empty, include), value.
// For poll and ab questions the value is chosen from the option texts.
import { useTranslation } from 'react-i18next';
import {
  BLOCK_LIMITS,
  CONDITION_TYPES,
  type TConditionDraft,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { conditionNeedsValue, conditionValueChoices } from './model';
import { SelectField, TextField, useFieldDescription } from '../../../components/ui/fields';
import { X } from '../../../components/ui/icons';

export interface ConditionEditorProps {
  condition: TConditionDraft;
  position: number;
  /** Questions a condition may test, in list order, with their list positions. */
  questions: { question: TQuestionDraft; position: number }[];
  error?: string | undefined;
  onChange: (patch: Partial<Pick<TConditionDraft, 'question_id' | 'type' | 'value'>>) => void;
  onDelete: () => void;
}

export function ConditionEditor({
  condition,
  position,
  questions,
  error,
  onChange,
  onDelete,
}: ConditionEditorProps) {
  const { t } = useTranslation();
  // the problem is said once, under the whole condition; the value is what it marks invalid
  const { describedBy, lines } = useFieldDescription({ error });
  const question = questions.find((q) => q.question.id === condition.question_id)?.question;
  const choices = conditionValueChoices(question);
  const value = condition.value ?? '';
  const stale = choices !== null && value !== '' && !choices.includes(value);

  return (
    <fieldset className="condition" aria-describedby={describedBy}>
      <legend>{t('editor.ending.condition', { position: position + 1 })}</legend>
      <div className="condition-fields">
        <SelectField
          label={t('editor.ending.question')}
          value={question ? condition.question_id : ''}
          options={[
            { value: '', label: t('editor.ending.chooseQuestion') },
            ...questions.map(({ question: q, position: p }) => ({
              value: q.id,
              label: `${p + 1}. ${q.title.trim() || t('editor.untitledQuestion')}`,
            })),
          ]}
          onChange={(questionId) => onChange({ question_id: questionId })}
        />
        <SelectField
          label={t('editor.ending.type')}
          value={condition.type}
          options={CONDITION_TYPES.map((type) => ({
            value: type,
            label: t(`editor.ending.conditionTypes.${type}`),
          }))}
          onChange={(type) => onChange({ type })}
        />
        {!conditionNeedsValue(condition.type) ? null : choices ? (
          <SelectField
            label={t('editor.ending.value')}
            value={value}
            invalid={!!error}
            options={[
              { value: '', label: t('editor.ending.chooseValue') },
              ...choices.map((choice) => ({ value: choice, label: choice })),
              ...(stale ? [{ value, label: t('editor.ending.staleValue', { value }) }] : []),
            ]}
            onChange={(chosen) => onChange({ value: chosen })}
          />
        ) : (
          <TextField
            label={t('editor.ending.value')}
            value={value}
            max={BLOCK_LIMITS.conditionValue}
            counted={false}
            invalid={!!error}
            onChange={(typed) => onChange({ value: typed })}
          />
        )}
        <button
          type="button"
          className="button button-ghost icon-button condition-delete"
          aria-label={t('editor.ending.deleteCondition', { position: position + 1 })}
          onClick={onDelete}
        >
          <X size={16} />
        </button>
      </div>
      {lines}
    </fieldset>
  );
}

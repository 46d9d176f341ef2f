// One condition of a custom ending: question, type (equal, empty, not empty, include), value.
// For poll and ab questions the value is chosen from the option texts.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BLOCK_LIMITS,
  CONDITION_TYPES,
  type TConditionDraft,
  type TConditionType,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { conditionNeedsValue, conditionValueChoices } from './model';
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
  const id = useId();
  const question = questions.find((q) => q.question.id === condition.question_id)?.question;
  const choices = conditionValueChoices(question);
  const value = condition.value ?? '';
  const stale = choices !== null && value !== '' && !choices.includes(value);
  const errorId = error ? `${id}-error` : undefined;

  return (
    <fieldset className="condition" aria-describedby={errorId}>
      <legend>{t('editor.ending.condition', { position: position + 1 })}</legend>
      <div className="condition-fields">
        <div className="field">
          <label htmlFor={`${id}-question`}>{t('editor.ending.question')}</label>
          <select
            id={`${id}-question`}
            value={question ? condition.question_id : ''}
            onChange={(event) => onChange({ question_id: event.target.value })}
          >
            <option value="">{t('editor.ending.chooseQuestion')}</option>
            {questions.map(({ question: q, position: p }) => (
              <option key={q.id} value={q.id}>
                {p + 1}. {q.title.trim() || t('editor.untitledQuestion')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>{t('editor.ending.type')}</label>
          <select
            id={`${id}-type`}
            value={condition.type}
            onChange={(event) => onChange({ type: event.target.value as TConditionType })}
          >
            {CONDITION_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`editor.ending.conditionTypes.${type}`)}
              </option>
            ))}
          </select>
        </div>
        {conditionNeedsValue(condition.type) ? (
          <div className="field">
            <label htmlFor={`${id}-value`}>{t('editor.ending.value')}</label>
            {choices ? (
              <select
                id={`${id}-value`}
                value={value}
                aria-invalid={error ? true : undefined}
                onChange={(event) => onChange({ value: event.target.value })}
              >
                <option value="">{t('editor.ending.chooseValue')}</option>
                {choices.map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
                {stale ? (
                  <option value={value}>{t('editor.ending.staleValue', { value })}</option>
                ) : null}
              </select>
            ) : (
              <input
                id={`${id}-value`}
                type="text"
                value={value}
                maxLength={BLOCK_LIMITS.conditionValue}
                aria-invalid={error ? true : undefined}
                onChange={(event) => onChange({ value: event.target.value })}
              />
            )}
          </div>
        ) : null}
        <button
          type="button"
          className="button button-ghost icon-button condition-delete"
          aria-label={t('editor.ending.deleteCondition', { position: position + 1 })}
          onClick={onDelete}
        >
          <X size={16} />
        </button>
      </div>
      {error ? (
        <p id={errorId} className="error-text">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

// The ending settings modal: title, conditions (custom endings), closing text, open URL with
// link type Submit or Button and its button text, resubmit text, block another submit; for a
// custom ending also its position and delete.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OPEN_LINK_TYPES } from '@reaction-blocks/contracts/enums';
import {
  BLOCK_LIMITS,
  type TEndingDraft,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { DialogWithClose } from '../../../components/ui/dialog-with-close';
import { CheckboxField } from '../../../components/ui/fields';
import { PaidHint } from '../components/paid-hint';
import { translateMessage } from '../model/messages';
import { ConditionEditor } from './condition-editor';
import { OptionalUrlField, TextField } from './fields';
import {
  addCondition,
  canAddCondition,
  conditionQuestions,
  deleteCondition,
  liveQuestions,
  updateCondition,
  type EndingPatch,
} from './model';
import { MoveButtons } from './move-buttons';
import { endingErrors, type EndingField } from './validation';
import { DangerButton } from '../../../components/ui/danger-button';

export interface EndingEditorProps {
  /** The ending being edited; the dialog is closed when null. */
  ending: TEndingDraft | null;
  /** Its index in the endings list, the list's length, and whether endings[0] is the default. */
  index: number;
  count: number;
  hasDefault: boolean;
  questions: TQuestionDraft[];
  paid: boolean;
  onChange: (patch: EndingPatch) => void;
  onMove: (to: number) => void;
  onDelete: () => void;
  onClose: () => void;
}

export function EndingEditor(props: EndingEditorProps) {
  const { t } = useTranslation();
  const { ending, onClose } = props;
  const isDefault = ending?.is_default === true;
  return (
    <DialogWithClose
      open={ending !== null}
      title={isDefault ? t('editor.ending.defaultDialogTitle') : t('editor.ending.dialogTitle')}
      onClose={onClose}
      className="ending-editor"
      closeLabel={t('editor.ending.done')}
    >
      {/* Keyed by id so the delete confirmation never carries over to another ending. */}
      {ending ? <EndingFields key={ending.id} {...props} ending={ending} /> : null}
    </DialogWithClose>
  );
}

function EndingFields({
  ending,
  index,
  count,
  hasDefault,
  questions,
  paid,
  onChange,
  onMove,
  onDelete,
}: EndingEditorProps & { ending: TEndingDraft }) {
  const { t } = useTranslation();
  const base = useId();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const errors = endingErrors(ending, questions);
  const error = (field: EndingField) =>
    errors.fields[field] ? translateMessage(t, errors.fields[field]) : undefined;
  const positions = new Map(liveQuestions(questions).map((q, position) => [q.id, position]));
  const testable = conditionQuestions(questions).map((question) => ({
    question,
    position: positions.get(question.id) ?? 0,
  }));
  const canAdd = canAddCondition(ending, questions);
  const linkType = ending.open_link_type;
  const paidHintId = `${base}-paid`;
  // Custom endings are positioned after the default one, which stays first.
  const firstCustom = hasDefault ? 1 : 0;

  return (
    <>
      {ending.is_default ? <p className="hint">{t('editor.ending.defaultHint')}</p> : null}
      <TextField
        label={t('editor.ending.title')}
        value={ending.title}
        max={BLOCK_LIMITS.endingTitle}
        placeholder={t('editor.ending.titlePlaceholder')}
        error={error('title')}
        onChange={(title) => onChange({ title })}
      />

      {!ending.is_default ? (
        <section className="ending-conditions" aria-labelledby={`${base}-conditions`}>
          <h3 id={`${base}-conditions`}>{t('editor.ending.conditions')}</h3>
          <p className="hint">{t('editor.ending.conditionsHint')}</p>
          {testable.length === 0 ? <p className="hint">{t('editor.ending.noQuestions')}</p> : null}
          {ending.conditions.map((condition, position) => (
            <ConditionEditor
              key={condition.id}
              condition={condition}
              position={position}
              questions={testable}
              error={
                errors.conditions[condition.id]
                  ? translateMessage(t, errors.conditions[condition.id]!)
                  : undefined
              }
              onChange={(patch) =>
                onChange({ conditions: updateCondition(ending, condition.id, patch).conditions })
              }
              onDelete={() =>
                onChange({ conditions: deleteCondition(ending, condition.id).conditions })
              }
            />
          ))}
          <button
            type="button"
            className="button"
            disabled={!canAdd || testable.length === 0}
            aria-describedby={!canAdd ? `${base}-add-hint` : undefined}
            onClick={() => onChange({ conditions: addCondition(ending).conditions })}
          >
            {t('editor.ending.addCondition')}
          </button>
          {!canAdd && ending.conditions.length < BLOCK_LIMITS.conditionsPerEnding ? (
            <p id={`${base}-add-hint`} className="hint">
              {t('editor.ending.addConditionHint')}
            </p>
          ) : null}
        </section>
      ) : null}

      <TextField
        label={t('editor.ending.closingText')}
        value={ending.closing_text}
        max={BLOCK_LIMITS.closingText}
        multiline
        error={error('closing_text')}
        onChange={(closing_text) => onChange({ closing_text })}
      />

      <fieldset
        className="ending-link"
        disabled={!paid}
        aria-describedby={paid ? undefined : paidHintId}
      >
        <legend>{t('editor.ending.linkGroup')}</legend>
        {!paid ? <PaidHint id={paidHintId} text={t('editor.ending.openLinkPaid')} /> : null}
        <OptionalUrlField
          label={t('editor.ending.openUrl')}
          value={ending.open_url}
          disabled={!paid}
          error={error('open_url')}
          onChange={(open_url) => onChange({ open_url })}
        />
        <div role="radiogroup" aria-labelledby={`${base}-link-type`} className="radio-group">
          <span id={`${base}-link-type`} className="radio-group-label">
            {t('editor.ending.linkType')}
          </span>
          {OPEN_LINK_TYPES.map((type) => (
            <label key={type} className="radio-row">
              <input
                type="radio"
                name={`${base}-link-type`}
                value={type}
                checked={linkType === type}
                disabled={!paid}
                aria-describedby={`${base}-link-${type}-hint`}
                onChange={() => onChange({ open_link_type: type })}
              />
              {type === 'submit' ? t('editor.ending.linkSubmit') : t('editor.ending.linkButton')}
            </label>
          ))}
          <span id={`${base}-link-submit-hint`} className="hint">
            {t('editor.ending.linkSubmitHint')}
          </span>
          <span id={`${base}-link-button-hint`} className="hint">
            {t('editor.ending.linkButtonHint')}
          </span>
        </div>
        {linkType === 'button' ? (
          <TextField
            label={t('editor.ending.buttonText')}
            value={ending.open_url_text ?? ''}
            max={BLOCK_LIMITS.openUrlText}
            placeholder={t('editor.ending.buttonTextPlaceholder')}
            disabled={!paid}
            error={error('open_url_text')}
            onChange={(value) => onChange({ open_url_text: value === '' ? null : value })}
          />
        ) : null}
      </fieldset>

      <CheckboxField
        label={t('editor.ending.blockSubmitAnother')}
        checked={ending.block_submit_another}
        onChange={(block_submit_another) => onChange({ block_submit_another })}
      />
      {!ending.block_submit_another ? (
        <TextField
          label={t('editor.ending.resubmitText')}
          value={ending.resubmit_text ?? ''}
          max={BLOCK_LIMITS.resubmitText}
          placeholder={t('editor.ending.resubmitPlaceholder')}
          error={error('resubmit_text')}
          onChange={(value) => onChange({ resubmit_text: value === '' ? null : value })}
        />
      ) : null}

      {!ending.is_default ? (
        <div className="ending-editor-tools">
          {count - firstCustom > 1 ? (
            <div className="ending-position">
              <span role="status">
                {t('editor.ending.position', {
                  position: index - firstCustom + 1,
                  count: count - firstCustom,
                })}
              </span>
              <MoveButtons index={index} first={firstCustom} last={count - 1} onMove={onMove} />
            </div>
          ) : null}
          {confirmDelete ? (
            <div className="ending-delete-confirm" role="group" aria-labelledby={`${base}-del`}>
              <span id={`${base}-del`}>{t('editor.ending.deleteConfirmText')}</span>
              <button type="button" className="button button-danger" onClick={onDelete}>
                {t('editor.ending.deleteConfirm')}
              </button>
              <button
                type="button"
                className="button button-ghost"
                autoFocus
                onClick={() => setConfirmDelete(false)}
              >
                {t('editor.ending.keep')}
              </button>
            </div>
          ) : (
            <DangerButton onClick={() => setConfirmDelete(true)}>
              {t('editor.ending.delete')}
            </DangerButton>
          )}
        </div>
      ) : null}
    </>
  );
}

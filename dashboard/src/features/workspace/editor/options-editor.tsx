// Options of a poll or ab question. Poll: Enter adds an option below, Backspace in an empty
// option deletes it (except the first), each can be deleted while more than one is left.
// Ab: exactly two options, texts editable only.
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOCK_LIMITS, type TQuestionDraft } from '@reaction-blocks/contracts/schemas';
import {
  addOption,
  canAddOption,
  canDeleteOption,
  deleteOption,
  deletesOnBackspace,
  liveOptions,
} from './model';
import { X } from '../../../components/ui/icons';

export interface OptionsEditorProps {
  question: TQuestionDraft;
  /** Adding or deleting options. */
  onChange: (question: TQuestionDraft) => void;
  /** Editing an option's text (conditions that named the old text follow it). */
  onRename: (optionId: string, value: string) => void;
}

export function OptionsEditor({ question, onChange, onRename }: OptionsEditorProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  /** Option to focus once the change has rendered (a new one, or the neighbour of a deleted one). */
  const focusId = useRef<string | null>(null);
  const options = liveOptions(question);
  const poll = question.type === 'poll';

  useEffect(() => {
    const id = focusId.current;
    if (!id) return;
    focusId.current = null;
    inputs.current.get(id)?.focus();
  });

  const add = (after?: number) => {
    const result = addOption(question, after);
    if (!result.optionId) return;
    onChange(result.question);
    focusId.current = result.optionId;
  };

  const remove = (position: number) => {
    const option = options[position];
    if (!option) return;
    onChange(deleteOption(question, option.id));
    // Focus the option before (or, for the first, the one that takes its place).
    const next = options[position - 1] ?? options[position + 1];
    if (next) focusId.current = next.id;
  };

  const onKeyDown = (position: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (!poll || event.nativeEvent.isComposing) return;
    const option = options[position]!;
    if (event.key === 'Enter') {
      event.preventDefault();
      add(position);
    } else if (event.key === 'Backspace' && deletesOnBackspace(question, option.id)) {
      event.preventDefault();
      remove(position);
    }
  };

  return (
    <fieldset className="options-editor" aria-describedby={hintId}>
      <legend>{t('editor.options.legend')}</legend>
      <p id={hintId} className="hint">
        {poll ? t('editor.options.hint') : t('editor.options.abHint')}
      </p>
      <ol className="options-list">
        {options.map((option, position) => {
          const label = t('editor.options.option', { position: position + 1 });
          return (
            <li key={option.id} className="option-row">
              <input
                ref={(node) => {
                  if (node) inputs.current.set(option.id, node);
                  else inputs.current.delete(option.id);
                }}
                type="text"
                aria-label={label}
                placeholder={label}
                value={option.value}
                maxLength={BLOCK_LIMITS.optionValue}
                onChange={(event) => onRename(option.id, event.target.value)}
                onKeyDown={onKeyDown(position)}
              />
              {poll ? (
                <button
                  type="button"
                  className="button button-ghost icon-button"
                  aria-label={t('editor.options.delete', { position: position + 1 })}
                  disabled={!canDeleteOption(question)}
                  onClick={() => remove(position)}
                >
                  <X size={16} />
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {poll ? (
        <>
          <button
            type="button"
            className="button"
            disabled={!canAddOption(question)}
            onClick={() => add()}
          >
            {t('editor.options.add')}
          </button>
          {!canAddOption(question) ? (
            <p className="hint">
              {t('editor.options.limit', { count: BLOCK_LIMITS.optionsPerQuestion })}
            </p>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}

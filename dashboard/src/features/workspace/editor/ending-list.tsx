// The ending list: the questions view, the default ending and the custom endings. Selecting an
// item shows it in the preview; selecting the selected ending again opens its editor.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BLOCK_LIMITS,
  type TEndingDraft,
  type TQuestionDraft,
} from '@reaction-blocks/contracts/schemas';
import { PaidHint } from '../components/paid-hint';
import { isEndingComplete } from './model';
import { useReorder } from './use-reorder';

export interface EndingListProps {
  endings: TEndingDraft[];
  questions: TQuestionDraft[];
  selected: number | null;
  onSelect: (index: number | null) => void;
  onEdit: (index: number) => void;
  onMove: (from: number, to: number) => void;
  onAdd: () => void;
  /** Why Add ending is disabled, if it is. */
  addBlocker: 'paid' | 'max' | 'incomplete' | null;
}

export function EndingList({
  endings,
  questions,
  selected,
  onSelect,
  onEdit,
  onMove,
  onAdd,
  addBlocker,
}: EndingListProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const hintId = useId();
  const addHintId = useId();
  const customCount = endings.filter((e) => !e.is_default).length;
  const { rowProps, handleProps } = useReorder({
    onMove,
    // The default ending stays first; a single custom ending has nowhere to go.
    isFixed: (position) => endings[position]?.is_default !== false || customCount < 2,
  });

  const choose = (index: number) => (selected === index ? onEdit(index) : onSelect(index));

  const label = (ending: TEndingDraft) =>
    ending.is_default
      ? t('editor.endings.defaultEnding')
      : ending.title.trim() || t('editor.endings.untitled');

  const meta = (ending: TEndingDraft) => {
    if (ending.is_default) return ending.title.trim();
    if (ending.conditions.length === 0) return t('editor.endings.noConditions');
    return t('editor.endings.conditionCount', { count: ending.conditions.length });
  };

  return (
    <section className="ending-list" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('editor.endings.heading')}</h3>
      <p id={hintId} className="hint">
        {t('editor.endings.hint')}
        {customCount > 1 ? ` ${t('editor.reorderHint')}` : ''}
      </p>
      <ol className="editor-list" aria-label={t('editor.endings.listLabel')}>
        <li className="editor-list-row" data-selected={selected === null ? 'true' : undefined}>
          <button
            type="button"
            className="editor-list-item"
            aria-current={selected === null ? 'true' : undefined}
            onClick={() => onSelect(null)}
          >
            <span className="editor-list-title">{t('editor.endings.formView')}</span>
          </button>
        </li>
        {endings.map((ending, index) => {
          const isSelected = selected === index;
          const incomplete = !isEndingComplete(ending, questions);
          return (
            <li
              key={ending.id}
              className="editor-list-row"
              data-selected={isSelected ? 'true' : undefined}
              data-incomplete={incomplete ? 'true' : undefined}
              {...rowProps(index)}
            >
              {!ending.is_default && customCount > 1 ? (
                <span className="drag-handle" aria-hidden="true" />
              ) : null}
              <button
                type="button"
                className="editor-list-item"
                aria-current={isSelected ? 'true' : undefined}
                aria-describedby={hintId}
                onClick={() => choose(index)}
                {...handleProps(index, ending.id)}
              >
                <span className="editor-list-title">{label(ending)}</span>{' '}
                <span className="editor-list-meta">{meta(ending)}</span>
              </button>
              {isSelected ? (
                <button type="button" className="button button-ghost" onClick={() => onEdit(index)}>
                  {t('editor.endings.edit')}
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="button"
        disabled={addBlocker !== null}
        aria-describedby={addBlocker ? addHintId : undefined}
        onClick={onAdd}
      >
        {t('editor.endings.add')}
      </button>
      {addBlocker === 'paid' ? (
        <PaidHint id={addHintId} text={t('editor.endings.paidHint')} />
      ) : addBlocker === 'incomplete' ? (
        <p id={addHintId} className="hint">
          {t('editor.endings.incompleteHint')}
        </p>
      ) : addBlocker === 'max' ? (
        <p id={addHintId} className="hint">
          {t('editor.endings.max', { count: BLOCK_LIMITS.endingsMax })}
        </p>
      ) : null}
    </section>
  );
}

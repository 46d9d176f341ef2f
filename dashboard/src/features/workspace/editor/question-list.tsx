// The list of live questions: select one to edit it; reorder by drag or Alt+Arrow keys.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TQuestionDraft } from '@reaction-blocks/contracts/schemas';
import { useReorder } from './use-reorder';

export interface QuestionListProps {
  questions: TQuestionDraft[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onMove: (from: number, to: number) => void;
}

export function QuestionList({ questions, selectedId, onSelect, onMove }: QuestionListProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const { rowProps, handleProps } = useReorder({ onMove });

  if (questions.length === 0) return <p className="hint">{t('editor.noQuestions')}</p>;

  return (
    <>
      <p id={hintId} className="hint">
        {t('editor.reorderHint')}
      </p>
      <ol className="editor-list question-list" aria-label={t('editor.questions')}>
        {questions.map((question, position) => {
          const selected = question.id === selectedId;
          return (
            <li
              key={question.id}
              className="editor-list-row"
              data-selected={selected ? 'true' : undefined}
              {...rowProps(position)}
            >
              <span className="drag-handle" aria-hidden="true" />
              <button
                type="button"
                className="editor-list-item"
                aria-current={selected ? 'true' : undefined}
                aria-describedby={hintId}
                onClick={() => onSelect(question.id)}
                {...handleProps(position, question.id)}
              >
                {/* cut with an ellipsis in a narrow column: the tooltip has all of it */}
                <span
                  className="editor-list-title"
                  title={question.title.trim() || t('editor.untitledQuestion')}
                >
                  {position + 1}. {question.title.trim() || t('editor.untitledQuestion')}
                </span>{' '}
                <span className="editor-list-meta">{t(`editor.types.${question.type}`)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}

// The question type picker modal: one button per question type.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { QUESTION_TYPES, type TQuestionType } from '@reaction-blocks/contracts/schemas';
import { DialogWithClose } from '../../../components/ui/dialog-with-close';

export interface QuestionTypePickerProps {
  open: boolean;
  onPick: (type: TQuestionType) => void;
  onClose: () => void;
}

export function QuestionTypePicker({ open, onPick, onClose }: QuestionTypePickerProps) {
  const { t } = useTranslation();
  const base = useId();
  return (
    <DialogWithClose
      open={open}
      title={t('editor.picker.title')}
      onClose={onClose}
      className="question-type-picker"
      closeLabel={t('common.cancel')}
      closeTone="ghost"
    >
      <ul className="type-grid">
        {QUESTION_TYPES.map((type) => (
          <li key={type}>
            <button
              type="button"
              className="type-grid-item"
              // Named by the type alone; the short explanation is its description.
              aria-labelledby={`${base}-${type}-name`}
              aria-describedby={`${base}-${type}-hint`}
              onClick={() => onPick(type)}
            >
              <span className={`question-type-icon question-type-${type}`} aria-hidden="true" />
              <span id={`${base}-${type}-name`} className="type-grid-name">
                {t(`editor.types.${type}`)}
              </span>
              <span id={`${base}-${type}-hint`} className="type-grid-hint">
                {t(`editor.typeHints.${type}`)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </DialogWithClose>
  );
}

// "Move up" and "Move down" for the entry being edited (a question, a custom ending): the
// keyboard and screen-reader way to reorder besides dragging in the list. A button is disabled
// at its end of the range the entry may move in.
import { useTranslation } from 'react-i18next';

export interface MoveButtonsProps {
  /** The entry's position in its list. */
  index: number;
  /** The first and last positions it may take. */
  first: number;
  last: number;
  onMove: (to: number) => void;
}

export function MoveButtons({ index, first, last, onMove }: MoveButtonsProps) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className="button button-ghost"
        disabled={index <= first}
        onClick={() => onMove(index - 1)}
      >
        {t('editor.moveUp')}
      </button>
      <button
        type="button"
        className="button button-ghost"
        disabled={index >= last}
        onClick={() => onMove(index + 1)}
      >
        {t('editor.moveDown')}
      </button>
    </>
  );
}

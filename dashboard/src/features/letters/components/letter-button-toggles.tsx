// The letter's two optional buttons under its settings: the call-to-action and the image button,
// each a switch (on opens its link dialog, off removes it) with Edit beside it while it is on.
import { useTranslation } from 'react-i18next';
import type { LetterButtonKind as Kind, LetterButtons } from './link-dialog';

export function LetterButtonToggles({
  idPrefix,
  model,
  onEdit,
  onRemove,
}: {
  idPrefix: string;
  model: LetterButtons;
  /** Opens the kind's link dialog (switching it on, or Edit). */
  onEdit: (kind: Kind) => void;
  onRemove: (kind: Kind) => void;
}) {
  const { t } = useTranslation();
  const toggle = (kind: Kind, on: boolean) => (
    <div className="checkbox-row">
      <input
        id={`${idPrefix}-${kind}`}
        type="checkbox"
        role="switch"
        checked={on}
        onChange={(e) => (e.target.checked ? onEdit(kind) : onRemove(kind))}
      />
      <label htmlFor={`${idPrefix}-${kind}`}>{t(`letters.${kind}.toggle`)}</label>
      {on ? (
        <button type="button" className="button button-ghost" onClick={() => onEdit(kind)}>
          {t(`letters.${kind}.edit`)}
        </button>
      ) : null}
    </div>
  );
  return (
    <fieldset className="letter-buttons">
      <legend className="visually-hidden">{t('letters.cta.toggle')}</legend>
      {toggle('cta', !!model.cta)}
      {toggle('image', !!model.imageButton)}
    </fieldset>
  );
}

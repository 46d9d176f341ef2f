// Create button toggling a type picker; remaining blocks as a number; upgrade when none remain.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { REACTION_TYPES, type BlockType } from '../../../lib/db-types';
import { useDisclosure } from '../../../lib/use-disclosure';
import { BlockTypeIcon } from '../../../components/ui/block-type-icon';
import { Plus, X } from '../../../components/ui/icons';
import { ErrorText } from '../../../components/ui/error-text';
import { blockFailure } from '../utils/block-utils';

export interface CreateBlockControlProps {
  /** Blocks left (block_limit - block_count); null while the profile loads. */
  remaining: number | null;
  onCreate: (type: BlockType) => Promise<void>;
  /** The types the picker offers (reaction blocks by default). */
  types?: readonly BlockType[];
  /** Types shown but not creatable (typedream and brunch letters). */
  disabledTypes?: readonly BlockType[];
}

export function CreateBlockControl({
  remaining,
  onCreate,
  types = REACTION_TYPES,
  disabledTypes = [],
}: CreateBlockControlProps) {
  const { t } = useTranslation();
  const picker = useDisclosure();
  const { open, setOpen } = picker;
  const [creating, setCreating] = useState<BlockType | null>(null);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);

  // The picker floats over the page (wider than a phone): a press outside it closes it, as a
  // menu's does, unless a block is being created
  useEffect(() => {
    if (!open || creating) return;
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open, creating, setOpen]);

  if (remaining !== null && remaining < 1) {
    return (
      <div className="create-block create-block-limit">
        <p className="limit-message" role="status">
          {t('create.limitReached')}
        </p>
        <Link to={paths.profilePlan} className="button button-primary">
          {t('create.upgrade')}
        </Link>
      </div>
    );
  }

  const choose = async (type: BlockType) => {
    if (creating) return;
    setCreating(type);
    setError(null);
    try {
      await onCreate(type);
      setOpen(false);
    } catch (cause) {
      console.error('[reaction-dashboard] create block failed', cause);
      setError(blockFailure(cause, t));
    } finally {
      setCreating(null);
    }
  };

  // Escape closes the open picker from the toggle or any type in it, and focus goes back to
  // the toggle (as a menu closes); nothing is created.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open || creating) return;
    event.preventDefault();
    event.stopPropagation();
    picker.dismiss();
  };

  return (
    <div ref={root} className="create-block" onKeyDown={onKeyDown}>
      <div className="create-block-row">
        <button
          {...picker.toggleProps}
          className="button button-primary"
          disabled={creating !== null}
        >
          {open ? <X size={18} /> : <Plus size={18} />}
          {open ? t('create.close') : t('create.button')}
        </button>
        {remaining !== null ? (
          <span className="create-remaining" data-testid="remaining">
            {t('create.remaining', { count: remaining })}
          </span>
        ) : null}
      </div>
      {open ? (
        <div
          id={picker.panelId}
          role="group"
          aria-label={t('create.pickerLabel')}
          className="type-picker"
        >
          {types.map((type) => (
            <button
              key={type}
              type="button"
              className="type-picker-item"
              disabled={creating !== null || disabledTypes.includes(type)}
              title={disabledTypes.includes(type) ? t('create.letterDisabled') : undefined}
              onClick={() => void choose(type)}
            >
              <BlockTypeIcon type={type} />
              {t(`blockTypes.${type}`)}
            </button>
          ))}
        </div>
      ) : null}
      {creating ? <Spinner label={t('create.creating')} /> : null}
      {error ? <ErrorText>{t('create.error', { message: error })}</ErrorText> : null}
    </div>
  );
}

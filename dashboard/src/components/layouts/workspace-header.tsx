// The parts of a workspace's top bar that the reaction workspace (workspace-top-bar.tsx) and the
// letter workspace share: back to the dashboard, the type icon with the block's name (an input
// that grows with the name on edit, text elsewhere), the mode tabs, and the save state line.
//
// The spec's name input is at most 150 px wide, which cut names as short as "Demo feedback form".
// The input grows with the name (a hidden copy of the text sizes it) from 150 px up to a cap
// (workspace.css); a name longer than that scrolls inside the focused input and is always
// readable in full in the tooltip and in the page's heading. Elsewhere the name wraps.
import { useId, useLayoutEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BlockTypeIcon } from '../ui/block-type-icon';
import type { BlockType } from '../../lib/db-types';
import { ArrowLeft } from '../ui/icons';

export function WorkspaceBackLink({
  to,
  label,
}: {
  to: string;
  /** What the link does, for screen readers ("Back to the dashboard"). */
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="button button-ghost back-button" aria-label={label}>
      <ArrowLeft size={18} />
      <span className="back-button-text">{t('common.dashboard')}</span>
    </Link>
  );
}

export function WorkspaceTitle({
  type,
  iconLabel,
  name,
  editable,
  onNameChange,
  error,
  maxLength,
}: {
  type: BlockType;
  iconLabel: string;
  name: string;
  /** An input on edit, text elsewhere. */
  editable: boolean;
  onNameChange: (name: string) => void;
  /** What is wrong with the name, shown under it and tied to the input. */
  error?: string;
  maxLength?: number;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const shown = name || t('common.untitled');
  return (
    <div className="workspace-title">
      <BlockTypeIcon type={type} label={iconLabel} size={32} className="workspace-type-icon" />
      <div className="workspace-name">
        {editable ? (
          <>
            <span className="workspace-name-sizer" aria-hidden="true" data-testid="name-sizer">
              {shown}
            </span>
            <input
              className="workspace-name-input"
              value={name}
              title={name || undefined}
              // the sizer sets the width; size 1 keeps the input's own default width out of it
              size={1}
              maxLength={maxLength}
              placeholder={t('common.untitled')}
              aria-label={t('common.blockName')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => onNameChange(e.target.value)}
            />
            {error ? (
              <span id={errorId} className="error-text workspace-name-error">
                {error}
              </span>
            ) : null}
          </>
        ) : (
          <span className="workspace-name-text" title={name || undefined}>
            {shown}
          </span>
        )}
      </div>
    </div>
  );
}

export interface ModeTab {
  key: string;
  to: string;
  label: string;
}

export function WorkspaceModeNav({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: readonly ModeTab[];
  current: string;
}) {
  return (
    <nav className="workspace-modes" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link
              to={tab.to}
              className="workspace-mode-link"
              aria-current={tab.key === current ? 'page' : undefined}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The save state line (a live region): saving, saved, unsaved changes, or the fallback. */
export function SaveState({
  saving,
  saved,
  dirty,
  otherwise = '',
}: {
  saving: boolean;
  saved: boolean;
  dirty: boolean;
  otherwise?: string;
}) {
  const { t } = useTranslation();
  return (
    <span className="workspace-save-status" role="status">
      {saving
        ? t('shell.saveState.saving')
        : saved && !dirty
          ? t('shell.saveState.saved')
          : dirty
            ? t('shell.saveState.unsaved')
            : otherwise}
    </span>
  );
}

/**
 * Keeps keyboard focus in the workspace when a save takes the Save button away: the button a
 * keyboard user pressed goes with the changes, and focus would drop to the page's body (a
 * screen reader then starts from the top). When the changes are saved and nothing has focus,
 * the first control of the top bar's actions takes it (Block link, Send letter), or else the
 * page's heading. Focus elsewhere (the owner typing on) is left alone.
 */
export function useFocusAfterSave(dirty: boolean, actions: RefObject<HTMLElement | null>) {
  const wasDirty = useRef(dirty);
  useLayoutEffect(() => {
    const saved = wasDirty.current && !dirty;
    wasDirty.current = dirty;
    if (!saved) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const target =
      actions.current?.querySelector<HTMLElement>('button:not(:disabled), a[href]') ??
      document.querySelector<HTMLElement>('#workspace-main [data-page-heading]');
    target?.focus();
  }, [dirty, actions]);
}

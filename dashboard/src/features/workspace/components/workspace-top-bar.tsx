// The workspace's own top bar (spec: workspace section 2): back to the dashboard, the block name
// (editable on edit, read-only on result), the mode tabs, and on the right Save when changed,
// Block link when saved, Export CSV on result.
//
// The spec's name input is at most 150 px wide, which cut names as short as "Demo feedback form".
// The input now grows with the name (a hidden copy of the text sizes it) from 150 px up to a
// cap (workspace.css); a name longer than that scrolls inside the focused input and is always
// readable in full in the tooltip and in the page's heading. On result the name wraps instead
// of being cut.
import { useId, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BlockTypeIcon } from '../../../components/ui/block-type-icon';
import { paths } from '../../../config/paths';
import type { ReactionType } from '../../../lib/db-types';
import { messageOf } from '../../../lib/errors';
import type { SaveStatus } from '../hooks/use-workspace';
import { translateMessage } from '../model/messages';
import { modeLabelKey, modesFor, type WorkspaceMode } from '../model/modes';

export interface WorkspaceTopBarProps {
  blockId: string;
  type: ReactionType;
  mode: WorkspaceMode;
  name: string;
  nameError?: string;
  onNameChange: (name: string) => void;
  dirty: boolean;
  saveStatus: SaveStatus;
  saveError: string | null;
  onSave: () => void;
  onBlockLink: () => void;
  onExportCsv: () => Promise<void>;
  /** Leaving the workspace: asks first when there are unsaved changes. */
  onLeave: (event: MouseEvent<HTMLAnchorElement>) => void;
}

export function WorkspaceTopBar(props: WorkspaceTopBarProps) {
  const { blockId, type, mode, name, dirty, saveStatus, saveError } = props;
  const { t } = useTranslation();
  const nameErrorId = useId();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const nameError = props.nameError ? translateMessage(t, props.nameError) : undefined;

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await props.onExportCsv();
    } catch (cause) {
      setExportError(messageOf(cause));
    } finally {
      setExporting(false);
    }
  };

  return (
    <header className="workspace-top-bar">
      <Link
        to={paths.dashboardReaction}
        className="button button-ghost back-button"
        onClick={props.onLeave}
        aria-label={t('workspace.back')}
      >
        <span aria-hidden="true">←</span>
        <span className="back-button-text">{t('common.dashboard')}</span>
      </Link>

      <div className="workspace-title">
        <BlockTypeIcon
          type={type}
          label={t('workspace.typeIcon', { type: t(`blockTypes.${type}`) })}
          size={32}
          className="workspace-type-icon"
        />
        <div className="workspace-name">
          {mode === 'edit' ? (
            <>
              <span className="workspace-name-sizer" aria-hidden="true" data-testid="name-sizer">
                {name || t('common.untitled')}
              </span>
              <input
                className="workspace-name-input"
                value={name}
                title={name || undefined}
                // the sizer sets the width; size 1 keeps the input's own default width out of it
                size={1}
                placeholder={t('common.untitled')}
                aria-label={t('workspace.blockName')}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? nameErrorId : undefined}
                onChange={(e) => props.onNameChange(e.target.value)}
              />
              {nameError ? (
                <span id={nameErrorId} className="error-text workspace-name-error">
                  {nameError}
                </span>
              ) : null}
            </>
          ) : (
            <span className="workspace-name-text" title={name || undefined}>
              {name || t('common.untitled')}
            </span>
          )}
        </div>
      </div>

      <nav className="workspace-modes" aria-label={t('workspace.modes.label')}>
        <ul>
          {modesFor(type).map((m) => (
            <li key={m}>
              <Link
                to={paths.workMode(blockId, m)}
                className="workspace-mode-link"
                aria-current={m === mode ? 'page' : undefined}
              >
                {t(modeLabelKey(type, m))}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="workspace-actions">
        <span className="workspace-save-status" role="status">
          {saveStatus === 'saving'
            ? t('workspace.saving')
            : saveStatus === 'saved' && !dirty
              ? t('workspace.saved')
              : dirty
                ? t('workspace.unsaved')
                : exporting
                  ? t('workspace.exporting')
                  : ''}
        </span>
        {mode === 'result' ? (
          <button
            type="button"
            className="button"
            onClick={() => void exportCsv()}
            disabled={exporting}
            aria-busy={exporting || undefined}
          >
            {exporting ? <span className="spinner-ring" aria-hidden="true" /> : null}
            {t('workspace.exportCsv')}
          </button>
        ) : null}
        {mode !== 'result' && dirty ? (
          <button
            type="button"
            className="button button-primary"
            onClick={props.onSave}
            disabled={saveStatus === 'saving'}
            aria-busy={saveStatus === 'saving' || undefined}
          >
            {saveStatus === 'saving' ? <span className="spinner-ring" aria-hidden="true" /> : null}
            {t('workspace.save')}
          </button>
        ) : null}
        {mode !== 'result' && !dirty ? (
          <button type="button" className="button" onClick={props.onBlockLink}>
            {t('workspace.blockLink')}
          </button>
        ) : null}
      </div>
      {saveStatus === 'invalid' ? (
        <p className="workspace-save-error error-text" role="alert">
          {t('workspace.fixErrors')}
        </p>
      ) : null}
      {saveStatus === 'error' && saveError ? (
        <p className="workspace-save-error error-text" role="alert">
          {t('workspace.saveFailed', { message: translateMessage(t, saveError) })}
        </p>
      ) : null}
      {exportError ? (
        <p className="workspace-save-error error-text" role="alert">
          {exportError}
        </p>
      ) : null}
    </header>
  );
}

// The workspace's own top bar (spec: workspace section 2): back to the dashboard, the block name
// (editable on edit, read-only on result; see workspace-header.tsx for its width), the mode
// tabs, and on the right Save when changed, Block link when saved, Export CSV on result.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import type { ReactionType } from '../../../lib/db-types';
import { messageOf } from '../../../lib/errors';
import { stickyBar } from '../../../lib/sticky-bar';
import type { SaveStatus } from '../hooks/use-workspace';
import { translateMessage } from '../model/messages';
import { modeLabelKey, modesFor, type WorkspaceMode } from '../model/modes';
import {
  WorkspaceBackLink,
  WorkspaceModeNav,
  WorkspaceTitle,
} from '../../../components/layouts/workspace-header';
import { WorkspaceActions } from '../../../components/layouts/workspace-actions';
import { BusyButton } from '../../../components/ui/busy-button';
import { ErrorText } from '../../../components/ui/error-text';
import { Download } from '../../../components/ui/icons';

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
}

export function WorkspaceTopBar(props: WorkspaceTopBarProps) {
  const { blockId, type, mode, name, dirty, saveStatus, saveError } = props;
  const { t } = useTranslation();
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
    <header ref={stickyBar} className="workspace-top-bar">
      <WorkspaceBackLink to={paths.dashboardReaction} label={t('workspace.back')} />
      <WorkspaceTitle
        type={type}
        iconLabel={t('workspace.typeIcon', { type: t(`blockTypes.${type}`) })}
        name={name}
        editable={mode === 'edit'}
        onNameChange={props.onNameChange}
        error={nameError}
      />
      <WorkspaceModeNav
        label={t('workspace.modes.label')}
        current={mode}
        tabs={modesFor(type).map((m) => ({
          key: m,
          to: paths.workMode(blockId, m),
          label: t(modeLabelKey(type, m)),
        }))}
      />

      <WorkspaceActions
        saving={saveStatus === 'saving'}
        saved={saveStatus === 'saved'}
        dirty={dirty}
        otherwise={exporting ? t('workspace.exporting') : ''}
      >
        {mode === 'result' ? (
          <BusyButton
            busy={exporting}
            icon={<Download size={18} />}
            onClick={() => void exportCsv()}
          >
            <span className="workspace-action-long">{t('workspace.exportCsv')}</span>
            <span className="workspace-action-short" aria-hidden="true">
              {t('workspace.exportCsvShort')}
            </span>
          </BusyButton>
        ) : null}
        {mode !== 'result' && dirty ? (
          <BusyButton
            className="button button-primary"
            busy={saveStatus === 'saving'}
            onClick={props.onSave}
          >
            {t('workspace.save')}
          </BusyButton>
        ) : null}
        {mode !== 'result' && !dirty ? (
          <button type="button" className="button" onClick={props.onBlockLink}>
            {t('workspace.blockLink')}
          </button>
        ) : null}
      </WorkspaceActions>
      <ErrorText className="workspace-save-error">
        {saveStatus === 'invalid'
          ? t('workspace.fixErrors')
          : saveStatus === 'error' && saveError
            ? t('workspace.saveFailed', { message: translateMessage(t, saveError) })
            : null}
      </ErrorText>
      <ErrorText className="workspace-save-error">{exportError}</ErrorText>
    </header>
  );
}

// /work/{blockId}[/{mode}]: the block workspace. Loads the owner's block (anything else, or a
// failed load, goes back to /dashboard/reaction), keeps the draft across the modes, and saves
// settings, private settings and the form lists in one save-block call.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { WorkspaceLeaveDialog } from '../../../components/layouts/workspace-leave-dialog';
import { WorkspaceKeptNotice } from '../../../components/layouts/workspace-kept-notice';
import { PageHeading } from '../../../components/ui/page-heading';
import { PageLoading } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import type { BlockRow, ReactionType } from '../../../lib/db-types';
import { useSession } from '../../../lib/session';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { supabaseWorkspaceApi, type WorkspaceApi, type WorkspaceBlockRow } from '../api';
import { FormEditor } from '../editor';
import { useWorkspace } from '../hooks/use-workspace';
import { modeLabelKey, modesFor, parseMode, resetsNewResponses } from '../model/modes';
import { ModerationView } from '../moderation/components/moderation-view';
import { previewView } from '../model/preview';
import { exportResultsCsv, ResultsView } from '../results';
import { PreviewFrame, ThemeSwitch } from './preview-frame';
import { BlockPreview } from './block-preview';
import { SettingsPanel } from './settings/settings-panel';
import { WorkspaceTopBar } from './workspace-top-bar';

export interface WorkspacePageProps {
  /** The server calls; the Supabase ones unless a test passes others. */
  api?: WorkspaceApi;
  /**
   * The block link dialog (public URL, embed snippet, QR code). It belongs to the blocks
   * feature, so the app's route module passes it in rather than this feature importing it.
   */
  renderBlockLink?: (block: BlockRow, onClose: () => void) => ReactNode;
}

export function WorkspacePage({ api = supabaseWorkspaceApi, renderBlockLink }: WorkspacePageProps) {
  const { t } = useTranslation();
  const { blockId = '', mode: segment } = useParams();
  const { user, profile } = useSession();
  const paid = profile?.paid === true;
  const ws = useWorkspace(blockId, user?.id, api);
  const { saved, draft } = ws;
  const [selectedEnding, setSelectedEnding] = useState<number | null>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const guard = useLeaveGuard(ws.dirty, paths.work(blockId), paths.dashboardReaction);
  // "+ N responses" as it was when the owner opened what shows them; then back to 0
  const [newAtOpen, setNewAtOpen] = useState(0);

  const type = saved?.block.type as ReactionType | undefined;
  const mode = type ? parseMode(type, segment) : null;
  const view = useMemo(
    () =>
      saved && draft
        ? previewView({
            block: saved.block,
            settings: draft.settings,
            questions: draft.form?.questions,
            endings: draft.form?.endings,
            endingIndex: mode === 'edit' ? selectedEnding : null,
          })
        : null,
    [saved, draft, mode, selectedEnding],
  );

  const loadedId = saved?.block.id;
  const freshCount = saved?.block.new_response_count ?? 0;
  useEffect(() => {
    if (!loadedId || !type || !mode || freshCount === 0 || !resetsNewResponses(type, mode)) return;
    api
      .resetNewResponses(loadedId)
      .then(() => setNewAtOpen(freshCount))
      .catch((cause: unknown) => {
        console.error('[reaction-dashboard] could not reset the new responses', cause);
      });
  }, [api, loadedId, freshCount, type, mode]);

  if (ws.status === 'missing') return <Navigate to={paths.dashboardReaction} replace />;
  if (ws.status === 'loading' || !saved || !draft || !type || !view) {
    return <PageLoading label={t('workspace.loading')} />;
  }
  // a mode the type does not have, and the spelled-out /edit, go to the edit view
  if (mode === null || segment === 'edit') return <Navigate to={paths.work(blockId)} replace />;

  const block: WorkspaceBlockRow = saved.block;
  const name = draft.settings.name;
  const savedQuestions = saved.questions.map((q) => ({
    id: q.id,
    index: q.index,
    title: q.title,
    type: q.type,
    deleted: q.deleted,
  }));

  return (
    <div className="workspace" data-mode={mode}>
      <a className="skip-link" href="#workspace-main">
        {t('common.skipToContent')}
      </a>
      <WorkspaceTopBar
        blockId={blockId}
        type={type}
        mode={mode}
        name={name}
        nameError={ws.errors.name}
        onNameChange={(value) => ws.setSetting('name', value)}
        dirty={ws.dirty}
        saveStatus={ws.saveStatus}
        saveError={ws.saveError}
        onSave={() => {
          void ws.save().then(() => {
            // keyboard users land on the first field that needs fixing
            document.querySelector<HTMLElement>('.workspace-main [aria-invalid="true"]')?.focus();
          });
        }}
        onBlockLink={() => setLinkOpen(true)}
        onExportCsv={() => exportResultsCsv(block, savedQuestions)}
      />
      <main id="workspace-main" className="workspace-main" tabIndex={-1}>
        {/* takes focus on arrival and on a change of mode (PageHeading), so a screen reader
            announces the block and the mode rather than nothing */}
        <PageHeading className="visually-hidden">
          {t(modesFor(type).length > 1 ? 'workspace.headingMode' : 'workspace.heading', {
            name: (mode === 'result' ? block.name : name) || t('common.untitled'),
            type: t(`blockTypes.${type}`),
            mode: t(modeLabelKey(type, mode)),
          })}
        </PageHeading>
        <WorkspaceKeptNotice kept={ws.kept} text={t('workspace.kept.text')} />
        {mode === 'edit' ? (
          <div className="workspace-edit" data-editor={draft.form ? 'form' : undefined}>
            <SettingsPanel
              blockId={blockId}
              type={type}
              settings={draft.settings}
              privateSettings={draft.private}
              errors={ws.errors}
              paid={paid}
              onChange={ws.setSetting}
              onPrivateChange={ws.setPrivate}
            />
            {draft.form && (type === 'form' || type === 'ab') ? (
              <div className="workspace-editor">
                <FormEditor
                  blockType={type}
                  language={draft.settings.language}
                  draft={draft.form}
                  onChange={ws.setForm}
                  paid={paid}
                  submitButtonText={draft.settings.submit_button_text}
                  onSubmitButtonTextChange={(value) =>
                    ws.setSetting('submit_button_text', value === '' ? null : value)
                  }
                  selectedEnding={selectedEnding}
                  onSelectEnding={setSelectedEnding}
                />
              </div>
            ) : null}
            <PreviewFrame
              type={type}
              view={view}
              theme={draft.settings.theme}
              onThemeChange={(theme) => ws.setSetting('theme', theme)}
              paid={paid}
            />
          </div>
        ) : null}
        {mode === 'preview' ? (
          <section className="workspace-full-preview" aria-label={t('workspace.preview.title')}>
            <ThemeSwitch
              value={draft.settings.theme}
              onChange={(theme) => ws.setSetting('theme', theme)}
              paid={paid}
            />
            <div className="workspace-full-preview-frame" data-theme={draft.settings.theme}>
              <BlockPreview type={type} view={view} />
            </div>
          </section>
        ) : null}
        {mode === 'comments' && (type === 'comment' || type === 'qna') ? (
          <div className="workspace-results">
            <ModerationView
              block={{ id: block.id, type, name: block.name, owner_id: block.owner_id }}
            />
          </div>
        ) : null}
        {mode === 'result' ? (
          <div className="workspace-results">
            <ResultsView block={block} questions={savedQuestions} newSinceLastVisit={newAtOpen} />
          </div>
        ) : null}
      </main>
      {linkOpen && renderBlockLink ? renderBlockLink(block, () => setLinkOpen(false)) : null}
      <WorkspaceLeaveDialog guard={guard} text={t('workspace.leave.text')} />
    </div>
  );
}

// /work/{id} and /work/{id}/history for letter blocks (spec: workspace section 2, letter
// editor; sections 4 and 5 for letters). The top bar goes back to /dashboard/send, holds the
// name, the Edit and History tabs, Save when there are changes and Send letter when the letter
// is saved, has a sender and HTML, and is not loading. Edit: the settings (title, from, sender
// name, page URL with Load and Load sample, the 30-second loading progress, the brunch profile),
// and the letter as rows to delete, with the call-to-action and image buttons and their link
// modals, refresh, clear and open. A failed save keeps the draft.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { Announcement } from '../../../components/ui/announcement';
import { BusyButton } from '../../../components/ui/busy-button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorText } from '../../../components/ui/error-text';
import { SelectField, TextField } from '../../../components/ui/fields';
import { LanguageField } from '../../../components/ui/language-field';
import { PageHeading } from '../../../components/ui/page-heading';
import { PageLoading } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { isLetterType, type LetterType } from '../../../lib/db-types';
import { useSession } from '../../../lib/session';
import { stickyBar } from '../../../lib/sticky-bar';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useDraftQuery } from '../../../lib/use-draft-query';
import { useKeptDraft } from '../../../lib/kept-draft';
import {
  emptyLetter,
  LETTER_LIMITS,
  MODE_OF_TYPE,
  ZSaveLetter,
} from '@reaction-blocks/contracts/letters';
import { letterKeys, useSenders } from '../api/queries';
import {
  loadLetterBlock,
  saveLetter,
  webToTemplate,
  type LetterData,
  type Loaded,
} from '../api/letters';
import {
  canSend,
  draftToSave,
  openLetter,
  pickSender,
  sameDraft,
  withoutBlock,
  type LetterDraft,
} from '../model/draft';
import {
  WorkspaceBackLink,
  WorkspaceModeNav,
  WorkspaceTitle,
} from '../../../components/layouts/workspace-header';
import { WorkspaceActions } from '../../../components/layouts/workspace-actions';
import { WorkspaceKeptNotice } from '../../../components/layouts/workspace-kept-notice';
import { WorkspaceLeaveDialog } from '../../../components/layouts/workspace-leave-dialog';
import { leftOutLines, letterMessage, letterReason } from '../model/messages';
import { BrunchVerifyDialog } from './brunch-verify-dialog';
import { HistoryView } from './history-view';
import { LetterButtonToggles } from './letter-button-toggles';
import { LetterPreview } from './letter-preview';
import { ExternalLink, RotateCw } from '../../../components/ui/icons';
import { BUTTON_KEY, LinkDialog, type LetterButtons } from './link-dialog';
import { SendLetterDialog } from './send-letter-dialog';
import { useProgress } from '../hooks/use-progress';

type Mode = 'edit' | 'history';
const MODES: readonly Mode[] = ['edit', 'history'];

type Dialog = 'send' | 'cta' | 'image' | 'brunch' | 'clear' | null;

export function LetterWorkspacePage() {
  const { t } = useTranslation();
  const { blockId = '', mode: segment } = useParams();
  const { user, profile } = useSession();
  const paid = profile?.paid === true;
  const nameId = useId();
  const senders = useSenders(user?.id);
  // spec section 4: a sender that is not verified is cleared; with none, the first verified one
  // A letter with nothing saved yet takes the sender as if it had been stored (opening it does
  // not make it "unsaved"; the first Save stores it with the page); a saved letter whose sender
  // changes shows the change as unsaved, so Send waits for a Save. The draft is seeded with the
  // senders read so far (a seed can be made again, see useDraftQuery) and follows them after.
  const pick = useCallback(
    <D extends LetterDraft | null>(d: D): D =>
      d && senders.data ? { ...d, mailFrom: pickSender(d.mailFrom, senders.data) } : d,
    [senders.data],
  );
  const { status, saved, setSaved, base, setBase, draft, setDraft } = useDraftQuery({
    queryKey: letterKeys.block(user?.id ?? '', blockId),
    queryFn: (signal) => loadLetterBlock(blockId, user!.id, signal),
    enabled: !!user,
    usable: (data: LetterData) => isLetterType(data.block.type),
    toDraft: (data) => pick(openLetter(data).draft),
    toBase: (data) =>
      data.private?.mail_html ? openLetter(data).draft : pick(openLetter(data).draft),
    what: 'letter',
  });
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');
  const [saveError, setSaveError] = useState<string | null>(null);
  const [loadingPage, setLoadingPage] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** What the last loaded page had that the letter does not carry: said under the address. */
  const [leftOut, setLeftOut] = useState<Loaded['leftOut'] | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const progress = useProgress(loadingPage);
  // Load and Load sample are disabled while the page loads, which drops keyboard focus to the
  // page's body; when it is done, focus goes to the letter, or to the page URL with its error.
  const preview = useRef<HTMLElement>(null);
  const focusAfterLoad = useRef<'letter' | 'url' | null>(null);
  useEffect(() => {
    if (loadingPage || !focusAfterLoad.current) return;
    const target = focusAfterLoad.current;
    focusAfterLoad.current = null;
    if (target === 'letter') preview.current?.focus();
    else document.querySelector<HTMLElement>('.letter-settings [aria-invalid="true"]')?.focus();
  }, [loadingPage]);

  const hasSavedHtml = !!saved?.private?.mail_html;
  useEffect(() => {
    if (!hasSavedHtml) setBase(pick);
    setDraft(pick);
  }, [pick, hasSavedHtml, setBase, setDraft]);

  // The saved letter is read once (openLetter keeps its answer for the copy), for the seed above,
  // `from`, and the parts of it that no longer parse: left out of the draft, and said (B9).
  const stored = saved ? openLetter(saved) : null;
  const from = stored?.draft ?? null;
  const storedLeftOut = stored?.leftOut ?? 0;
  const edited = !!base && !!draft && !sameDraft(base, draft);
  // Parts left out are a change not yet saved: the stored letter, and the mail Send would send,
  // still hold them. So Save shows (the notice says a Save stores the letter without them), Send
  // waits for it, and leaving asks, with no edit made.
  const dirty = edited || (!!draft && storedLeftOut > 0);
  // Unsaved edits kept in this tab through a sign-out or a reload (lib/kept-draft.ts), as the
  // block workspace's: compared with the saved letter as read (`from`, not `base`, which takes the
  // sender only once the senders are read), restored with the sender as the senders allow. Only
  // edits: a letter opened with parts left out leaves them out again when read again.
  const restore = useCallback((d: LetterDraft) => setDraft(pick(d)), [pick, setDraft]);
  const kept = useKeptDraft({
    ownerId: user?.id,
    blockId,
    base: from,
    draft,
    dirty: edited,
    restore,
  });
  // the same guard as the block workspace's: the tab closing, the back link and the browser's Back
  const guard = useLeaveGuard(dirty, paths.work(blockId), paths.dashboardSend);

  const change = useCallback(
    (patch: Partial<LetterDraft>) => {
      setDraft((d) => (d ? { ...d, ...patch } : d));
      setSaveState((s) => (s === 'saved' ? 'idle' : s));
    },
    [setDraft],
  );

  /** The call to action or the image button set (or removed, null); its dialog, if open, closes. */
  const setButtons = (buttons: Partial<LetterButtons>) => {
    if (!draft) return;
    change({ model: { ...draft.model, ...buttons } });
    setDialog(null);
  };

  const verified = useMemo(
    () => (senders.data ?? []).filter((s) => s.status === 'verified').map((s) => s.email),
    [senders.data],
  );

  if (status === 'missing') return <Navigate to={paths.dashboardSend} replace />;
  if (status === 'loading' || !saved || !draft || !base) {
    return <PageLoading label={t('letters.loading')} />;
  }
  const type = saved.block.type as LetterType;
  const letterMode = MODE_OF_TYPE[type];
  const mode: Mode | null =
    segment === undefined
      ? 'edit'
      : (MODES as readonly string[]).includes(segment)
        ? (segment as Mode)
        : null;
  if (mode === null || segment === 'edit') return <Navigate to={paths.work(blockId)} replace />;
  const brunchProfile = saved.private?.brunch_profile_page ?? null;

  const load = async (input: { pageUrl?: string; sample?: boolean }) => {
    setLoadingPage(true);
    setLoadError(null);
    setNotice(null);
    setLeftOut(null);
    try {
      const res = await webToTemplate({ blockId, mode: letterMode, ...input });
      setLeftOut(res.leftOut);
      change({
        pageUrl: res.pageUrl,
        title: draft.title || res.title,
        model: { ...res.letter, cta: draft.model.cta, imageButton: draft.model.imageButton },
      });
      if (res.warnings.length)
        setNotice(t('letters.loadedWarnings', { count: res.warnings.length }));
      focusAfterLoad.current = 'letter';
    } catch (cause) {
      setLoadError(letterReason(t, cause));
      focusAfterLoad.current = 'url';
    } finally {
      setLoadingPage(false);
    }
  };

  const save = async () => {
    if (!dirty || saveState === 'saving') return;
    const body = draftToSave(blockId, draft, draft.name !== base.name);
    const checked = ZSaveLetter.safeParse(body);
    if (!checked.success) {
      setSaveError(letterMessage(t, checked.error.issues[0]?.message ?? 'Invalid input'));
      setSaveState('error');
      return;
    }
    setSaveState('saving');
    setSaveError(null);
    const sent = draft;
    try {
      const data = await saveLetter(body);
      const next = openLetter(data).draft;
      setSaved(data);
      setBase(next);
      setDraft((current) => (current === sent ? next : current));
      setSaveState('saved');
    } catch (cause) {
      setSaveError(letterReason(t, cause));
      setSaveState('error');
    }
  };

  const showSend = canSend({
    dirty,
    hasHtml: !!saved.private?.mail_html,
    mailFrom: saved.private?.mail_from ?? '',
    loading: loadingPage,
  });
  const name = mode === 'edit' ? draft.name : saved.block.name;

  return (
    <div className="workspace letter-workspace" data-mode={mode}>
      <a className="skip-link" href="#workspace-main">
        {t('common.skipToContent')}
      </a>
      <header ref={stickyBar} className="workspace-top-bar">
        <WorkspaceBackLink to={paths.dashboardSend} label={t('letters.back')} />
        <WorkspaceTitle
          type={type}
          iconLabel={t(`blockTypes.${type}`)}
          name={name}
          editable={mode === 'edit'}
          onNameChange={(value) => change({ name: value })}
          maxLength={200}
        />
        <WorkspaceModeNav
          label={t('letters.modes.label')}
          current={mode}
          tabs={MODES.map((m) => ({
            key: m,
            to: m === 'edit' ? paths.work(blockId) : `${paths.work(blockId)}/${m}`,
            label: t(`letters.modes.${m}`),
          }))}
        />
        <WorkspaceActions
          saving={saveState === 'saving'}
          saved={saveState === 'saved'}
          dirty={dirty}
        >
          {mode === 'edit' && dirty ? (
            <BusyButton
              className="button button-primary"
              busy={saveState === 'saving'}
              disabled={loadingPage}
              onClick={() => void save()}
            >
              {t('letters.save')}
            </BusyButton>
          ) : null}
          {showSend ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => setDialog('send')}
            >
              {t('letters.sendLetter')}
            </button>
          ) : null}
        </WorkspaceActions>
        <ErrorText className="workspace-save-error">
          {saveState === 'error' && saveError
            ? t('letters.saveFailed', { message: saveError })
            : null}
        </ErrorText>
      </header>

      <main id="workspace-main" className="workspace-main" tabIndex={-1}>
        <PageHeading className="visually-hidden">
          {t('letters.heading', {
            name: name || t('common.untitled'),
            type: t(`blockTypes.${type}`),
            mode: t(`letters.modes.${mode}`),
          })}
        </PageHeading>
        <WorkspaceKeptNotice kept={kept} text={t('letters.kept.text')} />
        {mode === 'history' ? (
          <div className="workspace-results">
            <HistoryView blockId={blockId} />
          </div>
        ) : (
          <div className="letter-edit">
            <section className="letter-settings" aria-labelledby={`${nameId}-settings`}>
              <h2 id={`${nameId}-settings`} className="panel-title">
                {t(`blockTypes.${type}`)}
              </h2>
              <TextField
                label={t('letters.title')}
                value={draft.title}
                max={LETTER_LIMITS.title}
                hint={t('letters.titleHint', { name: draft.name || t('common.untitled') })}
                onChange={(title) => change({ title })}
              />
              {verified.length > 0 ? (
                <SelectField
                  label={t('letters.from')}
                  value={draft.mailFrom}
                  options={verified.map((e) => ({ value: e, label: e }))}
                  onChange={(mailFrom) => change({ mailFrom })}
                />
              ) : senders.data ? (
                <div className="letter-prompt" role="note">
                  <p>{t('letters.noSender')}</p>
                  <Link to={paths.profileEmail} className="button">
                    {t('letters.verifySender')}
                  </Link>
                </div>
              ) : null}
              <TextField
                label={t('letters.senderName')}
                value={draft.mailName}
                max={LETTER_LIMITS.senderName}
                onChange={(mailName) => change({ mailName })}
              />
              <LanguageField
                label={t('letters.language')}
                hint={t('letters.languageHint')}
                value={draft.language}
                onChange={(language) => change({ language })}
              />
              {type === 'brunch_letter' ? (
                brunchProfile ? (
                  <p className="hint">{t('letters.brunchVerified', { profile: brunchProfile })}</p>
                ) : (
                  <div className="letter-prompt" role="note">
                    <p>{t('letters.brunchPrompt')}</p>
                    <button
                      type="button"
                      className="button"
                      disabled={verified.length === 0}
                      onClick={() => setDialog('brunch')}
                    >
                      {t('letters.brunchVerify')}
                    </button>
                  </div>
                )
              ) : null}
              <TextField
                label={t('letters.pageUrl')}
                value={draft.pageUrl}
                type="url"
                max={LETTER_LIMITS.url}
                hint={t(`letters.pageUrlHint.${letterMode}`)}
                error={loadError ?? undefined}
                placeholder={
                  letterMode === 'notion'
                    ? 'https://….notion.site/…'
                    : letterMode === 'brunch'
                      ? 'https://brunch.co.kr/@…/…'
                      : 'https://….typedream.app/'
                }
                onChange={(pageUrl) => change({ pageUrl })}
              />
              <div className="letter-load-row">
                <button
                  type="button"
                  className="button button-primary"
                  disabled={loadingPage || draft.pageUrl.trim() === ''}
                  onClick={() => void load({ pageUrl: draft.pageUrl })}
                >
                  {t('letters.load')}
                </button>
                {letterMode !== 'brunch' ? (
                  <button
                    type="button"
                    className="button"
                    disabled={loadingPage}
                    onClick={() => void load({ sample: true })}
                  >
                    {t('letters.loadSample')}
                  </button>
                ) : null}
              </div>
              {loadingPage ? (
                <div className="letter-progress">
                  <progress
                    max={100}
                    value={progress}
                    aria-label={t('letters.loadingPage', { percent: progress })}
                  />
                  <span aria-live="polite">{t('letters.loadingPage', { percent: progress })}</span>
                </div>
              ) : null}
              {storedLeftOut > 0 ? (
                <p className="warning-note" role="note">
                  {t('letters.storedLeftOut', { count: storedLeftOut })}
                </p>
              ) : null}
              {leftOutLines(t, leftOut).map((line) => (
                <p key={line} className="warning-note" role="note">
                  {line}
                </p>
              ))}
              <Announcement>{notice}</Announcement>
              <LetterButtonToggles
                idPrefix={nameId}
                model={draft.model}
                onEdit={(kind) => setDialog(kind)}
                onRemove={(kind) => setButtons({ [BUTTON_KEY[kind]]: null })}
              />
            </section>
            <section
              ref={preview}
              className="letter-preview"
              aria-label={t('letters.preview.label')}
              tabIndex={-1}
            >
              <div
                className="letter-preview-tools"
                role="toolbar"
                aria-label={t('letters.preview.label')}
              >
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={loadingPage || draft.pageUrl.trim() === ''}
                  onClick={() => void load({ pageUrl: draft.pageUrl })}
                >
                  <RotateCw size={16} />
                  {t('letters.preview.refresh')}
                </button>
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={draft.model.blocks.length === 0}
                  onClick={() => setDialog('clear')}
                >
                  {t('letters.preview.clear')}
                </button>
                {draft.pageUrl ? (
                  <a
                    className="button button-ghost"
                    href={draft.pageUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    <ExternalLink size={16} />
                    {t('letters.preview.open')}
                  </a>
                ) : null}
              </div>
              {draft.model.blocks.length === 0 && !draft.model.cta && !draft.model.imageButton ? (
                <p className="letter-empty">{t('letters.preview.empty')}</p>
              ) : (
                <LetterPreview
                  title={draft.title}
                  model={draft.model}
                  onDelete={(id) => {
                    change({ model: withoutBlock(draft.model, id) });
                    setNotice(t('letters.preview.rowDeleted'));
                  }}
                />
              )}
            </section>
          </div>
        )}
      </main>

      {dialog === 'send' && user ? (
        <SendLetterDialog
          blockId={blockId}
          userId={user.id}
          paid={paid}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'cta' || dialog === 'image' ? (
        <LinkDialog
          kind={dialog}
          buttons={draft.model}
          onChange={setButtons}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'brunch' ? (
        <BrunchVerifyDialog
          blockId={blockId}
          emails={verified}
          onClose={() => setDialog(null)}
          onVerified={(page) => {
            setSaved((s) =>
              s && s.private ? { ...s, private: { ...s.private, brunch_profile_page: page } } : s,
            );
            setDialog(null);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={dialog === 'clear'}
        title={t('letters.preview.clearTitle')}
        confirmLabel={t('letters.preview.clearConfirm')}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          change({
            model: { ...emptyLetter(), cta: draft.model.cta, imageButton: draft.model.imageButton },
          });
          setDialog(null);
        }}
      >
        <p>{t('letters.preview.clearText')}</p>
      </ConfirmDialog>
      <WorkspaceLeaveDialog guard={guard} text={t('letters.leave.text')} />
    </div>
  );
}

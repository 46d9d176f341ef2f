// The workspace's state: the block as last saved, the owner's draft of it (settings, private
// settings, form questions and endings), what changed, and Save. A failed save keeps the draft
// as it is, so nothing the owner typed is lost.
import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { blockDefaults } from '@reaction-blocks/contracts/block-defaults';
import { INTEGRATION_MESSAGES, type TSaveBlock } from '@reaction-blocks/contracts/schemas';
import { isReactionType } from '../../../lib/db-types';
import { failureReason, messageOf } from '../../../lib/errors';
import { useKeptDraft } from '../../../lib/kept-draft';
import { isSchemaMessage } from '../model/messages';
import { useDraftQuery, type DraftStatus } from '../../../lib/use-draft-query';
import type { WorkspaceApi, WorkspaceData } from '../api';
import { saveBlockProblem } from '../api';
import { integrationStatusKey, notionObjectsKey } from '../components/settings/integration-section';
import { notificationAddressKey } from '../components/settings/notification-address';
import { formDraftFromView, formDraftIssues, formDraftToSave, type FormDraft } from '../editor';
import {
  changedFields,
  privateErrors,
  privateFromRow,
  sameValue,
  settingsErrors,
  settingsFromBlock,
  type FieldErrors,
  type PrivateDraft,
  type SettingsDraft,
} from '../model/settings';

export type LoadStatus = DraftStatus;

/** The workspace's first read, per owner and block. */
export const workspaceKeys = {
  block: (ownerId: string, blockId: string) => ['workspace', ownerId, 'block', blockId] as const,
};
/** invalid: Save was pressed while fields have problems (shown under them); nothing sent. */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error' | 'invalid';

const hasForm = (type: string) => type === 'form' || type === 'ab';

interface Draft {
  settings: SettingsDraft;
  private: PrivateDraft;
  form: FormDraft | null;
}

function draftOf(data: WorkspaceData): Draft {
  return {
    settings: settingsFromBlock(data.block),
    private: privateFromRow(data.private),
    form: hasForm(data.block.type)
      ? formDraftFromView(
          data.questions,
          data.endings,
          blockDefaults(data.block.language).abOptions,
        )
      : null,
  };
}

export function useWorkspace(blockId: string, ownerId: string | undefined, api: WorkspaceApi) {
  const queryClient = useQueryClient();
  const { status, saved, setSaved, base, setBase, draft, setDraft } = useDraftQuery({
    queryKey: workspaceKeys.block(ownerId ?? '', blockId),
    queryFn: (signal) => api.load({ blockId, ownerId: ownerId! }, signal),
    enabled: !!ownerId,
    // letter blocks have their own workspace
    usable: (data: WorkspaceData) => isReactionType(data.block.type),
    toDraft: draftOf,
    what: 'workspace',
  });
  const [saveStatus, setSaveStatus] = useState<SaveStatus>('idle');
  const [saveError, setSaveError] = useState<string | null>(null);

  const changedSettings = useMemo(
    () => (base && draft ? changedFields(base.settings, draft.settings) : {}),
    [base, draft],
  );
  const changedPrivate = useMemo(
    () => (base && draft ? changedFields(base.private, draft.private) : {}),
    [base, draft],
  );
  // Compared in their save form, so edits that cancel out do not count as changes.
  const formChanged = useMemo(
    () =>
      !!base?.form &&
      !!draft?.form &&
      !sameValue(formDraftToSave(base.form), formDraftToSave(draft.form)),
    [base, draft],
  );
  const dirty =
    Object.keys(changedSettings).length > 0 ||
    Object.keys(changedPrivate).length > 0 ||
    formChanged;

  // Unsaved edits kept in this tab through a sign-out or a reload (lib/kept-draft.ts).
  const kept = useKeptDraft({ ownerId, blockId, base, draft, dirty, restore: setDraft });

  const errors: FieldErrors = useMemo(
    () => ({
      ...settingsErrors(changedSettings),
      ...Object.fromEntries(
        Object.entries(privateErrors(changedPrivate)).map(([k, v]) => [`private.${k}`, v]),
      ),
    }),
    [changedSettings, changedPrivate],
  );

  const setSetting = useCallback(
    <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
      setDraft((d) => (d ? { ...d, settings: { ...d.settings, [key]: value } } : d));
      setSaveStatus((s) => (s === 'saved' || s === 'invalid' ? 'idle' : s));
    },
    [setDraft],
  );
  const setPrivate = useCallback(
    <K extends keyof PrivateDraft>(key: K, value: PrivateDraft[K]) => {
      setDraft((d) => (d ? { ...d, private: { ...d.private, [key]: value } } : d));
      setSaveStatus((s) => (s === 'saved' || s === 'invalid' ? 'idle' : s));
    },
    [setDraft],
  );
  const setForm = useCallback(
    (form: FormDraft) => {
      setDraft((d) => (d ? { ...d, form } : d));
      setSaveStatus((s) => (s === 'saved' || s === 'invalid' ? 'idle' : s));
    },
    [setDraft],
  );

  /** Saves what changed; true when it was stored. */
  const save = useCallback(async (): Promise<boolean> => {
    if (!draft || !dirty || saveStatus === 'saving') return false;
    const body: TSaveBlock = { blockId };
    if (Object.keys(changedSettings).length > 0) body.settings = changedSettings;
    if (Object.keys(changedPrivate).length > 0) body.privateSettings = changedPrivate;
    if (formChanged && draft.form) Object.assign(body, formDraftToSave(draft.form));
    if (
      Object.keys(errors).length > 0 ||
      (formChanged && draft.form && formDraftIssues(draft.form).length > 0)
    ) {
      setSaveError(null);
      setSaveStatus('invalid');
      return false;
    }
    const problem = saveBlockProblem(body);
    if (problem) {
      setSaveError(problem);
      setSaveStatus('error');
      return false;
    }
    setSaveStatus('saving');
    setSaveError(null);
    const sent = draft;
    try {
      const data = await api.save(body);
      const next = draftOf(data);
      setSaved(data);
      setBase(next);
      // Edits made while the save was on its way stay in the draft (and stay unsaved).
      setDraft((current) => (current === sent ? next : current));
      setSaveStatus('saved');
      // a new notification address may now wait for its confirmation (the section says so)
      if (body.privateSettings && 'mail_to' in body.privateSettings) {
        void queryClient.invalidateQueries({ queryKey: notificationAddressKey(blockId) });
      }
      return true;
    } catch (cause) {
      // a schema's message as it came (the top bar says it through translateMessage); anything
      // else in the reader's language: save_block's PT404 is a block no longer the owner's
      const message = messageOf(cause);
      // a Notion link refused because the connection was removed (another tab): the Integration
      // section reads the connection again, says so and drops the link from the draft
      if (message === INTEGRATION_MESSAGES.notionGone) {
        void queryClient.invalidateQueries({ queryKey: integrationStatusKey(blockId) });
      }
      // a target the current connection did not list (another workspace connected in another
      // tab): the section reads the connection and its list again, and shows the draft's target
      // as not found until the owner chooses again
      if (message === INTEGRATION_MESSAGES.notionNotListed) {
        void queryClient.invalidateQueries({ queryKey: integrationStatusKey(blockId) });
        void queryClient.invalidateQueries({ queryKey: notionObjectsKey });
      }
      setSaveError(
        isSchemaMessage(message)
          ? message
          : failureReason(cause, { not_found: 'common.reasons.blockGone' }),
      );
      setSaveStatus('error');
      return false;
    }
  }, [
    api,
    blockId,
    changedPrivate,
    changedSettings,
    dirty,
    draft,
    errors,
    formChanged,
    queryClient,
    saveStatus,
    setBase,
    setDraft,
    setSaved,
  ]);

  return {
    status,
    saved,
    draft,
    dirty,
    errors,
    saveStatus,
    saveError,
    setSetting,
    setPrivate,
    setForm,
    save,
    /** Edits kept in this tab from before a sign-out or a reload, offered back (D4). */
    kept,
  };
}

export type WorkspaceState = ReturnType<typeof useWorkspace>;

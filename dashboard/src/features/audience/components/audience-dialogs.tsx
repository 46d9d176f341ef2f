// The audience page's dialogs: add audience, a group's name (create, rename), CSV import.
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { FormDialog } from '../../../components/ui/form-dialog';
import { SelectField, TextField } from '../../../components/ui/fields';
import { sharedMessageReason } from '../../../lib/errors';
import { useSubmit } from '../../../lib/use-submit';
import {
  AUDIENCE_MESSAGES,
  groupNameProblem,
  LETTER_LIMITS,
  ZAddAudience,
} from '@reaction-blocks/contracts/letters';
import { addMember, importBatch, memberAddresses } from '../api/audience';
import { parseCsv, planImport, type ImportPlan } from '../model/csv';
import { ErrorText } from '../../../components/ui/error-text';

const audienceReason = sharedMessageReason(AUDIENCE_MESSAGES, 'audience.messages');

/** The shared schema's audience messages in the reader's language (others as they came). */
export function audienceMessage(
  t: (key: string, options?: Record<string, unknown>) => string,
  message: string | undefined,
): string | undefined {
  return message ? audienceReason(t, message) : undefined;
}

/** What a failed add, group change or import says, its reason in the reader's language. */
function failure(t: (key: string, options?: Record<string, unknown>) => string, cause: unknown) {
  return t('audience.failed', { reason: audienceReason(t, cause) });
}

/**
 * What a failed add, edit or import of members says: an address the audience has already, in any
 * case (the database's unique key on the lower-cased address, 23505), in so many words.
 */
export function memberFailure(
  t: (key: string, options?: Record<string, unknown>) => string,
  cause: unknown,
) {
  return (cause as { code?: unknown } | null)?.code === '23505'
    ? t('audience.emailTaken')
    : failure(t, cause);
}

/** A member's group choices: none, then the owner's groups. */
export function groupOptions(t: (key: string) => string, groups: readonly string[]) {
  return [
    { value: '', label: t('audience.noGroup') },
    ...groups.map((g) => ({ value: g, label: g })),
  ];
}

/** The dialogs that add people to the owner's audience. */
export interface MemberDialogProps {
  userId: string;
  /** The owner's groups, to choose from. */
  groups: string[];
  /** Something was added: the page reads the list again. */
  onDone: () => void;
  onClose: () => void;
}

export function AddAudienceDialog({ userId, groups, onDone, onClose }: MemberDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [group, setGroup] = useState('');
  const { busy, error, run } = useSubmit();
  const parsed = ZAddAudience.safeParse({ name, email, group: group || null });
  const issue = (field: string) =>
    parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message;
  const nameError = name !== '' ? audienceMessage(t, issue('name')) : undefined;
  const emailError = email !== '' ? audienceMessage(t, issue('email')) : undefined;
  const submit = () => {
    if (!parsed.success) return;
    const member = parsed.data;
    void run(
      async () => {
        await addMember(userId, member);
        onDone();
      },
      (cause) => memberFailure(t, cause),
    );
  };
  return (
    <FormDialog
      title={t('audience.addDialog.title')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('audience.addDialog.submit')}
      canSubmit={parsed.success}
      busy={busy}
      error={error}
    >
      <TextField
        label={t('audience.addDialog.name')}
        value={name}
        max={LETTER_LIMITS.audienceName}
        stopAtMax={false}
        error={nameError}
        onChange={setName}
      />
      <TextField
        label={t('audience.addDialog.email')}
        value={email}
        type="email"
        max={LETTER_LIMITS.audienceEmail}
        stopAtMax={false}
        error={emailError}
        onChange={setEmail}
      />
      <SelectField
        label={t('audience.addDialog.group')}
        value={group}
        options={groupOptions(t, groups)}
        onChange={setGroup}
      />
      <p className="hint">{t('audience.ownResponsibility')}</p>
    </FormDialog>
  );
}

export function GroupNameDialog({
  title,
  initial,
  existing,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: string;
  existing: string[];
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const { busy, error, run } = useSubmit();
  const problem = groupNameProblem(
    name,
    existing.filter((g) => g !== initial),
  );
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={() =>
        void run(
          () => onSubmit(name.trim()),
          (cause) => failure(t, cause),
        )
      }
      submitLabel={t('common.save')}
      canSubmit={!problem && name.trim() !== initial}
      busy={busy}
      error={error}
    >
      <TextField
        label={t('audience.groupName')}
        value={name}
        max={LETTER_LIMITS.group}
        error={name !== '' ? audienceMessage(t, problem ?? undefined) : undefined}
        onChange={setName}
      />
    </FormDialog>
  );
}

const BATCH = 500;
const LISTED = 20;

/**
 * Sends one batch of an import. An address that joined the audience after the plan was made (in
 * another case: another tab, a visitor's form answer) makes the database refuse the whole batch
 * (the key on the lower-cased address, 23505, which an upsert by address cannot name); the
 * audience's addresses are then read again and the rest of the batch sent once, the late ones
 * counted as already there.
 */
async function importFresh(userId: string, batch: Parameters<typeof importBatch>[1]) {
  try {
    return await importBatch(userId, batch);
  } catch (cause) {
    if ((cause as { code?: unknown } | null)?.code !== '23505') throw cause;
    const taken = await memberAddresses();
    const rest = batch.filter((row) => !taken.has(row.email.toLowerCase()));
    return rest.length > 0 ? importBatch(userId, rest) : { added: 0, unsubscribed: 0 };
  }
}

/**
 * CSV import: the file is read and decoded once, parsed (papaparse), checked (shared rules), then
 * sent in batches of 500 with a progress bar; the page stays responsive between batches, and the
 * report names every row left out and why.
 */
export function CsvImportDialog({ userId, groups, onDone, onClose }: MemberDialogProps) {
  const { t } = useTranslation();
  const fileId = useId();
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<{
    added: number;
    already: number;
    unsubscribed: number;
  } | null>(null);
  const cancelled = useRef(false);

  const choose = async (file: File | undefined) => {
    setPlan(null);
    setResult(null);
    setError(null);
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.csv')) {
      setError(t('audience.importDialog.onlyCsv'));
      return;
    }
    let parsed: Awaited<ReturnType<typeof parseCsv>>;
    try {
      parsed = await parseCsv(file);
    } catch {
      // the browser could not read the file (moved, removed, not allowed): its words are English
      setError(t('audience.importDialog.readFailed'));
      return;
    }
    try {
      // the addresses already there are counted as such, not sent (in any case: one member each)
      const existing = await memberAddresses();
      setPlan(planImport(parsed, groups, existing));
    } catch (cause) {
      setError(failure(t, cause));
    }
  };

  const run = async () => {
    if (!plan) return;
    const total = plan.rows.length;
    let done = 0;
    let added = 0;
    let unsubscribed = 0;
    // a run starts afresh: a retry's success is not shown beside the failure before it
    setError(null);
    setProgress({ done, total });
    try {
      for (let i = 0; i < total && !cancelled.current; i += BATCH) {
        const batch = plan.rows.slice(i, i + BATCH);
        const imported = await importFresh(userId, batch);
        added += imported.added;
        unsubscribed += imported.unsubscribed;
        done += batch.length;
        setProgress({ done, total });
        // let the page paint and answer between batches
        await new Promise((r) => setTimeout(r, 0));
      }
      setResult({ added, already: plan.already.length + done - added, unsubscribed });
      onDone();
    } catch (cause) {
      // the batches sent before stay imported; a batch whose answer was lost may have gone in
      // too: the audience is read again to count them (the batches confirmed, if that fails)
      const saved = await memberAddresses().then(
        (taken) => plan.rows.filter((row) => taken.has(row.email.toLowerCase())).length,
        () => done,
      );
      setError(
        t('audience.importDialog.stopped', { reason: memberFailure(t, cause), saved, total }),
      );
      // the page behind shows the rows that went in
      if (saved > 0) onDone();
    } finally {
      setProgress(null);
    }
  };

  /** Closing stops the batches still to go; those sent stay imported. */
  const close = () => {
    cancelled.current = true;
    onClose();
  };

  const list = <T,>(items: T[], line: (item: T) => string) => (
    <ul className="import-report-list">
      {items.slice(0, LISTED).map((item, i) => (
        <li key={i}>{line(item)}</li>
      ))}
      {items.length > LISTED ? (
        <li>{t('audience.importDialog.andMore', { count: items.length - LISTED })}</li>
      ) : null}
    </ul>
  );

  return (
    <Dialog
      open
      title={t('audience.importDialog.title')}
      onClose={close}
      actions={
        <>
          <button type="button" className="button" onClick={close}>
            {t('common.close')}
          </button>
          {!result ? (
            <button
              type="button"
              className="button button-primary"
              disabled={!plan || plan.missingColumns || plan.rows.length === 0 || !!progress}
              aria-busy={!!progress || undefined}
              onClick={() => void run()}
            >
              {t('audience.importDialog.start')}
            </button>
          ) : null}
        </>
      }
    >
      <p>{t('audience.importDialog.intro')}</p>
      <p className="hint">{t('audience.ownResponsibility')}</p>
      <p>
        <a href="/sample/audience_list.csv" download>
          {t('audience.sample')}
        </a>
      </p>
      <div className="field">
        <label htmlFor={fileId}>{t('audience.importDialog.file')}</label>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          disabled={!!progress}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </div>
      <ErrorText>{error}</ErrorText>
      {plan?.missingColumns ? (
        <ErrorText>{t('audience.importDialog.missingColumns')}</ErrorText>
      ) : null}
      {progress ? (
        <div className="import-progress">
          <progress max={progress.total} value={progress.done} />
          <span role="status">{t('audience.importDialog.progress', progress)}</span>
        </div>
      ) : null}
      {plan && !plan.missingColumns ? (
        <div className="import-report" role={result ? 'status' : undefined}>
          {result ? (
            <>
              <p>{t('audience.importDialog.done', { count: result.added })}</p>
              {result.already > 0 ? (
                <p>{t('audience.importDialog.already', { count: result.already })}</p>
              ) : null}
              {result.unsubscribed > 0 ? (
                <p>{t('audience.importDialog.unsubscribed', { count: result.unsubscribed })}</p>
              ) : null}
            </>
          ) : (
            <>
              <p>{t('audience.importDialog.ready', { count: plan.rows.length })}</p>
              {plan.encoding !== 'utf-8' && plan.rows[0] ? (
                <p>
                  {t(`audience.importDialog.encoding.${plan.encoding}`, {
                    name: plan.rows[0].name,
                  })}
                </p>
              ) : null}
              {plan.already.length > 0 ? (
                <p>{t('audience.importDialog.inAudience', { count: plan.already.length })}</p>
              ) : null}
            </>
          )}
          {plan.skipped.length > 0 ? (
            <>
              <p>
                {t('audience.importDialog.skipped', {
                  // a broken quote's lines all count: the rows it took with it are left out too
                  count: plan.skipped.reduce((n, s) => n + (s.through ?? s.line) - s.line + 1, 0),
                })}
              </p>
              {list(plan.skipped, (s) =>
                t(`audience.importDialog.reasons.${s.reason}${s.through ? 'Through' : ''}`, {
                  line: s.line,
                  through: s.through,
                  separator: t(`audience.importDialog.separators.${plan.separator}`),
                }),
              )}
            </>
          ) : null}
          {plan.groupDropped.length > 0 ? (
            <>
              <p>{t('audience.importDialog.groupDropped', { count: plan.groupDropped.length })}</p>
              {list(plan.groupDropped, (g) => t('audience.importDialog.group', g))}
            </>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}

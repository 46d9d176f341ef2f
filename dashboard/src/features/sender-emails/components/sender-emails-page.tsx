// /profile/email: the owner's sender emails. Add (we mail the address a link that only this
// account can confirm; SES then mails its own link when it cannot send as the address yet), the
// link's landing (?confirm=), the automatic check of every address when the list loads (the spec's
// unverified ones, and the verified ones too: SES's state is re-read), SPF and DKIM, the DMARC note when letters will go from the platform address, delete
// with confirmation.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/fields';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/session';
import { useQuery } from '../../../lib/use-query';
import {
  checkMailVerified,
  checkSpfDkim,
  deleteMailVerified,
  listSenderEmails,
  MESSAGES,
  requestMailVerify,
  SENDER_EMAIL_MAX,
  withResult,
  ZMailVerify,
  type SenderEmail,
} from '../api/sender-emails';
import { useConfirmLink, type ConfirmResult } from '../hooks/use-confirm-link';
import { registerSenderEmailTranslations } from '../locales';
import { addressFailure, confirmFailure } from '../model/failures';
import { CardTable } from '../../../components/ui/card-table';
import { ErrorText } from '../../../components/ui/error-text';
import { LoadFailed } from '../../../components/ui/load-failed';

registerSenderEmailTranslations();

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/**
 * Asks whether an address is verified now. SPF, DKIM and DMARC are read when it becomes verified
 * and for an address never checked, so a DMARC reject domain is explained before verification.
 */
async function checkRow(row: SenderEmail, signal?: AbortSignal): Promise<SenderEmail> {
  const { verified, confirmed } = await checkMailVerified(row.email, signal);
  const checked: SenderEmail = {
    ...row,
    status: verified ? 'verified' : 'not_verified',
    confirmed_at: confirmed ? (row.confirmed_at ?? new Date().toISOString()) : null,
  };
  const becameVerified = verified && row.status !== 'verified';
  if (row.checked_at && !becameVerified) return checked;
  return withResult(checked, await checkSpfDkim(row.email, signal));
}

/**
 * The list, every address checked as it loads: the spec's unverified ones, and the verified ones
 * too, since SES may no longer send as an address the database calls verified (an identity
 * deleted or failed at SES): the row then says so instead of letters failing unseen.
 */
async function listWithChecks(signal: AbortSignal): Promise<SenderEmail[]> {
  const rows = await listSenderEmails(signal);
  return Promise.all(rows.map((row) => checkRow(row, signal).catch(() => row)));
}

/**
 * A row's button, off while a request for its address runs; with `email`, its accessible name
 * ends with the address (several rows have the same button).
 */
function RowAction({
  label,
  busy,
  email,
  danger = false,
  onClick,
}: {
  label: string;
  busy: boolean | undefined;
  email?: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={danger ? 'button button-ghost danger-text' : 'button'}
      disabled={busy}
      aria-label={email ? `${label} ${email}` : undefined}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

export function SenderEmailsPage() {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'senderEmails' });
  const { user } = useSession();
  const list = useQuery(['sender-emails', user?.id ?? ''], (signal) => listWithChecks(signal));
  const link = useConfirmLink(() => void list.reload());
  const [address, setAddress] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [announcement, setAnnouncement] = useState('');
  const [rowError, setRowError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<SenderEmail | null>(null);

  const rows = list.data ?? [];
  const replaceRow = (row: SenderEmail) =>
    list.setData((current) => current?.map((r) => (r.id === row.id ? row : r)));

  const run = async (email: string, action: () => Promise<void>) => {
    setBusy((b) => ({ ...b, [email]: true }));
    setRowError(null);
    try {
      await action();
    } catch (cause) {
      setRowError(s('failed', { reason: addressFailure(cause) }));
    } finally {
      setBusy((b) => ({ ...b, [email]: false }));
    }
  };

  /** What an answer of request-mail-verify or confirm-mail-verify means for the owner. */
  const stateText = (state: 'pending' | 'awaiting_provider' | 'verified', email: string) =>
    state === 'verified'
      ? s('nowVerified', { email })
      : state === 'awaiting_provider'
        ? s('providerLinkSent', { email })
        : s('linkSent', { email });
  const linkText = (result: ConfirmResult) =>
    result.state === 'failed'
      ? s('confirmFailed', { reason: confirmFailure(result.cause) })
      : stateText(result.state, result.email);

  const sendAgain = (row: SenderEmail) =>
    run(row.email, async () => {
      const answer = await requestMailVerify(row.email);
      setAnnouncement(stateText(answer.state, row.email));
      await list.reload();
    });

  const check = (row: SenderEmail) =>
    run(row.email, async () => {
      const checked = await checkRow(row);
      replaceRow(checked);
      setAnnouncement(
        s(checked.status === 'verified' ? 'nowVerified' : 'stillNotVerified', { email: row.email }),
      );
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZMailVerify.safeParse({ emailToVerify: address });
    if (!parsed.success) {
      // the shared schema's first issue: too long, else not an address
      setAddError(
        parsed.error.issues[0]?.message === MESSAGES.tooLong
          ? t('common.tooLong')
          : s('invalidEmail'),
      );
      return;
    }
    setAddError(null);
    setAdding(true);
    try {
      const email = parsed.data.emailToVerify;
      const answer = await requestMailVerify(email);
      setAddress('');
      setAnnouncement(stateText(answer.state, email));
      await list.reload();
    } catch (cause) {
      setAddError(addressFailure(cause));
    } finally {
      setAdding(false);
    }
  };

  const statusText = (row: SenderEmail) =>
    busy[row.email]
      ? s('checking')
      : row.status === 'verified'
        ? s('verified')
        : row.confirmed_at
          ? s('awaitingProvider')
          : s('pending');
  const flag = (row: SenderEmail, value: boolean) =>
    row.checked_at ? s(value ? 'yes' : 'no') : s('notChecked');

  return (
    <section className="sender-emails-page" aria-labelledby="sender-emails-title">
      <h1 id="sender-emails-title" tabIndex={-1}>
        {s('title')}
      </h1>
      <p className="hint">{s('intro')}</p>

      <form className="sender-emails-add" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={s('addLabel')}
          type="email"
          name="email"
          value={address}
          max={SENDER_EMAIL_MAX}
          onChange={(value) => {
            setAddress(value);
            setAddError(null);
          }}
          error={addError ?? undefined}
        />
        <button
          type="submit"
          className="button button-primary"
          disabled={adding || address.trim() === ''}
        >
          {adding ? s('adding') : s('add')}
        </button>
      </form>

      <p className="visually-hidden" role="status" aria-live="polite">
        {link.confirming ? s('confirming') : announcement}
      </p>
      {link.confirming ? <Spinner label={s('confirming')} /> : null}
      {link.result && link.result.state !== 'failed' ? (
        <p className="notice">{linkText(link.result)}</p>
      ) : null}
      {link.result?.state === 'failed' ? <ErrorText>{linkText(link.result)}</ErrorText> : null}
      {announcement ? <p className="notice">{announcement}</p> : null}
      <ErrorText>{rowError}</ErrorText>

      {list.loading && !list.data ? <Spinner /> : null}
      <LoadFailed onRetry={() => void list.reload()}>
        {list.error ? s('loadFailed', { reason: list.error }) : null}
      </LoadFailed>
      <CardTable
        className="sender-emails-table"
        caption={s('listLabel')}
        rows={rows}
        empty={list.data ? s('empty') : null}
        columns={[
          { label: s('address') },
          { label: s('status') },
          { label: <abbr title={s('spfHelp')}>{s('spf')}</abbr> },
          { label: <abbr title={s('dkimHelp')}>{s('dkim')}</abbr> },
          { label: s('actions') },
        ]}
      >
        {(row) => {
          const strict =
            (row.dmarc_policy === 'reject' || row.dmarc_policy === 'quarantine') &&
            !row.dkim_verified;
          return (
            <tr key={row.id}>
              <th scope="row" className="sender-email-address">
                {row.email}
                {row.status !== 'verified' ? (
                  <span className="hint sender-email-next">
                    {row.confirmed_at
                      ? s('awaitingProviderHint', { email: row.email })
                      : s('pendingHint', { email: row.email })}
                  </span>
                ) : null}
                {strict ? (
                  <span className="hint sender-email-dmarc">
                    {s('dmarcPlatform', {
                      domain: domainOf(row.email),
                      policy: row.dmarc_policy,
                      email: row.email,
                    })}
                  </span>
                ) : null}
              </th>
              <td data-label={s('status')}>
                <span className={`status-chip status-${row.status}`}>{statusText(row)}</span>
              </td>
              <td data-label={s('spf')}>{flag(row, row.spf_verified)}</td>
              <td data-label={s('dkim')}>{flag(row, row.dkim_verified)}</td>
              <td>
                <div className="sender-email-actions">
                  {row.status !== 'verified' ? (
                    <>
                      <RowAction
                        label={s('checkAgain')}
                        busy={busy[row.email]}
                        onClick={() => void check(row)}
                      />
                      <RowAction
                        label={s('sendAgain')}
                        busy={busy[row.email]}
                        email={row.email}
                        onClick={() => void sendAgain(row)}
                      />
                    </>
                  ) : (
                    <RowAction
                      label={s('checkSpfDkim')}
                      busy={busy[row.email]}
                      onClick={() =>
                        void run(row.email, async () =>
                          replaceRow(withResult(row, await checkSpfDkim(row.email))),
                        )
                      }
                    />
                  )}
                  <RowAction
                    label={s('delete')}
                    busy={busy[row.email]}
                    email={row.email}
                    danger
                    onClick={() => setToDelete(row)}
                  />
                </div>
              </td>
            </tr>
          );
        }}
      </CardTable>

      <ConfirmDialog
        open={toDelete !== null}
        title={s('deleteTitle', { email: toDelete?.email })}
        confirmLabel={s('delete')}
        onCancel={() => setToDelete(null)}
        errorText={(cause) => s('failed', { reason: addressFailure(cause) })}
        onConfirm={async () => {
          if (!toDelete) return;
          await deleteMailVerified(toDelete.email);
          list.setData((current) => current?.filter((r) => r.id !== toDelete.id));
          setAnnouncement(s('deleted', { email: toDelete.email }));
          setToDelete(null);
        }}
      >
        <p>{s('deleteText')}</p>
      </ConfirmDialog>
    </section>
  );
}

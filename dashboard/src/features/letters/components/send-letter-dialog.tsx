// The Send letter modal (spec sections 4, 5, 8): manual (addresses typed or pasted: separated by
// commas, semicolons, spaces or lines, "Name <address>" taken as the address, repeats counted once,
// the bad entries named; the shared parseRecipients, the schema send-letter checks with; at most
// 100, the remaining quota shown capped at 100, register as audience for paid owners) and audience
// (a group, paid). Each send answers at once with the reserved count; the mails go out from the
// queue.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DialogWithClose } from '../../../components/ui/dialog-with-close';
import { CheckboxField, SelectField } from '../../../components/ui/fields';
import { Spinner } from '../../../components/ui/spinner';
import { TabPanel, Tabs } from '../../../components/ui/tabs';
import { paths } from '../../../config/paths';
import { messageOf } from '../../../lib/errors';
import {
  LETTER_LIMITS,
  LETTER_MESSAGES,
  parseRecipients,
  namedEntries,
} from '@reaction-blocks/contracts/letters';
import { publishLetter, sendLetter, type SendResult } from '../api/letters';
import { letterKeys, useRemainingEmails, useSendGroups } from '../api/queries';
import { firstAddresses } from '../model/draft';
import { letterMessage } from '../model/messages';
import { ErrorText } from '../../../components/ui/error-text';

const MESSAGE_KEYS: Record<string, string> = {
  [LETTER_MESSAGES.emailInvalid]: 'letters.send.error_email',
  [LETTER_MESSAGES.tooManyAddresses]: 'letters.send.error_too_many_addresses',
  [LETTER_MESSAGES.tooManyEntries]: 'letters.send.error_too_many_entries',
  [LETTER_MESSAGES.notEnoughEmails]: 'letters.send.error_not_enough_email',
};

export interface SendLetterDialogProps {
  blockId: string;
  userId: string;
  paid: boolean;
  onClose: () => void;
  /** A send was reserved (the workspace refreshes its counts). */
  onSent?: (result: SendResult) => void;
}

type Mode = 'manual' | 'audience';

export function SendLetterDialog({
  blockId,
  userId,
  paid,
  onClose,
  onSent,
}: SendLetterDialogProps) {
  const { t } = useTranslation();
  const idPrefix = useId();
  const [mode, setMode] = useState<Mode>('manual');
  const [text, setText] = useState('');
  const [register, setRegister] = useState(false);
  const [group, setGroup] = useState('activated');
  const [state, setState] = useState<'idle' | 'loading' | 'done'>('idle');
  const [result, setResult] = useState<SendResult | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const client = useQueryClient();
  const quota = useRemainingEmails(userId);
  const groups = useSendGroups(userId, paid);
  const remaining = quota.data ?? 0;
  const moreButton = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  // bad entries are named once the owner pasted, left the box or pressed Send, not while an
  // address is half typed
  const [checked, setChecked] = useState(false);
  // typing after a paste or a check is half typing again (rev-break D1: an alert at every key)
  const pasted = useRef(false);
  // the form that had the focus is gone: the result's button takes it
  useEffect(() => {
    if (state === 'done') moreButton.current?.focus();
  }, [state]);

  const parsed = useMemo(() => parseRecipients(text), [text]);
  const unique = parsed.emails;
  const badEntries = parsed.invalid.length > 0;
  let problem = badEntries && !checked ? null : parsed.error;
  if (!parsed.error && quota.data !== undefined && (remaining === 0 || unique.length > remaining)) {
    problem = LETTER_MESSAGES.notEnoughEmails;
  }
  const chosen = groups.data?.find((g) => g.name === group);
  // the quota is taken for the addresses that are not skipped (reserve_letter)
  const audienceReach = chosen ? chosen.email_count - chosen.skip_count : 0;
  const audienceDisabled =
    !paid || !chosen || audienceReach === 0 || audienceReach > remaining || state === 'loading';
  // the group reaches more addresses than the month has left: said, not only greyed (rev-uncov3 D6)
  const overQuota = paid && !!chosen && quota.data !== undefined && audienceReach > remaining;
  // the spec caps the shown quota at 100 (a manual send's most); more left is said beside it.
  // The texts format their numbers ({{count, number}}: the language's digit grouping).
  const manualQuota =
    remaining > LETTER_LIMITS.manualMax
      ? t('letters.send.remainingAtOnce', { count: LETTER_LIMITS.manualMax, left: remaining })
      : t('letters.send.remaining', { count: remaining });

  // the server adds to the spec's words: the bad entries ("Email address is invalid: …") or the
  // field ("… (emailList)")
  const translate = (message: string) => {
    const key = Object.keys(MESSAGE_KEYS).find(
      (m) => message === m || message.startsWith(`${m}:`) || message.startsWith(`${m} (`),
    );
    return key ? t(MESSAGE_KEYS[key]!) : letterMessage(t, message);
  };
  // "Not email addresses: "Ann", "x@", "bob" and 4 more", each entry cut to 40 characters
  const problemText = (message: string) => {
    if (message !== LETTER_MESSAGES.emailInvalid || !badEntries) return translate(message);
    const { named, more } = namedEntries(parsed.invalid);
    const entries = named.map((entry) => t('letters.send.entry', { entry })).join(', ');
    const list = more > 0 ? t('letters.send.entriesMore', { list: entries, count: more }) : entries;
    return t('letters.send.error_entries', { count: parsed.invalid.length, list });
  };

  const run = async (call: () => Promise<SendResult>) => {
    setState('loading');
    setServerError(null);
    try {
      const res = await call();
      setResult(res);
      setState('done');
      // the quota is spent and the history has a new send
      void client.invalidateQueries({ queryKey: letterKeys.all(userId) });
      onSent?.(res);
    } catch (cause) {
      setServerError(translate(messageOf(cause)));
      setState('idle');
      // a group deleted meanwhile (another tab): the list read again, without it
      if (messageOf(cause) === LETTER_MESSAGES.noSuchGroup)
        void client.invalidateQueries({ queryKey: letterKeys.groups(userId) });
      // the addresses are what to change: the box takes the focus back
      if (mode === 'manual') field.current?.focus();
    }
  };

  const done =
    state === 'done' && result ? (
      <div className="send-done" role="status">
        <p>
          {result.reservedCount > 0
            ? t('letters.send.done', { count: result.reservedCount })
            : t('letters.send.nothingSent')}
        </p>
        {result.skippedCount > 0 && result.reservedCount > 0 ? (
          <p>{t('letters.send.skipped', { count: result.skippedCount })}</p>
        ) : null}
        <button
          type="button"
          className="button"
          ref={moreButton}
          onClick={() => {
            setState('idle');
            setResult(null);
            setText('');
            setChecked(false);
          }}
        >
          {t('letters.send.more')}
        </button>
      </div>
    ) : null;

  const manual = (
    <div className="send-manual">
      <div className="field">
        <label htmlFor={`${idPrefix}-addresses`}>{t('letters.send.addresses')}</label>
        <textarea
          ref={field}
          id={`${idPrefix}-addresses`}
          className="send-addresses"
          rows={4}
          value={text}
          aria-invalid={text !== '' && !!problem ? true : undefined}
          aria-describedby={`${idPrefix}-hint ${idPrefix}-error`}
          onChange={(e) => {
            setText(e.target.value);
            setChecked(pasted.current);
            pasted.current = false;
          }}
          onPaste={() => {
            pasted.current = true;
            setChecked(true);
          }}
          onBlur={() => setChecked(text.trim() !== '')}
        />
        <p id={`${idPrefix}-hint`} className="hint">
          {t('letters.send.addressesHint')} {quota.data !== undefined ? manualQuota : null}
        </p>
        <p
          id={`${idPrefix}-error`}
          className="error-text"
          role={text !== '' && problem ? 'alert' : undefined}
        >
          {text !== '' && problem ? problemText(problem) : ''}
        </p>
      </div>
      <CheckboxField
        label={t('letters.send.register')}
        checked={register && paid}
        disabled={!paid}
        hint={paid ? undefined : t('letters.send.paidOnly')}
        onChange={setRegister}
      />
      {!paid ? (
        <Link to={paths.profilePlan} className="paid-link">
          {t('letters.send.upgrade')}
        </Link>
      ) : null}
      {unique.length > 0 && !problem ? (
        <p className="hint">
          {t('letters.send.confirm', { count: unique.length, list: firstAddresses(unique) })}
          {parsed.duplicates > 0
            ? ` ${t('letters.send.duplicates', { count: parsed.duplicates })}`
            : null}
        </p>
      ) : null}
      <div className="dialog-inline-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={(unique.length === 0 && !badEntries) || !!problem || state === 'loading'}
          aria-busy={state === 'loading' || undefined}
          onClick={() => {
            if (badEntries) {
              // named now, and announced; the box is where to fix them
              setChecked(true);
              field.current?.focus();
              return;
            }
            void run(() =>
              sendLetter({ blockId, emailList: unique, registerAudience: register && paid }),
            );
          }}
        >
          {state === 'loading' ? t('letters.send.sending') : t('letters.send.submit')}
        </button>
      </div>
    </div>
  );

  const audience = (
    <div className="send-audience">
      {!paid ? (
        <p className="hint">
          {t('letters.send.paidOnly')}{' '}
          <Link to={paths.profilePlan}>{t('letters.send.upgrade')}</Link>
        </p>
      ) : groups.isPending && groups.fetchStatus !== 'idle' ? (
        <Spinner />
      ) : (
        <>
          <SelectField
            label={t('letters.send.group')}
            value={group}
            options={(groups.data ?? []).map((g) => ({
              value: g.name,
              label: g.name === 'activated' ? t('letters.send.everyone') : g.name,
            }))}
            onChange={setGroup}
            hint={chosen ? t('letters.send.groupCount', { count: chosen.email_count }) : undefined}
          />
          {chosen && chosen.skip_count > 0 ? (
            <p className="hint">{t('letters.send.groupSkips', { count: chosen.skip_count })}</p>
          ) : null}
          {chosen && chosen.awaiting_count > 0 ? (
            <p className="hint">
              {t('letters.send.groupAwaiting', { count: chosen.awaiting_count })}
            </p>
          ) : null}
          <p className="hint">
            {quota.data !== undefined ? t('letters.send.remaining', { count: remaining }) : null}
          </p>
          {overQuota ? (
            <ErrorText id={`${idPrefix}-group-error`}>
              {t('letters.send.error_not_enough_email')}{' '}
              <Link to={paths.profilePlan}>{t('letters.send.upgrade')}</Link>
            </ErrorText>
          ) : null}
          <div className="dialog-inline-actions">
            <button
              type="button"
              className="button button-primary"
              aria-describedby={overQuota ? `${idPrefix}-group-error` : undefined}
              disabled={audienceDisabled}
              aria-busy={state === 'loading' || undefined}
              onClick={() => void run(() => publishLetter({ blockId, group }))}
            >
              {state === 'loading' ? t('letters.send.sending') : t('letters.send.audienceSubmit')}
            </button>
          </div>
        </>
      )}
    </div>
  );

  return (
    <DialogWithClose
      open
      title={t('letters.send.title')}
      onClose={onClose}
      className="send-letter-dialog"
      closeTone="plain"
    >
      <Tabs
        label={t('letters.send.tabs')}
        idPrefix={idPrefix}
        items={[
          { id: 'manual', label: t('letters.send.manual') },
          { id: 'audience', label: t('letters.send.audience') },
        ]}
        selected={mode}
        onSelect={(m) => {
          setMode(m);
          setServerError(null);
        }}
      />
      <TabPanel idPrefix={idPrefix} selected={mode} className="send-panel">
        {done ?? (mode === 'manual' ? manual : audience)}
        <ErrorText>{serverError}</ErrorText>
      </TabPanel>
    </DialogWithClose>
  );
}

// The Notification section's word on the saved address (docs/security.md "Notification
// addresses"): an address that is not the owner's own sign-in address, a verified sender or
// already confirmed waits for the link mailed to it, and nothing is mailed before it says yes.
// The section says so and offers to send the link again (at most once a day: the server says
// when it would not). The owner's own address shows nothing. An address on the platform's
// suppression list reads as waiting: another mailbox's refusal is not the owner's to learn.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureReason } from '../../../../lib/errors';
import { useQuery } from '../../../../lib/use-query';
import { supabase } from '../../../../lib/supabase';
import { ErrorText } from '../../../../components/ui/error-text';

export interface NotificationAddressStatus {
  email: string | null;
  /** allowed: own, verified sender or confirmed; waiting: the link is out (or nothing can go) */
  state: 'none' | 'allowed' | 'waiting';
  mailed_at?: string | null;
}

/** The section's calls; tests pass their own. */
export interface NotificationAddressApi {
  status: (blockId: string, signal: AbortSignal) => Promise<NotificationAddressStatus>;
  resend: (blockId: string) => Promise<{ sent: boolean }>;
}

export const supabaseNotificationAddressApi: NotificationAddressApi = {
  status: async (blockId, signal) => {
    const { data, error } = await supabase
      .rpc('notification_address_status', { p_block_id: blockId })
      .abortSignal(signal);
    if (error) throw error;
    return data as unknown as NotificationAddressStatus;
  },
  resend: async (blockId) => {
    const { data, error } = await supabase.rpc('resend_notification_confirmation', {
      p_block_id: blockId,
    });
    if (error) throw error;
    return data as unknown as { sent: boolean };
  },
};

/** The status's query: the workspace reloads it after each save. */
export const notificationAddressKey = (blockId: string) => [
  'workspace',
  'notification-address',
  blockId,
];

export function NotificationAddress({
  blockId,
  mailTo,
  api = supabaseNotificationAddressApi,
}: {
  blockId: string;
  /** The address in the draft: the note is about the saved one only while they agree. */
  mailTo: string;
  api?: NotificationAddressApi;
}) {
  const { t: n } = useTranslation(undefined, { keyPrefix: 'workspace.notificationAddress' });
  const status = useQuery(notificationAddressKey(blockId), (signal) => api.status(blockId, signal));
  const [resent, setResent] = useState<'sent' | 'limited' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const data = status.data;
  if (!data?.email || data.email.toLowerCase() !== mailTo.toLowerCase()) return null;

  if (data.state !== 'waiting') return null;

  const resend = async () => {
    setBusy(true);
    setError(null);
    try {
      const { sent } = await api.resend(blockId);
      setResent(sent ? 'sent' : 'limited');
    } catch (cause) {
      setError(failureReason(cause));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="notice" role="status">
      <p>{n('waiting', { email: data.email })}</p>
      <button type="button" className="button" onClick={resend} disabled={busy || resent !== null}>
        {n('resend')}
      </button>
      {resent ? <p>{n(resent)}</p> : null}
      <ErrorText>{error}</ErrorText>
    </div>
  );
}

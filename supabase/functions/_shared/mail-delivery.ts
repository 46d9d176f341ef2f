// What every job that sends a mail shares: the platform's sender and the delivery that turns
// the provider's answer into the job's outcome, and the platform's own mails to one address. Its own module so that the job handlers
// (job-handlers.ts, plan-jobs.ts) and the letter functions use it without importing each other.
import { optionalEnv } from './env.ts';
import type { ClaimedJob, Delivery, MailRecord, Outcome } from './jobs.ts';
import type { OutgoingMail } from './mail.ts';
import { MailError } from './mail-errors.ts';

/** The platform's own sender (a verified SES identity). */
export function platformSender(): { address: string; name: string } {
  return {
    address: optionalEnv('MAIL_FROM', 'notify@reaction-blocks.local'),
    name: optionalEnv('MAIL_FROM_NAME', 'Reaction Blocks'),
  };
}

/** Sends one prepared mail and turns the provider's answer into the job's outcome. */
export function mailDelivery(
  send: (mail: OutgoingMail) => Promise<{ messageId: string }>,
  mail: OutgoingMail,
  record: Omit<MailRecord, 'provider_message_id'>,
  result: Record<string, unknown> = {},
): Delivery {
  return {
    async deliver(): Promise<Outcome> {
      try {
        const { messageId } = await send(mail);
        return {
          status: 'done',
          result: { ...result, message_id: messageId },
          mail: { ...record, provider_message_id: messageId },
        };
      } catch (err) {
        const e = err instanceof MailError ? err : new MailError(String(err), 'unknown');
        if (e.outcome === 'retry')
          return { status: 'retry', error: e.message, retry_in: e.retryAfterSeconds };
        if (e.outcome === 'rejected') return { status: 'failed', error: e.message };
        return { status: 'unknown', error: e.message, mail: record };
      }
    },
  };
}

/**
 * A mail from the platform's sender to one address, for `job` (notifications, quota notices, plan
 * mails, confirmation mails): tagged with the job's kind ('notify.owner' -> notify_owner) and id,
 * recorded with its kind and the owner (`record`) it concerns.
 */
export function platformMailDelivery(
  send: (mail: OutgoingMail) => Promise<{ messageId: string }>,
  job: ClaimedJob,
  mail: { to: string; subject: string; html: string; headers?: Record<string, string> },
  record: Pick<MailRecord, 'user_id' | 'block_id'>,
  result: Record<string, unknown> = {},
): Delivery {
  const sender = platformSender();
  return mailDelivery(
    send,
    {
      from: sender.address,
      fromName: sender.name,
      to: [mail.to],
      subject: mail.subject,
      html: mail.html,
      headers: mail.headers,
      tags: { kind: job.kind.replace('.', '_'), job: String(job.id) },
    },
    { to: mail.to, from: sender.address, subject: mail.subject, kind: job.kind, ...record },
    result,
  );
}

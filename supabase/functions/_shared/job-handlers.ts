// The handler of each job kind the worker knows. A kind without a handler here is never claimed
// by this worker (claim_jobs takes the list of kinds).
import type { Delivery, JobHandler, MailRecord, Outcome } from './jobs.ts';
import { MailError, type OutgoingMail } from './mail.ts';
import { optionalEnv, siteUrl } from './env.ts';
import { renderNotification, type NotificationContext } from './notification-mail.ts';
import { listUnsubscribeHeaders, unsubscribeLinks } from './unsubscribe-token.ts';

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

const notification: JobHandler = {
  async prepare(job, { db, mailer }) {
    const merged = await db.rpc('merge_job_group', { p_job_id: job.id });
    if (merged.error) throw new Error(merged.error.message);
    const { payloads, defer_until } = merged.data as {
      payloads: unknown[];
      defer_until: string | null;
    };
    if (defer_until) return { status: 'defer', run_at: defer_until };

    const res = await db.rpc('notification_context', { p_kind: job.kind, p_payloads: payloads });
    if (res.error) throw new Error(res.error.message);
    const ctx = res.data as NotificationContext & { skip?: string };
    if (ctx.skip) return { status: 'done', result: { skipped: ctx.skip } };

    const links = await unsubscribeLinks({ s: ctx.scope, e: ctx.to, b: ctx.block.id });
    const open =
      ctx.scope === 'owner'
        ? `${siteUrl()}/work/${ctx.block.id}${['form', 'ab', 'like', 'button'].includes(ctx.block.type) ? '/result' : ''}`
        : ctx.block.embeded_url && /^https?:\/\//i.test(ctx.block.embeded_url)
          ? ctx.block.embeded_url
          : `${siteUrl()}/block/?id=${ctx.block.owner_id}&block_id=${ctx.block.id}`;
    const rendered = renderNotification(ctx, { open, unsubscribe: links.page });
    const sender = platformSender();
    return mailDelivery(
      (mail) => mailer.send(mail),
      {
        from: sender.address,
        fromName: sender.name,
        to: [ctx.to],
        subject: rendered.subject,
        html: rendered.html,
        headers: listUnsubscribeHeaders(links.oneClick),
        tags: { kind: job.kind.replace('.', '_'), job: String(job.id) },
      },
      {
        to: ctx.to,
        from: sender.address,
        subject: rendered.subject,
        kind: job.kind,
        user_id: ctx.owner_id,
        block_id: ctx.block.id,
      },
      { items: ctx.total },
    );
  },
};

export const handlers: Record<string, JobHandler> = {
  'notify.owner': notification,
  'notify.reply': notification,
};

// The handler of each job kind the worker knows. A kind without a handler here is never claimed
// by this worker (claim_jobs takes the list of kinds).
import { rpc, type ClaimedJob, type Delivery, type JobHandler, type Outcome } from './jobs.ts';
import type { OutgoingMail } from './mail.ts';
import { siteUrl } from './env.ts';
import { mailDelivery, platformMailDelivery } from './mail-delivery.ts';
import { renderNotification, type NotificationContext } from './notification-mail.ts';
import { listUnsubscribeHeaders, unsubscribeLinks } from './unsubscribe-token.ts';
import { planJobHandlers } from './plan-jobs.ts';
import { notionHandler } from './notion-jobs.ts';
import { cafe24JobHandlers } from './cafe24-jobs.ts';
import { webhookJobHandlers } from './webhook-jobs.ts';
import { letterDocument, letterFooter } from './letter/render.ts';
import { letterTriggerHandler } from './letter/trigger-jobs.ts';
import { renderQuotaNotice, type QuotaNoticeContext } from './quota-mail.ts';
import { confirmMailHandler } from './confirm-mail.ts';
import { senderReleaseHandler } from './sender-emails.ts';

interface PreparedNotification {
  id: number;
  defer_until?: string;
  context?: NotificationContext & { skip?: string };
}

/** Where a notification's button leads: the workspace (owner) or the page (commenter). */
function openLink(ctx: NotificationContext): string {
  if (ctx.scope === 'owner') {
    const results = ['form', 'ab', 'like', 'button'].includes(ctx.block.type) ? '/result' : '';
    return `${siteUrl()}/work/${ctx.block.id}${results}`;
  }
  return ctx.block.embeded_url && /^https?:\/\//i.test(ctx.block.embeded_url)
    ? ctx.block.embeded_url
    : `${siteUrl()}/block/?id=${ctx.block.owner_id}&block_id=${ctx.block.id}`;
}

async function notificationMail(
  job: ClaimedJob,
  ctx: NotificationContext,
  send: (mail: OutgoingMail) => Promise<{ messageId: string }>,
): Promise<Delivery> {
  // the owner too: an owner-scope unsubscribe holds for all their blocks, even once this one is gone
  const links = await unsubscribeLinks({
    s: ctx.scope,
    e: ctx.to,
    b: ctx.block.id,
    u: ctx.owner_id,
  });
  const rendered = renderNotification(ctx, { open: openLink(ctx), unsubscribe: links.page });
  return platformMailDelivery(
    send,
    job,
    { to: ctx.to, ...rendered, headers: listUnsubscribeHeaders(links.oneClick) },
    { user_id: ctx.owner_id, block_id: ctx.block.id },
    { items: ctx.total },
  );
}

/** notify.owner and notify.reply: digests of new messages and responses (one call per batch). */
const notification: JobHandler = {
  async prepare(jobs, { db, mailer }) {
    const prepared = await rpc<PreparedNotification[]>(db, 'prepare_notification_jobs', {
      p_job_ids: jobs.map((j) => j.id),
    });
    const byId = new Map(prepared.map((p) => [p.id, p]));
    const send = (mail: OutgoingMail) => mailer.send(mail);
    return Promise.all(
      jobs.map(async (job): Promise<Outcome | Delivery> => {
        const prepared = byId.get(job.id);
        // the lease was lost meanwhile: finish_jobs ignores whatever we answer
        if (!prepared) return { status: 'retry', error: 'the job was no longer running' };
        if (prepared.defer_until) return { status: 'defer', run_at: prepared.defer_until };
        const ctx = prepared.context!;
        if (ctx.skip) return { status: 'done', result: { skipped: ctx.skip } };
        return notificationMail(job, ctx, send);
      }),
    );
  },
};

// ---------------------------------------------------------------------------------------------
// letter: one job per recipient of a letter send (issue 11; public.reserve_letter enqueues them
// with the dedupe key letter:<delivery id>). One prepare_letter_jobs call per batch reads every
// recipient and, once per send, the letter; each mail gets its own footer and unsubscribe link.
// The `delivery` tag comes back in SES's events, which settles a mail the worker lost track of.

interface PreparedLetterJob {
  id: number;
  delivery_id?: string;
  publish_id?: string;
  to?: string;
  name?: string;
  skip?: string;
}

interface LetterSend {
  id: string;
  block_id: string;
  user_id: string;
  subject: string;
  html: string;
  text: string | null;
  from: string;
  from_name: string | null;
  reply_to: string | null;
  language: string;
  owner_name: string | null;
}

const letter: JobHandler = {
  async prepare(jobs, { db, mailer }) {
    const prepared = await rpc<{ jobs: PreparedLetterJob[]; publishes: LetterSend[] }>(
      db,
      'prepare_letter_jobs',
      { p_job_ids: jobs.map((j) => j.id) },
    );
    const byId = new Map(prepared.jobs.map((p) => [p.id, p]));
    const sends = new Map(prepared.publishes.map((p) => [p.id, p]));
    return Promise.all(
      jobs.map(async (job): Promise<Outcome | Delivery> => {
        const p = byId.get(job.id);
        if (!p) return { status: 'retry', error: 'the job was no longer running' };
        if (p.skip) return { status: 'done', result: { skipped: p.skip } };
        const send = sends.get(p.publish_id!);
        if (!send || !p.to || !p.delivery_id)
          return { status: 'failed', error: 'the send is gone' };
        const lang = send.language === 'ko' ? 'ko' : 'en';
        const links = await unsubscribeLinks({
          s: 'letter',
          e: p.to,
          b: send.block_id,
          u: send.user_id,
        });
        const footer = letterFooter(lang, send.from_name || send.owner_name || '', links.page);
        return mailDelivery(
          (mail) => mailer.send(mail),
          {
            from: send.from,
            fromName: send.from_name ?? undefined,
            to: [p.to],
            replyTo: send.reply_to ? [send.reply_to] : undefined,
            subject: send.subject,
            html: letterDocument(lang, send.subject, send.html, footer.html),
            text: `${send.text ?? ''}\n\n${footer.text}`,
            headers: listUnsubscribeHeaders(links.oneClick),
            tags: { kind: 'letter', delivery: p.delivery_id, job: String(job.id) },
          },
          {
            to: p.to,
            from: send.from,
            subject: send.subject,
            kind: 'letter',
            user_id: send.user_id,
            sender_user_id: send.user_id,
            block_id: send.block_id,
            delivery_id: p.delivery_id,
          },
          { delivery_id: p.delivery_id },
        );
      }),
    );
  },
};

// ---- quota.notice: the owner's monthly response quota at 80 % and 100 % (issue 9) -----------

/** One mail per job, in the owner's language; {skip} when there is no address to mail. */
const quotaNotice: JobHandler = {
  async prepare(jobs, { db, mailer }) {
    const contexts = await rpc<Array<QuotaNoticeContext & { skip?: string }>>(
      db,
      'quota_notice_context',
      { p_payloads: jobs.map((j) => j.payload) },
    );
    return jobs.map((job, i): Outcome | Delivery => {
      const ctx = contexts[i];
      if (!ctx) return { status: 'retry', error: 'no context for the job' };
      if (ctx.skip) return { status: 'done', result: { skipped: ctx.skip } };
      const rendered = renderQuotaNotice(ctx, `${siteUrl()}/profile/plan`);
      return platformMailDelivery(
        (mail) => mailer.send(mail),
        job,
        { to: ctx.to, ...rendered },
        { user_id: ctx.user_id },
        { level: ctx.level },
      );
    });
  },
};

export const handlers: Record<string, JobHandler> = {
  'notify.owner': notification,
  'notify.reply': notification,
  // plans: reconcile, schedule-renewal, revoke-schedule, renewal-check, mail (plan-jobs.ts)
  ...planJobHandlers,
  notion: notionHandler,
  letter,
  // the letter a form response sends by itself: reserves a `letter` job (letter/trigger-jobs.ts)
  'letter.trigger': letterTriggerHandler,
  'quota.notice': quotaNotice,
  // double opt-in: the mail asking an address a visitor typed to confirm (confirm-mail.ts)
  'confirm.mail': confirmMailHandler,
  // Cafe24: sync (the loader's script tag), refresh (keep the refresh token alive)
  ...cafe24JobHandlers,
  // outgoing webhooks: one signed POST per delivery, retried on a schedule (webhook-jobs.ts)
  ...webhookJobHandlers,
  // the SES identity of a sender address that went with its owner's account (sender-emails.ts)
  'sender.release': senderReleaseHandler,
};

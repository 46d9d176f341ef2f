// The mail that asks an address a visitor typed to confirm (double opt-in, issue 17;
// schemas/mail-consent.sql): reply notifications of a comment block, or an owner's letters after
// a form, or an owner's notification address (a block's mail_to that is not the owner's own). In
// the language of the visitor who asked (en, ko: start_mail_consent), its link's page
// too (the link's `locale`), in the layout of the notification mails.
// It carries no free text of a visitor's or an owner's: an owner can pose as their own visitor
// and type anyone's address into their own form or comment block, so a block name, a site taken
// from the block's url or a profile name would be their advert in the platform's mail
// (docs/security.md "Addresses a visitor typed"). The subject is fixed; the body says what asked
// in the platform's words and names only the address the mails would come from (letters: the
// owner's verified sender address, which they proved theirs; else, and for replies and
// notifications, the platform's) and, for a notification address, the owner's sign-in address
// (who asked). The /confirm-email page says the same and no more. No site: the server keeps no page the visitor
// submitted from, and an Origin header is whatever the caller sends. Two links, both to the
// /confirm-email page with a single-use token: confirm, or "not me" (the address then gets
// nothing more from the platform).
import type { ClaimedJob, Delivery, JobHandler, Outcome } from './jobs.ts';
import { siteUrl } from './env.ts';
import { platformMailDelivery, platformSender } from './mail-delivery.ts';
import {
  button,
  escapeHtml,
  langOf,
  paragraph as p,
  platformMail,
  textsIn,
  type RenderedMail,
} from './notification-mail.ts';
import { newConfirmationToken } from './sender-emails.ts';

export interface ConfirmMailContext {
  to: string;
  scope: 'reply' | 'letters' | 'notify';
  language: string;
  block: { id: string };
  owner_id: string | null;
  /** letters: the owner's verified sender address the letters would come from; null: the platform's. */
  sender: string | null;
  /** notify: the owner's sign-in address (who asked). */
  owner_email?: string | null;
}

/** One line, at most 100 characters. */
const oneLine = (text: string | null | undefined, fallback: string) =>
  (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 100) || fallback;

const TEXTS = {
  en: {
    replySubject: 'Confirm reply notifications for a comment',
    replyAsked:
      'Someone left this address with a comment on a site that uses Reaction Blocks, to be told of replies.',
    replyHow:
      'If it was you, confirm below: from then on, replies to your comments on that site are mailed to you. Until then none are.',
    lettersSubject: 'Confirm that you want to receive letters',
    lettersAsked:
      'This address was given in a form on a site that uses Reaction Blocks. The site’s owner would like to send you letters.',
    lettersHow:
      'If it was you and you want them, confirm below. Until then no letter is sent to you.',
    fromOwner: (sender: string) =>
      `The letters would come from ${sender}, an address the site’s owner proved is theirs.`,
    fromUs: (sender: string) =>
      `The mails would come from ${sender}, the address of Reaction Blocks.`,
    notifySubject: 'Confirm notification mails from Reaction Blocks',
    notifyAsked: (owner: string) =>
      `The Reaction Blocks account ${owner} asked to have the notifications of its blocks (new comments and responses) mailed to this address.`,
    notifyHow:
      'If you want them, confirm below. Until then none are sent; if you did not expect this, choose “Not me”.',
    confirm: 'Yes, confirm',
    notMe: 'Not me: send nothing more to this address',
    expires: 'The link works once, within 7 days. Without it nothing is sent.',
    footer:
      'Reaction Blocks sends this mail once for the site that asked; it sends at most one such mail a day to an address.',
    someone: 'The site’s owner',
  },
  ko: {
    replySubject: '댓글 답글 알림을 확인해 주세요',
    replyAsked:
      '누군가 Reaction Blocks를 쓰는 사이트에 댓글을 남기며 답글 알림을 받을 주소로 이 주소를 적었습니다.',
    replyHow:
      '본인이라면 아래에서 확인해 주세요. 그때부터 그 사이트에서 쓴 댓글에 달린 답글을 메일로 알려 드립니다. 확인 전에는 보내지 않습니다.',
    lettersSubject: '레터를 받을지 확인해 주세요',
    lettersAsked:
      'Reaction Blocks를 쓰는 사이트의 양식에 이 주소가 입력되었습니다. 사이트 운영자가 레터를 보내려고 합니다.',
    lettersHow:
      '본인이고 받기를 원하시면 아래에서 확인해 주세요. 확인 전에는 레터를 보내지 않습니다.',
    fromOwner: (sender: string) =>
      `레터는 사이트 운영자가 본인 소유임을 확인한 주소 ${sender}에서 발송됩니다.`,
    fromUs: (sender: string) => `메일은 Reaction Blocks의 주소 ${sender}에서 발송됩니다.`,
    notifySubject: 'Reaction Blocks 알림 메일 수신을 확인해 주세요',
    notifyAsked: (owner: string) =>
      `Reaction Blocks 계정 ${owner}이(가) 자신의 블록 알림(새 댓글과 응답)을 이 주소로 받겠다고 요청했습니다.`,
    notifyHow:
      '받기를 원하시면 아래에서 확인해 주세요. 확인 전에는 보내지 않습니다. 요청한 적이 없다면 “본인이 아닙니다”를 눌러 주세요.',
    confirm: '네, 확인합니다',
    notMe: '본인이 아닙니다: 이 주소로 더 보내지 마세요',
    expires: '링크는 7일 안에 한 번만 쓸 수 있습니다. 링크를 열지 않으면 아무것도 보내지 않습니다.',
    footer:
      'Reaction Blocks가 요청한 사이트를 대신해 이 메일을 한 번 보냅니다. 한 주소에는 하루에 한 통까지만 보냅니다.',
    someone: '사이트 운영자',
  },
} as const;

export function renderConfirmMail(
  c: ConfirmMailContext,
  links: { confirm: string; notMe: string },
): RenderedMail {
  const { lang, t } = textsIn(TEXTS, c.language);
  // where the mails would come from: an address the owner proved, or ours (the page says the same)
  const from = p(
    c.scope === 'letters' && c.sender ? t.fromOwner(c.sender) : t.fromUs(platformSender().address),
  );
  const [subject, body] =
    c.scope === 'notify'
      ? [
          t.notifySubject,
          p(t.notifyAsked(oneLine(c.owner_email, t.someone))) + from + p(t.notifyHow),
        ]
      : c.scope === 'reply'
        ? [t.replySubject, p(t.replyAsked) + from + p(t.replyHow)]
        : [t.lettersSubject, p(t.lettersAsked) + from + p(t.lettersHow)];
  const notMe = `<p style="margin:16px 0 0;font-size:13px"><a href="${escapeHtml(links.notMe)}" style="color:#6b6b6b">${escapeHtml(t.notMe)}</a></p>`;
  return platformMail(
    lang,
    subject,
    `${body}${button(links.confirm, t.confirm)}${notMe}<div style="height:12px"></div>${p(t.expires)}`,
    t.footer,
  );
}

type Started = ConfirmMailContext & { skip?: string; defer_until?: string };

/** confirm.mail: one mail per job, with a token made here whose hash start_mail_consent keeps. */
export const confirmMailHandler: JobHandler = {
  prepare(jobs: ClaimedJob[], { db, mailer }) {
    return Promise.all(
      jobs.map(async (job): Promise<Outcome | Delivery> => {
        const { token, hash } = await newConfirmationToken();
        const { data, error } = await db.rpc('start_mail_consent', {
          p_job_id: job.id,
          p_token_hash: hash,
        });
        if (error) return { status: 'retry', error: `start_mail_consent: ${error.message}` };
        const ctx = data as Started;
        if (ctx.skip) return { status: 'done', result: { skipped: ctx.skip } };
        if (ctx.defer_until) return { status: 'defer', run_at: ctx.defer_until };
        // the page answers in the language of the visitor who asked (the mail's too)
        const page = `${siteUrl()}/confirm-email?token=${encodeURIComponent(token)}&locale=${langOf(ctx.language)}`;
        const rendered = renderConfirmMail(ctx, { confirm: page, notMe: `${page}&answer=not-me` });
        return platformMailDelivery(
          (mail) => mailer.send(mail),
          job,
          { to: ctx.to, ...rendered },
          { user_id: ctx.owner_id ?? undefined, block_id: ctx.block.id },
          { scope: ctx.scope },
        );
      }),
    );
  },
};

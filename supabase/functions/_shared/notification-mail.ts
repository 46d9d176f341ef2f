// Notification mails: the owner's "new responses" digest (mailTo) and the commenter's "new
// replies" digest (allowCreatorEmail), in the recipient's language (en, ko). Every value from a
// visitor is escaped; the layout is a single 600 px table that mail clients render alike.
import type { TLanguage, TResponseKind } from '@reaction-blocks/contracts/enums';

export type Lang = TLanguage;

export interface NotificationItem {
  item: 'message' | 'response';
  id: string;
  kind?: TResponseKind;
  content?: string;
  creator_name?: string | null;
  is_reply?: boolean;
  is_owner?: boolean;
  created_at: string;
  answers?: Array<{ title: string | null; value: unknown }>;
}

export interface NotificationContext {
  to: string;
  scope: 'owner' | 'reply';
  language: string;
  owner_id: string;
  owner_name: string;
  block: { id: string; name: string; type: string; owner_id: string; embeded_url: string | null };
  parent: { id: string; content: string; creator_name: string | null; created_at: string } | null;
  items: NotificationItem[];
  total: number;
}

export interface RenderedMail {
  subject: string;
  html: string;
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escaped text with its line breaks kept. */
const withBreaks = (text: unknown) => escapeHtml(text).replace(/\r?\n/g, '<br>');

/** YY.MM.DD HH:mm in UTC (the spec's date format; the recipient's zone is not known). */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCFullYear() % 100)}.${two(d.getUTCMonth() + 1)}.${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** What a digest counts: comments (and replies), questions, or responses of any kind. */
type Noun = 'comments' | 'questions' | 'responses';
const KO_NOUN: Record<Noun, string> = { comments: '댓글', questions: '질문', responses: '응답' };

function nounOf(items: NotificationItem[], blockType: string): Noun {
  if (items.some((i) => i.item !== 'message')) return 'responses';
  return blockType === 'qna' ? 'questions' : 'comments';
}

const TEXTS = {
  en: {
    anonymous: 'Someone',
    owner: 'Owner',
    message: 'New comment',
    question: 'New question',
    reply: 'New reply',
    form: 'New response',
    ab: 'New vote',
    like: 'New like',
    button: 'New click',
    subjectOne: (what: string, block: string) => `${what} on “${block}”`,
    subjectMany: (n: number, block: string, noun: Noun) => `${n} new ${noun} on “${block}”`,
    replySubject: (n: number, block: string) =>
      n === 1
        ? `New reply to your comment on “${block}”`
        : `${n} new replies to your comment on “${block}”`,
    intro: (n: number, noun: Noun) =>
      n === 1 ? 'Your block has a new response.' : `Your block has ${n} new ${noun}.`,
    more: (n: number) => `and ${n} more`,
    open: 'Open in the dashboard',
    replyIntro: 'Someone replied to what you wrote:',
    openPage: 'See the conversation',
    whyOwner: (to: string, block: string) =>
      `You get this mail because ${to} is the notification address of “${block}”.`,
    whyReply: (block: string) =>
      `You get this mail because you left your address with a comment on “${block}”.`,
    unsubscribe: 'Unsubscribe',
    vote: 'Voted',
    clicked: 'Clicked the button',
    liked: 'Liked it',
  },
  ko: {
    anonymous: '누군가',
    owner: '관리자',
    message: '새 댓글',
    question: '새 질문',
    reply: '새 답글',
    form: '새 응답',
    ab: '새 투표',
    like: '새 좋아요',
    button: '새 클릭',
    subjectOne: (what: string, block: string) => `“${block}”에 ${what}`,
    subjectMany: (n: number, block: string, noun: Noun) =>
      `“${block}”에 새 ${KO_NOUN[noun]} ${n}개`,
    replySubject: (n: number, block: string) =>
      n === 1 ? `“${block}”에 남긴 댓글에 새 답글` : `“${block}”에 남긴 댓글에 새 답글 ${n}개`,
    intro: (n: number, noun: Noun) =>
      n === 1 ? '블록에 새 응답이 있습니다.' : `블록에 새 ${KO_NOUN[noun]}이 ${n}개 있습니다.`,
    more: (n: number) => `외 ${n}개`,
    open: '대시보드에서 보기',
    replyIntro: '남기신 글에 답글이 달렸습니다:',
    openPage: '대화 보기',
    whyOwner: (to: string, block: string) =>
      `${to} 주소가 “${block}”의 알림 이메일로 설정되어 있어 이 메일을 보냅니다.`,
    whyReply: (block: string) =>
      `“${block}”에 댓글을 남기며 이메일 주소를 알려 주셔서 이 메일을 보냅니다.`,
    unsubscribe: '수신 거부',
    vote: '투표함',
    clicked: '버튼을 누름',
    liked: '좋아요를 누름',
  },
} as const;

type Texts = (typeof TEXTS)[Lang];

export const langOf = (value: string | undefined): Lang => (value === 'ko' ? 'ko' : 'en');

/** A mail's language (Korean for a Korean reader, else English) and its texts in that language. */
export function textsIn<T extends Record<Lang, unknown>>(
  texts: T,
  language: string | undefined,
): { lang: Lang; t: T[Lang] } {
  const lang = langOf(language);
  return { lang, t: texts[lang] };
}

function itemLabel(t: Texts, item: NotificationItem, blockType: string): string {
  if (item.item === 'message')
    return item.is_reply ? t.reply : blockType === 'qna' ? t.question : t.message;
  return t[item.kind ?? 'form'];
}

function answerText(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  if (value === null || value === undefined || value === '') return '—';
  return String(value);
}

function itemHtml(t: Texts, item: NotificationItem, blockType: string): string {
  const who = item.is_owner ? t.owner : item.creator_name || t.anonymous;
  const head = `<p style="margin:0 0 4px;color:#6b6b6b;font-size:13px">${escapeHtml(itemLabel(t, item, blockType))} · <strong style="color:#1f1f1f">${escapeHtml(who)}</strong> · ${escapeHtml(formatTime(item.created_at))}</p>`;
  let body = '';
  if (item.item === 'message') {
    body = `<p style="margin:0;font-size:15px;line-height:1.5;color:#1f1f1f">${withBreaks(item.content)}</p>`;
  } else if (item.kind === 'like') {
    body = `<p style="margin:0;font-size:15px">${escapeHtml(t.liked)}</p>`;
  } else if (item.kind === 'button') {
    body = `<p style="margin:0;font-size:15px">${escapeHtml(t.clicked)}</p>`;
  } else {
    const rows = (item.answers ?? [])
      .map(
        (a) =>
          `<tr><td style="padding:2px 12px 2px 0;color:#6b6b6b;font-size:14px;vertical-align:top">${escapeHtml(a.title ?? '')}</td><td style="padding:2px 0;font-size:14px;color:#1f1f1f">${withBreaks(answerText(a.value))}</td></tr>`,
      )
      .join('');
    body = rows
      ? `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse">${rows}</table>`
      : `<p style="margin:0;font-size:15px">${escapeHtml(item.kind === 'ab' ? t.vote : '—')}</p>`;
  }
  return `<tr><td style="padding:14px 0;border-top:1px solid #ececec">${head}${body}</td></tr>`;
}

/** The 600 px single-table layout every platform mail uses (notifications, plan mails). */
export function layout(lang: Lang, title: string, inner: string, footer: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="margin:0;padding:0;background:#f5f5f5"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f5f5"><tr><td align="center" style="padding:24px 12px"><table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px;font-family:-apple-system,'Segoe UI',Roboto,'Apple SD Gothic Neo','Malgun Gothic',sans-serif"><tr><td style="padding:24px 28px">${inner}</td></tr></table><table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px"><tr><td style="padding:16px 28px;color:#8a8a8a;font-size:12px;line-height:1.5;font-family:sans-serif">${footer}</td></tr></table></td></tr></table></body></html>`;
}

/** A paragraph of a platform mail's text. */
export const paragraph = (text: string) =>
  `<p style="margin:0 0 12px;font-size:15px;line-height:1.55;color:#1f1f1f">${escapeHtml(text)}</p>`;

/** A platform mail: its subject as the heading over `body`, in the layout, with a text footer. */
export function platformMail(
  lang: Lang,
  subject: string,
  body: string,
  footer: string,
): RenderedMail {
  const inner = `<h1 style="margin:0 0 12px;font-size:18px;color:#1f1f1f">${escapeHtml(subject)}</h1>${body}`;
  return { subject, html: layout(lang, subject, inner, escapeHtml(footer)) };
}

/** A quiet link under a mail's button ("Not me"). */
export const smallLink = (href: string, label: string) =>
  `<p style="margin:16px 0 0;font-size:13px"><a href="${escapeHtml(href)}" style="color:#6b6b6b">${escapeHtml(label)}</a></p>`;

export function button(href: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin-top:20px"><tr><td style="background:#1f1f1f;border-radius:6px"><a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;color:#ffffff;text-decoration:none;font-size:14px">${escapeHtml(label)}</a></td></tr></table>`;
}

export interface Links {
  /** Where the button goes (the workspace for owners, the page for commenters). */
  open: string;
  unsubscribe: string;
}

export function renderNotification(ctx: NotificationContext, links: Links): RenderedMail {
  const { lang, t } = textsIn(TEXTS, ctx.language);
  // one line: the name goes into the subject, a header (save-block lets a name hold line breaks)
  const blockName = (ctx.block.name ?? '').replace(/\s+/g, ' ').trim() || 'Untitled';
  const items = ctx.items;
  const more = ctx.total - items.length;
  const list = items.map((item) => itemHtml(t, item, ctx.block.type)).join('');
  const moreRow =
    more > 0
      ? `<tr><td style="padding:8px 0;color:#6b6b6b;font-size:13px">${escapeHtml(t.more(more))}</td></tr>`
      : '';
  const unsubscribe = `<a href="${escapeHtml(links.unsubscribe)}" style="color:#8a8a8a">${escapeHtml(t.unsubscribe)}</a>`;

  if (ctx.scope === 'reply') {
    const subject = t.replySubject(ctx.total, blockName);
    const parent = ctx.parent
      ? `<p style="margin:0 0 12px;padding:10px 12px;background:#f7f7f7;border-radius:6px;font-size:14px;color:#444">${withBreaks(ctx.parent.content)}</p>`
      : '';
    const inner = `<h1 style="margin:0 0 12px;font-size:18px;color:#1f1f1f">${escapeHtml(subject)}</h1><p style="margin:0 0 8px;font-size:14px;color:#444">${escapeHtml(t.replyIntro)}</p>${parent}<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${list}${moreRow}</table>${button(links.open, t.openPage)}`;
    return {
      subject,
      html: layout(lang, subject, inner, `${escapeHtml(t.whyReply(blockName))} ${unsubscribe}`),
    };
  }

  const first = items[items.length - 1]!;
  const noun = nounOf(items, ctx.block.type);
  const subject =
    ctx.total === 1
      ? t.subjectOne(itemLabel(t, first, ctx.block.type), blockName)
      : t.subjectMany(ctx.total, blockName, noun);
  const inner = `<h1 style="margin:0 0 6px;font-size:18px;color:#1f1f1f">${escapeHtml(subject)}</h1><p style="margin:0 0 8px;font-size:14px;color:#444">${escapeHtml(t.intro(ctx.total, noun))}</p><table role="presentation" width="100%" cellpadding="0" cellspacing="0">${list}${moreRow}</table>${button(links.open, t.open)}`;
  return {
    subject,
    html: layout(
      lang,
      subject,
      inner,
      `${escapeHtml(t.whyOwner(ctx.to, blockName))} ${unsubscribe}`,
    ),
  };
}

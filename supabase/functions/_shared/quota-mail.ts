// The owner's monthly response quota mails (job quota.notice): one when this month's count
// reaches 80 % of the limit, one when it reaches the limit, in the owner's language (en, ko).
// An account mail to the owner's own address: no unsubscribe link (it says what their visitors
// are about to meet, which they cannot learn otherwise).
import { escapeHtml, textsIn, type Lang } from './notification-mail.ts';

export interface QuotaNoticeContext {
  to: string;
  user_id: string;
  language: string;
  name: string | null;
  level: 80 | 100;
  /** the first day of the month the count belongs to (YYYY-MM-DD) */
  month: string;
  count: number;
  limit: number;
}

const TEXTS = {
  en: {
    subject80: 'You have used 80% of this month’s responses',
    subject100: 'This month’s responses are used up',
    hello: (name: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    used: (count: number, limit: number, month: string) =>
      `Your blocks have received ${count} of the ${limit} responses your plan includes for ${month}.`,
    next80:
      'When the limit is reached, visitors’ form submissions and votes are refused until the first of next month.',
    next100:
      'From now until the first of next month, visitors who submit a form or vote on any of your blocks see “Monthly response limit reached”. Comments, questions, likes and clicks are not counted.',
    cta: 'See plans',
    why: 'You get this mail because you own these blocks. It is sent at most twice a month.',
  },
  ko: {
    subject80: '이번 달 응답의 80%를 사용했습니다',
    subject100: '이번 달 응답을 모두 사용했습니다',
    hello: (name: string | null) => (name ? `${name}님, 안녕하세요.` : '안녕하세요.'),
    used: (count: number, limit: number, month: string) =>
      `${month} 플랜에 포함된 응답 ${limit}개 중 ${count}개를 받았습니다.`,
    next80: '한도에 도달하면 다음 달 1일까지 방문자의 폼 제출과 투표가 거부됩니다.',
    next100:
      '지금부터 다음 달 1일까지 블록에 폼을 제출하거나 투표하는 방문자에게 “Monthly response limit reached”가 표시됩니다. 댓글, 질문, 좋아요, 클릭은 세지 않습니다.',
    cta: '플랜 보기',
    why: '이 블록들의 소유자이기 때문에 이 메일을 보냅니다. 한 달에 최대 두 번 보냅니다.',
  },
} as const;

/** "November 2026" / "2026년 11월" for the month a count belongs to. */
function monthName(month: string, lang: Lang): string {
  const [year, m] = month.split('-').map(Number);
  if (!year || !m) return month;
  if (lang === 'ko') return `${year}년 ${m}월`;
  const names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August'];
  const rest = ['September', 'October', 'November', 'December'];
  return `${[...names, ...rest][m - 1]} ${year}`;
}

export function renderQuotaNotice(
  ctx: QuotaNoticeContext,
  planUrl: string,
): { subject: string; html: string } {
  const { lang, t } = textsIn(TEXTS, ctx.language);
  const subject = ctx.level >= 100 ? t.subject100 : t.subject80;
  const percent = Math.min(100, Math.round((ctx.count / Math.max(1, ctx.limit)) * 100));
  const bar = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:16px 0"><tr><td style="background:#ececec;border-radius:4px;height:8px"><table role="presentation" width="${percent}%" cellpadding="0" cellspacing="0"><tr><td style="background:${ctx.level >= 100 ? '#b3261e' : '#1f1f1f'};border-radius:4px;height:8px;font-size:0;line-height:0">&nbsp;</td></tr></table></td></tr></table>`;
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head><body style="margin:0;padding:0;background:#f5f5f5"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f5f5"><tr><td align="center" style="padding:24px 12px"><table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px;font-family:-apple-system,'Segoe UI',Roboto,'Apple SD Gothic Neo','Malgun Gothic',sans-serif"><tr><td style="padding:24px 28px"><h1 style="margin:0 0 12px;font-size:18px;color:#1f1f1f">${escapeHtml(subject)}</h1><p style="margin:0 0 8px;font-size:14px;color:#444">${escapeHtml(t.hello(ctx.name))}</p><p style="margin:0;font-size:15px;line-height:1.5;color:#1f1f1f">${escapeHtml(t.used(ctx.count, ctx.limit, monthName(ctx.month, lang)))}</p>${bar}<p style="margin:0;font-size:14px;line-height:1.5;color:#444">${escapeHtml(ctx.level >= 100 ? t.next100 : t.next80)}</p><table role="presentation" cellpadding="0" cellspacing="0" style="margin-top:20px"><tr><td style="background:#1f1f1f;border-radius:6px"><a href="${escapeHtml(planUrl)}" style="display:inline-block;padding:10px 18px;color:#ffffff;text-decoration:none;font-size:14px">${escapeHtml(t.cta)}</a></td></tr></table></td></tr></table><table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px"><tr><td style="padding:16px 28px;color:#8a8a8a;font-size:12px;line-height:1.5;font-family:sans-serif">${escapeHtml(t.why)}</td></tr></table></td></tr></table></body></html>`;
  return { subject, html };
}

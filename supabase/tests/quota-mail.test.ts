// The owner's monthly quota mails (functions/_shared/quota-mail.ts) as a unit: both levels in
// both languages, every value escaped. The mail end to end (trigger, job, worker, SES fake,
// mailbox) is in abuse-limits.test.ts ("burning the monthly response quota").
import { describe, expect, it } from 'vitest';
import { renderQuotaNotice, type QuotaNoticeContext } from '../functions/_shared/quota-mail.ts';

const ctx = (over: Partial<QuotaNoticeContext> = {}): QuotaNoticeContext => ({
  to: 'owner@example.com',
  user_id: '00000000-0000-4000-8000-000000000001',
  language: 'en',
  name: 'Kim',
  level: 80,
  month: '2026-11-01',
  count: 80,
  limit: 100,
  ...over,
});

describe('renderQuotaNotice', () => {
  it.each([
    {
      title: '80 % in English: the count, the limit, the month and what happens at the limit',
      context: ctx(),
      subject: 'You have used 80% of this month’s responses',
      parts: [
        'Hello Kim,',
        '80 of the 100 responses your plan includes for November 2026',
        'refused until the first of next month',
        'href="https://app.example/profile/plan"',
        '<html lang="en">',
      ],
    },
    {
      title: '100 % in Korean',
      context: ctx({ language: 'ko', level: 100, count: 100, name: null }),
      subject: '이번 달 응답을 모두 사용했습니다',
      parts: [
        '2026년 11월 플랜에 포함된 응답 100개 중 100개를 받았습니다.',
        '안녕하세요.',
        '플랜 보기',
        '<html lang="ko">',
      ],
    },
  ])('$title', ({ context, subject, parts }) => {
    const mail = renderQuotaNotice(context, 'https://app.example/profile/plan');
    expect(mail.subject).toBe(subject);
    for (const part of parts) expect(mail.html).toContain(part);
  });

  it('escapes the owner name and the link', () => {
    const { html } = renderQuotaNotice(
      ctx({ name: '<img src=x onerror=alert(1)>' }),
      'https://app.example/"><script>alert(1)</script>',
    );
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

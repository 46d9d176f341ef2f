// The plan mails, in the owner's language (en, ko), in the layout of the notification mails:
// "your plan ends on ..." a few days before a plan that does not renew ends, and "we could not
// renew your plan" when a renewal payment fails.
import {
  button,
  paragraph,
  platformMail,
  textsIn,
  type RenderedMail,
} from './notification-mail.ts';
import {
  formatPlanDate,
  STARTER,
  shownBlocks,
  shownEmails,
} from '@reaction-blocks/contracts/plans';

export type PlanMailTemplate = 'ending' | 'renewal_failed';

export interface PlanMailContext {
  template: PlanMailTemplate;
  language: string;
  name: string;
  planName: string;
  blockLimit: number;
  responseMonthlyLimit: number;
  endDate: string;
  /** The plan page (the button). */
  link: string;
}

const TEXTS = {
  en: {
    hello: (name: string) => (name ? `Hello ${name},` : 'Hello,'),
    plan: (c: PlanMailContext) =>
      `${c.planName} (${shownBlocks(c.blockLimit)} blocks, ${shownEmails(c.responseMonthlyLimit).toLocaleString('en-US')} emails a month)`,
    endingSubject: (date: string) => `Your Reaction Blocks plan ends on ${date}`,
    endingBody: (plan: string, date: string) => `Your plan ${plan} ends on ${date}.`,
    failedSubject: 'We could not renew your Reaction Blocks plan',
    failedBody: (plan: string, date: string) =>
      `The payment for the next month of your plan ${plan} did not go through. The plan stays as it is until ${date}.`,
    after: `After that your account is on Starter again (${STARTER.blocks} blocks, ${STARTER.emails} emails a month): blocks beyond the limit are deactivated, newest first. Nothing is deleted, and a new plan brings them back.`,
    cta: 'See your plan',
    footer: 'You get this mail because you have a plan on Reaction Blocks.',
  },
  ko: {
    hello: (name: string) => (name ? `${name}님, 안녕하세요.` : '안녕하세요.'),
    plan: (c: PlanMailContext) =>
      `${c.planName} (블록 ${shownBlocks(c.blockLimit)}개, 월 이메일 ${shownEmails(c.responseMonthlyLimit).toLocaleString('ko-KR')}건)`,
    endingSubject: (date: string) => `Reaction Blocks 플랜이 ${date}에 종료됩니다`,
    endingBody: (plan: string, date: string) => `${plan} 플랜이 ${date}에 종료됩니다.`,
    failedSubject: 'Reaction Blocks 플랜을 갱신하지 못했습니다',
    failedBody: (plan: string, date: string) =>
      `${plan} 플랜의 다음 달 결제가 완료되지 않았습니다. 플랜은 ${date}까지 그대로 유지됩니다.`,
    after: `그 후에는 Starter(블록 ${STARTER.blocks}개, 월 이메일 ${STARTER.emails}건)로 돌아가며, 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없으며 새 플랜을 시작하면 다시 활성화됩니다.`,
    cta: '내 플랜 보기',
    footer: 'Reaction Blocks 플랜을 이용 중이어서 이 메일을 보냅니다.',
  },
} as const;

export function renderPlanMail(c: PlanMailContext): RenderedMail {
  const { lang, t } = textsIn(TEXTS, c.language);
  const date = formatPlanDate(c.endDate);
  const plan = t.plan(c);
  const subject = c.template === 'ending' ? t.endingSubject(date) : t.failedSubject;
  const body = c.template === 'ending' ? t.endingBody(plan, date) : t.failedBody(plan, date);
  const p = paragraph;
  return platformMail(
    lang,
    subject,
    `${p(t.hello(c.name))}${p(body)}${p(t.after)}${button(c.link, t.cta)}`,
    t.footer,
  );
}

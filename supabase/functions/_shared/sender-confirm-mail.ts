// The mail that asks an owner to confirm a sender address, in the owner's language (en, ko), in
// the layout of the notification mails. It names the account that asked by its sign-in address, so
// whoever reads the mailbox knows whose request it is, and says that nothing happens without the
// link, and offers "Not me" (the /confirm-email page: nothing more is mailed to the address, the
// claim goes; that link confirms nothing). It carries no word the owner wrote (not the profile name): the owner chooses the address
// it goes to, so a name such as "WIN A FREE IPHONE at spam.example" would make it their advert.
import {
  button,
  paragraph,
  platformMail,
  smallLink,
  textsIn,
  type RenderedMail,
} from './notification-mail.ts';

export interface SenderConfirmContext {
  language: string;
  /** The address to confirm. */
  address: string;
  /** The account that asked: its sign-in email. */
  ownerEmail: string;
  /** The dashboard page that spends the token for the signed-in owner. */
  link: string;
  /** The /confirm-email page of the "Not me" token (no sign-in). */
  notMeLink: string;
}

const TEXTS = {
  en: {
    subject: 'Confirm your sender address for Reaction Blocks',
    asked: (account: string, address: string) =>
      `${account} asked to send letters from ${address} with Reaction Blocks.`,
    how: 'To confirm that this address is yours, open the link below while signed in to that account. It works once, within 24 hours.',
    cta: (address: string) => `Confirm ${address}`,
    ignore:
      'If you did not ask for this, ignore this mail: no letter is sent from this address unless the link is opened. Or choose “Not me” below: Reaction Blocks then sends nothing more to this address.',
    notMe: 'Not me: send nothing more to this address',
    footer: 'You get this mail because this address was added as a sender on Reaction Blocks.',
  },
  ko: {
    subject: 'Reaction Blocks 발신 주소를 확인해 주세요',
    asked: (account: string, address: string) =>
      `${account} 계정에서 ${address} 주소로 Reaction Blocks 레터를 보내려고 합니다.`,
    how: '이 주소가 본인의 것임을 확인하려면, 그 계정으로 로그인한 상태에서 아래 링크를 여세요. 링크는 24시간 안에 한 번만 쓸 수 있습니다.',
    cta: (address: string) => `${address} 확인하기`,
    ignore:
      '요청한 적이 없다면 이 메일을 무시하세요. 링크를 열지 않으면 이 주소로 레터가 발송되지 않습니다. 아래의 “본인이 아닙니다”를 누르면 Reaction Blocks가 이 주소로 더 이상 메일을 보내지 않습니다.',
    notMe: '본인이 아닙니다: 이 주소로 더 보내지 마세요',
    footer: '이 주소가 Reaction Blocks의 발신 주소로 추가되어 이 메일을 보냅니다.',
  },
} as const;

export function renderSenderConfirmMail(c: SenderConfirmContext): RenderedMail {
  const { lang, t } = textsIn(TEXTS, c.language);
  const p = paragraph;
  return platformMail(
    lang,
    t.subject,
    `${p(t.asked(c.ownerEmail, c.address))}${p(t.how)}${button(c.link, t.cta(c.address))}<div style="height:16px"></div>${p(t.ignore)}${smallLink(c.notMeLink, t.notMe)}`,
    t.footer,
  );
}

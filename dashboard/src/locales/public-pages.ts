// The texts of the pages a visitor opens without the landing or the dashboard (/login,
// /not_supported, /unsubscribe, /confirm-email): they load with those pages' chunks. Merged into the app's single
// `translation` namespace under their prefixes.
import { textRegistration, type SameShape } from '../lib/i18n';

const en = {
  login: {
    title: 'Sign in to Reaction Blocks',
    google: 'Sign in with Google',
    apple: 'Sign in with Apple',
    help: 'Need help signing in?',
    error: 'Sign-in failed: {{message}}',
    // the provider's access_denied: the person cancelled, or the provider refused
    denied:
      'It was cancelled, or Google or Apple did not allow it. Try again, or use the other one.',
    unfinished:
      'It did not finish: the page was left while it was being completed, or it was started in another browser. Sign in again.',
    notEligible: 'Owners sign in with Google or Apple. Continue with one of them.',
  },
  notSupported: {
    title: 'Sorry',
    text: 'Reaction Blocks keeps your sign-in in your browser’s local storage, and this browser does not allow it for this site.',
    stepsTitle: 'To open Reaction Blocks',
    steps: [
      'Allow cookies and site data for {{host}} in your browser’s settings (privacy or site settings).',
      'In a private window some browsers refuse them: try a normal window.',
      'Then reload.',
    ],
    reload: 'Reload',
    footer: 'Shared blocks (/block/ links) still work without site data.',
  },
  unsubscribe: {
    title: 'Unsubscribe',
    question: 'Stop these mails to {{email}}?',
    what: {
      owner: 'Notifications of new responses on “{{block}}” and on its owner’s other blocks.',
      reply: 'Mails about replies to your comment on “{{block}}”.',
      // a letter: what its mail showed, the sender's name and, when the address got one, its title
      letter: 'Letters from {{sender}}.',
      letterTitled: 'Letters from {{sender}}, such as “{{title}}”.',
      letterUnknown: 'Letters from the sender of this mail.',
    },
    confirm: 'Unsubscribe',
    busy: 'Unsubscribing…',
    done: '{{email}} will get no more of these mails.',
    home: 'Go to the home page',
    invalid: 'This unsubscribe link is not valid. Open the link from the mail again.',
    failed: 'Could not unsubscribe: {{reason}}',
    titleDone: 'You are unsubscribed',
    titleAlready: 'Already unsubscribed',
    titleInvalid: 'This link does not work',
    already: '{{email}} already gets none of these mails. There is nothing more to do.',
    doneNote: 'Only these mails stop. Other mails you asked for keep coming.',
    // a deleted block's link, with no owner left that the mail log shows mailing the address
    titleGone: 'Nothing left to stop',
    gone: 'The block this mail came from was deleted, so it sends no more mail to {{email}}. There is nothing to unsubscribe from here, and nothing was changed.',
    goneNote: 'If mails of other blocks reach you, the link in each of them stops those.',
    unreadable: 'The page could not check this link. Check your connection and try again.',
    footer: 'Reaction Blocks sends these mails for the sites that use it.',
  },
  confirmEmail: {
    title: 'Confirm your address',
    titleSender: 'A sender address request',
    question: 'Did you ask for these mails at {{email}}?',
    questionSender: 'Did you ask to send letters from {{email}}?',
    what: {
      // what the mail said, no more: no block or account name (the owner's words, and the
      // address is whoever's a visitor typed)
      reply: 'Mails about replies to your comments on the site where this address was given.',
      letters: 'Letters from the owner of the site where this address was given in a form.',
      notify: 'Notifications of new comments and responses on the blocks of the account {{owner}}.',
      sender:
        'The account {{owner}} asked to send letters from this address. If that is not you, answer “Not me”: nothing is sent from it, and Reaction Blocks sends it no more mail.',
    },
    from: 'They would come from {{sender}}.',
    someOwner: 'the site’s owner',
    confirm: 'Yes, confirm',
    notMe: 'Not me',
    titleConfirmed: 'Confirmed',
    confirmed: '{{email}} is confirmed. You can close this page.',
    titleDeclined: 'We will not write again',
    declined: '{{email}} gets no more mail from Reaction Blocks.',
    titleInvalid: 'This link does not work',
    invalid: 'This link was used already, has expired or is not complete. Nothing was changed.',
    unreadable: 'The page could not check this link. Check your connection and try again.',
    failed: 'Could not save your answer: {{reason}}',
    home: 'Go to the home page',
    footer: 'Reaction Blocks asks once before it sends mail to an address someone typed.',
  },
};

const ko: SameShape<typeof en> = {
  login: {
    title: '리액션 블록스에 로그인',
    google: 'Google로 로그인',
    apple: 'Apple로 로그인',
    help: '로그인에 도움이 필요하신가요?',
    error: '로그인하지 못했습니다: {{message}}',
    denied:
      '로그인을 취소했거나 Google 또는 Apple에서 허용하지 않았습니다. 다시 시도하거나 다른 방법으로 로그인해 주세요.',
    unfinished:
      '로그인을 마무리하는 중에 페이지를 떠났거나, 다른 브라우저에서 시작한 로그인입니다. 다시 로그인해 주세요.',
    notEligible: '소유자는 Google 또는 Apple로 로그인합니다. 둘 중 하나로 계속해 주세요.',
  },
  notSupported: {
    title: '죄송합니다',
    text: '리액션 블록스는 로그인 정보를 브라우저의 로컬 저장소에 보관하는데, 이 브라우저는 이 사이트에 그것을 허용하지 않아요.',
    stepsTitle: '리액션 블록스를 열려면',
    steps: [
      '브라우저 설정(개인정보 또는 사이트 설정)에서 {{host}}의 쿠키 및 사이트 데이터를 허용해 주세요.',
      '일부 브라우저는 시크릿 창에서 이를 막아요. 일반 창에서 열어 보세요.',
      '그다음 새로고침해 주세요.',
    ],
    reload: '새로고침',
    footer: '공유된 블록(/block/ 링크)은 사이트 데이터 없이도 볼 수 있어요.',
  },
  unsubscribe: {
    title: '수신 거부',
    question: '{{email}}(으)로 이 메일을 그만 받을까요?',
    what: {
      owner: '“{{block}}” 및 같은 운영자의 다른 블록의 새 응답 알림입니다.',
      reply: '“{{block}}”에 남긴 댓글의 답글 알림입니다.',
      letter: '{{sender}}의 레터입니다.',
      letterTitled: '{{sender}}의 레터입니다(“{{title}}” 등).',
      letterUnknown: '이 메일을 보낸 분의 레터입니다.',
    },
    confirm: '수신 거부',
    busy: '처리 중…',
    done: '{{email}}(으)로 더 이상 이 메일을 보내지 않습니다.',
    home: '홈으로 가기',
    invalid: '유효하지 않은 수신 거부 링크입니다. 메일의 링크를 다시 열어 주세요.',
    failed: '수신 거부하지 못했습니다: {{reason}}',
    titleDone: '수신 거부했어요',
    titleAlready: '이미 수신 거부했어요',
    titleInvalid: '이 링크는 쓸 수 없어요',
    already: '{{email}}(으)로는 이미 이 메일을 보내지 않아요. 더 하실 일은 없어요.',
    doneNote: '이 메일만 멈춰요. 직접 신청한 다른 메일은 계속 받아요.',
    titleGone: '멈출 메일이 없어요',
    gone: '이 메일을 보낸 블록이 삭제되어 {{email}}(으)로 더 이상 메일을 보내지 않아요. 여기서 수신 거부할 것은 없고, 바뀐 것도 없어요.',
    goneNote: '다른 블록의 메일을 받으신다면 각 메일에 있는 링크로 멈출 수 있어요.',
    unreadable: '링크를 확인하지 못했어요. 연결을 확인하고 다시 시도해 주세요.',
    footer: '리액션 블록스는 이를 사용하는 사이트를 대신해 이 메일을 보내요.',
  },
  confirmEmail: {
    title: '주소 확인',
    titleSender: '발신 주소 요청',
    question: '{{email}}(으)로 이 메일을 받겠다고 하셨나요?',
    questionSender: '{{email}} 주소로 레터를 보내려고 하셨나요?',
    what: {
      reply: '이 주소를 남긴 사이트에서 쓴 댓글에 달린 답글 알림 메일입니다.',
      letters: '이 주소를 양식에 적은 사이트의 운영자가 보내는 레터입니다.',
      notify: '{{owner}} 계정의 블록에 달린 새 댓글과 응답 알림입니다.',
      sender:
        '{{owner}} 계정이 이 주소로 레터를 보내려고 합니다. 본인이 아니라면 “본인이 아닙니다”를 눌러 주세요. 이 주소로는 아무것도 발송되지 않고, 리액션 블록스도 더 이상 메일을 보내지 않아요.',
    },
    from: '{{sender}} 주소에서 발송됩니다.',
    someOwner: '사이트 운영자',
    confirm: '네, 확인합니다',
    notMe: '본인이 아닙니다',
    titleConfirmed: '확인했어요',
    confirmed: '{{email}} 주소를 확인했어요. 이 페이지를 닫으셔도 돼요.',
    titleDeclined: '더 이상 보내지 않을게요',
    declined: '{{email}}(으)로는 리액션 블록스가 더 이상 메일을 보내지 않아요.',
    titleInvalid: '이 링크는 쓸 수 없어요',
    invalid: '이미 사용했거나 만료되었거나 온전하지 않은 링크예요. 바뀐 것은 없어요.',
    unreadable: '링크를 확인하지 못했어요. 연결을 확인하고 다시 시도해 주세요.',
    failed: '답을 저장하지 못했어요: {{reason}}',
    home: '홈으로 가기',
    footer: '리액션 블록스는 누군가 입력한 주소로 메일을 보내기 전에 한 번 묻습니다.',
  },
};

export const registerPublicPageTranslations = textRegistration({ en, ko });

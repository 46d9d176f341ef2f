// The texts of the pages a visitor opens without the landing or the dashboard (/login,
// /not_supported, /unsubscribe): they load with those pages' chunks. Merged into the app's single
// `translation` namespace under their prefixes.
import { textRegistration, type SameShape } from '../lib/i18n';

const en = {
  login: {
    title: 'Sign in to Reaction Blocks',
    google: 'Sign in with Google',
    apple: 'Sign in with Apple',
    help: 'Need help signing in?',
    error: 'Sign-in failed: {{message}}',
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
      owner: 'Notifications of new responses on “{{block}}”.',
      reply: 'Mails about replies to your comment on “{{block}}”.',
      letter: 'Letters sent with “{{block}}” by its owner.',
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
    unreadable: 'The page could not check this link. Check your connection and try again.',
    footer: 'Reaction Blocks sends these mails for the sites that use it.',
  },
};

const ko: SameShape<typeof en> = {
  login: {
    title: '리액션 블록스에 로그인',
    google: 'Google로 로그인',
    apple: 'Apple로 로그인',
    help: '로그인에 도움이 필요하신가요?',
    error: '로그인하지 못했습니다: {{message}}',
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
      owner: '“{{block}}”의 새 응답 알림입니다.',
      reply: '“{{block}}”에 남긴 댓글의 답글 알림입니다.',
      letter: '“{{block}}”으로 보내는 레터입니다.',
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
    unreadable: '링크를 확인하지 못했어요. 연결을 확인하고 다시 시도해 주세요.',
    footer: '리액션 블록스는 이를 사용하는 사이트를 대신해 이 메일을 보내요.',
  },
};

export const registerPublicPageTranslations = textRegistration({ en, ko });

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
    notEligible: 'Sign in with an account that has an email address to continue.',
  },
  notSupported: {
    title: 'Sorry',
    text: 'Reaction Blocks needs your browser’s local storage. Please allow cookies and site data for this site, then reload the page.',
    reload: 'Reload',
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
  },
};

const ko: SameShape<typeof en> = {
  login: {
    title: '리액션 블록스에 로그인',
    google: 'Google로 로그인',
    apple: 'Apple로 로그인',
    help: '로그인에 도움이 필요하신가요?',
    error: '로그인하지 못했습니다: {{message}}',
    notEligible: '이메일 주소가 있는 계정으로 로그인해 주세요.',
  },
  notSupported: {
    title: '죄송합니다',
    text: '리액션 블록스를 사용하려면 브라우저의 로컬 저장소가 필요합니다. 이 사이트의 쿠키 및 사이트 데이터를 허용한 뒤 페이지를 새로고침해 주세요.',
    reload: '새로고침',
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
  },
};

export const registerPublicPageTranslations = textRegistration({ en, ko });

// The terms a new owner agrees to: shown by the consent dialog of the signed-in app and by /terms,
// so they load with those (components/layouts/dashboard-layout.tsx, app/routes/policies.tsx), not
// with every page.
import { textRegistration, type SameShape } from '../lib/i18n';

const en = {
  consent: {
    title: 'Terms of Service',
    intro: 'Please read and agree to the terms before you continue.',
    terms: [
      'Reaction Blocks lets you create blocks, embed them into your pages and collect reactions from visitors.',
      'You are responsible for the content of your blocks and for the pages you embed them in.',
      'We store your account details (name, email, profile image) and the responses your blocks collect, and use them only to run the service.',
      'You can remove your account at any time from your profile; your blocks and their responses are deleted with it.',
    ],
    readFull: 'Read the Terms of Service and the Privacy Policy in full (opens in a new tab)',
    checkbox: 'I agree to the Terms of Service and the Privacy Policy',
    agree: 'Agree',
    decline: 'Decline',
    error: 'Could not do that: {{message}}',
    // submit-agreement's not_found: the account's profile is gone (deleted meanwhile)
    accountGone:
      'Your account was not found; it may have been deleted. Reload the page and sign in again.',
  },
};

const ko: SameShape<typeof en> = {
  consent: {
    title: '서비스 이용약관',
    intro: '계속하려면 약관을 읽고 동의해 주세요.',
    terms: [
      '리액션 블록스는 블록을 만들어 페이지에 넣고 방문자의 반응을 모을 수 있는 서비스입니다.',
      '블록의 내용과 블록을 넣은 페이지에 대한 책임은 이용자에게 있습니다.',
      '계정 정보(이름, 이메일, 프로필 이미지)와 블록이 모은 응답을 저장하며, 서비스 운영에만 사용합니다.',
      '프로필에서 언제든 계정을 삭제할 수 있으며, 이때 블록과 응답도 함께 삭제됩니다.',
    ],
    readFull: '서비스 이용약관과 개인정보처리방침 전문 보기(새 탭에서 열림)',
    checkbox: '서비스 이용약관과 개인정보처리방침에 동의합니다',
    agree: '동의',
    decline: '거절',
    error: '처리하지 못했습니다: {{message}}',
    accountGone:
      '계정을 찾을 수 없습니다. 삭제되었을 수 있습니다. 페이지를 새로 고친 뒤 다시 로그인해 주세요.',
  },
};

export const registerConsentTranslations = textRegistration({ en, ko });

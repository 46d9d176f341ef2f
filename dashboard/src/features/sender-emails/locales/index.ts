// Texts of /profile/email, loaded with the profile route.
import { SENDER_EMAIL_LIMITS } from '@reaction-blocks/contracts/schemas';
import { textRegistration } from '../../../lib/i18n';

const max = SENDER_EMAIL_LIMITS.addresses;

export const en = {
  title: 'Sender emails',
  intro:
    'Letters are sent from these addresses. Add one, then open the link we mail to it while signed in to this account: that shows the address is yours.',
  addLabel: 'Email address',
  add: 'Verify',
  adding: 'Sending the link…',
  linkSent:
    'We mailed a link to {{email}}. Open it while signed in to this account to confirm the address is yours.',
  providerLinkSent:
    'Amazon SES mailed a verification link to {{email}}. Open it, then check again.',
  confirming: 'Confirming the address…',
  confirmFailed: 'Could not confirm the address: {{reason}}',
  invalidLink:
    'This confirmation link is not valid any more (it works once, within 24 hours). Send a new one.',
  otherAccount:
    'This confirmation link is for another account. Sign in with the account that added the address.',
  sendAgain: 'Send the link again',
  empty: 'No sender email yet.',
  listLabel: 'Your sender emails',
  address: 'Address',
  status: 'Status',
  spf: 'SPF',
  dkim: 'DKIM',
  actions: 'Actions',
  verified: 'Verified',
  notVerified: 'Not verified',
  pending: 'Waiting for your confirmation',
  pendingHint: 'Open the link we mailed to {{email}} while signed in to this account.',
  awaitingProvider: 'Waiting for Amazon SES',
  awaitingProviderHint:
    'Confirmed. Amazon SES, which delivers our mail, sent {{email}} a verification link of its own (from Amazon Web Services): open it too, then check again.',
  checking: 'Checking…',
  yes: 'Yes',
  no: 'No',
  notChecked: 'Not checked',
  checkAgain: 'Check again',
  checkSpfDkim: 'Check SPF and DKIM',
  delete: 'Delete',
  deleteTitle: 'Delete {{email}}?',
  deleteText: 'Letters can no longer be sent from this address. You can add it again later.',
  deleted: '{{email}} was deleted.',
  nowVerified: '{{email}} is verified.',
  stillNotVerified: '{{email}} is not verified yet.',
  spfHelp:
    'SPF: your domain’s DNS allows our mail provider to send for it (a TXT record with include:amazonses.com).',
  dkimHelp: 'DKIM: mails from your domain are signed with its key.',
  dmarcPlatform:
    '{{domain}} asks receivers to reject or quarantine mail it did not sign (DMARC p={{policy}}). Until DKIM is set up, letters go out from our address with replies going to {{email}}, so they still arrive.',
  failed: 'Could not do that: {{reason}}',
  tooMany: `You can add up to ${max} sender emails.`,
  invalidEmail: 'Invalid email address.',
  unavailable: 'The mail service is not available: try again in a moment.',
  tooManyRequests: 'Too many verification requests.',
  providerRejected:
    'Amazon SES, which delivers our mail, refused this address. Check it, or try another one.',
  notFound: 'This address is not in your list any more: reload the page.',
  suppressed:
    'This address asked not to get mail from Reaction Blocks, or could not receive it, so no link can be sent to it.',
  sentToday: 'A confirmation link went to this address less than a day ago.',
  loadFailed: 'Could not load your sender emails: {{reason}}',
};

export const ko: typeof en = {
  title: '발신 이메일',
  intro:
    '레터는 이 주소로 발송됩니다. 주소를 추가한 뒤 이 계정으로 로그인한 상태에서 그 주소로 보낸 링크를 열면, 본인의 주소임이 확인됩니다.',
  addLabel: '이메일 주소',
  add: '인증하기',
  adding: '링크를 보내는 중…',
  linkSent:
    '{{email}}(으)로 링크를 보냈습니다. 이 계정으로 로그인한 상태에서 링크를 열어 본인의 주소임을 확인해 주세요.',
  providerLinkSent:
    'Amazon SES가 {{email}}(으)로 인증 링크를 보냈습니다. 링크를 연 뒤 다시 확인해 주세요.',
  confirming: '주소를 확인하는 중…',
  confirmFailed: '주소를 확인하지 못했습니다: {{reason}}',
  invalidLink:
    '더 이상 쓸 수 없는 확인 링크입니다(24시간 안에 한 번만 쓸 수 있습니다). 링크를 다시 보내 주세요.',
  otherAccount: '다른 계정의 확인 링크입니다. 이 주소를 추가한 계정으로 로그인해 주세요.',
  sendAgain: '링크 다시 보내기',
  empty: '아직 발신 이메일이 없습니다.',
  listLabel: '내 발신 이메일',
  address: '주소',
  status: '상태',
  spf: 'SPF',
  dkim: 'DKIM',
  actions: '작업',
  verified: '인증됨',
  notVerified: '인증 안 됨',
  pending: '확인 대기 중',
  pendingHint: '이 계정으로 로그인한 상태에서 {{email}}(으)로 보낸 링크를 열어 주세요.',
  awaitingProvider: 'Amazon SES 인증 대기 중',
  awaitingProviderHint:
    '확인되었습니다. 메일 발송을 맡은 Amazon SES가 {{email}}(으)로 별도의 인증 링크를 보냈습니다(발신: Amazon Web Services). 그 링크도 연 뒤 다시 확인해 주세요.',
  checking: '확인 중…',
  yes: '예',
  no: '아니요',
  notChecked: '확인 전',
  checkAgain: '다시 확인',
  checkSpfDkim: 'SPF·DKIM 확인',
  delete: '삭제',
  deleteTitle: '{{email}}을(를) 삭제할까요?',
  deleteText: '이 주소로 더 이상 레터를 보낼 수 없습니다. 나중에 다시 추가할 수 있습니다.',
  deleted: '{{email}}을(를) 삭제했습니다.',
  nowVerified: '{{email}} 인증이 완료되었습니다.',
  stillNotVerified: '{{email}}은(는) 아직 인증되지 않았습니다.',
  spfHelp:
    'SPF: 도메인 DNS가 메일 발송 서비스의 발송을 허용합니다(include:amazonses.com이 있는 TXT 레코드).',
  dkimHelp: 'DKIM: 도메인에서 보내는 메일이 도메인 키로 서명됩니다.',
  dmarcPlatform:
    '{{domain}}은(는) 서명되지 않은 메일을 거부하거나 격리하도록 요청합니다(DMARC p={{policy}}). DKIM을 설정하기 전까지 레터는 저희 주소에서 발송되고, 답장은 {{email}}(으)로 갑니다.',
  failed: '처리하지 못했습니다: {{reason}}',
  tooMany: `발신 이메일은 ${max}개까지 추가할 수 있습니다.`,
  invalidEmail: '올바르지 않은 이메일 주소입니다.',
  unavailable: '메일 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  tooManyRequests: '인증 요청이 너무 많습니다.',
  providerRejected:
    '메일 발송을 맡은 Amazon SES가 이 주소를 거부했습니다. 주소를 확인하거나 다른 주소를 써 주세요.',
  notFound: '이 주소는 더 이상 목록에 없습니다. 페이지를 새로 고쳐 주세요.',
  suppressed:
    '이 주소는 리액션 블록스의 메일을 받지 않겠다고 했거나 메일을 받을 수 없어, 링크를 보낼 수 없습니다.',
  sentToday: '하루 안에 이 주소로 확인 링크를 이미 보냈습니다.',
  loadFailed: '발신 이메일을 불러오지 못했습니다: {{reason}}',
};

export const registerSenderEmailTranslations = textRegistration({ en, ko }, 'senderEmails');

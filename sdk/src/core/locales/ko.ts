import { waitUnit } from '@reaction-blocks/contracts/wait';
import type { ApiError } from '../errors.js';
import type { Texts } from './en.js';

/** Korean has one plural form (`_other`), so no `_one` texts; every other English text is here. */
type KoreanTexts = { [K in keyof Texts as K extends `${string}_one` ? never : K]: string };

/** Korean texts, loaded only when a block is in Korean. */
const ko: KoreanTexts = {
  loading: '불러오는 중…',
  failed: '불러오지 못했습니다',
  retry: '다시 시도',
  unavailable: '사용할 수 없는 블록입니다.',
  notValidType: '지원하지 않는 유형입니다',
  unreachable: '서버에 연결하지 못했습니다. 다시 시도해 주세요.',
  required: '필수 항목입니다',
  checkResponse: '응답을 확인해 주세요',
  lengthError: '{{max}}자 이내로 입력해 주세요',
  emailError: '올바른 이메일 주소를 입력해 주세요',
  phoneError: '숫자, 공백, 하이픈만 입력할 수 있습니다 (최대 20자)',
  numberError: '정수를 입력해 주세요 (최대 18자리)',
  submit: '제출',
  thankYou: '감사합니다',
  openLink: '링크 열기',
  submitAgain: '다시 제출',
  responseHeld: '응답을 받았습니다. 소유자의 승인을 기다리고 있습니다.',
  button: '버튼',
  like_other: '좋아요 {{count}}',
  votes_other: '{{count}}표',
  voteHeld: '투표를 받았습니다. 소유자가 승인하면 집계됩니다.',
  messages_other: '메시지 {{count}}개',
  placeholder: '메시지를 남겨 주세요',
  qnaPlaceholder: '질문을 남겨 주세요',
  writerName: '이름',
  message: '메시지',
  notifyEmail: '답글 알림 받을 이메일 (선택)',
  homeUrl: '내 웹사이트 (선택)',
  homeUrlError: '웹 주소를 입력해 주세요 (http 또는 https)',
  send: '보내기',
  reply: '답글',
  replyTo: '{{name}}님에게 답글',
  edit: '수정',
  delete: '삭제',
  save: '저장',
  discard: '취소',
  cancel: '취소',
  close: '닫기',
  confirmDelete: '이 메시지를 삭제할까요?',
  edited: '수정됨',
  resolved: '해결됨',
  resolve: '해결로 표시',
  unresolve: '미해결로 표시',
  admin: '관리자',
  me: '나',
  signInPrompt: '메시지를 남기려면 로그인해 주세요.',
  wait: '잠시 후에 다시 보내 주세요.',
  emptyMessage: '메시지를 입력해 주세요.',
  google: 'Google로 로그인',
  apple: 'Apple로 로그인',
  logout: '로그아웃',
  previewSignIn: '미리보기입니다. 방문자는 여기가 아니라 블록을 넣은 페이지에서 로그인합니다.',
  toBlock: '블록 설정으로',
  menu: '메뉴',
  loadMore: '더 보기',
  empty: '아직 메시지가 없습니다. 첫 메시지를 남겨 보세요.',
  newMessages_other: '새 메시지 {{count}}개',
  qnaEmpty: '아직 질문이 없습니다. 첫 질문을 남겨 보세요.',
  messageList: '메시지',
  sending: '보내는 중…',
  options: '선택지',
  tooFast: '너무 빠릅니다. 몇 초 후에 다시 시도해 주세요.',
  tooFastIn: '너무 빠릅니다. {{in}} 다시 시도해 주세요.',
  busyIn: '지금 이곳에 글을 쓰는 사람이 너무 많습니다. {{in}} 다시 시도해 주세요.',
  wait_message: '글을 너무 빨리 쓰고 있습니다. {{in}} 다시 쓸 수 있습니다.',
  wait_edit: '너무 빨리 수정하고 있습니다. {{in}} 다시 수정할 수 있습니다.',
  wait_report: '너무 빨리 신고하고 있습니다. {{in}} 다시 신고할 수 있습니다.',
  wait_like: '좋아요를 너무 빨리 누르고 있습니다. {{in}} 다시 누를 수 있습니다.',
  wait_click: '너무 빨리 누르고 있습니다. {{in}} 다시 누를 수 있습니다.',
  wait_vote: '너무 빨리 투표하고 있습니다. {{in}} 다시 투표할 수 있습니다.',
  wait_submit: '이 양식을 여러 번 보냈습니다. {{in}} 다시 보낼 수 있습니다.',
  automated: '자동으로 보낸 것 같아 전송하지 않았습니다.',
  blockedWriter: '이 블록의 소유자가 이곳에서의 글쓰기를 차단했습니다.',
  quotaReached: '이번 달에는 더 이상 응답을 받지 않습니다.',
  invalidInput:
    '보내지 않았습니다: 이름 또는 웹사이트 주소를 받을 수 없습니다. 고친 뒤 다시 시도해 주세요.',
  badCharacter:
    '보내지 않았습니다: 저장할 수 없는 문자가 들어 있습니다. 지운 뒤 다시 시도해 주세요.',
  badRequest:
    '보내지 않았습니다: 서버가 읽을 수 없는 내용입니다. 페이지를 새로 고친 뒤 다시 시도해 주세요.',
  quotaIn: '이번 달에는 더 이상 응답을 받지 않습니다. {{in}} 다시 받습니다.',
  captcha: '계속하려면 사람인지 확인해 주세요.',
  captchaFailed: '확인에 실패했습니다. 다시 시도해 주세요.',
  report: '신고',
  reportConfirm: '이 메시지를 소유자에게 신고할까요?',
  reportSent: '메시지를 소유자에게 신고했습니다.',
  reported: '신고됨',
  held: '승인 대기 중',
  signedOut: '로그아웃되어 보내지 않았습니다. 다시 로그인한 뒤 보내 주세요.',
  signedOutRetry: '로그아웃되어 보내지 않았습니다. 다시 시도하면 보냅니다.',
  heldNotice: '소유자가 승인하면 다른 사람에게도 보입니다.',
  confirmMailNotice:
    '이 주소가 확인한 뒤에만 답글 알림을 보냅니다. 가능하면 확인 링크를 메일로 보내 드립니다.',
  hidden: '숨김',
  pinned: '고정됨',
  notOwner: '소유자 아님',
  comments_other: '댓글 {{count}}개',
  likes_other: '좋아요 {{count}}개',
  responses_other: '응답 {{count}}개',
};
export default ko;

/**
 * A 429 in Korean: what is refused (per action; everyone's limit on the block, or the owner's
 * monthly responses) and the wait ("20분 후") in the units the server says it in (waitUnit).
 */
export function refusal({ details, action, scope, retry_after: wait = 1 }: ApiError): string {
  const { value, unit } = waitUnit(wait);
  const key = (
    details === 'quota'
      ? 'quotaIn'
      : scope === 'block' || scope === 'address'
        ? 'busyIn'
        : 'wait_' + action
  ) as keyof KoreanTexts;
  return (ko[key] ?? ko.tooFastIn).replace(
    '{{in}}',
    new Intl.RelativeTimeFormat('ko', { numeric: 'always' }).format(value, unit),
  );
}

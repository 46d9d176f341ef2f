// Korean texts. Same shape as en (checked by the type).
import type { Resources } from './en';

type Shape<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Shape<U>[]
    : { [K in keyof T]: Shape<T[K]> };

const ko: Shape<Resources> = {
  common: {
    appName: '리액션 블록스',
    loading: '불러오는 중…',
    close: '닫기',
    cancel: '취소',
    back: '뒤로',
    save: '저장',
    reload: '새로 고침',
    notShown: '이 페이지를 표시할 수 없습니다',
    untitled: '제목 없음',
    blockName: '블록 이름',
    dashboard: '대시보드',
    skipToContent: '본문으로 건너뛰기',
    logoHome: '리액션 블록스 홈',
    tooLong: '입력한 내용이 너무 깁니다',
    copy: '복사',
    copied: '복사했습니다',
    retryIn: '{{in}} 다시 시도해 주세요.',
    unavailable: '서비스가 잠시 응답하지 않습니다.',
    retry: '다시 시도',
    reasons: {
      offline: '연결에 실패했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요.',
      signedOut: '로그인이 만료되었습니다. 다시 로그인한 뒤 시도해 주세요.',
      notAllowed: '이 계정으로는 할 수 없는 작업입니다.',
      timeout: '서버 응답이 너무 늦었습니다. 잠시 후 다시 시도해 주세요.',
      tooMany: '짧은 시간에 너무 많이 시도했습니다.',
      gone: '이미 없습니다(그사이 삭제되었습니다). 새로 고침해 지금 상태를 확인해 주세요.',
      blockGone:
        '이 블록은 더 이상 내 블록 목록에 없습니다(그사이 삭제되었거나 다른 계정으로 로그인했습니다). 새로 고침해 지금 블록을 확인해 주세요.',
      updated: '그사이 대시보드가 업데이트되었습니다. 페이지를 새로 고침한 뒤 다시 시도해 주세요.',
      other: '서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
    },
  },
  blockTypes: {
    comment: '댓글',
    qna: 'Q&A',
    like: '좋아요',
    button: '버튼',
    ab: 'A/B',
    form: '폼',
    notion_letter: '노션 레터',
    typedream_letter: '타입드림 레터',
    brunch_letter: '브런치 레터',
  },
  nav: {
    label: '주 메뉴',
    reaction: '리액션',
    send: '보내기',
    showcase: '쇼케이스',
    pricing: '요금제',
    start: '시작하기',
    openMenu: '메뉴 열기',
    closeMenu: '메뉴 닫기',
  },
  footer: {
    language: '언어',
    product: '제품',
    contact: '문의',
    policies: '정책',
    terms: '이용약관 및 개인정보처리방침',
    cookie: '쿠키 정책',
    business: '사업자 정보',
    copyright: '© {{year}} 리액션 블록스',
  },
  languages: { en: 'English', ko: '한국어' },
  home: {
    heroTitle: '모든 페이지에 반응을 더하세요',
    heroText:
      '댓글, Q&A, 좋아요, 버튼, A/B, 폼 블록을 어떤 페이지에든 넣고 방문자의 생각을 모아 보세요.',
    heroCta: '무료로 시작하기',
    demoLabel: '제품 데모',
    demoPause: '데모 일시정지',
    demoPlay: '데모 재생',
    demoShowing: '{{type}} 블록을 보여 주는 중',
    stepsTitle: '세 단계면 충분합니다',
    step1Title: '1. 블록 만들기',
    step1Text: '로그인하고 여섯 가지 블록 중 하나를 고르세요.',
    step2Title: '2. 페이지에 넣기',
    step2Text: '스크립트 태그 하나와 요소 하나를 페이지에 붙여 넣거나 링크를 공유하세요.',
    step3Title: '3. 반응 모으기',
    step3Text: '대시보드에서 응답을 확인하고 이메일로 알림을 받으세요.',
    blocksTitle: '여섯 가지 블록',
    showcaseLink: '쇼케이스에서 모든 블록을 직접 써 보기',
    blockText: {
      comment: '방문자가 댓글과 답글을 남길 수 있어요.',
      qna: '질문에 답하고 해결됨으로 표시하세요.',
      like: '개수가 표시되는 좋아요 버튼이에요.',
      button: '링크를 열고 클릭 수를 세는 버튼이에요.',
      ab: '두 가지 선택지 중 하나를 고르게 하세요.',
      form: '짧은 폼으로 답변을 모으세요.',
    },
    historyTitle: '리액션 히스토리',
    historyText:
      '누가 언제 남겼는지와 함께 모든 반응이 기록되어, 독자의 반응을 시간에 따라 살펴보고 CSV로 내보낼 수 있어요.',
    ctaTitle: '지금 바로 반응을 모아 보세요',
    ctaButton: '시작하기',
    demo: {
      comment: '좋은 글이네요! 공유해 주셔서 감사해요.',
      qna: '블록은 어떻게 넣나요?',
      qnaAnswer: '코드를 페이지에 붙여 넣으면 됩니다.',
      like: '좋아요 12개',
      button: '링크 열기',
      abQuestion: '어떤 표지가 더 좋나요?',
      abA: '좋아요',
      abB: '별로예요',
      formQuestion: '다음에는 어떤 글을 쓸까요?',
      formSubmit: '제출',
    },
  },
  help: {
    title: '도움말',
    open: '도움말',
  },
};

export default ko;

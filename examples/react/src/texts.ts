// The example's own words, in English and Korean. The blocks translate themselves (their `lang`).

export type Lang = 'en' | 'ko';

const en = {
  title: 'Reaction Blocks in React',
  intro:
    'A React 19 app that imports @reaction-blocks/sdk/react: each block below is a React component made with @lit/react around the web component, loading the demo owner’s blocks from the local stack.',
  controls: 'Properties from React state',
  theme: 'Theme',
  language: 'Language',
  blockDefault: 'The block’s own',
  light: 'Light',
  dark: 'Dark',
  dummy: 'Dummy mode (nothing is written)',
  comment: 'Comment',
  qna: 'Q&A',
  like: 'Like',
  button: 'Button',
  ab: 'A/B',
  form: 'Form',
  likeSeen: 'React saw: {state}, {count} in total',
  likeNotYet: 'React has not seen a like yet.',
  liked: 'liked',
  unliked: 'unliked',
  events: 'Events seen by React',
  noEvents: 'No events yet: like, vote, comment or submit above.',
  missingConfig:
    'No project URL or anon key: run `npm start`, or build with RB_PROJECT_URL and RB_ANON_KEY.',
};

export type Texts = typeof en;

const ko: Texts = {
  title: 'React에서 쓰는 Reaction Blocks',
  intro:
    '@reaction-blocks/sdk/react를 가져다 쓰는 React 19 앱입니다. 아래의 각 블록은 @lit/react로 웹 컴포넌트를 감싼 React 컴포넌트이며, 로컬 스택에서 데모 소유자의 블록을 불러옵니다.',
  controls: 'React 상태로 넘기는 속성',
  theme: '테마',
  language: '언어',
  blockDefault: '블록 설정 그대로',
  light: '라이트',
  dark: '다크',
  dummy: '더미 모드 (아무것도 저장하지 않음)',
  comment: '댓글',
  qna: 'Q&A',
  like: '좋아요',
  button: '버튼',
  ab: 'A/B',
  form: '폼',
  likeSeen: 'React가 받은 값: {state}, 모두 {count}개',
  likeNotYet: '아직 React가 받은 좋아요가 없습니다.',
  liked: '좋아요 누름',
  unliked: '좋아요 취소',
  events: 'React가 받은 이벤트',
  noEvents: '아직 이벤트가 없습니다. 위에서 좋아요, 투표, 댓글, 제출을 해 보세요.',
  missingConfig:
    '프로젝트 URL이나 anon 키가 없습니다. `npm start`로 실행하거나 RB_PROJECT_URL과 RB_ANON_KEY를 지정해 빌드하세요.',
};

export const TEXTS: Record<Lang, Texts> = { en, ko };

/** Fills `{name}` placeholders. */
export const fill = (s: string, vars: Record<string, string | number>): string =>
  s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

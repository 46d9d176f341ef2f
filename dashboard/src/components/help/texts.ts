// The help's questions and answers (en, ko), with help-content.tsx, which /help and the signed-in
// help widget load: the landing's main chunk carries only the help's title (footer, help button).
import { textRegistration, type SameShape } from '../../lib/i18n';

const en = {
  help: {
    intro: 'Answers to the most common questions.',
    items: [
      {
        q: 'How do I embed a block?',
        a: 'Open the card menu of a block, choose Block link and copy the snippet into your page.',
      },
      {
        q: 'Why can I not create more blocks?',
        a: 'Each plan has a block limit. Delete a block or upgrade your plan.',
      },
      {
        q: 'Can I use the dashboard on my phone?',
        a: 'Block management is not supported on mobile. Use a tablet or a computer.',
      },
      {
        q: 'How do I contact you?',
        a: 'Write to hello@reactionblocks.com.',
      },
    ],
  },
};

const ko: SameShape<typeof en> = {
  help: {
    intro: '자주 묻는 질문에 대한 답변입니다.',
    items: [
      {
        q: '블록은 어떻게 페이지에 넣나요?',
        a: '블록 카드 메뉴에서 블록 링크를 선택하고 코드를 복사해 페이지에 붙여 넣으세요.',
      },
      {
        q: '블록을 더 만들 수 없어요.',
        a: '요금제마다 블록 개수 제한이 있습니다. 블록을 삭제하거나 요금제를 업그레이드하세요.',
      },
      {
        q: '휴대폰에서도 대시보드를 쓸 수 있나요?',
        a: '모바일에서는 블록 관리를 지원하지 않습니다. 태블릿이나 컴퓨터를 이용해 주세요.',
      },
      {
        q: '문의는 어떻게 하나요?',
        a: 'hello@reactionblocks.com 으로 메일을 보내 주세요.',
      },
    ],
  },
};

export const registerHelpTranslations = textRegistration({ en, ko });

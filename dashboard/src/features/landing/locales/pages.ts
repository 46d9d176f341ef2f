// The texts of the landing's own pages (/reaction, /send, /showcase, /pricing, /terms, /cookies):
// they load with those pages' chunks, so the home page, the page every visitor opens first, does
// not carry them. Merged into the app's single `translation` namespace under their prefixes.
import { textRegistration, type SameShape } from '../../../lib/i18n';

const en = {
  reaction: {
    title: 'Reaction blocks',
    text: 'Six blocks you can embed anywhere. Try them here.',
    tabsLabel: 'Block types',
    demoFallback: 'The live {{type}} demo loads here.',
    featuresTitle: 'Features',
    features: {
      unlimited: 'Unlimited comments, likes and clicks',
      notification: 'Email notification',
      notion: 'Notion integration',
      audience: 'Stay connected to audience',
      style: 'Customize style',
      openGraph: 'Custom Open Graph',
    },
    cta: 'Create your block',
  },
  send: {
    title: 'Send a page as a letter',
    text: 'Turn a public page into an email letter for your audience.',
    tabsLabel: 'Sources',
    tabs: { notion_letter: 'Notion', typedream_letter: 'Typedream', brunch_letter: 'Brunch' },
    before: 'Your page',
    after: 'The letter',
    beforeFrame: 'A {{source}} page',
    afterFrame: 'The letter made from the {{source}} page',
    sampleNote:
      'A page of our demo site, made into a letter by the same code that makes yours: its text, headings, lists, quotes and images stay; navigation, scripts, forms and comments go; the unsubscribe footer is added.',
    featuresTitle: 'Features',
    features: {
      page: 'Any public page becomes a letter',
      audience: 'Send to your audience list',
      manual: 'Or type in up to 100 addresses',
      stats: 'Delivery and open counts',
      cta: 'Call-to-action button',
      history: 'History of sent letters',
    },
    cta: 'Start',
  },
  showcase: {
    title: 'Showcase',
    text: 'Every block as your readers meet it, live: leave a comment, ask a question, vote. These are real blocks on this server.',
    start: 'Make your own',
    items: {
      comment: {
        caption: 'Comments under a blog post',
        why: 'Readers answer the post and each other; you reply as the owner and hold what needs a look.',
        site: 'fieldnotes.blog',
        headline: 'Comments on my blog in five minutes',
        body: 'One block under every post this month: how readers took to it, and how I keep spam out.',
      },
      qna: {
        caption: 'Questions on a product page',
        why: 'Shoppers ask before they buy; answered questions rise, so the next shopper finds them.',
        site: 'blocks.shop',
        headline: 'Reaction Blocks, the monthly plan',
        body: 'Blocks for your pages, free to start. Ask us anything about exports, notifications or the free plan.',
      },
      like: {
        caption: 'Likes on a recipe',
        why: 'One tap, no sign-up: the count tells you which posts to write more of.',
        site: 'sunday.kitchen',
        headline: 'Five-minute miso soup',
        body: 'Dashi, miso, tofu and spring onion: dinner before the kettle cools.',
      },
      button: {
        caption: 'A call to action in a newsletter',
        why: 'A button that opens your link and counts every click, wherever the letter is read.',
        site: 'the-weekly.news',
        headline: 'This week: your first block',
        body: 'One script tag and one element. The docs walk you through every block type.',
      },
      ab: {
        caption: 'A vote in an article',
        why: 'Two options, one tap; readers see the result after they vote.',
        site: 'design-notes.page',
        headline: 'We redrew our landing page',
        body: 'New layout, new words, the same product. Before it goes live, tell us at a glance.',
      },
      form: {
        caption: 'A feedback form in a help centre',
        why: 'Questions in steps, endings that depend on the answers, results in your dashboard and Notion.',
        site: 'help.example.app',
        headline: 'Help us choose the next blocks',
        body: 'Tell us which blocks you use and on how many sites; it takes under a minute.',
      },
    },
  },

  pricing: {
    title: 'Pricing',
    lead: 'Start free with three blocks. Pay for more blocks, emails and answers when your readers come.',
    perMonth: '/ month',
    from: 'from',
    start: 'Start',
    // the link's name for a screen reader, which hears three links (U11); starts with `start`
    startPlan: 'Start with {{plan}}',
    starter: {
      name: 'Starter',
      for: 'To try every block type on your own site',
      price: 'Free',
      features: [
        '3 blocks',
        '100 emails and answers per month',
        'Unlimited comments, likes and clicks',
        'All six block types',
        'Email notification',
        'Block link and QR code',
      ],
    },
    basic: {
      name: 'Basic',
      for: 'For a blog, a newsletter or a small shop',
      features: [
        '11 blocks',
        '1,100 emails and answers per month',
        'Audience management',
        'Customize style',
        'Notion integration',
        'Custom Open Graph',
      ],
    },
    custom: {
      name: 'Custom',
      for: 'For as many blocks, emails and answers as you need',
      features: [
        '$1 a month for each 4 blocks, or each 1,000 emails and answers',
        'Everything in Basic',
        'Minimum $3 per month',
        'Extra emails and answers $1.00 per 1,000 after the first 100 free',
      ],
    },
    counted:
      'Emails and answers are one monthly count: the emails your letters send and the answers your forms and A/B blocks take. At the limit, forms and A/B blocks stop taking answers until the next month (UTC).',
  },
  policies: {
    terms: {
      title: 'Terms & Privacy',
      termsTitle: 'The terms',
      intro:
        'The terms you agree to when you sign in to Reaction Blocks, and what happens to the data it keeps.',
      sections: [
        {
          title: 'What we keep about owners',
          items: [
            'Your name, email address and profile picture from Google or Apple, your language and your plan.',
            'The blocks you create, their settings and the responses they collect.',
          ],
        },
        {
          title: 'What we keep about visitors',
          items: [
            'Visitors react as anonymous users: the name and colour they choose (or a random animal name), what they write or choose, the time and their time zone.',
            'An email address only when a visitor gives one, for reply notifications or in a form that asks for it.',
            'The owner of a block sees the responses to it and can export and delete them.',
          ],
        },
        {
          title: 'Removing data',
          items: [
            'You can remove your account on your profile page; your blocks and all their responses are deleted with it.',
            'You can delete single responses on a block’s result page.',
          ],
        },
      ],
    },
    cookies: {
      title: 'Cookie policy',
      intro:
        'Reaction Blocks sets no advertising or tracking cookies. It keeps a few values in your browser’s local storage so that it works.',
      sections: [
        {
          title: 'On this site',
          items: ['Your sign-in session, so that you stay signed in.', 'The language you chose.'],
        },
        {
          title: 'In embedded blocks',
          items: [
            'A visitor’s anonymous session and the name and colour shown with their reactions, kept in the local storage of the site the block is embedded on.',
          ],
        },
        {
          title: 'Removing them',
          items: [
            'Signing out removes the session. Clearing this site’s data in your browser removes everything listed here.',
          ],
        },
      ],
    },
  },
};

const ko: SameShape<typeof en> = {
  reaction: {
    title: '리액션 블록',
    text: '어디에나 넣을 수 있는 여섯 가지 블록을 여기서 직접 써 보세요.',
    tabsLabel: '블록 종류',
    demoFallback: '{{type}} 데모가 여기에 표시됩니다.',
    featuresTitle: '기능',
    features: {
      unlimited: '댓글·좋아요·클릭은 무제한',
      notification: '이메일 알림',
      notion: '노션 연동',
      audience: '오디언스와 계속 연결',
      style: '스타일 꾸미기',
      openGraph: '오픈 그래프 설정',
    },
    cta: '블록 만들기',
  },
  send: {
    title: '페이지를 레터로 보내기',
    text: '공개된 페이지를 오디언스에게 보내는 이메일 레터로 바꿔 보세요.',
    tabsLabel: '원본',
    tabs: { notion_letter: '노션', typedream_letter: '타입드림', brunch_letter: '브런치' },
    before: '내 페이지',
    after: '레터',
    beforeFrame: '{{source}} 페이지',
    afterFrame: '{{source}} 페이지로 만든 레터',
    sampleNote:
      '데모 사이트의 페이지를 여러분의 레터를 만드는 것과 같은 코드로 레터로 만들었습니다. 본문, 제목, 목록, 인용, 이미지는 남고 메뉴, 스크립트, 폼, 댓글은 빠지며 수신 거부 안내가 붙습니다.',
    featuresTitle: '기능',
    features: {
      page: '공개 페이지를 그대로 레터로',
      audience: '오디언스 목록에 발송',
      manual: '주소를 직접 입력해 최대 100명에게',
      stats: '전달 및 열람 수 확인',
      cta: '행동 유도 버튼',
      history: '보낸 레터 기록',
    },
    cta: '시작하기',
  },
  showcase: {
    title: '쇼케이스',
    text: '독자가 만나는 모습 그대로, 모든 블록이 실제로 동작합니다. 댓글을 남기고, 질문하고, 투표해 보세요. 이 서버의 실제 블록입니다.',
    start: '내 블록 만들기',
    items: {
      comment: {
        caption: '블로그 글의 댓글',
        why: '독자가 글과 서로에게 답합니다. 주인으로 답글을 달고, 살펴볼 글은 보류할 수 있습니다.',
        site: 'fieldnotes.blog',
        headline: '5분 만에 블로그에 댓글 달기',
        body: '이번 달 모든 글 아래에 블록 하나를 달았습니다. 독자의 반응과 스팸을 막는 방법을 정리했습니다.',
      },
      qna: {
        caption: '상품 페이지의 질문',
        why: '구매 전에 묻고, 답변된 질문이 위로 올라 다음 손님이 바로 찾습니다.',
        site: 'blocks.shop',
        headline: '리액션 블록스 월간 요금제',
        body: '페이지에 다는 블록, 무료로 시작하세요. 내보내기, 알림, 무료 요금제 무엇이든 물어보세요.',
      },
      like: {
        caption: '레시피의 좋아요',
        why: '가입 없이 한 번 누르면 끝. 어떤 글을 더 써야 할지 숫자가 알려 줍니다.',
        site: 'sunday.kitchen',
        headline: '5분 된장국',
        body: '육수, 된장, 두부, 파. 주전자가 식기 전에 저녁이 준비됩니다.',
      },
      button: {
        caption: '뉴스레터의 행동 유도 버튼',
        why: '레터를 어디서 읽든 링크를 열고 클릭을 모두 셉니다.',
        site: 'the-weekly.news',
        headline: '이번 주: 첫 블록 달기',
        body: '스크립트 태그 하나와 요소 하나. 문서가 블록 종류마다 차근차근 안내합니다.',
      },
      ab: {
        caption: '기사 속 투표',
        why: '두 가지 선택지, 한 번의 탭. 투표하면 결과를 볼 수 있습니다.',
        site: 'design-notes.page',
        headline: '랜딩 페이지를 새로 그렸습니다',
        body: '새 레이아웃, 새 문구, 같은 제품. 공개하기 전에 한눈에 어떤지 알려 주세요.',
      },
      form: {
        caption: '도움말 센터의 피드백 폼',
        why: '단계별 질문, 답에 따라 달라지는 마무리, 대시보드와 노션으로 가는 결과.',
        site: 'help.example.app',
        headline: '다음 블록을 함께 골라 주세요',
        body: '어떤 블록을 몇 개의 사이트에서 쓰시는지 알려 주세요. 1분이면 충분합니다.',
      },
    },
  },

  pricing: {
    title: '요금제',
    lead: '블록 세 개로 무료로 시작하세요. 독자가 늘면 블록과 이메일·응답 건수를 더하면 됩니다.',
    perMonth: '/ 월',
    from: '최소',
    start: '시작하기',
    startPlan: '{{plan}} 시작하기',
    starter: {
      name: '스타터',
      for: '모든 블록을 내 사이트에서 써 보기',
      price: '무료',
      features: [
        '블록 3개',
        '월 이메일·응답 100건',
        '댓글·좋아요·클릭은 무제한',
        '여섯 가지 블록 모두',
        '이메일 알림',
        '블록 링크와 QR 코드',
      ],
    },
    basic: {
      name: '베이직',
      for: '블로그, 뉴스레터, 작은 쇼핑몰에',
      features: [
        '블록 11개',
        '월 이메일·응답 1,100건',
        '오디언스 관리',
        '스타일 꾸미기',
        '노션 연동',
        '오픈 그래프 설정',
      ],
    },
    custom: {
      name: '커스텀',
      for: '필요한 만큼 블록과 이메일·응답 건수를',
      features: [
        '블록 4개 또는 이메일·응답 1,000건마다 월 1,000원',
        '베이직의 모든 기능',
        '최소 월 3,000원',
        '무료 100건 이후 이메일·응답 1,000건당 1,000원',
      ],
    },
    counted:
      '이메일·응답은 한 달에 한 번 세는 하나의 건수입니다. 레터로 보내는 이메일과 폼·A/B 블록에 받는 응답을 함께 셉니다. 한도에 이르면 다음 달(UTC 기준)까지 폼과 A/B 블록이 응답을 받지 않습니다.',
  },
  policies: {
    terms: {
      title: '이용약관 및 개인정보처리방침',
      termsTitle: '약관',
      intro:
        '리액션 블록스에 로그인할 때 동의하는 약관과, 서비스가 보관하는 데이터가 어떻게 다뤄지는지 안내합니다.',
      sections: [
        {
          title: '소유자에 대해 보관하는 정보',
          items: [
            'Google 또는 Apple 계정의 이름, 이메일 주소, 프로필 사진과 언어, 요금제.',
            '만든 블록과 그 설정, 블록이 모은 응답.',
          ],
        },
        {
          title: '방문자에 대해 보관하는 정보',
          items: [
            '방문자는 익명 사용자로 반응합니다: 방문자가 정한 이름과 색(또는 무작위 동물 이름), 작성하거나 고른 내용, 시각과 시간대.',
            '이메일 주소는 방문자가 답글 알림이나 이메일을 묻는 폼에 직접 입력한 경우에만 보관합니다.',
            '블록 소유자는 자기 블록의 응답을 보고, 내보내고, 삭제할 수 있습니다.',
          ],
        },
        {
          title: '데이터 삭제',
          items: [
            '프로필 페이지에서 계정을 삭제할 수 있으며, 블록과 모든 응답이 함께 삭제됩니다.',
            '블록의 결과 페이지에서 응답을 하나씩 삭제할 수 있습니다.',
          ],
        },
      ],
    },
    cookies: {
      title: '쿠키 정책',
      intro:
        '리액션 블록스는 광고나 추적 쿠키를 쓰지 않습니다. 서비스가 동작하는 데 필요한 몇 가지 값만 브라우저의 로컬 저장소에 보관합니다.',
      sections: [
        {
          title: '이 사이트에서',
          items: ['로그인 상태를 유지하기 위한 로그인 세션.', '선택한 언어.'],
        },
        {
          title: '삽입된 블록에서',
          items: [
            '방문자의 익명 세션과 반응에 함께 표시되는 이름과 색. 블록이 삽입된 사이트의 로컬 저장소에 보관됩니다.',
          ],
        },
        {
          title: '삭제하는 방법',
          items: [
            '로그아웃하면 세션이 삭제됩니다. 브라우저에서 이 사이트의 데이터를 지우면 여기 적힌 값이 모두 삭제됩니다.',
          ],
        },
      ],
    },
  },
};

export const registerLandingPageTranslations = textRegistration({ en, ko });

// Korean texts of /profile/plan, /purchase and /purchase/payment (index.ts registers them).
import type { en } from './en';

export const ko: typeof en = {
  title: '플랜',
  loadFailed: '플랜을 불러오지 못했습니다: {{reason}}',
  messages: {
    minimumPrice: '구독 최소 금액은 $3입니다',
    failedToPayment: '결제에 실패했습니다',
    activePlan: '이미 이용 중인 플랜이 있습니다',
    paymentInProgress: '결제가 이미 진행 중입니다. 몇 분 뒤에 다시 시도해 주세요',
    priceChanged: '가격이 바뀌었습니다. 플랜을 확인하고 다시 시도해 주세요',
    invalidPlan: '잘못된 플랜입니다',
    notANumber: '숫자가 아닙니다',
    couponLength: '쿠폰 코드는 1~99자입니다',
    couponNotFound: '없는 쿠폰입니다',
    couponExpired: '기간이 지난 쿠폰입니다',
    couponUsedUp: '모두 사용된 쿠폰입니다',
    couponUsed: '이미 사용한 쿠폰입니다',
    couponNewOnly: '플랜을 이용한 적이 없는 분만 쓸 수 있는 쿠폰입니다',
    couponAttempts: '쿠폰 입력 횟수를 넘었습니다.',
    noPlan: '없는 플랜입니다',
    notRenewing: '갱신되지 않는 플랜입니다',
    renewalPending: '갱신 결제가 진행 중입니다. 잠시 후 다시 시도해 주세요',
    changeApproved: 'PayPal에서 이미 승인한 변경이 있어 다른 금액으로 결제됩니다',
    declinedCardOnly: 'PayPal 변경만 취소할 수 있습니다',
  },
  failed: '처리하지 못했습니다: {{reason}}',
  types: {
    // the plans' Korean names, as the pricing page says them (landing/locales/pages.ts)
    basic: '베이직',
    custom: '커스텀',
    coupon: '쿠폰',
    promote_coupon: '프로모션',
    subscription: '구독',
  },
  starter: '스타터',
  starterLine: '무료: 블록 {{blocks}}개, 월 이메일·응답 {{emails}}건.',
  upgrade: '업그레이드',
  active: {
    heading: '내 플랜',
    limits: '블록 {{blocks}}개 · 월 이메일·응답 {{emails}}건',
    perMonth: '월 {{price}}',
    period: '{{start}} – {{end}}',
    renews: '{{date}}에 갱신됩니다.',
    stopped:
      '중지됨: {{date}}에 종료됩니다. 그때까지 모든 기능을 그대로 쓸 수 있으며, 새 플랜은 {{after}}부터 구매할 수 있습니다.',
    stoppedPaid:
      '중지됨: {{date}}에 종료됩니다. {{paid}}부터는 이미 결제한 기간의 플랜이 적용됩니다. 새 플랜은 {{after}}부터 구매할 수 있습니다.',
    failed:
      '갱신 결제가 실패했습니다. 플랜은 {{date}}에 종료되며, 새 플랜은 {{after}}부터 구매할 수 있습니다.',
    retrying:
      '갱신 결제가 실패했습니다. PayPal이 {{retry}}에 다시 결제를 시도합니다. 플랜은 {{until}}까지 유지되며, 결제가 되면 바로 갱신됩니다.',
    retryingSoon:
      '갱신 결제가 실패했습니다. PayPal이 며칠 안에 다시 결제를 시도합니다. 플랜은 {{until}}까지 유지되며, 결제가 되면 바로 갱신됩니다.',
    retryingWhat:
      '계속 이용하시려면 PayPal 계정의 카드나 잔액을 확인해 주세요. 더 이상 원하지 않으시면 플랜을 중지하세요. PayPal이 다시 결제하지 않습니다.',
    ends: '{{date}}에 종료됩니다.',
    next: '{{date}}부터: 블록 {{blocks}}개, 월 이메일·응답 {{emails}}건, 월 {{price}}.',
    nextPaypal:
      'PayPal에서 승인을 기다리는 중: 다음 결제부터 블록 {{blocks}}개, 월 이메일·응답 {{emails}}건, 월 {{price}}. 아직 승인하지 않았다면 변경을 열어 링크를 다시 받거나, 지금 플랜을 골라 그대로 유지하세요.',
    method: { iamport: '카드 결제', paypal: 'PayPal 결제' },
    coupon: '쿠폰 {{name}}: {{date}}까지 블록 {{blocks}}개, 월 이메일·응답 {{emails}}건.',
    couponNoEnd: '쿠폰 {{name}}: 블록 {{blocks}}개, 월 이메일·응답 {{emails}}건(종료일 없음).',
  },
  refundFailed: {
    heading: '돌려드리지 못한 PayPal 결제가 있습니다',
    text: '{{date}}의 PayPal 구독 {{id}}을(를) 플랜 없이 취소했지만, 결제 금액을 자동으로 돌려드리지 못했습니다. 금액은 사라지지 않았습니다. 이 구독 ID와 함께 연락해 주시면 직접 환불해 드립니다.',
    ended:
      '플랜이 끝난 뒤 PayPal이 구독 {{id}}에서 결제를 한 번 더 받았습니다. 구독은 취소했지만, {{date}}에 그 결제 금액을 자동으로 돌려드리지 못했습니다. 금액은 사라지지 않았습니다. 이 구독 ID와 함께 연락해 주시면 직접 환불해 드립니다.',
    email: '{{email}}(으)로 문의하기',
    help: '도움말에서 문의하기',
  },
  notices: {
    purchased: '플랜이 시작되었습니다. 감사합니다!',
    paypalCancelled: 'PayPal 결제를 취소했습니다. 결제된 금액은 없습니다.',
    paypalApproved: 'PayPal에서 승인했습니다. 변경 내용은 다음 결제부터 적용됩니다.',
    paypalChangeCancelled:
      'PayPal에서 변경을 승인하지 않아 플랜은 지금 그대로입니다. 승인 링크를 다시 받거나 변경을 취소하려면 변경을 여세요.',
    paypalChangeDropped:
      'PayPal에서 변경을 승인하지 않아 변경을 취소했습니다. 플랜은 지금 그대로입니다. 다시 요청하려면 변경을 여세요.',
    stopped: '플랜을 중지했습니다. {{date}}까지 이용할 수 있습니다.',
    changed: '{{date}}부터 플랜이 변경됩니다.',
    kept: '변경을 취소했습니다. 플랜은 지금 그대로 유지됩니다.',
    changeLink: 'PayPal이 새 탭에서 열렸습니다. 그곳에서 변경을 승인해 주세요.',
    changeLinkBlocked: '브라우저가 PayPal 창을 막았습니다. 여기에서 열어 변경을 승인해 주세요:',
    openPaypal: 'PayPal 열기',
    coupon: '쿠폰이 적용되었습니다.',
  },
  usage: {
    heading: '사용량',
    blocks: '블록',
    blocksValue: '블록 {{limit}}개 중 {{used}}개',
    emails: '이번 달 이메일·응답',
    emailsValue: '이메일·응답 {{limit}}건 중 {{used}}건',
    emailsHint:
      '레터로 보낸 이메일과 함께 폼·A/B 블록에 받은 응답도 여기에 셉니다. 한도에 이르면 다음 달(UTC 기준)까지 폼과 A/B 블록이 응답을 받지 않습니다.',
  },
  actions: {
    stop: '중지',
    change: '변경',
    coupon: '쿠폰 사용',
  },
  stop: {
    title: '플랜을 중지할까요?',
    text: '더 이상 결제되지 않습니다. {{date}}까지는 블록과 이메일을 그대로 쓸 수 있고, 그 후에는 스타터(블록 {{blocks}}개, 월 이메일·응답 {{emails}}건)로 돌아가며 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    textWithCoupon:
      '더 이상 결제되지 않습니다. {{date}}까지는 블록과 이메일을 그대로 쓸 수 있고, 그 후 {{until}}까지는 쿠폰의 한도가 적용되며, 그다음에는 스타터(블록 {{blocks}}개, 월 이메일·응답 {{emails}}건)로 돌아갑니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    textPaid:
      '더 이상 결제되지 않습니다. {{paid}}부터 {{date}}까지의 다음 기간은 이미 결제되어 그동안 블록 {{paidBlocks}}개, 월 이메일·응답 {{paidEmails}}건을 쓸 수 있습니다. 그 후에는 스타터(블록 {{blocks}}개, 월 이메일·응답 {{emails}}건)로 돌아갑니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    textPaidWithCoupon:
      '더 이상 결제되지 않습니다. {{paid}}부터 {{date}}까지의 다음 기간은 이미 결제되어 그동안 블록 {{paidBlocks}}개, 월 이메일·응답 {{paidEmails}}건을 쓸 수 있습니다. 그 후 {{until}}까지는 쿠폰의 한도가 적용되며, 그다음에는 스타터(블록 {{blocks}}개, 월 이메일·응답 {{emails}}건)로 돌아갑니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    textPaidWithLastingCoupon:
      '더 이상 결제되지 않습니다. {{paid}}부터 {{date}}까지의 다음 기간은 이미 결제되어 그동안 블록 {{paidBlocks}}개, 월 이메일·응답 {{paidEmails}}건을 쓸 수 있습니다. 그 후에는 쿠폰의 한도가 적용됩니다(쿠폰에 종료일이 없습니다). 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    textWithLastingCoupon:
      '더 이상 결제되지 않습니다. {{date}}까지는 블록과 이메일을 그대로 쓸 수 있고, 그 후에는 쿠폰의 한도가 적용됩니다(쿠폰에 종료일이 없습니다). 그때 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    final:
      '중지는 되돌릴 수 없습니다. 플랜은 갱신되지 않으며 다시 이어갈 수 없습니다. {{date}} 이후에도 쓰려면 플랜이 끝난 뒤({{after}}부터) 다시 구매해 주세요.',
    confirm: '플랜 중지',
    cancel: '유지하기',
  },
  change: {
    title: '플랜 변경',
    intro: '변경 내용은 다음 기간({{date}})부터 적용됩니다. 이번 기간은 결제한 그대로 유지됩니다.',
    introPaid:
      '{{paid}}부터의 다음 기간은 이미 결제되어 표시된 플랜이 유지됩니다. 변경 내용은 그다음 기간({{date}})부터 적용됩니다.',
    paypalIntro: '새 금액은 새 탭에서 PayPal 승인이 필요합니다. 승인 후 첫 결제부터 적용됩니다.',
    save: '플랜 변경',
    same: '이미 사용 중인 플랜입니다.',
    keep: '지금 사용 중인 플랜입니다. 요청한 변경은 취소되고 플랜은 지금 그대로 유지됩니다.',
    samePaid: '이미 결제한 다음 기간의 플랜입니다.',
    overLimit:
      '지금 블록이 {{used}}개 있고, 새 플랜은 {{limit}}개까지입니다. 새 플랜이 시작되면 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    overLimitCoupon:
      '지금 블록이 {{used}}개 있고, 쿠폰을 더해도 새 플랜은 {{limit}}개까지입니다. 새 플랜이 시작되면 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    overLimitLater:
      '지금 블록이 {{used}}개 있고, 쿠폰 덕분에 새 플랜에서도 모두 쓸 수 있지만, 쿠폰이 끝난 뒤인 {{date}}부터는 {{lowest}}개까지입니다. 그때 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    overLimitCouponEnds:
      '지금 블록이 {{used}}개 있고, 쿠폰을 더해도 새 플랜은 시작할 때 {{limit}}개까지, 쿠폰이 끝난 뒤인 {{date}}부터는 {{lowest}}개까지입니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
  },
  coupon: {
    title: '쿠폰 사용',
    label: '쿠폰 코드',
    hint: '1자 이상 99자 이하.',
    apply: '적용',
  },
  history: {
    heading: '내역',
    caption: '플랜 내역, 최신순',
    start: '시작일',
    end: '종료일',
    type: '유형',
    status: '상태',
    blocks: '블록',
    emails: '이메일',
    price: '금액',
    active: '사용 중',
    expired: '만료',
    empty: '아직 플랜 내역이 없습니다.',
    more: '더 보기',
    loading: '더 불러오는 중…',
    free: '무료',
  },
  steps: {
    label: '구매 단계',
    select: '플랜 선택',
    payment: '결제',
  },
  select: {
    title: '플랜 선택',
    typeLabel: '플랜',
    basicLine: '블록 {{blocks}}개, 월 이메일·응답 {{emails}}건',
    customLine: '블록과 이메일·응답 건수를 고르세요: 월 $1마다 블록 4개 또는 이메일·응답 1,000건.',
    customLineKo:
      '블록과 이메일·응답 건수를 고르세요: 월 1,000원마다 블록 4개 또는 이메일·응답 1,000건.',
    start: '시작일',
    blocks: '추가 블록',
    blocksHint: '4개 단위, 최대 {{max}}개, 스타터의 3개에 더해 모두 {{total}}개.',
    emails: '추가 월 이메일·응답',
    emailsHint:
      '1,000건 단위, 최대 {{max}}건, 스타터의 100건에 더해 모두 월 {{total}}건. 레터로 보내는 이메일과 폼·A/B 블록에 받는 응답을 함께 셉니다.',
    blocksNote: {
      up: '{{typed}}개는 4개 단위가 아니고 {{previous}}개보다 많아서 위 단위인 {{value}}개로 올렸습니다.',
      down: '{{typed}}개는 4개 단위가 아니고 {{previous}}개보다 적어서 아래 단위인 {{value}}개로 내렸습니다.',
      max: '{{typed}}개는 최대 {{max}}개를 넘어서 {{value}}개로 맞췄습니다.',
      negative: '{{typed}}개는 0보다 작습니다. 0 이상을 입력하세요. {{value}}개 그대로입니다.',
      empty: '0 이상의 숫자를 입력하세요. {{value}}개 그대로입니다.',
    },
    emailsNote: {
      up: '{{typed}}건은 1,000건 단위가 아니고 {{previous}}건보다 많아서 위 단위인 {{value}}건으로 올렸습니다.',
      down: '{{typed}}건은 1,000건 단위가 아니고 {{previous}}건보다 적어서 아래 단위인 {{value}}건으로 내렸습니다.',
      max: '{{typed}}건은 최대 {{max}}건을 넘어서 {{value}}건으로 맞췄습니다.',
      negative: '{{typed}}건은 0보다 작습니다. 0 이상을 입력하세요. {{value}}건 그대로입니다.',
      empty: '0 이상의 숫자를 입력하세요. {{value}}건 그대로입니다.',
    },
    included: '포함된 기능',
    groups: {
      general: '일반',
      comment: '댓글 블록',
      like: '좋아요 블록',
      form: '폼 블록',
    },
    features: {
      general: ['오디언스 관리', '스타일 꾸미기', '노션 연동', '오픈 그래프 설정'],
      comment: ['좋아요·답글 켜고 끄기', '익명 방문자 차단'],
      like: ['버튼 정렬'],
      form: ['제출 시 링크 열기', '여러 개의 엔딩'],
    },
    price: '금액',
    perMonth: '월 {{price}}',
    minimumPrice: '구독 최소 금액은 $3입니다',
    minimumPriceKo: '구독 최소 금액은 3,000원입니다',
    continue: '계속',
  },
  payment: {
    title: '결제',
    summary: '주문 내용',
    plan: '플랜',
    period: '기간',
    periodValue: '{{start}} – {{end}}, 이후 중지할 때까지 매월 갱신',
    blocks: '블록',
    emails: '월 이메일·응답',
    price: '금액',
    priceValue: '국내 카드·간편결제 월 {{won}}, PayPal 월 {{dollars}}',
    choose: '결제 수단을 선택하세요',
    card: '국내 신용카드',
    cardHint: '월 {{price}}, 매월 카드로 결제됩니다.',
    wallet: '간편결제(카카오페이)',
    walletHint: '월 {{price}}, 매월 간편결제로 결제됩니다.',
    paypal: 'PayPal 정기결제',
    paypalHint: '월 {{price}}, PayPal 해외 정기결제입니다.',
    payCard: '카드로 결제',
    payWallet: '간편결제로 결제',
    paying: '결제 중…',
    approvedChecking:
      '승인하신 PayPal 결제를 확인하고 있습니다. 다시 결제하지 마세요. 잠시 후 이곳에 플랜이 표시됩니다.',
    approvedKept:
      'PayPal 결제를 아직 확인하지 못했습니다. 결제는 그대로 남아 있으니 다시 결제하지 마세요.',
    approvedPending:
      'PayPal에서 결제가 아직 완료되지 않았습니다. 결제는 그대로 남아 있으니 다시 결제하지 마세요. 완료되는 대로 이곳에 플랜이 표시됩니다.',
    approvedRetryIn: '{{in}} 다시 확인해 주세요.',
    approvedRetryNow: '지금 다시 확인하거나 나중에 이 페이지를 새로 고쳐 주세요.',
    approvedRetry: '다시 확인',
    cancelled: '결제 창을 닫았습니다. 결제된 금액은 없습니다.',
    timeout: '결제 시간이 초과되었습니다. 결제된 금액은 없으니 다시 시도해 주세요.',
    notConfigured: '이 서버에는 이 결제 수단이 설정되어 있지 않습니다.',
    paypalLoading: 'PayPal을 불러오는 중…',
    paypalFailed: 'PayPal을 불러오지 못했습니다: {{reason}}',
    failed: '결제가 완료되지 않았습니다: {{reason}}',
    second: {
      activePlan:
        '이미 이용 중인 플랜이 있어 이 PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다).',
      paymentInProgress:
        '다른 결제가 처리되는 중이라 이 PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다). 다른 결제가 끝나면 플랜 페이지에 플랜이 표시됩니다.',
    },
    secondRefunded: {
      activePlan:
        '이미 이용 중인 플랜이 있어 이 PayPal 구독을 취소했으며, 결제 금액은 환불되었습니다.',
      paymentInProgress:
        '다른 결제가 처리되는 중이라 이 PayPal 구독을 취소했으며, 결제 금액은 환불되었습니다. 다른 결제가 끝나면 플랜 페이지에 플랜이 표시됩니다.',
    },
    checkoutEnded:
      '주문의 결제를 확인하지 못했습니다(결제가 취소되었거나, 찾을 수 없거나, 이미 끝난 결제입니다). 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
    reasons: {
      refunded:
        '결제는 되었지만 플랜을 기록하지 못해 결제를 취소(환불)했습니다. 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      refund_pending:
        '플랜을 기록하지 못해 PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다). 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      refund_failed:
        '플랜은 추가되지 않았고 PayPal 구독은 취소했지만, PayPal이 환불을 거절해 결제 금액을 자동으로 돌려드리지 못했습니다. 담당자에게 알렸으며, 문의할 곳은 플랜 페이지에 안내되어 있습니다.',
      approval_expired_refunded:
        '승인 후 한 시간 안에 구매가 완료되지 않아(페이지가 닫혔거나 연결이 끊겼습니다) PayPal 구독을 취소하고 결제 금액을 환불했습니다. 플랜은 추가되지 않았으니 다시 구매해 주세요.',
      approval_expired:
        '승인 후 한 시간 안에 구매가 완료되지 않아(페이지가 닫혔거나 연결이 끊겼습니다) PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다). 플랜은 추가되지 않았으니 다시 구매해 주세요.',
      provider_unavailable:
        '결제 서비스가 응답하지 않았습니다. 플랜에는 바뀐 것이 없으니 잠시 후 다시 시도해 주세요.',
      payment_pending:
        '결제가 아직 끝나지 않았습니다. 결제가 끝나는 대로 플랜 페이지에 표시되니 다시 결제하지 마세요.',
      plan_mismatch:
        'PayPal 구독이 선택한 플랜과 맞지 않아 구독을 취소했으며, 결제된 금액이 있으면 환불됩니다. 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      subscription_in_use:
        '이 PayPal 구독은 이미 이용 중인 플랜의 결제이거나, 아직 결제가 처리되는 중입니다. 바뀐 것은 없습니다.',
      checkout_cancelled:
        '첫 결제가 끝나기 전에 PayPal 구독이 취소되어 플랜은 추가되지 않았고, 결제된 금액도 없습니다. 그래도 PayPal이 그 결제를 가져가면 환불해 드립니다.',
      invalid_billing_key:
        '등록한 카드나 간편결제 수단을 사용할 수 없습니다(찾을 수 없거나, 삭제되었거나, 선택한 결제 방식과 다릅니다). 결제된 금액은 없으니 다시 등록해 주세요.',
      invalid_subscription:
        'PayPal에서 이 구독을 찾을 수 없습니다. 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      forbidden:
        '이 계정의 결제가 아니거나, 이 계정으로는 플랜을 구매할 수 없습니다. Google 또는 Apple 계정으로 로그인한 뒤 처음부터 다시 시도해 주세요.',
    },
    checkoutError: {
      notConfigured:
        '이 서버에는 이 결제 수단이 설정되어 있지 않습니다. 다른 결제 수단을 이용해 주세요.',
      unreachable:
        '결제 서비스에 연결하지 못했습니다(인터넷 연결 문제이거나 브라우저의 차단 기능 때문입니다). 연결을 확인하고 페이지를 새로 고쳐 주세요. 결제된 금액은 없습니다.',
      other:
        '결제 서비스에서 오류가 발생했습니다. 결제된 금액은 없으니 페이지를 새로 고쳐 다시 시도하거나 다른 결제 수단을 이용해 주세요.',
    },
    paypalError: {
      closed: '결제가 끝나기 전에 PayPal 창이 닫혔습니다. 결제된 금액은 없으니 다시 시도해 주세요.',
      blocked:
        '브라우저가 PayPal 창을 막았습니다. 이 사이트의 팝업을 허용한 뒤 다시 시도해 주세요.',
      network:
        'PayPal에 연결하지 못했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요. 결제된 금액은 없습니다.',
      setup:
        'PayPal이 구독 플랜을 받아들이지 않았습니다(저희 쪽 문제입니다). 결제된 금액은 없으니 나중에 다시 시도하거나 다른 결제 수단을 이용해 주세요.',
      other:
        'PayPal에서 오류가 발생했습니다. 결제된 금액은 없으니 다시 시도하거나 다른 결제 수단을 이용해 주세요.',
    },
    declined: {
      card: '결제가 완료되지 않았습니다. 다른 카드로 다시 시도하거나 카드사에 거절 사유를 문의해 주세요.',
      wallet:
        '결제가 완료되지 않았습니다. 다른 결제 수단으로 다시 시도하거나 결제 서비스에 거절 사유를 문의해 주세요.',
      paypal:
        'PayPal 결제가 완료되지 않았습니다. PayPal에서 다른 결제 수단을 선택하거나 PayPal에 거절 사유를 문의해 주세요.',
    },
    back: '플랜 선택으로 돌아가기',
    termsNote:
      '결제하면 이용약관과 개인정보 처리방침에 동의하는 것으로 봅니다. 플랜은 플랜 페이지에서 중지할 때까지 매월 자동으로 갱신됩니다.',
    terms: '이용약관 및 개인정보 처리방침',
    business: '사업자 정보',
  },
};

// Texts of integrations (en, ko) under the `integrations.` prefix: /profile/integration and
// /oauth/{service} (features/integrations) and the workspace's Integration section share them, so a
// note reads the same everywhere. Each registers them with registerIntegrationTranslations().
import { textRegistration } from '../../lib/i18n';
import { CAFE24_MESSAGES } from '@reaction-blocks/contracts/cafe24';
import { INTEGRATION_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { sharedMessageReason } from '../../lib/errors';

export const en = {
  title: 'Integration',
  intro:
    'Connect a service and every new response, comment or question of the blocks you link goes there.',
  notion: 'Notion',
  notionText:
    'Each new response, comment or question of a linked block becomes a page in the Notion database you choose (for a like block, a page under the Notion page you choose).',
  status: 'Status',
  granted: 'Granted',
  notGranted: 'Not granted',
  notConnected: 'Not connected',
  workspace: 'Workspace: {{name}}',
  connectedOn: 'Connected on {{date}}',
  connect: 'Connect Notion',
  connectAgain: 'Connect Notion again',
  connecting: 'Waiting for Notion…',
  remove: 'Remove',
  removeTitle: 'Remove the Notion integration?',
  removeText:
    'Every block linked to Notion is unlinked and our access token is deleted and revoked at Notion. Pages already written stay in Notion.',
  removed_one: 'Notion was removed. {{count}} block was unlinked.',
  removed_other: 'Notion was removed. {{count}} blocks were unlinked.',
  removedNotRevoked:
    'Notion was removed here, but Notion did not answer to revoke our access: you can remove “Reaction Blocks” in Notion’s Settings → Connections.',
  connected: 'Notion is connected ({{name}}).',
  cancelled: 'Notion access was not granted.',
  popupBlocked: 'The Notion window could not open. Allow pop-ups for this site and try again.',
  failed: 'Could not do that: {{reason}}',
  // the servers' own words (supabase/functions/_shared/contracts/schemas.ts)
  messages: { ...INTEGRATION_MESSAGES, ...CAFE24_MESSAGES } as Record<
    keyof typeof INTEGRATION_MESSAGES | keyof typeof CAFE24_MESSAGES,
    string
  >,
  loadFailed: 'Could not load your integrations: {{reason}}',
  paidOnly: 'Integrations come with a paid plan.',
  upgrade: 'See plans',
  notGrantedText:
    'Notion refused our access: the integration was removed or its access changed in Notion. New responses are kept and written once you connect Notion again.',
  notes: {
    title: 'Notes',
    dismiss: 'Dismiss',
    dismissNamed: 'Dismiss the note about {{name}}',
    times_one: 'once, last {{date}}',
    times_other: '{{count}} times, last {{date}}',
    column_type:
      'The column “{{property}}” ({{columnType}}) cannot take {{field}} ({{valueKind}}); it was left empty. Change the column’s type in Notion, or rename the question or the column.',
    columnReadOnly:
      'The column “{{property}}” ({{columnType}}) is filled by Notion itself; {{field}} was not written to it.',
    columnFormat:
      'The column “{{property}}” ({{columnType}}) cannot take this value of {{field}} (an option with a comma, a text that is not an address or a link); it was left empty.',
    columnRejected:
      'Notion refused the column “{{property}}”: {{message}}. The page was written without it.',
    target_missing:
      'The Notion database or page this block wrote to was deleted or is no longer shared with Reaction Blocks, so the block was unlinked. Choose another one.',
    unauthorized:
      'Notion refused our access: the integration was removed or its access changed in Notion. Connect Notion again; responses received meanwhile are written then.',
    write_failed: 'A response could not be written to Notion after every retry: {{message}}',
    write_uncertain:
      'A response may have been written to Notion: Notion did not answer its last attempts, so we could not tell. Look for it in Notion before adding it by hand. Last error: {{message}}',
    cafe24_unauthorized:
      'Cafe24 refused our access: the app was removed from your shop, or its access expired. Connect Cafe24 again.',
    cafe24_loader_failed: 'Your Cafe24 shop could not be updated after every retry: {{message}}',
    cafe24_taken_over:
      'Your Cafe24 shop {{mall}} is no longer connected here: Cafe24 had refused our access to it (the app was removed from the shop), and another account then connected the shop. Your blocks no longer show on it; your placements are kept for a shop you connect.',
  },
  kinds: {
    text: 'text',
    number: 'a number',
    choice: 'a choice',
    email: 'an email address',
    phone: 'a phone number',
    url: 'a link',
    date: 'a date',
  },
  cafe24: {
    name: 'Cafe24',
    text: 'Show your blocks on your Cafe24 shop: reviews as comments, questions and likes on each product page, or a block on the main page. We add a small script to your shop through Cafe24 and take it off again when you disconnect or your plan ends.',
    mallLabel: 'Your Cafe24 mall ID',
    mallHint: 'The first part of your shop’s address: myshop.cafe24.com → myshop',
    connect: 'Connect Cafe24',
    connectAgain: 'Connect Cafe24 again',
    connecting: 'Waiting for Cafe24…',
    connected: 'Your Cafe24 shop is connected ({{name}}).',
    cancelled: 'Cafe24 access was not granted.',
    popupBlocked: 'The Cafe24 window could not open. Allow pop-ups for this site and try again.',
    mall: 'Shop: {{name}}',
    notGrantedText:
      'Cafe24 refused our access: the app was removed from your shop, or its access expired. Your blocks may not show in the shop. Connect Cafe24 again.',
    loader: {
      installed: 'In your shop on: {{screens}}.',
      pending: 'Updating your shop…',
      removing: 'Taking the script off your shop… The card goes away once Cafe24 confirms it.',
      failed: 'Your shop could not be updated: {{reason}}',
      none: 'Nothing in your shop yet: place a block below.',
      unpaid: 'Nothing in your shop: your plan ended. Blocks come back when you choose a plan.',
    },
    screens: { product_detail: 'product pages', main: 'the main page' },
    placements: {
      title: 'Blocks in your shop',
      empty: 'No block is placed yet.',
      emptyNext: 'Add a block: choose one of your blocks and where in the shop it shows.',
      add: 'Add a block',
      noBlocks: 'Create a comment, Q&A, like or other reaction block first.',
      block: 'Block',
      screen: 'Where',
      perProduct: 'A separate thread for each product',
      perProductHint: 'Each product page shows its own reviews, questions or likes.',
      selector: 'After this part of the page (optional CSS selector)',
      selectorHint: 'Empty: below the product details (product pages) or at the end of the page.',
      remove: 'Remove {{name}} from {{screen}}',
      moveUp: 'Move {{name}} up',
      moveDown: 'Move {{name}} down',
      save: 'Save placements',
      saving: 'Saving…',
      untitled: 'Untitled',
      deactivated: '(deactivated)',
      row: '{{name}} on {{screen}}',
    },
    saved: 'Placements saved. Your shop is updated within a few seconds.',
    removing: 'Disconnecting: the script is being taken off your shop.',
    removeTitle: 'Disconnect your Cafe24 shop?',
    removeText:
      'Your blocks stop showing in the shop at once, and our script is taken off it. What visitors wrote stays in your blocks.',
  },
  oauth: {
    title: 'Connecting {{service}}',
    working: 'Finishing the connection with {{service}}…',
    done: '{{service}} is connected. This window closes by itself.',
    cancelled: '{{service}} access was not granted. You can close this window.',
    failed: 'Could not connect {{service}}: {{reason}}',
    unsupported: 'This service is not supported.',
    missingCode: '{{service}} did not send an authorisation code.',
    close: 'Close this window',
    back: 'Back to the dashboard',
  },
};

export const ko: typeof en = {
  title: '연동',
  intro: '서비스를 연결하면 연결한 블록의 새 응답, 댓글, 질문이 그곳으로 전달됩니다.',
  notion: '노션',
  notionText:
    '연결한 블록의 새 응답, 댓글, 질문이 선택한 노션 데이터베이스의 페이지가 됩니다(좋아요 블록은 선택한 노션 페이지 아래의 페이지가 됩니다).',
  status: '상태',
  granted: '허용됨',
  notGranted: '허용 안 됨',
  notConnected: '연결 안 됨',
  workspace: '워크스페이스: {{name}}',
  connectedOn: '{{date}}에 연결함',
  connect: '노션 연결',
  connectAgain: '노션 다시 연결',
  connecting: '노션을 기다리는 중…',
  remove: '연결 해제',
  removeTitle: '노션 연동을 해제할까요?',
  removeText:
    '노션에 연결된 모든 블록의 연결이 끊기고, 액세스 토큰이 삭제되며 노션에서도 취소됩니다. 이미 작성된 페이지는 노션에 남습니다.',
  removed_one: '노션 연동을 해제했습니다. 블록 {{count}}개의 연결이 끊겼습니다.',
  removed_other: '노션 연동을 해제했습니다. 블록 {{count}}개의 연결이 끊겼습니다.',
  removedNotRevoked:
    '여기서는 노션 연동을 해제했지만 노션이 응답하지 않아 액세스를 취소하지 못했습니다. 노션의 설정 → 연결에서 “Reaction Blocks”를 제거할 수 있습니다.',
  connected: '노션이 연결되었습니다({{name}}).',
  cancelled: '노션 액세스가 허용되지 않았습니다.',
  popupBlocked: '노션 창을 열 수 없습니다. 이 사이트의 팝업을 허용한 뒤 다시 시도해 주세요.',
  failed: '처리하지 못했습니다: {{reason}}',
  messages: {
    invalidRedirect: '돌아올 주소는 이 사이트의 해당 서비스 /oauth 페이지여야 합니다',
    invalidState: '만료되었거나 다른 세션의 인증 링크입니다. 다시 연결해 주세요',
    notConnected: '먼저 노션을 연결해 주세요',
    notGranted: '노션 접근 권한이 해제되었습니다. 노션을 다시 연결해 주세요',
    notSaved: '서비스가 잠시 응답하지 않아 연결을 저장하지 못했습니다. 다시 연결해 주세요',
    notionGone: '노션이 연결되어 있지 않습니다. 다시 연결한 뒤 고르세요',
    notionNotListed:
      '연결된 노션 워크스페이스에 없는 데이터베이스 또는 페이지입니다. 다시 고르세요',
    invalidMall: '카페24 쇼핑몰 아이디를 입력하세요: 영문 소문자와 숫자 4~16자',
    otherAccount:
      '이 카페24 쇼핑몰은 다른 계정에 연결되어 있습니다. 그 계정의 주인에게 연결 해제를 요청하세요. 이 쇼핑몰을 운영한다면 카페24 관리자에서 Reaction Blocks 앱을 삭제한 뒤 다시 연결하세요. 시도할 때마다 다른 계정의 액세스를 확인하고, 카페24가 그 액세스를 거부하면 쇼핑몰을 넘겨 드립니다',
    otherShop: '먼저 연결된 다른 카페24 쇼핑몰의 연결을 해제하세요',
    shopNotConnected: '먼저 카페24 쇼핑몰을 연결하세요',
    unavailable: '카페24가 응답하지 않습니다. 잠시 후 다시 시도해 주세요',
    invalidCode: '카페24가 이 인증을 받아들이지 않았습니다. 다시 연결해 주세요',
    wrongMall: '카페24가 다른 쇼핑몰로 응답했습니다. 다시 연결해 주세요',
    missingScope: '카페24가 쇼핑몰 스크립트 권한을 주지 않았습니다. 다시 연결해 허용해 주세요',
    tooManyPlacements: '배치는 최대 20개입니다',
    duplicatePlacement: '같은 위치에 같은 블록이 두 번 있습니다',
    invalidSelector: '이 페이지에서 쓸 수 있는 CSS 선택자가 아닙니다',
  },
  loadFailed: '연동 정보를 불러오지 못했습니다: {{reason}}',
  paidOnly: '연동은 유료 플랜에서 사용할 수 있습니다.',
  upgrade: '플랜 보기',
  notGrantedText:
    '노션이 액세스를 거부했습니다. 노션에서 연동이 제거되었거나 권한이 바뀌었습니다. 새 응답은 보관되며 노션을 다시 연결하면 작성됩니다.',
  notes: {
    title: '알림',
    dismiss: '닫기',
    dismissNamed: '{{name}} 알림 닫기',
    times_one: '1회, 마지막 {{date}}',
    times_other: '{{count}}회, 마지막 {{date}}',
    column_type:
      '“{{property}}” 열({{columnType}})에는 {{field}}({{valueKind}})을(를) 넣을 수 없어 비워 두었습니다. 노션에서 열 유형을 바꾸거나 질문 또는 열 이름을 바꿔 주세요.',
    columnReadOnly:
      '“{{property}}” 열({{columnType}})은 노션이 직접 채우는 열이라 {{field}}을(를) 쓰지 않았습니다.',
    columnFormat:
      '“{{property}}” 열({{columnType}})에는 {{field}}의 이 값(쉼표가 있는 선택지, 주소나 링크가 아닌 텍스트)을 넣을 수 없어 비워 두었습니다.',
    columnRejected:
      '노션이 “{{property}}” 열을 거부했습니다: {{message}}. 이 열 없이 페이지를 작성했습니다.',
    target_missing:
      '이 블록이 쓰던 노션 데이터베이스나 페이지가 삭제되었거나 더 이상 Reaction Blocks와 공유되지 않아 연결을 끊었습니다. 다른 대상을 선택해 주세요.',
    unauthorized:
      '노션이 액세스를 거부했습니다. 노션에서 연동이 제거되었거나 권한이 바뀌었습니다. 노션을 다시 연결하면 그동안 받은 응답이 작성됩니다.',
    write_failed: '여러 번 다시 시도했지만 응답 하나를 노션에 쓰지 못했습니다: {{message}}',
    write_uncertain:
      '응답 하나가 노션에 쓰였을 수도 있습니다. 마지막 시도까지 노션이 응답하지 않아 확인하지 못했습니다. 직접 추가하기 전에 노션에서 찾아보세요. 마지막 오류: {{message}}',
    cafe24_unauthorized:
      '카페24가 액세스를 거부했습니다. 쇼핑몰에서 앱이 삭제되었거나 액세스가 만료되었습니다. 카페24를 다시 연결해 주세요.',
    cafe24_loader_failed:
      '여러 번 다시 시도했지만 카페24 쇼핑몰에 반영하지 못했습니다: {{message}}',
    cafe24_taken_over:
      '카페24 쇼핑몰 {{mall}}은(는) 더 이상 여기에 연결되어 있지 않습니다. 카페24가 액세스를 거부한 뒤(쇼핑몰에서 앱이 삭제됨) 다른 계정이 이 쇼핑몰을 연결했습니다. 이 쇼핑몰에는 더 이상 블록이 보이지 않으며, 블록 배치는 새로 연결하는 쇼핑몰을 위해 남겨 둡니다.',
  },
  kinds: {
    text: '텍스트',
    number: '숫자',
    choice: '선택 항목',
    email: '이메일 주소',
    phone: '전화번호',
    url: '링크',
    date: '날짜',
  },
  cafe24: {
    name: '카페24',
    text: '카페24 쇼핑몰에 블록을 보여 줍니다. 상품 상세 페이지마다 후기(댓글), 질문, 좋아요를 따로 달거나 메인 페이지에 블록을 둘 수 있습니다. 카페24를 통해 쇼핑몰에 작은 스크립트를 넣고, 연결을 해제하거나 플랜이 끝나면 다시 뺍니다.',
    mallLabel: '카페24 쇼핑몰 아이디',
    mallHint: '쇼핑몰 주소의 앞부분입니다: myshop.cafe24.com → myshop',
    connect: '카페24 연결',
    connectAgain: '카페24 다시 연결',
    connecting: '카페24를 기다리는 중…',
    connected: '카페24 쇼핑몰이 연결되었습니다({{name}}).',
    cancelled: '카페24 액세스가 허용되지 않았습니다.',
    popupBlocked: '카페24 창을 열 수 없습니다. 이 사이트의 팝업을 허용한 뒤 다시 시도해 주세요.',
    mall: '쇼핑몰: {{name}}',
    notGrantedText:
      '카페24가 액세스를 거부했습니다. 쇼핑몰에서 앱이 삭제되었거나 액세스가 만료되었습니다. 쇼핑몰에 블록이 보이지 않을 수 있습니다. 카페24를 다시 연결해 주세요.',
    loader: {
      installed: '쇼핑몰에 적용됨: {{screens}}.',
      pending: '쇼핑몰에 반영하는 중…',
      removing: '쇼핑몰에서 스크립트를 빼는 중… 카페24가 확인하면 이 카드가 사라집니다.',
      failed: '쇼핑몰에 반영하지 못했습니다: {{reason}}',
      none: '아직 쇼핑몰에 아무것도 없습니다. 아래에서 블록을 배치하세요.',
      unpaid:
        '플랜이 끝나 쇼핑몰에 아무것도 표시되지 않습니다. 플랜을 선택하면 블록이 다시 보입니다.',
    },
    screens: { product_detail: '상품 상세 페이지', main: '메인 페이지' },
    placements: {
      title: '쇼핑몰에 표시할 블록',
      empty: '아직 배치한 블록이 없습니다.',
      emptyNext: '블록 추가에서 내 블록과 쇼핑몰의 표시 위치를 고르세요.',
      add: '블록 추가',
      noBlocks: '먼저 댓글, Q&A, 좋아요 같은 반응 블록을 만드세요.',
      block: '블록',
      screen: '위치',
      perProduct: '상품마다 따로 모으기',
      perProductHint: '상품 페이지마다 그 상품의 후기, 질문, 좋아요만 보입니다.',
      selector: '이 부분 다음에 표시(선택, CSS 선택자)',
      selectorHint: '비워 두면 상품 상세 정보 아래(상품 페이지) 또는 페이지 끝에 표시합니다.',
      remove: '{{screen}}에서 {{name}} 빼기',
      moveUp: '{{name}} 위로',
      moveDown: '{{name}} 아래로',
      save: '배치 저장',
      saving: '저장하는 중…',
      untitled: '제목 없음',
      deactivated: '(비활성)',
      row: '{{screen}}의 {{name}}',
    },
    saved: '배치를 저장했습니다. 몇 초 안에 쇼핑몰에 반영됩니다.',
    removing: '연결 해제 중: 쇼핑몰에서 스크립트를 빼고 있습니다.',
    removeTitle: '카페24 쇼핑몰 연결을 해제할까요?',
    removeText:
      '쇼핑몰에서 블록이 바로 보이지 않게 되고, 스크립트도 쇼핑몰에서 빠집니다. 방문자가 남긴 글은 블록에 그대로 남습니다.',
  },
  oauth: {
    title: '{{service}} 연결',
    working: '{{service}} 연결을 마무리하는 중…',
    done: '{{service}} 연결이 끝났습니다. 이 창은 자동으로 닫힙니다.',
    cancelled: '{{service}} 액세스가 허용되지 않았습니다. 이 창을 닫아도 됩니다.',
    failed: '{{service}} 연결에 실패했습니다: {{reason}}',
    unsupported: '지원하지 않는 서비스입니다.',
    missingCode: '{{service}}에서 인증 코드를 보내지 않았습니다.',
    close: '이 창 닫기',
    back: '대시보드로 돌아가기',
  },
};

export const registerIntegrationTranslations = textRegistration({ en, ko }, 'integrations');

/** The reason of a failed integration call, in the reader's language where it is one of ours. */
export const integrationReason = sharedMessageReason(
  { ...INTEGRATION_MESSAGES, ...CAFE24_MESSAGES },
  'integrations.messages',
);

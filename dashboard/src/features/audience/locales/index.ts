// Texts of the audience page (/audience, /work/{id}/audience) and its dialogs.
import { AUDIENCE_MESSAGES } from '@reaction-blocks/contracts/letters';
import { textRegistration } from '../../../lib/i18n';

export const en = {
  title: 'Audience',
  titleOfBlock: 'Audience of “{{name}}”',
  state: 'Members',
  activated: 'Activated',
  deactivated: 'Deactivated',
  emailOnly: 'With an email only',
  groups: 'Groups',
  allMembers: 'All members',
  createGroup: 'New group',
  renameGroup: 'Rename {{name}}',
  deleteGroup: 'Delete {{name}}',
  groupName: 'Group name',
  groupCount_one: '{{count}} member',
  groupCount_other: '{{count}} members',
  groupDeleteTitle: 'Delete the group {{name}}?',
  groupDeleteText: 'Its members stay in your audience, without a group.',
  add: 'Add audience',
  import: 'Import CSV',
  sample: 'Sample CSV file',
  paidOnly: 'Adding audience and groups is a paid plan feature.',
  upgrade: 'See plans',
  freeLimit: 'The free plan shows your first {{count}} members. Upgrade to see all of them.',
  list: 'Audience members',
  table: 'Table of audience members',
  columns: {
    name: 'Name',
    email: 'Email',
    group: 'Group',
    created: 'Created',
    updated: 'Last updated',
    events: 'Recent events',
    state: 'State',
    actions: 'Actions',
  },
  active: 'Active',
  inactive: 'Deactive',
  unsubscribed: 'Unsubscribed',
  unsubscribedHint: 'This address unsubscribed from your letters: sends skip it.',
  awaiting: 'Awaiting confirmation',
  awaitingHint:
    'A visitor typed this address: your letters skip it until it confirms through the link we mail it. Adding it yourself makes it active.',
  awaitingUnpaidHint:
    'A visitor typed this address. Your plan sends no letters to your audience, so it has not been asked to confirm; it is asked when it is given again on a paid plan.',
  confirmationsCapped_one:
    '{{count}} address a visitor typed got no confirmation mail in the last 24 hours: your plan sends {{limit}} a day. It stays awaiting and is asked again when next given; add it yourself if you know it wants your letters.',
  confirmationsCapped_other:
    '{{count}} addresses visitors typed got no confirmation mail in the last 24 hours: your plan sends {{limit}} a day. They stay awaiting and are asked again when next given; add them yourself if you know they want your letters.',
  noGroup: 'No group',
  viewMode: 'View',
  editMode: 'Edit',
  mode: 'Mode',
  saveRow: 'Save',
  saveRowNamed: 'Save {{name}}',
  deleteRow: 'Delete {{name}}',
  deleteTitle: 'Delete this visitor?',
  deleteText: '{{name}} and their event history leave your audience.',
  delete: 'Delete',
  empty: 'No members here yet',
  emptyNext:
    'Visitors who react to your blocks join your audience; with a subscription you can also add people or import a CSV list above.',
  loadMore: 'Loading more…',
  anonymous: 'Visitor',
  failed: 'Could not do that: {{reason}}',
  loadFailed: 'Could not load your audience: {{reason}}',
  saved: 'Saved.',
  emailTaken: 'This address is already in your audience.',
  // the shared schema's own words (supabase/functions/_shared/contracts/letters.ts)
  messages: {
    ...AUDIENCE_MESSAGES,
    audienceFull:
      'Your audience is full: remove people who no longer read your letters, then add again.',
  } as Record<keyof typeof AUDIENCE_MESSAGES, string>,
  addDialog: { title: 'Add audience', name: 'Name', email: 'Email', group: 'Group', submit: 'Add' },
  /** Said in the add and import dialogs: no confirmation mail for what the owner adds. */
  ownResponsibility:
    'People you add get your letters at once, without a confirmation mail: add only people who asked for them.',
  importDialog: {
    title: 'Import audience from CSV',
    intro:
      'A .csv file with a header row: name, email and optionally group. Rows need a name and a valid email; a group that does not exist is left out.',
    file: 'CSV file',
    onlyCsv: 'Choose a .csv file',
    missingColumns:
      'The header row (the first line) needs a name and an email column, separated by commas, semicolons, tabs or |.',
    ready_one: '{{count}} row ready to import.',
    ready_other: '{{count}} rows ready to import.',
    /** Said when the file is not UTF-8 (model/csv.ts CsvEncoding). */
    encoding: {
      'euc-kr':
        'This file is not UTF-8, so it was read as Korean Excel saves CSV (EUC-KR): its first name reads “{{name}}”. If that looks wrong, save the file as “CSV UTF-8” and choose it again.',
      'utf-16le': 'This file was read as UTF-16 text: its first name reads “{{name}}”.',
      'utf-16be': 'This file was read as UTF-16 text: its first name reads “{{name}}”.',
    },
    start: 'Import',
    progress: 'Importing… {{done}} of {{total}}',
    done_one: 'Imported {{count}} new member.',
    done_other: 'Imported {{count}} new members.',
    stopped:
      '{{reason}} {{saved}} of {{total}} rows were saved before the import stopped. Importing again is safe: the rows saved count as already in your audience.',
    already_one: '{{count}} address was already in your audience.',
    already_other: '{{count}} addresses were already in your audience.',
    inAudience_one: '{{count}} address is already in your audience: it stays as it is.',
    inAudience_other: '{{count}} addresses are already in your audience: they stay as they are.',
    unsubscribed_one:
      '{{count}} of the new members unsubscribed from your letters before: letters will skip it.',
    unsubscribed_other:
      '{{count}} of the new members unsubscribed from your letters before: letters will skip them.',
    skipped_one: '{{count}} row left out:',
    skipped_other: '{{count}} rows left out:',
    groupDropped_one: '{{count}} row goes in without a group (unknown group):',
    groupDropped_other: '{{count}} rows go in without a group (unknown group):',
    reasons: {
      noName: 'Line {{line}} has no name.',
      noEmail: 'Line {{line}} has no email.',
      invalidEmail: 'Line {{line}} has an email that is not valid.',
      tooLong: 'Line {{line}} has a name or email that is too long.',
      duplicate: 'Line {{line}} has an email that came before.',
      tooManyFields:
        'Line {{line}} has more fields than the header row: put a name or group with a {{separator}} in double quotes.',
      tooFewFields:
        'Line {{line}} has fewer fields than the header row: its name or email is missing.',
      missingQuotes:
        'Line {{line}} opens a double quote that never closes, so the rest of the file was read into it.',
      invalidQuotes:
        'Line {{line}} has a double quote in the middle of a field: write a quote inside a quoted field as two ("").',
      missingQuotesThrough:
        'Lines {{line}} to {{through}} were left out: line {{line}} opens a double quote that never closes, so every line after it was read into one field.',
      invalidQuotesThrough:
        'Lines {{line}} to {{through}} were left out: line {{line}} has a double quote in the middle of a field, and the lines up to the next quote were read into it. Write a quote inside a quoted field as two ("").',
    },
    /** The file's separator, as tooManyFields names it. */
    separators: { comma: 'comma', semicolon: 'semicolon', tab: 'tab', bar: '| (vertical bar)' },
    group: 'Line {{line}} names the group “{{group}}”, which does not exist.',
    andMore: '… and {{count}} more',
    readFailed: 'Could not read the file. Choose it again, or save it again as CSV.',
  },
};

export const ko: typeof en = {
  title: '오디언스',
  titleOfBlock: '“{{name}}”의 오디언스',
  state: '구성원',
  activated: '활성',
  deactivated: '비활성',
  emailOnly: '이메일이 있는 구성원만',
  groups: '그룹',
  allMembers: '전체 구성원',
  createGroup: '새 그룹',
  renameGroup: '{{name}} 이름 바꾸기',
  deleteGroup: '{{name}} 삭제',
  groupName: '그룹 이름',
  groupCount_one: '구성원 {{count}}명',
  groupCount_other: '구성원 {{count}}명',
  groupDeleteTitle: '{{name}} 그룹을 삭제할까요?',
  groupDeleteText: '구성원은 그룹 없이 오디언스에 남습니다.',
  add: '오디언스 추가',
  import: 'CSV 가져오기',
  sample: 'CSV 샘플 파일',
  paidOnly: '오디언스와 그룹 추가는 유료 요금제 기능입니다.',
  upgrade: '요금제 보기',
  freeLimit: '무료 요금제에서는 처음 {{count}}명만 보입니다. 모두 보려면 업그레이드하세요.',
  list: '오디언스 구성원',
  table: '오디언스 구성원 표',
  columns: {
    name: '이름',
    email: '이메일',
    group: '그룹',
    created: '생성일',
    updated: '최근 수정일',
    events: '최근 이벤트',
    state: '상태',
    actions: '작업',
  },
  active: '활성',
  inactive: '비활성',
  unsubscribed: '수신 거부',
  unsubscribedHint: '이 주소는 레터 수신을 거부했습니다. 발송할 때 제외됩니다.',
  awaiting: '확인 대기',
  awaitingHint:
    '방문자가 입력한 주소입니다. 메일로 보내는 확인 링크로 확인하기 전까지 레터 발송에서 제외됩니다. 직접 추가하면 바로 활성화됩니다.',
  awaitingUnpaidHint:
    '방문자가 입력한 주소입니다. 지금 요금제로는 오디언스에게 레터를 보낼 수 없어 아직 확인을 요청하지 않았습니다. 유료 요금제에서 이 주소가 다시 입력되면 확인을 요청합니다.',
  confirmationsCapped_one:
    '지난 24시간 동안 방문자가 입력한 주소 {{count}}개에 확인 메일을 보내지 못했습니다. 요금제의 하루 한도는 {{limit}}통입니다. 이 주소들은 확인 대기로 남고 다시 입력되면 확인을 요청합니다. 레터를 원하는 분이라면 직접 추가하세요.',
  confirmationsCapped_other:
    '지난 24시간 동안 방문자가 입력한 주소 {{count}}개에 확인 메일을 보내지 못했습니다. 요금제의 하루 한도는 {{limit}}통입니다. 이 주소들은 확인 대기로 남고 다시 입력되면 확인을 요청합니다. 레터를 원하는 분이라면 직접 추가하세요.',
  noGroup: '그룹 없음',
  viewMode: '보기',
  editMode: '편집',
  mode: '모드',
  saveRow: '저장',
  saveRowNamed: '{{name}} 저장',
  deleteRow: '{{name}} 삭제',
  deleteTitle: '이 방문자를 삭제할까요?',
  deleteText: '{{name}} 님과 이벤트 기록이 오디언스에서 삭제됩니다.',
  delete: '삭제',
  empty: '아직 구성원이 없습니다',
  emptyNext:
    '블록에 반응한 방문자가 오디언스가 됩니다. 구독 중이면 위에서 직접 추가하거나 CSV 목록을 가져올 수도 있습니다.',
  loadMore: '더 불러오는 중…',
  anonymous: '방문자',
  failed: '처리하지 못했습니다: {{reason}}',
  loadFailed: '오디언스를 불러오지 못했습니다: {{reason}}',
  saved: '저장했습니다.',
  emailTaken: '이미 오디언스에 있는 주소입니다.',
  messages: {
    nameLength: '이름이 너무 깁니다',
    emailLength: '이메일이 너무 깁니다',
    emailError: '이메일 주소가 올바르지 않습니다',
    groupRequired: '그룹 이름을 입력하세요',
    groupExists: '이미 있는 그룹입니다',
    groupReserved: '사용할 수 없는 이름입니다',
    audienceFull:
      '오디언스가 가득 찼습니다. 더 이상 레터를 읽지 않는 분을 지운 뒤 다시 추가해 주세요.',
  },
  addDialog: {
    title: '오디언스 추가',
    name: '이름',
    email: '이메일',
    group: '그룹',
    submit: '추가',
  },
  ownResponsibility:
    '직접 추가한 분에게는 확인 메일 없이 바로 레터가 발송됩니다. 레터를 받겠다고 한 분만 추가하세요.',
  importDialog: {
    title: 'CSV로 오디언스 가져오기',
    intro:
      '첫 줄이 머리글인 .csv 파일: name, email, 그리고 선택으로 group. 이름과 올바른 이메일이 있는 줄만 가져오며, 없는 그룹은 빠집니다.',
    file: 'CSV 파일',
    onlyCsv: '.csv 파일을 선택하세요',
    missingColumns:
      '머리글(첫 줄)에 name과 email 열이 쉼표, 세미콜론, 탭 또는 |로 나뉘어 있어야 합니다.',
    ready_one: '{{count}}줄을 가져올 수 있습니다.',
    ready_other: '{{count}}줄을 가져올 수 있습니다.',
    encoding: {
      'euc-kr':
        'UTF-8 파일이 아니어서 한국어 Excel이 CSV를 저장하는 방식(EUC-KR)으로 읽었습니다. 첫 이름은 “{{name}}”입니다. 이상하게 보이면 파일을 “CSV UTF-8”로 다시 저장해 선택해 주세요.',
      'utf-16le': 'UTF-16 텍스트로 읽었습니다. 첫 이름은 “{{name}}”입니다.',
      'utf-16be': 'UTF-16 텍스트로 읽었습니다. 첫 이름은 “{{name}}”입니다.',
    },
    start: '가져오기',
    progress: '가져오는 중… {{total}}줄 중 {{done}}줄',
    done_one: '새 구성원 {{count}}명을 가져왔습니다.',
    done_other: '새 구성원 {{count}}명을 가져왔습니다.',
    stopped:
      '{{reason}} 가져오기가 멈추기 전에 {{total}}줄 중 {{saved}}줄이 저장되었습니다. 다시 가져와도 괜찮습니다. 저장된 줄은 이미 오디언스에 있는 주소로 셉니다.',
    already_one: '{{count}}개 주소는 이미 오디언스에 있었습니다.',
    already_other: '{{count}}개 주소는 이미 오디언스에 있었습니다.',
    inAudience_one: '{{count}}개 주소는 이미 오디언스에 있어 그대로 둡니다.',
    inAudience_other: '{{count}}개 주소는 이미 오디언스에 있어 그대로 둡니다.',
    unsubscribed_one:
      '새 구성원 중 {{count}}명은 이전에 레터 수신을 거부했습니다. 레터 발송에서 제외됩니다.',
    unsubscribed_other:
      '새 구성원 중 {{count}}명은 이전에 레터 수신을 거부했습니다. 레터 발송에서 제외됩니다.',
    skipped_one: '{{count}}줄을 제외했습니다:',
    skipped_other: '{{count}}줄을 제외했습니다:',
    groupDropped_one: '{{count}}줄은 그룹 없이 들어갑니다(없는 그룹):',
    groupDropped_other: '{{count}}줄은 그룹 없이 들어갑니다(없는 그룹):',
    reasons: {
      noName: '{{line}}번째 줄에 이름이 없습니다.',
      noEmail: '{{line}}번째 줄에 이메일이 없습니다.',
      invalidEmail: '{{line}}번째 줄의 이메일이 올바르지 않습니다.',
      tooLong: '{{line}}번째 줄의 이름이나 이메일이 너무 깁니다.',
      duplicate: '{{line}}번째 줄의 이메일이 앞에 이미 나왔습니다.',
      tooManyFields:
        '{{line}}번째 줄의 칸이 머리글보다 많습니다. 구분 기호({{separator}})가 들어간 이름이나 그룹은 큰따옴표로 감싸 주세요.',
      tooFewFields: '{{line}}번째 줄의 칸이 머리글보다 적어 이름이나 이메일이 없습니다.',
      missingQuotes:
        '{{line}}번째 줄에서 연 큰따옴표가 닫히지 않아, 파일의 나머지가 모두 그 칸으로 읽혔습니다.',
      invalidQuotes:
        '{{line}}번째 줄의 칸 가운데에 큰따옴표가 있습니다. 따옴표로 감싼 칸 안의 따옴표는 두 번("") 써 주세요.',
      missingQuotesThrough:
        '{{line}}~{{through}}번째 줄을 제외했습니다. {{line}}번째 줄에서 연 큰따옴표가 닫히지 않아, 그 뒤의 줄이 모두 한 칸으로 읽혔습니다.',
      invalidQuotesThrough:
        '{{line}}~{{through}}번째 줄을 제외했습니다. {{line}}번째 줄의 칸 가운데에 큰따옴표가 있어, 다음 따옴표까지의 줄이 그 칸으로 읽혔습니다. 따옴표로 감싼 칸 안의 따옴표는 두 번("") 써 주세요.',
    },
    separators: { comma: '쉼표', semicolon: '세미콜론', tab: '탭', bar: '세로 막대 |' },
    group: '{{line}}번째 줄의 그룹 “{{group}}”은(는) 없는 그룹입니다.',
    andMore: '… 외 {{count}}개',
    readFailed: '파일을 읽지 못했습니다. 파일을 다시 고르거나 CSV로 다시 저장해 주세요.',
  },
};

export const registerAudienceTranslations = textRegistration({ en, ko }, 'audience');

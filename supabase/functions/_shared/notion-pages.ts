// How a response, comment or question becomes a Notion page (pure functions, no I/O):
// - the title column gets what the block's notionDatabaseTitle names (response_id, block_name,
//   creator, content);
// - every other column whose name matches an answer's question title, or one of the built-in
//   fields (Response ID, Block, Creator, Content, Created, Kind, Email, Reply to), gets that value
//   when its type can take it; when it cannot, the column is left empty and a note says why;
// - the page's body lists every answer, so nothing is lost whatever the columns are.

export type TitleMode = 'response_id' | 'block_name' | 'creator' | 'content';

export interface ResponseItem {
  kind: 'response';
  id: string;
  response_kind: 'form' | 'ab' | 'like' | 'button';
  creator_id: string;
  creator_name: string | null;
  created_at: string;
  timezone: string | null;
  answers: Array<{ question_id: string; title: string; type: string; value: unknown }>;
}

export interface MessageItem {
  kind: 'message';
  id: string;
  content: string;
  creator_id: string;
  creator_name: string | null;
  created_at: string;
  parent_id: string | null;
  is_owner: boolean;
  parent_content: string | null;
}

export interface NotionContext {
  user_id: string;
  access_token: string;
  target: { kind: 'data_source' | 'page'; id: string };
  title_mode: TitleMode;
  block: { id: string; name: string; type: string; language: 'en' | 'ko' | string };
  item: ResponseItem | MessageItem;
  /**
   * A like's: the block's last page under the target when the job first ran (the retry's
   * lookup lists the children from it); null or absent: from the first child.
   */
  anchor?: string | null;
  /** The previous attempt got no answer to a write Notion may have carried out. */
  maybe_written?: boolean;
}

export interface SchemaProperty {
  name: string;
  type: string;
}

/** A column that could not take its value: what the owner reads in the workspace. */
export interface ColumnNote {
  property: string;
  detail: {
    column_type: string;
    field: string;
    value_kind: ValueKind;
    reason: 'type' | 'read_only' | 'format' | 'rejected';
    message?: string;
  };
}

export type ValueKind = 'text' | 'number' | 'choice' | 'email' | 'phone' | 'url' | 'date';

interface Field {
  label: string;
  kind: ValueKind;
  /** text: string; number: number; choice: string[]; date: ISO string */
  value: string | number | string[];
}

export interface MappedPage {
  properties: Record<string, unknown>;
  children: unknown[];
  notes: ColumnNote[];
  title: string;
}

const MAX_TEXT = 2000;
/**
 * The property types Notion computes itself: a page cannot set them (the local Notion fake refuses
 * them with these).
 */
export const READ_ONLY_TYPES = [
  'formula',
  'rollup',
  'created_time',
  'created_by',
  'last_edited_time',
  'last_edited_by',
  'unique_id',
  'button',
  'verification',
] as const;
export const READ_ONLY: ReadonlySet<string> = new Set(READ_ONLY_TYPES);

/** Notion's rich text: one text object per 2000 characters (at most 100). */
export function rich(text: string): Array<{ type: 'text'; text: { content: string } }> {
  const parts: Array<{ type: 'text'; text: { content: string } }> = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length && parts.length < 100; i += MAX_TEXT) {
    parts.push({ type: 'text', text: { content: chars.slice(i, i + MAX_TEXT).join('') } });
  }
  return parts;
}

const normalize = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .replace(/[:?!.]+$/, '')
    .trim();

const valueText = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(String).join(', ')
    : value === null || value === undefined
      ? ''
      : String(value);

const anonymous = (language: string) => (language === 'ko' ? '익명' : 'Anonymous');

const KIND_WORDS: Record<string, Record<string, string>> = {
  en: {
    form: 'Response',
    ab: 'Vote',
    like: 'Like',
    button: 'Click',
    comment: 'Comment',
    reply: 'Reply',
    question: 'Question',
    answer: 'Answer',
  },
  ko: {
    form: '응답',
    ab: '투표',
    like: '좋아요',
    button: '클릭',
    comment: '댓글',
    reply: '답글',
    question: '질문',
    answer: '답변',
  },
};

/** The item's kind as a word: Response, Vote, Like, Click, Comment, Reply, Question, Answer. */
export function kindWord(ctx: Pick<NotionContext, 'block' | 'item'>): string {
  const words = KIND_WORDS[ctx.block.language === 'ko' ? 'ko' : 'en']!;
  const item = ctx.item;
  if (item.kind === 'response') return words[item.response_kind] ?? item.response_kind;
  if (ctx.block.type === 'qna') return words[item.parent_id ? 'answer' : 'question']!;
  return words[item.parent_id ? 'reply' : 'comment']!;
}

/** The answers in one line: "Title: value · Title: value" (form), the word for like and button. */
export function contentText(ctx: Pick<NotionContext, 'block' | 'item'>): string {
  const item = ctx.item;
  if (item.kind === 'message') return item.content;
  const answers = item.answers.filter((a) => valueText(a.value) !== '');
  if (answers.length === 0) return kindWord(ctx);
  return answers.map((a) => `${a.title || '?'}: ${valueText(a.value)}`).join(' · ');
}

export function titleText(ctx: Pick<NotionContext, 'block' | 'item' | 'title_mode'>): string {
  const creator = ctx.item.creator_name?.trim() || anonymous(ctx.block.language);
  const text =
    ctx.title_mode === 'block_name'
      ? ctx.block.name
      : ctx.title_mode === 'creator'
        ? creator
        : ctx.title_mode === 'content'
          ? contentText(ctx)
          : ctx.item.id;
  return (text || ctx.item.id).slice(0, MAX_TEXT);
}

/** Everything a column may be matched to, by normalised name. */
export function fieldsOf(ctx: Pick<NotionContext, 'block' | 'item'>): Map<string, Field> {
  const item = ctx.item;
  const fields = new Map<string, Field>();
  const add = (names: string[], field: Field) => {
    for (const name of names) if (!fields.has(normalize(name))) fields.set(normalize(name), field);
  };
  // answers first: a question titled "Email" wins over the built-in field of that name
  if (item.kind === 'response') {
    for (const a of item.answers) {
      if (!a.title || valueText(a.value) === '') continue;
      const kind: ValueKind =
        a.type === 'number'
          ? 'number'
          : a.type === 'poll' || a.type === 'ab'
            ? 'choice'
            : a.type === 'mail'
              ? 'email'
              : a.type === 'phone'
                ? 'phone'
                : 'text';
      const value =
        kind === 'number'
          ? Number(a.value)
          : kind === 'choice'
            ? (Array.isArray(a.value) ? a.value : [a.value]).map(String)
            : valueText(a.value);
      add([a.title], {
        label: a.title,
        kind: kind === 'number' && !Number.isSafeInteger(value) ? 'text' : kind,
        value: kind === 'number' && !Number.isSafeInteger(value) ? valueText(a.value) : value,
      });
    }
  }
  const creator = item.creator_name?.trim() || anonymous(ctx.block.language);
  add(['Response ID', 'Response', 'ID', 'Message ID', '응답 ID'], {
    label: 'Response ID',
    kind: 'text',
    value: item.id,
  });
  add(['Block', 'Block name', '블록', '블록 이름'], {
    label: 'Block',
    kind: 'text',
    value: ctx.block.name,
  });
  add(['Creator', 'Name', 'Author', 'Writer', '작성자', '이름'], {
    label: 'Creator',
    kind: 'text',
    value: creator,
  });
  add(['Content', 'Message', 'Answers', '내용'], {
    label: 'Content',
    kind: 'text',
    value: contentText(ctx),
  });
  add(['Created', 'Created at', 'Date', 'Submitted', 'Time', '작성일', '날짜'], {
    label: 'Created',
    kind: 'date',
    value: item.created_at,
  });
  add(['Kind', 'Type', '종류'], { label: 'Kind', kind: 'choice', value: [kindWord(ctx)] });
  if (item.kind === 'response') {
    const mail = item.answers.find((a) => a.type === 'mail' && valueText(a.value) !== '');
    if (mail)
      add(['Email', 'E-mail', 'Mail', '이메일'], {
        label: 'Email',
        kind: 'email',
        value: valueText(mail.value),
      });
  } else if (item.parent_content) {
    add(['Reply to', 'Parent', 'In reply to', '원글'], {
      label: 'Reply to',
      kind: 'text',
      value: item.parent_content,
    });
  }
  return fields;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The property value for a column of `type`, or the reason it cannot take the field. */
function convert(
  field: Field,
  type: string,
): { value: unknown } | { reason: ColumnNote['detail']['reason'] } {
  const text = Array.isArray(field.value) ? field.value.join(', ') : String(field.value);
  const optionOk = (name: string) => name !== '' && name.length <= 100 && !name.includes(',');
  switch (type) {
    case 'rich_text':
      return { value: { rich_text: rich(text) } };
    case 'number': {
      const n =
        typeof field.value === 'number'
          ? field.value
          : /^[-+]?\d+(\.\d+)?$/.test(text.trim())
            ? Number(text)
            : NaN;
      return Number.isFinite(n) ? { value: { number: n } } : { reason: 'type' };
    }
    case 'select': {
      const names = Array.isArray(field.value) ? field.value : [text];
      if (names.length !== 1) return { reason: 'type' };
      return optionOk(names[0]!) ? { value: { select: { name: names[0] } } } : { reason: 'format' };
    }
    case 'multi_select': {
      const names = Array.isArray(field.value) ? field.value : [text];
      return names.every(optionOk)
        ? { value: { multi_select: names.map((name) => ({ name })) } }
        : { reason: 'format' };
    }
    case 'email':
      return EMAIL.test(text) ? { value: { email: text } } : { reason: 'format' };
    case 'phone_number':
      return field.kind === 'phone' || /^[+\d][\d\s().-]{0,30}$/.test(text)
        ? { value: { phone_number: text } }
        : { reason: 'format' };
    case 'url':
      return /^https?:\/\/\S+$/i.test(text) ? { value: { url: text } } : { reason: 'format' };
    case 'date':
      return field.kind === 'date' && !Number.isNaN(Date.parse(text))
        ? { value: { date: { start: new Date(text).toISOString() } } }
        : { reason: 'type' };
    default:
      return { reason: READ_ONLY.has(type) ? 'read_only' : 'type' };
  }
}

/**
 * How the body's last paragraph ends: the item's time and id, as we write them. The lookup of a
 * page an earlier attempt may have written matches this end of the last block only: a visitor's
 * text (a name, a comment, an answer) can quote an item's id anywhere before it, never there.
 */
export const itemMark = (item: NotionContext['item']) => ` · ${item.created_at} · ${item.id}`;

/** The page's body: a heading per field with its value, as paragraphs (≤ 100 blocks). */
export function bodyBlocks(ctx: Pick<NotionContext, 'block' | 'item'>): unknown[] {
  const item = ctx.item;
  const lines: Array<[string, string]> = [];
  if (item.kind === 'response') {
    for (const a of item.answers)
      if (valueText(a.value) !== '') lines.push([a.title || '?', valueText(a.value)]);
  } else {
    if (item.parent_content)
      lines.push([ctx.block.language === 'ko' ? '원글' : 'Reply to', item.parent_content]);
    lines.push([kindWord(ctx), item.content]);
  }
  const blocks: unknown[] = [];
  for (const [label, value] of lines.slice(0, 49)) {
    blocks.push({
      object: 'block',
      type: 'heading_3',
      heading_3: { rich_text: rich(label.slice(0, MAX_TEXT)) },
    });
    blocks.push({ object: 'block', type: 'paragraph', paragraph: { rich_text: rich(value) } });
  }
  const creator = item.creator_name?.trim() || anonymous(ctx.block.language);
  blocks.push({
    object: 'block',
    type: 'paragraph',
    paragraph: {
      rich_text: rich(`${ctx.block.name} · ${creator}${itemMark(item)}`),
    },
  });
  return blocks;
}

/** Properties for a row of a data source with `schema`, the page's body, and the notes. */
export function mapToDataSource(
  schema: SchemaProperty[],
  ctx: Pick<NotionContext, 'block' | 'item' | 'title_mode'>,
): MappedPage {
  const title = titleText(ctx);
  const fields = fieldsOf(ctx);
  const properties: Record<string, unknown> = {};
  const notes: ColumnNote[] = [];
  for (const prop of schema) {
    if (prop.type === 'title') {
      properties[prop.name] = { title: rich(title) };
      continue;
    }
    const field = fields.get(normalize(prop.name));
    if (!field) continue;
    const converted = convert(field, prop.type);
    if ('value' in converted) properties[prop.name] = converted.value;
    else
      notes.push({
        property: prop.name,
        detail: {
          column_type: prop.type,
          field: field.label,
          value_kind: field.kind,
          reason: converted.reason,
        },
      });
  }
  return { properties, children: bodyBlocks(ctx), notes, title };
}

/** A page under a page (like blocks): a title and the body. */
export function mapToPage(ctx: Pick<NotionContext, 'block' | 'item' | 'title_mode'>): MappedPage {
  const title = titleText(ctx);
  return {
    properties: { title: { title: rich(title) } },
    children: bodyBlocks(ctx),
    notes: [],
    title,
  };
}

/**
 * The column a Notion validation error names, when it names one of ours ("X is expected to be
 * number.", "X is not a property that exists.", a path body.properties.X...).
 */
export function propertyInError(
  message: string,
  properties: Record<string, unknown>,
): string | null {
  const names = Object.keys(properties).sort((a, b) => b.length - a.length);
  for (const name of names) {
    if (
      message.startsWith(`${name} is `) ||
      message.includes(`body.properties.${name}.`) ||
      message.includes(`body.properties.${name} `) ||
      message.includes(`"${name}"`)
    ) {
      return name;
    }
  }
  if (/select option/i.test(message)) {
    const select = names.find((n) => {
      const v = properties[n] as Record<string, unknown>;
      return v && ('select' in v || 'multi_select' in v);
    });
    return select ?? null;
  }
  return null;
}

// Contract test of the rules the browser and the database both check. The zod schemas of the
// contracts (what the dashboard checks as the owner types and the functions check again) and the
// database's check constraints (read from the catalogue and evaluated by Postgres itself, on a row
// that holds only the case's value) run on the same cases and must agree:
//   lengths: a value of exactly the limit passes both, one character more fails both, and a
//   character is what Postgres's char_length counts (an emoji is one);
//   listed values: every value the contracts list passes the constraint and a stranger fails it,
//   and the constraint lists no value the contracts lack.
// The enum types need no such test: contracts/db-enums.ts is generated from them (gen:types).
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  HOLD_MESSAGES,
  NOTION_DATABASE_TITLES,
  OPEN_LINK_TYPES,
  VISITOR_INFO,
} from '@reaction-blocks/contracts/enums';
import {
  BLOCK_LIMITS,
  COMMENT_LIMITS,
  COUPON_CODE_MAX,
  isEmail,
  lengthOf,
  LETTER_LIMITS,
  LIMITS,
  SENDER_EMAIL_MAX,
  waitUnit,
} from '@reaction-blocks/contracts/limits';
import { BIDI_CONTROL_RE, VISITOR_COLOR_RE } from '@reaction-blocks/contracts/visitor';
import { ZAudienceRow, ZSaveLetter } from '@reaction-blocks/contracts/letters';
import { ZUseCoupon } from '@reaction-blocks/contracts/plans';
import {
  ZBlockPrivateSettings,
  ZBlockSettings,
  ZConditionDraft,
  ZEndingDraft,
  ZMailVerify,
  ZOptionDraft,
  ZQuestionDraft,
  ZUpdateProfile,
} from '@reaction-blocks/contracts/schemas';
import { newUser, sql, sqlValue } from './support/clients.ts';

/** The check constraints of a column, as Postgres deparses them. */
async function checksOf(table: string, column: string): Promise<string[]> {
  const rows = await sql<{ def: string }>(
    `select pg_get_constraintdef(c.oid) as def
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
      where c.contype = 'c' and c.conrelid = $1::regclass and a.attname = $2
        and cardinality(c.conkey) = 1`,
    [`public.${table}`, column],
  );
  return rows.map((r) => r.def);
}

/** A column's check constraints as one SQL test of a value, read once per column. */
const columnTests = new Map<string, Promise<{ expression: string; type: string }>>();
function columnTest(table: string, column: string) {
  const key = `${table}.${column}`;
  let test = columnTests.get(key);
  if (!test) {
    test = (async () => {
      const checks = await checksOf(table, column);
      expect(checks.length, `${key} has a check constraint`).toBeGreaterThan(0);
      const [attribute] = await sql<{ type: string }>(
        `select format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = $1::regclass and attname = $2`,
        [`public.${table}`, column],
      );
      const expression = checks
        .map((def) => def.replace(/^CHECK /, '').replace(/ NOT VALID$/, ''))
        .map((e) => `coalesce(${e}, true)`)
        .join(' and ');
      return { expression, type: attribute!.type };
    })();
    columnTests.set(key, test);
  }
  return test;
}

/** Whether the column's constraints accept the value (NULL, as in a CHECK, passes). */
async function databaseAccepts(table: string, column: string, value: unknown): Promise<boolean> {
  const { expression, type } = await columnTest(table, column);
  const [row] = await sql<{ ok: boolean }>(
    `select ${expression} as ok from (select $1::${type} as "${column}") as t`,
    [typeof value === 'string' ? value : JSON.stringify(value)],
  );
  return row!.ok;
}

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/**
 * One rule in several places: for each case, every judge's verdict on the value, expected to be
 * the case's verdict for all of them (the value is named in the comparison).
 */
async function expectSameVerdicts(
  cases: Array<[string, boolean]>,
  judges: Record<string, (value: string) => boolean | Promise<boolean>>,
): Promise<void> {
  for (const [value, ok] of cases) {
    const verdicts: Record<string, boolean> = {};
    for (const [name, judge] of Object.entries(judges)) verdicts[name] = await judge(value);
    const expected = Object.fromEntries(Object.keys(judges).map((name) => [name, ok]));
    expect({ value, ...verdicts }).toEqual({ value, ...expected });
  }
}

interface Limit {
  table: string;
  column: string;
  max: number;
  /** The contracts' check of one value of the column. */
  browser: (value: string) => boolean;
  /** A valid value of exactly n characters (plain text unless the field wants a URL or address). */
  make?: (n: number, char: string) => string;
  /** The column's value for a field kept inside a JSON column. */
  wrap?: (value: string) => unknown;
}

const url = (n: number, c: string) => 'https://' + c.repeat(n - 8);
/**
 * An address of n characters the contracts' email rules accept (ASCII), whatever the case's
 * character: a local part of at most 40 (the rule's limit is 64) and a domain label of the rest.
 */
const address = (n: number) => {
  const local = 'a'.repeat(Math.min(40, n - 14));
  return `${local}@${'b'.repeat(n - local.length - 13)}.example.com`;
};
const settings = (key: string) => (v: string) => accepts(ZBlockSettings, { [key]: v });
const privateSettings = (key: string) => (v: string) =>
  accepts(ZBlockPrivateSettings, { [key]: v });
const field = (schema: { shape: Record<string, z.ZodType> }, key: string) => (v: string) =>
  accepts(schema.shape[key]!, v);
const letter = (key: string) => (v: string) =>
  accepts(
    (ZSaveLetter.shape.letter as unknown as { shape: Record<string, z.ZodType> }).shape[key]!,
    v,
  );

const LIMITS_TABLE: Limit[] = [
  // account (spec: name 100, homepage URL 500, profile image URL 500)
  {
    table: 'profiles',
    column: 'name',
    max: LIMITS.profileName,
    browser: (v) => accepts(ZUpdateProfile, { name: v }),
  },
  {
    table: 'profiles',
    column: 'home_url',
    max: LIMITS.homeUrl,
    browser: (v) => accepts(ZUpdateProfile, { homeUrl: v }),
    make: url,
  },
  {
    table: 'profiles',
    column: 'photo_url',
    max: LIMITS.photoUrl,
    browser: (v) => accepts(ZUpdateProfile, { photoUrl: v }),
    make: url,
  },
  // block settings
  { table: 'blocks', column: 'name', max: BLOCK_LIMITS.blockName, browser: settings('name') },
  {
    table: 'blocks',
    column: 'welcome_message',
    max: BLOCK_LIMITS.welcomeMessage,
    browser: settings('welcome_message'),
  },
  {
    table: 'blocks',
    column: 'placeholder',
    max: BLOCK_LIMITS.placeholder,
    browser: settings('placeholder'),
  },
  {
    table: 'blocks',
    column: 'submit_button_text',
    max: BLOCK_LIMITS.submitButtonText,
    browser: settings('submit_button_text'),
  },
  {
    table: 'blocks',
    column: 'owner_name',
    max: BLOCK_LIMITS.ownerName,
    browser: settings('owner_name'),
  },
  {
    table: 'blocks',
    column: 'qna_subject',
    max: BLOCK_LIMITS.qnaSubject,
    browser: settings('qna_subject'),
  },
  {
    table: 'blocks',
    column: 'button_text',
    max: BLOCK_LIMITS.buttonText,
    browser: settings('button_text'),
  },
  {
    table: 'blocks',
    column: 'embeded_url',
    max: BLOCK_LIMITS.url,
    browser: settings('embeded_url'),
    make: url,
  },
  {
    table: 'blocks',
    column: 'url_to_open',
    max: BLOCK_LIMITS.url,
    browser: settings('url_to_open'),
    make: url,
  },
  {
    table: 'blocks',
    column: 'owner_photo_url',
    max: BLOCK_LIMITS.photoUrl,
    browser: settings('owner_photo_url'),
    make: url,
  },
  {
    table: 'blocks',
    column: 'custom_label_name',
    max: BLOCK_LIMITS.labelName,
    browser: (v) => accepts(ZBlockSettings, { custom_label_name: { admin: v, me: '' } }),
    wrap: (v) => ({ admin: v, me: '' }),
  },
  {
    table: 'blocks',
    column: 'open_graph',
    max: BLOCK_LIMITS.openGraphTitle,
    browser: (v) => accepts(ZBlockSettings, { open_graph: { title: v } }),
    wrap: (v) => ({ title: v }),
  },
  {
    table: 'blocks',
    column: 'open_graph',
    max: BLOCK_LIMITS.openGraphDescription,
    browser: (v) => accepts(ZBlockSettings, { open_graph: { description: v } }),
    wrap: (v) => ({ description: v }),
  },
  {
    table: 'blocks',
    column: 'open_graph',
    max: BLOCK_LIMITS.openGraphImageUrl,
    browser: (v) => accepts(ZBlockSettings, { open_graph: { image_url: v } }),
    make: url,
    wrap: (v) => ({ image_url: v }),
  },
  {
    table: 'block_private',
    column: 'mail_to',
    max: BLOCK_LIMITS.mailTo,
    browser: privateSettings('mail_to'),
    make: address,
  },
  {
    table: 'block_private',
    column: 'notion_database',
    max: BLOCK_LIMITS.notionTarget,
    browser: privateSettings('notion_database'),
  },
  {
    table: 'block_private',
    column: 'notion_page',
    max: BLOCK_LIMITS.notionTarget,
    browser: privateSettings('notion_page'),
  },
  // form content
  {
    table: 'questions',
    column: 'title',
    max: BLOCK_LIMITS.questionTitle,
    browser: field(ZQuestionDraft, 'title'),
  },
  {
    table: 'questions',
    column: 'placeholder',
    max: BLOCK_LIMITS.placeholder,
    browser: field(ZQuestionDraft, 'placeholder'),
  },
  {
    table: 'questions',
    column: 'content',
    max: BLOCK_LIMITS.descriptionContent,
    browser: field(ZQuestionDraft, 'content'),
  },
  {
    table: 'questions',
    column: 'image_src',
    max: BLOCK_LIMITS.url,
    browser: field(ZQuestionDraft, 'image_src'),
    make: url,
  },
  {
    table: 'options',
    column: 'value',
    max: BLOCK_LIMITS.optionValue,
    browser: field(ZOptionDraft, 'value'),
  },
  {
    table: 'endings',
    column: 'title',
    max: BLOCK_LIMITS.endingTitle,
    browser: field(ZEndingDraft, 'title'),
  },
  {
    table: 'endings',
    column: 'closing_text',
    max: BLOCK_LIMITS.closingText,
    browser: field(ZEndingDraft, 'closing_text'),
  },
  {
    table: 'endings',
    column: 'open_url',
    max: BLOCK_LIMITS.url,
    browser: field(ZEndingDraft, 'open_url'),
    make: url,
  },
  {
    table: 'endings',
    column: 'open_url_text',
    max: BLOCK_LIMITS.openUrlText,
    browser: field(ZEndingDraft, 'open_url_text'),
  },
  {
    table: 'endings',
    column: 'resubmit_text',
    max: BLOCK_LIMITS.resubmitText,
    browser: field(ZEndingDraft, 'resubmit_text'),
  },
  {
    table: 'ending_conditions',
    column: 'value',
    max: BLOCK_LIMITS.conditionValue,
    browser: field(ZConditionDraft, 'value'),
  },
  // comments (the element counts with lengthOf, as the SDK does)
  {
    table: 'messages',
    column: 'content',
    max: COMMENT_LIMITS.message,
    browser: (v) => lengthOf(v) <= COMMENT_LIMITS.message,
  },
  {
    table: 'messages',
    column: 'creator_name',
    max: COMMENT_LIMITS.name,
    browser: (v) => lengthOf(v) <= COMMENT_LIMITS.name,
  },
  {
    table: 'message_private',
    column: 'creator_email',
    max: COMMENT_LIMITS.email,
    browser: (v) => lengthOf(v) <= COMMENT_LIMITS.email,
    make: address,
  },
  // senders, letters, audience, coupons
  {
    table: 'sender_emails',
    column: 'email',
    max: SENDER_EMAIL_MAX,
    browser: (v) => accepts(ZMailVerify, { emailToVerify: v }),
    make: address,
  },
  {
    table: 'letter_templates',
    column: 'mail_title',
    max: LETTER_LIMITS.title,
    browser: letter('title'),
  },
  {
    table: 'letter_templates',
    column: 'mail_name',
    max: LETTER_LIMITS.senderName,
    browser: letter('mailName'),
  },
  {
    table: 'letter_templates',
    column: 'page_url',
    max: LETTER_LIMITS.url,
    browser: letter('pageUrl'),
    make: url,
  },
  {
    table: 'audience_members',
    column: 'email',
    max: LETTER_LIMITS.audienceRowEmail,
    browser: field(ZAudienceRow, 'email'),
    make: address,
  },
  {
    table: 'audience_groups',
    column: 'name',
    max: LETTER_LIMITS.group,
    browser: field(ZAudienceRow, 'group'),
  },
  {
    table: 'coupons',
    column: 'code',
    max: COUPON_CODE_MAX,
    browser: (v) => accepts(ZUseCoupon, { couponId: v }),
  },
];

describe('lengths: the contracts and the database agree on the same cases', () => {
  for (const l of LIMITS_TABLE) {
    const make = l.make ?? ((n: number, c: string) => c.repeat(n));
    const name = `${l.table}.${l.column}${l.wrap ? ` ${Object.keys(l.wrap('') as object)[0]}` : ''}`;
    it(`${name}: ${l.max} characters pass both, ${l.max + 1} fail both`, async () => {
      // 'a', then a character outside the BMP (one character to Postgres, two UTF-16 units)
      for (const char of ['a', '😀']) {
        for (const [n, verdict] of [
          [l.max, true],
          [l.max + 1, false],
        ] as const) {
          const value = make(n, char);
          expect(lengthOf(value), 'the case has the length it claims').toBe(n);
          const db = await databaseAccepts(l.table, l.column, l.wrap ? l.wrap(value) : value);
          expect({ char, n, db }).toEqual({ char, n, db: verdict });
          expect({ char, n, browser: l.browser(value) }).toEqual({ char, n, browser: verdict });
        }
      }
    });
  }
});

describe('listed values: the contracts and the check constraints agree', () => {
  const LISTS: Array<[string, string, readonly string[]]> = [
    ['blocks', 'hold_messages', HOLD_MESSAGES],
    ['endings', 'open_link_type', OPEN_LINK_TYPES],
    ['questions', 'as_visitor_info', VISITOR_INFO],
    ['block_private', 'notion_database_title', NOTION_DATABASE_TITLES],
  ];
  for (const [table, column, values] of LISTS)
    it(`${table}.${column}: ${values.join(', ')}`, async () => {
      for (const v of values) expect(await databaseAccepts(table, column, v), v).toBe(true);
      expect(await databaseAccepts(table, column, 'not-a-value')).toBe(false);
      const listed = (await checksOf(table, column))
        .flatMap((def) => [...def.matchAll(/'([^']*)'::text/g)].map((m) => m[1]))
        .sort();
      expect(listed).toEqual([...values].sort());
    });
});

describe('email addresses: one rule in the browser, the functions and the database', () => {
  // what SES takes (rev-break2 R2: the first bad ones after the line were accepted everywhere)
  const CASES: Array<[string, boolean]> = [
    ['reader@example.com', true],
    ["o'brien+news@mail.example.co.kr", true],
    ['UPPER.case@EXAMPLE.ORG', true],
    ['a@b.io', true],
    ['first.last_2%x@sub-domain.example.com', true],
    ['a@x--y.com', true],
    ['a@xn--bcher-kva.de', true],
    ['a@9x.com', true],
    ['no-at.example.com', false],
    ['two@@example.com', false],
    ['space in@example.com', false],
    ['reader@example', false],
    ['reader@example.c', false],
    ['reader@example.c0m', false],
    ['réader@example.com', false],
    ['reader@exämple.com', false],
    ['reader@example.com\nbcc: x@example.com', false],
    ['<script>@example.com', false],
    ['a..b@x.com', false],
    ['.a@x.com', false],
    ['a.@x.com', false],
    ['a@x..com', false],
    ['a@.x.com', false],
    ['a@x.com.', false],
    ['a@-x.com', false],
    ['a@x-.com', false],
    ['a@x.-com', false],
    ['a@x_y.com', false],
    ['@x.com', false],
    ['a@', false],
    ['a@localhost', false],
    // case-insensitive, but no letter outside ASCII folds into it: the Kelvin sign, the long s
    ['a@\u212a.com', false],
    ['\u017f@x.com', false],
  ];
  /** Over 60 characters: past the sender columns, inside the audience's 100. */
  const LONG: Array<[string, boolean]> = [
    ['a'.repeat(64) + '@x.com', true],
    ['a'.repeat(65) + '@x.com', false],
    [`a@${'b'.repeat(63)}.com`, true],
    [`a@${'b'.repeat(64)}.com`, false],
    [`a@x.${'c'.repeat(63)}`, true],
    [`a@x.${'c'.repeat(64)}`, false],
  ];
  /** Past every column: a domain of 253 characters and of 254. */
  const LONGER: Array<[string, boolean]> = [
    [`a@${`${'b'.repeat(63)}.`.repeat(3)}${'b'.repeat(57)}.com`, true],
    [`a@${`${'b'.repeat(63)}.`.repeat(3)}${'b'.repeat(58)}.com`, false],
  ];

  let owner = '';
  beforeAll(async () => {
    owner = (await newUser('emails')).id;
  });
  /**
   * Whether a new row of the table with this address is written: the insert runs (its triggers
   * and checks), then the statement fails on purpose, by a division by zero Postgres cannot
   * fold ahead, so nothing is kept.
   */
  const writes = (table: string) => async (address: string) => {
    try {
      await sql(
        `with w as (insert into public.${table} (user_id, email) values ($1, $2) returning 1 as one)
         select 1 / (one - 1) from w`,
        [owner, address],
      );
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '22012') return true;
      if (code === '23514') return false;
      throw err;
    }
    throw new Error('the insert wrote no row');
  };
  const sqlRule = async (address: string) => {
    const [row] = await sql<{ valid: boolean }>('select private.is_valid_email($1) as valid', [
      address,
    ]);
    return row!.valid;
  };

  it('the same verdict everywhere on the same addresses', async () => {
    const audience = {
      sql: sqlRule,
      contracts: isEmail,
      audienceRow: (address: string) => accepts(ZAudienceRow.shape.email, address),
      audienceMembersWrite: writes('audience_members'),
    };
    await expectSameVerdicts(CASES, {
      ...audience,
      senderEmail: (address) => accepts(ZMailVerify, { emailToVerify: address }),
      blockMailTo: (address) => accepts(ZBlockPrivateSettings, { mail_to: address }),
      senderEmailsWrite: writes('sender_emails'),
    });
    await expectSameVerdicts(LONG, audience);
    await expectSameVerdicts(LONGER, { sql: sqlRule, contracts: isEmail });
    // about 200 queries one after another: minutes on a machine at load 30, seconds when idle
  }, 300_000);

  it('an address kept from the older rule stays, and the row takes its other updates', async () => {
    const member = await newUser('old-rule');
    // written before 2026-11-29 (the triggers off, as the rule was then)
    await sql(
      `do $$ begin
         set local session_replication_role = replica;
         insert into public.audience_members (user_id, email, creator_name)
           values ('${member.id}', 'a..b@x.com', 'Old');
       end $$`,
    );
    const id = await sqlValue<string>('select id from public.audience_members where user_id = $1', [
      member.id,
    ]);
    const rows = () => member.client.from('audience_members').select('email, creator_name');
    const update = (values: Record<string, string>) =>
      member.client.from('audience_members').update(values).eq('id', id);
    expect((await update({ creator_name: 'Renamed' })).error).toBeNull();
    const refused = await update({ email: 'c..d@x.com' });
    expect([refused.error?.code, refused.error?.message]).toEqual([
      '23514',
      'Email address is invalid',
    ]);
    expect((await rows()).data).toEqual([{ email: 'a..b@x.com', creator_name: 'Renamed' }]);
    expect((await update({ email: 'a.b@x.com' })).error).toBeNull();
    expect((await rows()).data).toEqual([{ email: 'a.b@x.com', creator_name: 'Renamed' }]);
  });
});

describe("a 429's wait: the database says it as the elements and the dashboard do", () => {
  it('the same unit and number for every edge of every unit', async () => {
    const cases = [
      0,
      0.2,
      1,
      1.01,
      2,
      59,
      60,
      89.5,
      90,
      90.01,
      91,
      119,
      120,
      1199.2,
      1200,
      3600,
      5399,
      5400,
      5401,
      7200,
      86_400,
      36 * 3600,
      36 * 3600 + 1,
      5 * 86_400 + 3,
      31 * 86_400,
    ];
    const rows = await sql<{ s: number; text: string }>(
      'select s, private.wait_text(s) as text from unnest($1::float8[]) s',
      [cases],
    );
    for (const { s, text } of rows) {
      const { value, unit } = waitUnit(s);
      expect({ s, text }).toEqual({ s, text: `${value} ${unit}${value === 1 ? '' : 's'}` });
    }
  });
});

describe("profile URLs: update-profile's rule is the profiles columns' rule", () => {
  // The contracts trim first (update-profile stores the trimmed value); the cases are trimmed.
  const CASES: Array<[string, boolean]> = [
    ['https://example.com/me.png', true],
    ['HTTP://EXAMPLE.COM', true],
    ['https://예시.kr/경로?q=1#top', true],
    ['', true],
    ['javascript:alert(1)', false],
    ['JavaScript://%0aalert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['ftp://example.com', false],
    ['https://', false],
    ['https://a b', false],
    ['https://a\tb', false],
    ['example.com', false],
  ];
  it('the same verdict in the contracts and both columns', async () => {
    await expectSameVerdicts(CASES, {
      photoUrl: (url) => accepts(ZUpdateProfile, { photoUrl: url }),
      homeUrl: (url) => accepts(ZUpdateProfile, { homeUrl: url }),
      photoColumn: (url) => databaseAccepts('profiles', 'photo_url', url),
      homeColumn: (url) => databaseAccepts('profiles', 'home_url', url),
    });
  });
});

describe("a visitor's colour and name: the elements' rule is post_message's (rev-visitor4 D8)", () => {
  /** The database's verdict on a value: private.<fn>(value). */
  const verdictOf = (fn: string) => async (value: string) =>
    (await sql<{ ok: boolean }>(`select private.${fn}($1) as ok`, [value]))[0]!.ok;
  const COLORS: Array<[string, boolean]> = [
    ...['#abc', '#ABC', '#a1B2c3', '#000000'].map((c): [string, boolean] => [c, true]),
    ...['red', 'red;}', '#12', '#1234', '#12345', '#1234567', '#12345678', '#ggg', '#abc ']
      .concat(['#abc\n', ''])
      .map((c): [string, boolean] => [c, false]),
  ];
  // each embedding, override and isolate, and the characters around them (U+2029, U+202F,
  // U+2065, U+206A), between letters; right-to-left letters and the mark U+200F are no controls
  const NAMES: Array<[string, boolean]> = [
    ...[0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x202f, 0x2065, 0x2066, 0x2067]
      .concat([0x2068, 0x2069, 0x206a])
      .map((c): [string, boolean] => [
        `a${String.fromCharCode(c)}b`,
        (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069),
      ]),
    ...['Quiet Otter', '조용한 수달', 'שלום', '\u200f'].map((n): [string, boolean] => [n, false]),
  ];
  for (const [rule, cases, re, fn] of [
    ['the same verdict on the same colours', COLORS, VISITOR_COLOR_RE, 'is_visitor_color'],
    [
      'the same bidi controls in both (and nothing around them)',
      NAMES,
      BIDI_CONTROL_RE,
      'has_bidi_control',
    ],
  ] as const)
    it(rule, () => expectSameVerdicts(cases, { contracts: (v) => re.test(v), sql: verdictOf(fn) }));
});

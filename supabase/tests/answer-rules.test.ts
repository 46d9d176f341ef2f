// Contract test of the form's answer rules: the element's checks (sdk/src/core/validate.ts, what
// <reaction-form> shows as the visitor types) and the database's (submit_response, called through
// supabase-js as the element calls it) run on the same table of cases and must give the same
// verdict, and the verdict the spec asks for (section 5 and 9):
//   short text <= 300, long text <= 1000, mail <= 50 characters (as Postgres counts them: code
//   points, so one emoji is one character), after trimming what JavaScript's trim() strips;
//   mail: private.is_valid_email, local@domain.tld as SES takes it (docs/data-model.md);
//   phone: digits, spaces and hyphens only, 1 to 20 of them;
//   number: an integer, optionally signed, of at most 18 digits (|n| < 10^18: always inside
//   int64, which a 19-digit number may overflow, so the 19-digit range is refused whole).
import { beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer } from '../../sdk/src/core/validate.ts';
import type { Question, QuestionType } from '../../sdk/src/core/types.ts';
import { newGuest, newUser, serviceClient, sql, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';

type TextType = Extract<QuestionType, 'short_text' | 'long_text' | 'mail' | 'phone' | 'number'>;
type Verdict = 'ok' | 'length' | 'email' | 'phone' | 'number';

/** The i18n key of the element's message, or the database's error message, as one verdict. */
const ELEMENT: Record<string, Verdict> = {
  lengthError: 'length',
  emailError: 'email',
  phoneError: 'phone',
  numberError: 'number',
};
const DATABASE: Record<string, Verdict> = {
  'Too long message': 'length',
  'Invalid email address.': 'email',
  'Invalid phone number': 'phone',
  'Not a number': 'number',
};

const x = (n: number, c = 'a') => c.repeat(n);
const CASES: Array<[TextType, string, Verdict]> = [
  // lengths, in characters as Postgres counts them
  ['short_text', x(300), 'ok'],
  ['short_text', x(301), 'length'],
  ['short_text', `  ${x(300)}\n`, 'ok'], // trimmed first
  ['short_text', x(300, '😀'), 'ok'], // 300 characters, 600 UTF-16 units
  ['short_text', x(301, '😀'), 'length'],
  ['short_text', x(300, '한'), 'ok'],
  ['long_text', x(1000), 'ok'],
  ['long_text', x(1001), 'length'],
  ['long_text', x(1000, '😀'), 'ok'],
  ['mail', `${x(38)}@example.com`, 'ok'], // 50
  ['mail', `${x(39)}@example.com`, 'length'], // 51
  ['mail', `${x(20, '😀')}@example.com`, 'email'], // 32 characters, but not an address
  // email
  ['mail', 'a@b.co', 'ok'],
  ['mail', 'A.B+tag@Example.COM', 'ok'],
  ['mail', "o'brien@example.com", 'ok'],
  ['mail', 'first_last%x@sub-domain.example.org', 'ok'],
  ['mail', '  me@example.com ', 'ok'],
  ['mail', 'a@b.c', 'email'], // one-letter TLD
  ['mail', 'a@example.c0m', 'email'], // TLD with a digit
  ['mail', 'a b@example.com', 'email'],
  ['mail', 'ü@example.com', 'email'],
  ['mail', 'a@exämple.com', 'email'],
  ['mail', 'a@\u212Aexample.com', 'email'], // Kelvin sign: not a K, in either
  ['mail', 'a@[1.2.3.4]', 'email'],
  ['mail', 'a@@example.com', 'email'],
  ['mail', 'no-at.example.com', 'email'],
  ['mail', 'a@example', 'email'],
  ['mail', 'a@example.com.', 'email'],
  // phone: digits, spaces, hyphens; at most 20
  ['phone', '010-1234-5678', 'ok'],
  ['phone', '02 123 4567', 'ok'],
  ['phone', x(20, '1'), 'ok'],
  ['phone', x(21, '1'), 'phone'],
  ['phone', ' 010-1234 ', 'ok'],
  ['phone', '+82 10 1234 5678', 'phone'],
  ['phone', '(02) 123-4567', 'phone'],
  ['phone', '010\t1234', 'phone'], // a tab is not a space
  ['phone', '010\u00a01234', 'phone'], // nor a no-break space
  ['phone', '１２３', 'phone'], // full-width digits
  ['phone', '010.1234', 'phone'],
  // number: an integer of at most 18 digits
  ['number', '0', 'ok'],
  ['number', '-5', 'ok'],
  ['number', '+7', 'ok'],
  ['number', '007', 'ok'],
  ['number', x(18, '9'), 'ok'],
  ['number', '-' + x(18, '9'), 'ok'],
  ['number', x(19, '1'), 'number'], // fits int64, still refused: the rule is 18 digits
  ['number', '9223372036854775808', 'number'], // int64 max + 1
  ['number', x(25, '9'), 'number'],
  ['number', '1.5', 'number'],
  ['number', '1e3', 'number'],
  ['number', '1,000', 'number'],
  ['number', '- 5', 'number'],
  ['number', '٣', 'number'], // an Arabic-Indic digit
  ['number', '１２', 'number'], // full-width digits
  ['number', '0x1F', 'number'],
];

describe('answer rules: the element and the database agree (contract)', () => {
  let guest: TestUser;
  let blockId: string;
  const questionIds = {} as Record<TextType, string>;

  beforeAll(async () => {
    const owner = await newUser('rules');
    await sql(
      'update public.profiles set paid = true, block_limit = 100, response_monthly_limit = 100000 where id = $1',
      [owner.id],
    );
    blockId = await createBlock(owner, 'form');
    // set-up with the service role (owners write content through save-block only)
    const types: TextType[] = ['short_text', 'long_text', 'mail', 'phone', 'number'];
    const { data, error } = await serviceClient()
      .from('questions')
      .insert(
        types.map((type, index) => ({
          block_id: blockId,
          type,
          title: type,
          index,
          required: false,
        })),
      )
      .select('id, type');
    expect(error).toBeNull();
    for (const q of data as { id: string; type: TextType }[]) questionIds[q.type] = q.id;
    // one visitor submits every case to this form: the test raises the block's visitor limit
    // for itself (an operator's per-block override), as the default allows five at once
    await sql('update public.blocks set rate_limits = $2 where id = $1', [
      blockId,
      { submit: { visitor_burst: 1000, visitor_per_minute: 1000 } },
    ]);
    guest = await newGuest();
  });

  const elementVerdict = (type: TextType, value: string): Verdict => {
    const q: Question = { id: 'q', type, title: type, index: 0, required: false };
    const r = checkAnswer(q, value);
    return r ? (ELEMENT[r[0]] ?? (r[0] as Verdict)) : 'ok';
  };

  const databaseVerdict = async (type: TextType, value: string): Promise<Verdict> => {
    const { error } = await guest.client.rpc('submit_response', {
      p_block_id: blockId,
      p_answers: { [questionIds[type]]: value },
    });
    return error ? (DATABASE[error.message] ?? (error.message as Verdict)) : 'ok';
  };

  it.each(
    CASES.map(([type, value, want]) => [type, JSON.stringify(value).slice(0, 60), value, want]),
  )('%s %s', async (type, _label, value, want) => {
    const element = elementVerdict(type as TextType, value as string);
    const database = await databaseVerdict(type as TextType, value as string);
    expect({ element, database }).toEqual({ element: want, database: want });
  });
});

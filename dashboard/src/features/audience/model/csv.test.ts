import { describe, expect, it } from 'vitest';
import { recentEvents } from '../components/member-row';
import { decodeCsv, parseCsvText, planImport } from './csv';

describe('CSV import', () => {
  it('keeps rows with a name and a valid email, drops unknown groups, reports the rest', () => {
    const plan = planImport(
      parseCsvText(
        'Name,Email,Group\nMina,mina@x.com,friends\n,no@x.com,\nBad,nope,\nMina again,MINA@x.com,\nAlex,alex@x.com,ghosts\n',
      ),
      ['friends'],
    );
    expect(plan.rows).toEqual([
      { line: 2, name: 'Mina', email: 'mina@x.com', group: 'friends' },
      { line: 6, name: 'Alex', email: 'alex@x.com', group: null },
    ]);
    expect(plan.skipped).toEqual([
      { line: 3, reason: 'noName' },
      { line: 4, reason: 'invalidEmail' },
      { line: 5, reason: 'duplicate' },
    ]);
    expect(plan.groupDropped).toEqual([{ line: 6, group: 'ghosts' }]);
  });

  it('counts an address the audience has, in any case, as already there: not sent, not a repeat', () => {
    const plan = planImport(
      parseCsvText('name,email\nAnn,DUP@example.COM\nBob,bob@x.com\nAnn again,dup@EXAMPLE.com\n'),
      [],
      new Set(['dup@example.com']),
    );
    expect(plan.rows).toEqual([{ line: 3, name: 'Bob', email: 'bob@x.com', group: null }]);
    expect(plan.already).toEqual([2]);
    expect(plan.skipped).toEqual([{ line: 4, reason: 'duplicate' }]);
  });

  it('needs name and email columns; takes Korean headers', () => {
    expect(planImport(parseCsvText('a,b\n1,2\n'), []).missingColumns).toBe(true);
    expect(planImport(parseCsvText('이름,이메일\n민아,mina@x.com\n'), []).rows).toHaveLength(1);
    // a header and no row: nothing to import, not missing columns
    const empty = planImport(parseCsvText('name,email\n'), []);
    expect([empty.missingColumns, empty.rows]).toEqual([false, []]);
  });

  it("leaves out what papaparse misread, by its code: more fields, broken quotes, a short row's missing email", () => {
    const plan = planImport(
      parseCsvText(
        [
          'name,email,group',
          'Kim, Mina,kim@x.com,friends', // a comma in a name without quotes
          'Short,short@x.com', // no group: fine
          'Shorter',
          'Alex,alex@x.com,',
          '"Open,open@x.com', // never closed: the rest of the file is in it
          'Last,last@x.com',
        ].join('\n'),
      ),
      ['friends'],
    );
    expect(plan.rows.map((r) => r.email)).toEqual(['short@x.com', 'alex@x.com']);
    expect(plan.skipped).toEqual([
      { line: 2, reason: 'tooManyFields' },
      { line: 4, reason: 'tooFewFields' },
      { line: 6, reason: 'missingQuotes', through: 7 },
    ]);
    // a quote that closes before the field ends ("Bad"x), and a later quote to end it: line 3
    // went into line 2's field
    expect(
      planImport(parseCsvText('name,email\n"Bad"x,bad@x.com\n"Good",good@x.com\n'), []).skipped,
    ).toEqual([{ line: 2, reason: 'invalidQuotes', through: 3 }]);
  });

  it('says which lines a broken quote took with it, not only its own (rev-visitor4 D6)', () => {
    const skipped = (text: string) => planImport(parseCsvText(text), []).skipped;
    // an unclosed quote: every following row was lost, and only line 2 was reported
    expect(skipped('name,email\n"A,a@x.com\nB,b@x.com\nC,c@x.com')).toEqual([
      { line: 2, reason: 'missingQuotes', through: 4 },
    ]);
    expect(skipped('name,email\n"A,a@x.com\nB,b@x.com\nC,c@x.com\n')).toEqual([
      { line: 2, reason: 'missingQuotes', through: 4 },
    ]);
    // a quote closed mid-field takes the lines up to the next quote
    const plan = planImport(
      parseCsvText('name,email\n"A"x,a@x.com\nB,b@x.com\n"C",c@x.com\nD,d@x.com\n'),
      [],
    );
    expect(plan.skipped).toEqual([{ line: 2, reason: 'invalidQuotes', through: 4 }]);
    expect(plan.rows.map((r) => r.line)).toEqual([5]);
    // 10,000 rows with a stray quote in row 5: the 9,996 lines it took are named
    const rows = Array.from(
      { length: 10_000 },
      (_, i) => (i === 4 ? '"R5' : 'R' + (i + 1)) + `,r${i + 1}@x.com`,
    );
    expect(skipped(['name,email', ...rows].join('\n'))).toEqual([
      { line: 6, reason: 'missingQuotes', through: 10_001 },
    ]);
  });

  it('keeps the separator it read the file with, for the report', () => {
    const separatorOf = (text: string) => planImport(parseCsvText(text), []).separator;
    expect(separatorOf('name,email\nAnn,ann@x.com\n')).toBe('comma');
    expect(separatorOf('name;email\nAnn;ann@x.com\n')).toBe('semicolon');
    expect(separatorOf('name\temail\nAnn\tann@x.com\n')).toBe('tab');
    expect(separatorOf('name|email\nAnn|ann@x.com\n')).toBe('bar');
  });

  it('names lines as the file numbers them: blank lines and a quoted field’s line breaks count', () => {
    const plan = planImport(
      parseCsvText(
        [
          'name,email',
          'Ann,ann@x.com',
          '',
          '  ,  ', // white space and a comma: blank too, not a row without a name
          '"Bo',
          'Kim",bo@x.com', // one record on two lines
          'Cy,ANN@x.com', // line 7: a repeat of line 2
          'Di,nope',
          '',
        ].join('\r\n'),
      ),
      [],
    );
    expect(plan.rows.map((r) => [r.line, r.email])).toEqual([
      [2, 'ann@x.com'],
      [5, 'bo@x.com'],
    ]);
    expect(plan.skipped).toEqual([
      { line: 7, reason: 'duplicate' },
      { line: 8, reason: 'invalidEmail' },
    ]);
    // blank lines before the header: the header is still found, and they count
    const late = planImport(parseCsvText('\n , \nname,email\nAnn,ann@x.com\n'), []);
    expect([late.missingColumns, late.rows.map((r) => r.line)]).toEqual([false, [4]]);
  });

  it('reads two columns separated by semicolons, tabs or |, with a trailing or blank line', () => {
    const rows = (n: number, sep: string) =>
      Array.from({ length: n }, (_, i) => `P${i}${sep}p${i}@x.com`);
    for (const sep of [';', '\t', '|', ',']) {
      const lines = (plan: ReturnType<typeof planImport>) => [
        plan.missingColumns,
        plan.rows.map((r) => r.line),
        plan.skipped,
      ];
      // one row, with and without the trailing line break; CRLF
      const one = `name${sep}email\nAnn${sep}ann@x.com`;
      for (const text of [one, `${one}\n`, `${one.replace('\n', '\r\n')}\r\n`])
        expect(lines(planImport(parseCsvText(text), [])), JSON.stringify(text)).toEqual([
          false,
          [2],
          [],
        ]);
      // blank lines among the first ten (one of separators only), lines stay the file's own
      const blanks = [
        `name${sep}email`,
        'Ann' + sep + 'ann@x.com',
        '',
        sep,
        'Bo' + sep + 'bo@x.com',
        '',
      ];
      expect(lines(planImport(parseCsvText(blanks.join('\r\n')), [])), sep).toEqual([
        false,
        [2, 5],
        [],
      ]);
      // twenty rows
      const twenty = planImport(
        parseCsvText([`name${sep}email`, ...rows(20, sep), ''].join('\n')),
        [],
      );
      expect([twenty.missingColumns, twenty.rows.length, twenty.rows[19]]).toEqual([
        false,
        20,
        { line: 21, name: 'P19', email: 'p19@x.com', group: null },
      ]);
    }
    // a third column, and a name with a comma in a semicolon file: the semicolon still wins
    expect(planImport(parseCsvText('name;email;group\nKim, Mina;kim@x.com;\n'), []).rows).toEqual([
      { line: 2, name: 'Kim, Mina', email: 'kim@x.com', group: null },
    ]);
  });

  it('plans 10,000 rows', () => {
    const text = `name,email\n${Array.from({ length: 10_000 }, (_, i) => `P${i},p${i}@x.com`).join('\n')}`;
    expect(planImport(parseCsvText(text), []).rows).toHaveLength(10_000);
  });
});

describe('recent events', () => {
  it('five newest, then the first after an ellipsis', () => {
    const history = Array.from({ length: 8 }, (_, i) => ({
      id: `b${i}`,
      type: 'form',
      created_at: `2026-01-0${i + 1}`,
    }));
    const { recent, first } = recentEvents({ history, first_event: history[0]! });
    expect(recent.map((e) => e.id)).toEqual(['b7', 'b6', 'b5', 'b4', 'b3']);
    expect(first?.id).toBe('b0');
    expect(
      recentEvents({ history: history.slice(0, 3), first_event: history[0]! }).first,
    ).toBeNull();
  });
});

describe('decodeCsv', () => {
  it('reads UTF-8 (with or without its mark), UTF-16 by its mark, and anything else as CP949', () => {
    const utf8 = new TextEncoder().encode('name,email\n박민수,a@x.com\n');
    const read = (bytes: number[] | Uint8Array) => decodeCsv(Uint8Array.from(bytes));
    expect(read(utf8)).toEqual({ text: 'name,email\n박민수,a@x.com\n', encoding: 'utf-8' });
    expect(read([0xef, 0xbb, 0xbf, ...utf8])).toEqual(read(utf8));
    expect(read([0xff, 0xfe, 0x6e, 0x00])).toEqual({ text: 'n', encoding: 'utf-16le' });
    expect(read([0xfe, 0xff, 0x00, 0x6e])).toEqual({ text: 'n', encoding: 'utf-16be' });
    // 박민수 in code page 949 is no UTF-8
    expect(read([0xb9, 0xda, 0xb9, 0xce, 0xbc, 0xf6])).toEqual({
      text: '박민수',
      encoding: 'euc-kr',
    });
  });
});

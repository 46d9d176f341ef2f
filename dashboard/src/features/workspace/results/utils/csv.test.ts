import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { answer, Q1, Q2, Q3, Q_DELETED, questions, responseRow } from '../test-data';
import { buildResultsCsv, csvFileName } from './csv';

const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

describe('buildResultsCsv', () => {
  it('writes creator, creatorName, submitted, then Q_1..Q_n in question index order', () => {
    const row = responseRow({
      creator_id: 'visitor-a',
      creator_name: 'Kim',
      created_at: '2025-03-04T05:06:07.123456+00:00',
      answers: {
        [Q1]: answer(0, 'Your name', 'short_text', 'Kim'),
        [Q2]: answer(1, 'Favourite colours', 'poll', ['Red'], ['o1']),
        [Q3]: answer(3, 'Comment', 'long_text', 'fine'),
      },
    });
    const [header, line] = parse(buildResultsCsv([row], questions));
    expect(header).toEqual(['creator', 'creatorName', 'submitted', 'Q_1', 'Q_2', 'Q_3']);
    expect(line).toEqual(['visitor-a', 'Kim', '2025-03-04T05:06:07.123Z', 'Kim', 'Red', 'fine']);
  });

  it('adds a page column after submitted when the block is shown on pages (likes per product)', () => {
    const rows = [
      responseRow({
        kind: 'like',
        creator_id: 'a',
        creator_name: 'Kim',
        page_key: 'cafe24:product:7',
      }),
      responseRow({ kind: 'like', creator_id: 'b', creator_name: 'Lee', page_key: '' }),
    ];
    const [header, first, second] = parse(buildResultsCsv(rows, []));
    expect(header).toEqual(['creator', 'creatorName', 'submitted', 'page']);
    expect(first?.slice(0, 2).concat(first[3]!)).toEqual(['a', 'Kim', 'cafe24:product:7']);
    expect(second?.[3]).toBe('');
  });

  it('keeps commas, quotes, newlines and Korean text intact through a parse', () => {
    const tricky = 'He said "hi", then\nleft; 안녕하세요, 반갑습니다';
    const row = responseRow({
      creator_name: '홍길동, "길동"',
      answers: { [Q3]: answer(3, 'Comment', 'long_text', tricky) },
    });
    const csv = buildResultsCsv([row], questions);
    const [, line] = parse(csv);
    expect(line?.[1]).toBe('홍길동, "길동"');
    expect(line?.[5]).toBe(tricky);
    expect(line).toHaveLength(6);
    // RFC 4180 line breaks between records
    expect(csv.split('\r\n')[0]).toBe('creator,creatorName,submitted,Q_1,Q_2,Q_3');
  });

  it('joins several chosen options with ", " and leaves unanswered questions empty', () => {
    const row = responseRow({
      answers: { [Q2]: answer(1, 'Favourite colours', 'poll', ['Red', 'Blue, light'], ['a', 'b']) },
    });
    const [, line] = parse(buildResultsCsv([row], questions));
    expect(line?.slice(3)).toEqual(['', 'Red, Blue, light', '']);
  });

  it('leaves out answers to deleted questions (they have no Q column)', () => {
    const row = responseRow({
      answers: {
        [Q_DELETED]: answer(2, 'Old question', 'short_text', 'gone'),
        [Q1]: answer(0, 'Your name', 'short_text', 'Lee'),
      },
    });
    const csv = buildResultsCsv([row], questions);
    expect(csv).not.toContain('gone');
    expect(parse(csv)[1]?.[3]).toBe('Lee');
  });

  it('defuses spreadsheet formulas but keeps plain numbers', () => {
    const rows = [
      responseRow({ answers: { [Q1]: answer(0, 'Your name', 'short_text', '=HYPERLINK("x")') } }),
      responseRow({ answers: { [Q1]: answer(0, 'Your name', 'short_text', '-42') } }),
      responseRow({ answers: { [Q1]: answer(0, 'Your name', 'short_text', '+82 10 1234 5678') } }),
    ];
    const lines = parse(buildResultsCsv(rows, questions)).slice(1);
    expect(lines.map((line) => line[3])).toEqual(['\'=HYPERLINK("x")', '-42', '+82 10 1234 5678']);
  });

  it('marks responses held by escalation in a last column, only when some are held', () => {
    const rows = [
      responseRow({ creator_id: 'held', held: true }),
      responseRow({ creator_id: 'counted', held: false }),
    ];
    const [header, held, counted] = parse(
      buildResultsCsv(rows, questions, { heldColumn: '승인 전 보류', held: '보류됨' }),
    );
    expect(header).toEqual([
      'creator',
      'creatorName',
      'submitted',
      'Q_1',
      'Q_2',
      'Q_3',
      '승인 전 보류',
    ]);
    expect([held?.[0], held?.[6]]).toEqual(['held', '보류됨']);
    expect([counted?.[0], counted?.[6]]).toEqual(['counted', '']);
    // no held row: no column
    expect(parse(buildResultsCsv(rows.slice(1), questions))[0]).toHaveLength(6);
  });

  it('has only the three fixed columns for blocks without questions (like, button)', () => {
    const row = responseRow({ kind: 'like', creator_name: null });
    const [header, line] = parse(buildResultsCsv([row], []));
    expect(header).toEqual(['creator', 'creatorName', 'submitted']);
    expect(line?.[1]).toBe('');
  });
});

describe('csvFileName', () => {
  // Local time on purpose: the owner's calendar day names the file.
  const date = new Date(2025, 0, 9, 23, 30);

  it('is {blockName}_result_{YYMMDD}.csv', () => {
    expect(csvFileName('Survey', date)).toBe('Survey_result_250109.csv');
    expect(csvFileName('설문 조사', new Date(2031, 11, 31))).toBe('설문 조사_result_311231.csv');
  });

  it('falls back to Untitled', () => {
    expect(csvFileName('', date)).toBe('Untitled_result_250109.csv');
    expect(csvFileName(null, date)).toBe('Untitled_result_250109.csv');
    expect(csvFileName(' ..  ', date)).toBe('Untitled_result_250109.csv');
  });

  it('replaces characters file systems refuse', () => {
    expect(csvFileName('a/b\\c:d*e?f"g<h>i|j\u0001', date)).toBe(
      'a_b_c_d_e_f_g_h_i_j__result_250109.csv',
    );
    expect(csvFileName('.hidden.', date)).toBe('hidden_result_250109.csv');
  });
});

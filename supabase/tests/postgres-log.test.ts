// What `npm start` prints of Postgres's log: a refusal the database answers a client with (a
// rule of ours, row-level security, a check) is one quiet line, a failure stays as it is.
import { describe, expect, it } from 'vitest';
import { clientAnswers } from '../local/postgres.ts';
import { looksLikeFailure } from '../local/process.ts';

const T = '2026-11-26 07:21:35.837 UTC';

function run(chunks: string[]): string[] {
  const out: string[] = [];
  const forward = clientAnswers((text) => out.push(...text.trimEnd().split('\n')));
  for (const chunk of chunks) forward(chunk);
  return out;
}

describe("Postgres's log as npm start shows it", () => {
  it('makes a rule of ours, RLS and a check one refused line without its statement', () => {
    const out = run([
      `${T} [19014] P0001 ERROR:  Block limit reached!\n${T} [19014] P0001 CONTEXT:  PL/pgSQL function private.blocks_before_insert() line 15 at RAISE\n\tSQL statement "insert into public.blocks (owner_id)\n\t    returning *"\n`,
      // a chunk boundary in the middle of a line
      `${T} [19014] P0001 STATEMENT:  WITH pgrst_source AS (SELECT 1)\n${T} [23939] 42501 ERROR:  new row violates row-level security policy for table "messages"\n${T} [23939] 42501 STATEM`,
      `ENT:  insert into realtime.messages (topic) values ('x')\n${T} [5] 00000 LOG:  checkpoint starting: time\n`,
    ]);
    expect(out).toEqual([
      `${T} [19014] refused a request (P0001): Block limit reached!`,
      `${T} [23939] refused a request (42501): new row violates row-level security policy for table "messages"`,
      `${T} [5] 00000 LOG:  checkpoint starting: time`,
    ]);
    expect(out.filter(looksLikeFailure)).toEqual([]);
  });

  it('keeps a failure whole: an internal error with its statement, a FATAL', () => {
    const lines = [
      `${T} [7] XX000 ERROR:  could not read block 0 in file "base/1/2"`,
      `${T} [7] XX000 STATEMENT:  select * from public.blocks`,
      `${T} [8] 57P01 FATAL:  terminating connection due to administrator command`,
    ];
    const out = run([`${lines.join('\n')}\n`]);
    expect(out).toEqual(lines);
    expect(out.filter(looksLikeFailure)).toEqual([lines[0], lines[2]]);
  });
});

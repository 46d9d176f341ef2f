import { describe, expect, it } from 'vitest';
import { recentEvents } from '../components/member-row';
import { parseCsvText, planImport } from './csv';

describe('CSV import', () => {
  it('keeps rows with a name and a valid email, drops unknown groups, reports the rest', () => {
    const { records, fields } = parseCsvText(
      'Name,Email,Group\nMina,mina@x.com,friends\n,no@x.com,\nBad,nope,\nMina again,MINA@x.com,\nAlex,alex@x.com,ghosts\n',
    );
    const plan = planImport(records, fields, ['friends']);
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

  it('needs name and email columns; takes Korean headers', () => {
    expect(
      planImport(...(Object.values(parseCsvText('a,b\n1,2\n')) as [never, string[]]), [])
        .missingColumns,
    ).toBe(true);
    const { records, fields } = parseCsvText('이름,이메일\n민아,mina@x.com\n');
    expect(planImport(records, fields, []).rows).toHaveLength(1);
  });

  it('plans 10,000 rows', () => {
    const text = `name,email\n${Array.from({ length: 10_000 }, (_, i) => `P${i},p${i}@x.com`).join('\n')}`;
    const { records, fields } = parseCsvText(text);
    expect(planImport(records, fields, []).rows).toHaveLength(10_000);
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

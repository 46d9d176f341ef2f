// Row-level security matrix: every table of the public schema x every client role (anon without a
// JWT, the owner of the rows, another signed-in user, an anonymous visitor) x select / insert /
// update / delete, through the unmodified supabase-js against the running stack. Each case says
// what is allowed and what is refused; refused writes are checked in the database afterwards.
// Grants on schemas private and auth, and the list of RPCs a client role may call, are checked
// from the catalogue so that a new table or function without a decision fails this suite.
// The world and the helpers are in support/rls-world.ts, the cases in support/rls-tables-*.ts.

import { describe, expect, it } from 'vitest';
import { sql } from './support/clients.ts';
import { ACCOUNT_TABLES } from './support/rls-tables-accounts.ts';
import { BLOCK_TABLES } from './support/rls-tables-blocks.ts';
import {
  clientOf,
  expectRefusedInsert,
  expectRefusedWrite,
  makeWorld,
  type Role,
  rowsMatching,
  STRANGERS,
} from './support/rls-world.ts';

const TABLES = [...BLOCK_TABLES, ...ACCOUNT_TABLES];

// ---------------------------------------------------------------------------------------------
// the matrix tests
// ---------------------------------------------------------------------------------------------

describe('RLS matrix', () => {
  it('covers exactly the tables of the public schema', async () => {
    const rows = await sql<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by 1",
    );
    expect(TABLES.map((t) => t.table).sort()).toEqual(rows.map((r) => r.tablename).sort());
  });

  describe.each(TABLES)('$table', (tc) => {
    it('select: only the listed roles see the row', async () => {
      const w = await makeWorld();
      for (const role of ['owner', ...STRANGERS] as Role[]) {
        const { data, error } = await clientOf(w, role)
          .from(tc.table)
          .select(tc.readable ?? '*')
          .match(tc.key(w));
        if (tc.readers.includes(role)) {
          expect(error, `${role} reads ${tc.table}`).toBeNull();
          expect(data, `${role} reads ${tc.table}`).toHaveLength(1);
        } else if (error) {
          expect(error.code, `${role} reads ${tc.table}: ${error.message}`).toBe('42501');
        } else {
          expect(data, `${role} must not read ${tc.table}`).toEqual([]);
        }
      }
    });

    it('insert: strangers are refused; the owner only as listed', async () => {
      const w = await makeWorld();
      for (const role of STRANGERS) {
        const row = tc.strangerInsert(w);
        // the stranger's row may equal one that already exists (message_likes)
        const before = (await rowsMatching(tc.table, row)).length;
        const res = await clientOf(w, role).from(tc.table).insert(row);
        expectRefusedInsert(res, `${role} inserts into ${tc.table}`);
        expect(await rowsMatching(tc.table, row), `${role} wrote into ${tc.table}`).toHaveLength(
          before,
        );
      }
      const row = tc.ownerInsert.row(w);
      const before = (await rowsMatching(tc.table, row)).length;
      const table = w.owner.client.from(tc.table);
      const res = await (tc.ownerInsert.via === 'upsert' ? table.upsert(row) : table.insert(row));
      if (tc.ownerInsert.allowed) {
        expect(res.error, `owner inserts into ${tc.table}`).toBeNull();
        expect(await rowsMatching(tc.table, row)).toHaveLength(
          tc.ownerInsert.via === 'upsert' ? 1 : before + 1,
        );
      } else {
        expectRefusedInsert(res, `owner inserts into ${tc.table}`);
        expect(await rowsMatching(tc.table, row)).toHaveLength(before);
      }
      for (const [what, make] of tc.forbiddenInserts ?? []) {
        const bad = make(w);
        const n = (await rowsMatching(tc.table, bad)).length;
        await w.owner.client.from(tc.table).insert(bad);
        await w.owner.client.from(tc.table).upsert(bad);
        // refused, or stored with the forbidden values replaced: no row holds what was sent
        expect(await rowsMatching(tc.table, bad), `owner inserted ${what}`).toHaveLength(n);
      }
    });

    it('update: strangers change nothing; the owner only as listed', async () => {
      const w = await makeWorld();
      const key = tc.key(w);
      const [original] = await rowsMatching(tc.table, key);
      expect(original).toBeDefined();
      for (const role of STRANGERS) {
        const res = await clientOf(w, role)
          .from(tc.table)
          .update(tc.update.patch, { count: 'exact' })
          .match(key);
        expectRefusedWrite(res, `${role} updates ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toEqual([original]);
      }
      for (const [what, make] of tc.forbiddenUpdates ?? []) {
        // an accepted (kept) change may have touched updated_at: compare with the row as it is now
        const [current] = await rowsMatching(tc.table, key);
        const patch = make(w);
        for (const column of Object.keys(patch)) {
          expect(
            current![column],
            `${what}: the patch must differ from the stored row`,
          ).not.toEqual(patch[column]);
        }
        const res = await w.owner.client
          .from(tc.table)
          .update(patch, { count: 'exact' })
          .match(key);
        const rows = await rowsMatching(tc.table, key);
        if (res.error || !res.count) {
          // refused: the row is untouched
          expect(rows, `owner may not ${what}`).toEqual([current]);
        } else {
          // accepted (an upsert-friendly table): the forbidden columns keep their stored value
          expect(rows, `owner may not ${what}`).toHaveLength(1);
          for (const column of Object.keys(patch)) {
            expect(rows[0]![column], `owner may not ${what}`).toEqual(current![column]);
          }
        }
      }
      const [beforeOwner] = await rowsMatching(tc.table, key);
      const res = await w.owner.client
        .from(tc.table)
        .update(tc.update.patch, { count: 'exact' })
        .match(key);
      if (tc.update.ownerMay) {
        expect(res.error, `owner updates ${tc.table}`).toBeNull();
        expect(res.count).toBe(1);
        const [after] = await rowsMatching(tc.table, key);
        expect(after).toMatchObject(tc.update.patch);
      } else {
        expectRefusedWrite(res, `owner updates ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toEqual([beforeOwner]);
      }
    });

    const upsert = tc.upsert;
    if (upsert)
      it('upsert: the owner saves their row; strangers cannot take it over', async () => {
        const w = await makeWorld();
        const key = tc.key(w);
        const [original] = await rowsMatching(tc.table, key);
        const row = upsert(w);
        for (const role of STRANGERS) {
          const res = await clientOf(w, role).from(tc.table).upsert(row);
          expect(res.error, `${role} upserts into ${tc.table}`).not.toBeNull();
          expect(await rowsMatching(tc.table, key)).toEqual([original]);
        }
        const res = await w.owner.client.from(tc.table).upsert(row);
        expect(res.error, `owner upserts into ${tc.table}`).toBeNull();
        expect(await rowsMatching(tc.table, row)).toHaveLength(1);
      });

    it('delete: strangers delete nothing; the owner only as listed', async () => {
      const w = await makeWorld();
      const key = tc.key(w);
      for (const role of STRANGERS) {
        const res = await clientOf(w, role).from(tc.table).delete({ count: 'exact' }).match(key);
        expectRefusedWrite(res, `${role} deletes from ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toHaveLength(1);
      }
      const res = await w.owner.client.from(tc.table).delete({ count: 'exact' }).match(key);
      if (tc.ownerMayDelete) {
        expect(res.error, `owner deletes from ${tc.table}`).toBeNull();
        expect(res.count).toBe(1);
        expect(await rowsMatching(tc.table, key)).toHaveLength(0);
      } else {
        expectRefusedWrite(res, `owner deletes from ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toHaveLength(1);
      }
    });
  });
});

// One member per address in an owner's audience, case aside (the outside tester's report of
// 2026-11-27: dup@example.com, DUP@EXAMPLE.COM and Dup@Example.com were three members): the unique
// index on (user_id, lower(email)) refuses the second spelling however the owner writes it, a
// visitor typing the address in another case joins without it, and the hand-written data step
// that comes before the index merges the case-duplicates a database already has into the oldest.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { paths } from '../local/paths.ts';
import { newUser, sql, stack } from './support/clients.ts';

async function paidOwner(label: string) {
  const owner = await newUser(label);
  await sql('update public.profiles set paid = true where id = $1', [owner.id]);
  return owner;
}

const address = () => `dup-${randomUUID().slice(0, 8)}@example.com`;

describe('an owner’s audience keeps one member per address, case aside', () => {
  it('a second spelling of an address is refused, added, imported or edited in', async () => {
    const owner = await paidOwner('aud-case');
    const email = address();
    const add = (spelt: string) =>
      owner.client
        .from('audience_members')
        .insert({ user_id: owner.id, creator_name: 'Ann', email: spelt });
    expect((await add(email)).error).toBeNull();
    for (const spelt of [email.toUpperCase(), email.replace(/^d/, 'D')]) {
      const { error } = await add(spelt);
      expect(error?.code).toBe('23505');
    }
    // the import's upsert, as the dashboard sends it: the other spelling is no new member
    const imported = await owner.client
      .from('audience_members')
      .upsert([{ user_id: owner.id, creator_name: 'Ann', email: email.toUpperCase() }], {
        onConflict: 'user_id,email',
        ignoreDuplicates: true,
      })
      .select('id');
    expect(imported.error?.code).toBe('23505');
    // a second member edited to the address in another case
    const other = await owner.client
      .from('audience_members')
      .insert({ user_id: owner.id, creator_name: 'Bob', email: address() })
      .select('id')
      .single();
    expect(other.error).toBeNull();
    const edited = await owner.client
      .from('audience_members')
      .update({ email: email.toUpperCase() })
      .eq('id', other.data!.id);
    expect(edited.error?.code).toBe('23505');
    const rows = await sql<{ count: string }>(
      'select count(*) from public.audience_members where user_id = $1 and lower(email) = $2',
      [owner.id, email],
    );
    expect(rows).toEqual([{ count: '1' }]);
    // the same address in another owner's audience is theirs to have
    const another = await paidOwner('aud-case-other');
    const theirs = await another.client
      .from('audience_members')
      .insert({ user_id: another.id, creator_name: 'Ann', email: email.toUpperCase() });
    expect(theirs.error).toBeNull();
  });

  it('the data step before the index merges case-duplicates into the oldest member, its group and the newer ones’ counts and deliveries', async () => {
    const owner = await paidOwner('aud-merge');
    const block = await owner.client.rpc('create_block', { p_block_type: 'notion_letter' });
    expect(block.error).toBeNull();
    const email = address();
    const step = readdirSync(paths.migrations).find((f) =>
      f.endsWith('_audience_merge_email_case_duplicates.sql'),
    );
    expect(step).toBeDefined();
    const db = new pg.Client({ connectionString: stack().dbUrl });
    await db.connect();
    try {
      await db.query('begin');
      // a database from before the index: its case-duplicates, rolled back at the end
      await db.query('drop index public.audience_members_user_id_lower_email_idx');
      await db.query(`insert into public.audience_groups (user_id, name) values ($1, 'vip')`, [
        owner.id,
      ]);
      const ids = (
        await db.query<{ id: string }>(
          `insert into public.audience_members (user_id, creator_name, email, group_name, created_at, sent_count)
           values ($1, 'Oldest', $2, 'vip', now() - interval '2 days', 1),
                  ($1, 'Newer', upper($2), null, now() - interval '1 day', 2),
                  ($1, 'Newest', initcap($2), null, now(), 3),
                  ($1, 'Alone', 'alone-' || $2, null, now(), 0)
           returning id`,
          [owner.id, email],
        )
      ).rows.map((r) => r.id);
      const publish = (
        await db.query<{ id: string }>(
          `insert into public.publishes (user_id, block_id) values ($1, $2) returning id`,
          [owner.id, (block.data as { id: string }).id],
        )
      ).rows[0]!.id;
      await db.query(
        `insert into public.deliveries (publish_id, user_id, audience_member_id, email)
         values ($1, $2, $3, upper($4))`,
        [publish, owner.id, ids[1], email],
      );
      await db.query(readFileSync(join(paths.migrations, step!), 'utf8'));
      const left = await db.query(
        `select creator_name, email, group_name, sent_count from public.audience_members
         where user_id = $1 order by created_at, creator_name`,
        [owner.id],
      );
      expect(left.rows).toEqual([
        { creator_name: 'Oldest', email, group_name: 'vip', sent_count: 6 },
        { creator_name: 'Alone', email: `alone-${email}`, group_name: null, sent_count: 0 },
      ]);
      const delivered = await db.query(
        'select audience_member_id from public.deliveries where publish_id = $1',
        [publish],
      );
      expect(delivered.rows).toEqual([{ audience_member_id: ids[0] }]);
      const groups = await db.query(
        `select name, g.count + coalesce((select sum(d.delta) from private.audience_group_deltas d
                                          where d.group_id = g.id), 0)::integer as count
         from public.audience_groups g where user_id = $1 order by name`,
        [owner.id],
      );
      expect(groups.rows).toEqual([
        { name: 'activated', count: 2 },
        { name: 'deactivated', count: 0 },
        { name: 'vip', count: 1 },
      ]);
      // and the index the generated migration makes can then be built
      await db.query(
        'create unique index audience_members_user_id_lower_email_idx on public.audience_members (user_id, lower(email))',
      );
    } finally {
      await db.query('rollback');
      await db.end();
    }
  });
});

// One member per address in an owner's audience, case aside (the outside tester's report of
// 2026-11-27: dup@example.com, DUP@EXAMPLE.COM and Dup@Example.com were three members): the unique
// index on (user_id, lower(email)) refuses the second spelling however the owner writes it, and a
// visitor typing the address in another case joins without it. (The hand-written data step that
// merged a database's case-duplicates before the index, and its test, went with the eleventh
// squash: a database built from the baseline has none to merge; docs/data-model.md.)
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newUser, sql } from './support/clients.ts';

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
});

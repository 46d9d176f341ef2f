// private.keep_from_clients (shared.sql): the columns a trigger names keep their value when a
// client writes the row (an insert gets 0, or false). The catalogue check makes a misspelled name
// fail here instead of leaving the real column writable by clients (the function skips a name the
// row lacks). Then every named column of each trigger that calls it: on audience_members through
// supabase-js as the owner (RLS lets the owner write the row), on options and endings, where the
// owner has no grant nor policy to write, as the authenticated role in a transaction that gives
// it both and is rolled back, so that the trigger alone keeps the counts.
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { paidOwner, rolledBack, sql, type TestUser } from './support/clients.ts';

interface KeepTrigger {
  trigger: string;
  table: string;
  events: string;
  args: string[];
  /** The arguments that are no column of the table. */
  unknown: string[];
}

/** Every trigger calling keep_from_clients, with its arguments (pg_trigger.tgargs). */
async function keepTriggers(db?: pg.Client): Promise<KeepTrigger[]> {
  const text = `
    select t.tgname as trigger, format('%I.%I', n.nspname, c.relname) as table,
           concat_ws(' or ', case when t.tgtype & 4 <> 0 then 'insert' end,
                             case when t.tgtype & 16 <> 0 then 'update' end) as events,
           coalesce(x.args, '{}') as args,
           array(select a from unnest(x.args) a
                  where not exists (select 1 from pg_attribute
                                     where attrelid = t.tgrelid and attname = a
                                       and attnum > 0 and not attisdropped)) as unknown
      from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
      cross join lateral (
        select array_agg(a order by i) as args
          from unnest((string_to_array(encode(t.tgargs, 'escape'), '\\000'))[1:t.tgnargs])
               with ordinality as u(a, i)) x
     where not t.tgisinternal and t.tgfoid = 'private.keep_from_clients()'::regprocedure
     order by 2, 1`;
  return db ? (await db.query<KeepTrigger>(text)).rows : sql<KeepTrigger>(text);
}

describe('the triggers calling keep_from_clients', () => {
  it('name columns of their own table, at least one each', async () => {
    const triggers = await keepTriggers();
    expect(triggers.map((t) => `${t.table}.${t.trigger} (${t.events})`)).toEqual([
      'public.audience_members.audience_members_keep_counts (insert or update)',
      'public.endings.endings_keep_default (update)',
      'public.options.options_keep_counts (insert or update)',
    ]);
    for (const t of triggers) {
      expect(t.args.length, t.trigger).toBeGreaterThan(0);
      expect(t.unknown, `${t.trigger}: arguments that are no column of ${t.table}`).toEqual([]);
    }
  });

  it('name the columns they keep: the six mail counts, response_count, is_default', async () => {
    const triggers = await keepTriggers();
    expect(Object.fromEntries(triggers.map((t) => [t.trigger, t.args]))).toEqual({
      audience_members_keep_counts: [...COUNTS],
      endings_keep_default: ['is_default'],
      options_keep_counts: ['response_count'],
    });
  });

  it('the check finds a misspelled argument', async () => {
    const found = await rolledBack(async (db) => {
      await db.query(`create trigger keep_from_clients_typo before update on public.options
                      for each row execute function private.keep_from_clients('value', 'respons_count')`);
      return keepTriggers(db);
    });
    expect(found.find((t) => t.trigger === 'keep_from_clients_typo')?.unknown).toEqual([
      'respons_count',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// audience_members: through supabase-js as the owner
// ---------------------------------------------------------------------------------------------

const COUNTS = [
  'sent_count',
  'delivered_count',
  'opened_count',
  'bounced_count',
  'rejected_count',
  'complaint_count',
] as const;
type Counts = Record<(typeof COUNTS)[number], number | null>;
const counts = (value: number | null): Counts =>
  Object.fromEntries(COUNTS.map((c) => [c, value])) as Counts;
/** What the owner's members start with: each count its own value, none of them 0. */
const STORED: Counts = Object.fromEntries(COUNTS.map((c, i) => [c, i + 1])) as Counts;

async function ownerWithMembers(label: string): Promise<{ owner: TestUser; emails: string[] }> {
  const owner = await paidOwner(label);
  const emails = ['kept-1@example.com', 'kept-2@example.com'];
  await sql(
    `insert into public.audience_members (user_id, email, creator_name, history, ${COUNTS.join(', ')})
     select $1, e, 'Member', '[]', ${COUNTS.map((_, i) => i + 1).join(', ')} from unnest($2::text[]) e`,
    [owner.id, emails],
  );
  return { owner, emails };
}

const storedCounts = async (ownerId: string) =>
  sql<Counts & { email: string }>(
    `select email, ${COUNTS.join(', ')} from public.audience_members where user_id = $1 order by email`,
    [ownerId],
  );

describe('audience_members keeps its mail counts from the owner', () => {
  it('an insert with counts gets 0 for each', async () => {
    const owner = await paidOwner('keep-insert');
    const { error } = await owner.client
      .from('audience_members')
      .insert({ user_id: owner.id, email: 'new@example.com', creator_name: 'New', ...counts(9) });
    expect(error).toBeNull();
    expect(await storedCounts(owner.id)).toEqual([{ email: 'new@example.com', ...counts(0) }]);
  });

  it.each(COUNTS)('an update of %s keeps it', async (column) => {
    const { owner, emails } = await ownerWithMembers(`keep-${column}`);
    const { data, error } = await owner.client
      .from('audience_members')
      .update({ [column]: 100, creator_name: 'Renamed' })
      .eq('email', emails[0])
      .select('creator_name');
    expect(error).toBeNull();
    expect(data).toEqual([{ creator_name: 'Renamed' }]);
    expect((await storedCounts(owner.id))[0]).toEqual({ email: emails[0], ...STORED });
  });

  it('a bulk update of all counts keeps them on every row', async () => {
    const { owner, emails } = await ownerWithMembers('keep-bulk');
    const { data, error } = await owner.client
      .from('audience_members')
      .update(counts(100))
      .eq('user_id', owner.id)
      .select('id');
    expect(error).toBeNull();
    expect(data).toHaveLength(2);
    expect(await storedCounts(owner.id)).toEqual(emails.map((email) => ({ email, ...STORED })));
  });

  it('setting the counts to null keeps them', async () => {
    const { owner, emails } = await ownerWithMembers('keep-null');
    const { error } = await owner.client
      .from('audience_members')
      .update(counts(null))
      .eq('email', emails[1]);
    expect(error).toBeNull();
    expect((await storedCounts(owner.id))[1]).toEqual({ email: emails[1], ...STORED });
  });

  it("an upsert on 'user_id,email' keeps an existing member's counts and gives a new one 0", async () => {
    const { owner, emails } = await ownerWithMembers('keep-upsert');
    const { error } = await owner.client.from('audience_members').upsert(
      [emails[0], 'kept-3@example.com'].map((email) => ({
        user_id: owner.id,
        email,
        creator_name: 'Upserted',
        ...counts(100),
      })),
      { onConflict: 'user_id,email' },
    );
    expect(error).toBeNull();
    expect(await storedCounts(owner.id)).toEqual([
      { email: emails[0], ...STORED },
      { email: emails[1], ...STORED },
      { email: 'kept-3@example.com', ...counts(0) },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// options and endings: the owner has neither grant nor policy to write them (save_block does);
// the trigger alone, with both given in a transaction that is rolled back
// ---------------------------------------------------------------------------------------------

/** `fn` as the authenticated owner, with insert and update on `table` and a policy letting both. */
async function asClientWithWrites<T>(
  table: string,
  ownerId: string,
  fn: (db: pg.Client) => Promise<T>,
): Promise<T> {
  return rolledBack(async (db) => {
    await db.query(`grant insert, update on ${table} to authenticated`);
    await db.query(`create policy keep_test on ${table} for all to authenticated
                    using (true) with check (true)`);
    await db.query('set local role authenticated');
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: ownerId, role: 'authenticated' }),
    ]);
    return fn(db);
  });
}

/**
 * What each statement returned when run in turn as the owner's client with writes on `table`
 * (asClientWithWrites): its rows read by `read`, sorted.
 */
async function returnedAsClient<R extends pg.QueryResultRow, V extends string | number>(
  table: string,
  ownerId: string,
  read: (row: R) => V,
  statements: Record<string, [text: string, params: unknown[]]>,
): Promise<Record<string, V[]>> {
  return asClientWithWrites(table, ownerId, async (db) => {
    const returned: Record<string, V[]> = {};
    for (const [name, [text, params]] of Object.entries(statements)) {
      returned[name] = (await db.query<R>(text, params)).rows
        .map(read)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
    return returned;
  });
}

async function formOwner(label: string) {
  const owner = await paidOwner(label);
  const [block] = await sql<{ id: string }>(
    "insert into public.blocks (owner_id, type, name) values ($1, 'form', 'Form') returning id",
    [owner.id],
  );
  const [question] = await sql<{ id: string }>(
    "insert into public.questions (block_id, type, title) values ($1, 'poll', 'Pick') returning id",
    [block!.id],
  );
  const [option] = await sql<{ id: string }>(
    "insert into public.options (question_id, block_id, value, response_count) values ($1, $2, 'A', 5) returning id",
    [question!.id, block!.id],
  );
  const [ending] = await sql<{ id: string }>(
    "insert into public.endings (block_id, index, title) values ($1, 1, 'Custom') returning id",
    [block!.id],
  );
  const [byDefault] = await sql<{ id: string }>(
    'select id from public.endings where block_id = $1 and is_default',
    [block!.id],
  );
  return {
    owner,
    block: block!.id,
    question: question!.id,
    option: option!.id,
    ending: ending!.id,
    byDefault: byDefault!.id,
  };
}

describe('options keep response_count and endings is_default from clients', () => {
  it('options: an insert gets 0; an update, a bulk update, null and an upsert keep the count', async () => {
    const f = await formOwner('keep-options');
    const seen = await returnedAsClient(
      'public.options',
      f.owner.id,
      (r: { response_count: number }) => r.response_count,
      {
        insert: [
          `insert into public.options (question_id, block_id, value, response_count)
           values ($1, $2, 'B', 9) returning response_count`,
          [f.question, f.block],
        ],
        update: [
          'update public.options set response_count = 42 where id = $1 returning response_count',
          [f.option],
        ],
        bulk: [
          'update public.options set response_count = 42, value = value where block_id = $1 returning response_count',
          [f.block],
        ],
        null: [
          'update public.options set response_count = null where id = $1 returning response_count',
          [f.option],
        ],
        upsert: [
          `insert into public.options (id, question_id, block_id, value, response_count)
           values ($1, $2, $3, 'A', 42)
           on conflict (id) do update set response_count = excluded.response_count
           returning response_count`,
          [f.option, f.question, f.block],
        ],
      },
    );
    expect(seen).toEqual({ insert: [0], update: [5], bulk: [0, 5], null: [5], upsert: [5] });
  });

  it('endings: an update, a bulk update, null and an upsert keep is_default', async () => {
    const f = await formOwner('keep-endings');
    const seen = await returnedAsClient(
      'public.endings',
      f.owner.id,
      (r: { id: string; is_default: boolean }) =>
        `${r.id === f.byDefault ? 'default' : 'custom'}:${r.is_default}`,
      {
        update: [
          'update public.endings set is_default = true where id = $1 returning id, is_default',
          [f.ending],
        ],
        bulk: [
          'update public.endings set is_default = not is_default where block_id = $1 returning id, is_default',
          [f.block],
        ],
        null: [
          'update public.endings set is_default = null where id = $1 returning id, is_default',
          [f.byDefault],
        ],
        upsert: [
          `insert into public.endings (id, block_id, title, is_default) values ($1, $2, 'Custom', true)
           on conflict (id) do update set is_default = excluded.is_default
           returning id, is_default`,
          [f.ending, f.block],
        ],
      },
    );
    expect(seen).toEqual({
      update: ['custom:false'],
      bulk: ['custom:false', 'default:true'],
      null: ['default:true'],
      upsert: ['custom:false'],
    });
  });
});

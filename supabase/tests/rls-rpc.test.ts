// Beyond the table matrix (rls.test.ts): what the catalogue grants to client roles (schemas
// private and auth, callable functions, RLS switched on, policy style), that secrets are not
// reachable through the API at all, what anonymous visitors may read of a published block and
// never an owner's private fields, deactivated blocks, and the RPCs refused for anon (no JWT)
// and for users acting on someone else's data.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  anonClient,
  newGuest,
  newUser,
  rolledBack,
  serviceClient,
  sql,
  stack,
  type TestUser,
} from './support/clients.ts';
import { createBlock } from './support/drafts.ts';

const CLIENT_ROLES = ['anon', 'authenticated'];

/** Every function of schema public, and whether each client role may execute it. */
const functionGrants = () =>
  sql<{ name: string; anon: boolean; authenticated: boolean }>(
    `select p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon,
            has_function_privilege('authenticated', p.oid, 'execute') as authenticated
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
  );

/** An owner with a published comment block that keeps commenter emails, and a form block. */
async function ownerWithBlocks() {
  const owner = await newUser('owner');
  const commentBlock = await createBlock(owner, 'comment');
  const formBlock = await createBlock(owner, 'form');
  const likeBlock = await createBlock(owner, 'like');
  await sql('update public.blocks set allow_creator_email = true where id = $1', [commentBlock]);
  return { owner, commentBlock, formBlock, likeBlock };
}

async function postAsGuest(guest: TestUser, blockId: string, email: string) {
  const { data, error } = await guest.client.rpc('post_message', {
    p_block_id: blockId,
    p_content: `hello ${randomUUID()}`,
    p_creator_name: 'Visitor',
    p_creator_email: email,
  });
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/**
 * The rows a reader gets of a table it may not read: none, or, for anon on a table no policy lets
 * it read (it holds no privilege there), a refusal (42501) instead of an empty list.
 */
function seen(res: { data: unknown; error: { code?: string; message: string } | null }) {
  if (res.error) {
    expect(res.error.code, res.error.message).toBe('42501');
    return [];
  }
  return res.data;
}

// ---------------------------------------------------------------------------------------------
// the catalogue
// ---------------------------------------------------------------------------------------------

describe('catalogue: what client roles are granted', () => {
  it('RLS is enabled on every table of schemas public and private', async () => {
    const rows = await sql(
      `select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
  });

  it('no views, materialized views or foreign tables in public bypass RLS', async () => {
    const rows = await sql(
      `select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('v', 'm', 'f')`,
    );
    expect(rows).toEqual([]);
  });

  it('every policy is for anon or authenticated, one operation each, with (select auth.uid())', async () => {
    const policies = await sql<{
      tablename: string;
      policyname: string;
      roles: string[];
      cmd: string;
      uses: string;
    }>(
      `select tablename, policyname, roles::text[] as roles, cmd,
              coalesce(qual, '') || ' ' || coalesce(with_check, '') as uses
       from pg_policies where schemaname = 'public'`,
    );
    expect(policies.length).toBeGreaterThan(0);
    for (const p of policies) {
      expect(p.roles.length, `${p.tablename}: ${p.policyname}`).toBe(1);
      expect(CLIENT_ROLES, `${p.tablename}: ${p.policyname}`).toContain(p.roles[0]);
      expect(p.cmd, `${p.tablename}: ${p.policyname}`).not.toBe('ALL');
      expect(
        p.uses.replaceAll('SELECT auth.uid()', ''),
        `${p.tablename}: ${p.policyname}`,
      ).not.toMatch(/auth\.uid\(\)/);
    }
  });

  it('schema private is not usable by client roles and its tables grant them nothing', async () => {
    for (const role of CLIENT_ROLES) {
      const [row] = await sql<{ usage: boolean }>(
        "select has_schema_privilege($1, 'private', 'usage') as usage",
        [role],
      );
      expect(row?.usage, role).toBe(false);
    }
  });

  it.each(['private', 'auth'])(
    'tables in schema %s grant anon and authenticated nothing',
    async (schema) => {
      const grants = await sql(
        `select table_name, grantee, privilege_type from information_schema.role_table_grants
       where table_schema = $1 and grantee in ('anon', 'authenticated', 'PUBLIC')`,
        [schema],
      );
      expect(grants).toEqual([]);
      const privileges = await sql(
        `select c.relname, r.role, p.privilege
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join unnest(array['anon', 'authenticated']) as r(role)
       cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) as p(privilege)
       where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm')
         and (has_table_privilege(r.role, c.oid, p.privilege)
              or (p.privilege in ('SELECT', 'INSERT', 'UPDATE') and has_any_column_privilege(r.role, c.oid, p.privilege)))`,
        [schema],
      );
      expect(privileges).toEqual([]);
    },
  );

  it('Realtime publishes no table: live updates are broadcasts of public fields from a trigger', async () => {
    const rows = await sql<{ table: string }>(
      "select schemaname || '.' || tablename as table from pg_publication_tables where pubname = 'supabase_realtime'",
    );
    expect(rows).toEqual([]);
  });

  it('realtime.messages: one SELECT policy (the owner topic), no client may send', async () => {
    const policies = await sql<{ policyname: string; roles: string[]; cmd: string; qual: string }>(
      `select policyname, roles::text[] as roles, cmd, qual from pg_policies
       where schemaname = 'realtime' and tablename = 'messages'`,
    );
    expect(policies.map((p) => [p.policyname, p.roles.sort(), p.cmd])).toEqual([
      ['Owners of a block receive its owner topic', ['anon', 'authenticated'], 'SELECT'],
    ]);
    expect(policies[0]!.qual).toMatch(/block_topic_readable/);
    const rls = await sql<{ on: boolean }>(
      "select relrowsecurity as on from pg_class where oid = 'realtime.messages'::regclass",
    );
    expect(rls).toEqual([{ on: true }]);
  });

  it('client roles use only schemas public, auth, extensions and realtime (as on Supabase)', async () => {
    for (const role of CLIENT_ROLES) {
      const rows = await sql<{ name: string }>(
        `select nspname as name from pg_namespace
         where nspname not like 'pg\\_%' and nspname <> 'information_schema'
           and has_schema_privilege($1, oid, 'usage')`,
        [role],
      );
      expect(rows.map((r) => r.name).sort(), role).toEqual([
        'auth',
        'extensions',
        'public',
        'realtime',
      ]);
    }
  });

  it('no table outside public grants anything to anon, authenticated or PUBLIC (but realtime.messages, under RLS)', async () => {
    const grants = await sql(
      `select table_schema, table_name, grantee, privilege_type from information_schema.role_table_grants
       where grantee in ('anon', 'authenticated', 'PUBLIC')
         and table_schema not in ('public', 'pg_catalog', 'information_schema')
       order by 1, 2, 3, 4`,
    );
    // Supabase's Realtime schema: the join checks select and insert as the client role, under
    // the policies of the previous test (the schema is not exposed through the API)
    expect(grants).toEqual(
      ['anon', 'authenticated'].flatMap((grantee) =>
        ['INSERT', 'SELECT'].map((privilege_type) => ({
          table_schema: 'realtime',
          table_name: 'messages',
          grantee,
          privilege_type,
        })),
      ),
    );
  });

  it('the integration tokens table exists only in schema private', async () => {
    const rows = await sql<{ schema: string }>(
      "select table_schema as schema from information_schema.tables where table_name = 'integration_tokens'",
    );
    expect(rows).toEqual([{ schema: 'private' }]);
  });

  it('client roles may call exactly the listed public functions', async () => {
    const rows = await functionGrants();
    const visitorReads = [
      'get_block_view',
      'get_block_public',
      'get_block_me',
      'get_block_card',
      'get_block_change',
      'get_block_counts',
      // the Cafe24 loader's read (docs/cafe24.md)
      'get_cafe24_embed',
      'get_letter_view',
      'list_messages',
    ];
    const signedIn = [
      ...visitorReads,
      'create_block',
      'duplicate_block',
      'post_message',
      'edit_message',
      'delete_message',
      'toggle_message_like',
      'set_message_resolved',
      'toggle_block_like',
      'record_button_click',
      'submit_response',
      'block_results_summary',
      // issue 17: the owner approves responses held by escalation
      'approve_responses',
      // issue 9: reports (visitors), moderation (block owners)
      'report_message',
      'moderation_messages',
      'moderate_messages',
      'block_writer',
      // issue 13: computed fields over the count shards (null for another user's rows)
      'response_monthly_count',
      'member_count',
      'live_response_count',
      'live_new_response_count',
      // issue 18: an audience send's counts, counted by the database (the caller's own members)
      'letter_send_groups',
      // issue 18: the letters a form question may send by itself (the caller's own)
      'trigger_letter_choices',
      // what "a letter has content" means, run by trigger_letter_choices as its invoker (an
      // immutable test of the html it is given: it reads nothing)
      'letter_has_content',
      // issue 18: computed field of audience_members (the caller's own members: auth.uid())
      'is_unsubscribed',
      // issue 17: the caller's own confirmation mails of the day (counts only)
      'confirmation_mail_usage',
      // the owner's notification address: its confirmation state, and the link sent again
      'notification_address_status',
      'resend_notification_confirmation',
    ];
    const callableBy = (role: 'anon' | 'authenticated') =>
      rows
        .filter((r) => r[role])
        .map((r) => r.name)
        .sort();
    expect(callableBy('anon')).toEqual([...visitorReads].sort());
    expect(callableBy('authenticated')).toEqual([...signedIn].sort());
  });

  it('the API document (GET /rest/v1/) shows each role only the functions it may call', async () => {
    const rows = await functionGrants();
    const user = await newUser('openapi');
    const documentOf = async (token: string) => {
      const res = await fetch(`${stack().apiUrl}/rest/v1/`, {
        headers: { apikey: stack().anonKey, authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const paths = Object.keys(((await res.json()) as { paths: object }).paths);
      return paths.filter((p) => p.startsWith('/rpc/')).map((p) => p.slice('/rpc/'.length));
    };
    const anon = await documentOf(stack().anonKey);
    const signedIn = await documentOf(user.accessToken);
    const serviceOnly = rows.filter((r) => !r.anon && !r.authenticated).map((r) => r.name);
    expect(serviceOnly).toContain('claim_jobs');
    expect(serviceOnly).toContain('confirm_sender_email');
    for (const name of serviceOnly) {
      expect(anon, name).not.toContain(name);
      expect(signedIn, name).not.toContain(name);
    }
    // and what they may call is there (PostgREST lists the functions it can call as RPCs)
    expect(anon).toContain('get_block_view');
    expect(signedIn).toContain('post_message');
    for (const name of anon) expect(rows.find((r) => r.name === name)?.anon, name).toBe(true);
    for (const name of signedIn) {
      expect(rows.find((r) => r.name === name)?.authenticated, name).toBe(true);
    }
    // the service role still gets the whole document (the project's own tooling)
    expect(await documentOf(stack().serviceRoleKey)).toContain('claim_jobs');
  });

  it('anon holds nothing on a table no policy lets it read, so its API document lists only what it may read', async () => {
    // the bare anon key's document listed 18 owner-only tables with every column (payments,
    // sender_emails, block_private, ...): RLS kept their rows, the grants showed their shape
    const rows = await sql<{ name: string; privileged: boolean; readable: boolean }>(
      `select c.relname as name,
              has_any_column_privilege('anon', c.oid, 'select, insert, update, references') as privileged,
              exists (select 1 from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname
                      and p.cmd in ('SELECT', 'ALL') and p.roles && array['anon', 'public']::name[]) as readable
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p')`,
    );
    expect(rows.filter((r) => r.privileged && !r.readable).map((r) => r.name)).toEqual([]);
    const res = await fetch(`${stack().apiUrl}/rest/v1/`, {
      headers: { apikey: stack().anonKey, authorization: `Bearer ${stack().anonKey}` },
    });
    expect(res.status).toBe(200);
    const listed = Object.keys(((await res.json()) as { paths: object }).paths)
      .filter((p) => p !== '/' && !p.startsWith('/rpc/'))
      .map((p) => p.slice(1))
      .sort();
    expect(listed).toEqual(
      rows
        .filter((r) => r.readable)
        .map((r) => r.name)
        .sort(),
    );
    expect(listed).toContain('messages');
    // and a read of an owner-only table is refused outright, not answered with no rows
    const payments = await anonClient().from('payments').select('*');
    expect(payments.error?.code).toBe('42501');
  });

  it('every function in public and private pins search_path', async () => {
    const rows = await sql<{ name: string }>(
      `select n.nspname || '.' || p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private')
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
    );
    expect(rows).toEqual([]);
  });

  // The grant rule (supabase/schemas/setup.sql): a function revokes Postgres's default EXECUTE
  // for PUBLIC and grants it by name to the roles that call it (client roles only where the test
  // above lists them). Schema private's lack of usage keeps clients from naming its functions,
  // but not a policy or a check constraint from reaching one as the client. Trigger functions
  // are run by their triggers, not called by a role. Until 2026-11-27, block_defaults and
  // settle_letter_jobs (definers) and 45 invoker helpers of schema private kept it.
  it('no function keeps the default EXECUTE for PUBLIC', async () => {
    const rows = await sql<{ name: string }>(
      `select p.oid::regprocedure::text as name
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private')
         and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
         and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass
                         and d.objid = p.oid and d.deptype = 'e')
         and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                     where a.grantee = 0 and a.privilege_type = 'EXECUTE')
       order by 1`,
    );
    expect(rows.map((r) => r.name)).toEqual([]);
  });

  // What a client role may run in schema private, each with the statement of the client's own
  // that runs it. A function added here needs such a reason: anything else is run by definers
  // (as their owner), by pg_cron (as postgres) or by the service role.
  const CLIENTS_RUN_IN_PRIVATE: Record<string, { roles: string; why: string }> = {
    'block_is_published(uuid)': {
      roles: 'anon, authenticated',
      why: 'the read policies of questions, options, endings, ending_conditions and messages (a definer)',
    },
    'block_tags_are_valid(text[])': {
      roles: 'authenticated',
      why: "blocks' tags check constraint, run on an owner's update of tags or new_response_count",
    },
    'block_topic_readable(text)': {
      roles: 'anon, authenticated',
      why: "realtime.messages' policy on an owner topic (a definer)",
    },
    'is_block_owner(uuid)': {
      roles: 'anon, authenticated',
      why: 'the owner read policies of questions, options, endings, messages, reports (a definer)',
    },
    'is_valid_email(text)': {
      roles: 'authenticated',
      why: "audience_members' email check constraint, run on an owner's insert or update",
    },
    'is_profile_url(text)': {
      roles: 'authenticated',
      why: "profiles' photo_url and home_url check constraints, run on an owner's update (update-profile)",
    },
  };

  it('client roles may run in schema private only what a policy or check of theirs runs', async () => {
    const rows = await sql<{ name: string; roles: string }>(
      `select p.oid::regprocedure::text as name,
              array_to_string(array(select r from unnest(array['public', 'anon', 'authenticated']) r
                where case r when 'public' then exists (
                        select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                        where a.grantee = 0 and a.privilege_type = 'EXECUTE')
                      else has_function_privilege(r, p.oid, 'execute') end), ', ') as roles
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'private' and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
       order by 1`,
    );
    const found = Object.fromEntries(
      rows.filter((r) => r.roles).map((r) => [r.name.replace(/^private\./, ''), r.roles]),
    );
    const allowed = Object.fromEntries(
      Object.entries(CLIENTS_RUN_IN_PRIVATE).map(([name, { roles }]) => [name, roles]),
    );
    expect(found).toEqual(allowed);
  });

  // An index expression or predicate, a generated column, a default and a check constraint run as
  // the role that writes the row, and an index's only when the row's entry is written: a
  // HOT update skips it. So a role that may write a table without EXECUTE on such a function
  // fails now and then, as the page fills (sender_emails_mailbox_idx failed check-mail-verified's
  // status update as service_role with "permission denied for function mailbox_key" in 2 of 4 CI
  // runs, never alone).
  it('every role that may write a table may run every function its indexes, columns and checks run', async () => {
    const rows = await sql<{ role: string; tbl: string; fn: string }>(
      `with uses as (
         select i.indrelid as rel, d.refobjid as fn
         from pg_depend d join pg_index i on i.indexrelid = d.objid
         where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_proc'::regclass
         union
         select c.conrelid, d.refobjid
         from pg_depend d join pg_constraint c on c.oid = d.objid
         where d.classid = 'pg_constraint'::regclass and d.refclassid = 'pg_proc'::regclass
           and c.conrelid <> 0
         union
         select a.adrelid, d.refobjid
         from pg_depend d join pg_attrdef a on a.oid = d.objid
         where d.classid = 'pg_attrdef'::regclass and d.refclassid = 'pg_proc'::regclass)
       select r.role, u.rel::regclass::text as tbl, u.fn::regprocedure::text as fn
       from uses u
       join pg_class c on c.oid = u.rel
       join pg_namespace n on n.oid = c.relnamespace and n.nspname in ('public', 'private')
       cross join unnest(array['anon', 'authenticated', 'service_role']) r(role)
       where (has_table_privilege(r.role, u.rel, 'INSERT')
              or has_any_column_privilege(r.role, u.rel, 'UPDATE'))
         and not has_function_privilege(r.role, u.fn, 'EXECUTE')
       order by 1, 2, 3`,
    );
    expect(rows).toEqual([]);
  });

  it('a client role given usage on schema private still cannot run its helpers', async () => {
    const refused = await rolledBack(async (db) => {
      await db.query('grant usage on schema private to authenticated');
      await db.query('set local role authenticated');
      const out: string[] = [];
      for (const call of [
        "private.setting('rate.mail.per_second', null)",
        'private.purge_jobs()',
        "private.take_tokens('mail', 1)",
      ]) {
        await db.query('savepoint call');
        try {
          await db.query(`select ${call}`);
          out.push(`${call}: ran`);
        } catch (err) {
          out.push(`${call}: ${(err as Error).message}`);
        }
        await db.query('rollback to savepoint call');
      }
      // what its own statements run, it may
      out.push(
        String((await db.query(`select private.is_valid_email('a@example.com') as ok`)).rows[0].ok),
      );
      return out;
    });
    expect(refused).toEqual([
      "private.setting('rate.mail.per_second', null): permission denied for function setting",
      'private.purge_jobs(): permission denied for function purge_jobs',
      "private.take_tokens('mail', 1): permission denied for function take_tokens",
      'true',
    ]);
  });

  // TRUNCATE ignores RLS. PostgREST cannot send it, so this is defence in depth
  // (supabase/schemas/setup.sql takes it away in the default privileges).
  it('no client role holds TRUNCATE on a public table', async () => {
    const rows = await sql(
      `select c.relname, r.role from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join unnest(array['anon', 'authenticated']) as r(role)
       where n.nspname = 'public' and c.relkind = 'r' and has_table_privilege(r.role, c.oid, 'TRUNCATE')`,
    );
    expect(rows).toEqual([]);
  });

  // Block settings and content are written by save_block (behind the save-block edge function's
  // zod validation and plan checks); blocks.sql and block-content.sql revoke the direct rights. A new
  // grant here would reopen that bypass.
  it('client roles write blocks only as delete, tags and the new-response reset; block content not at all', async () => {
    const rows = await sql<{ grant: string }>(
      `select c.relname || ' ' || r.role || ' ' || p.privilege ||
              coalesce(' ' || a.attname, '') as grant
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join unnest(array['anon', 'authenticated']) as r(role)
       cross join unnest(array['INSERT', 'UPDATE', 'DELETE']) as p(privilege)
       left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         and p.privilege <> 'DELETE' and has_column_privilege(r.role, c.oid, a.attnum, p.privilege)
         and not has_table_privilege(r.role, c.oid, p.privilege)
       where n.nspname = 'public'
         and c.relname in ('blocks', 'block_private', 'questions', 'options', 'endings', 'ending_conditions')
         and (has_table_privilege(r.role, c.oid, p.privilege) or a.attname is not null)
       order by 1`,
    );
    expect(rows.map((r) => r.grant)).toEqual([
      'blocks authenticated DELETE',
      'blocks authenticated UPDATE new_response_count',
      'blocks authenticated UPDATE tags',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// secrets are not reachable through the API
// ---------------------------------------------------------------------------------------------

describe('secrets through the API', () => {
  it('schema private (integration tokens) is not exposed by PostgREST to anon, owners or the service role', async () => {
    const owner = await newUser();
    const [integration] = await sql<{ id: string }>(
      "insert into public.integrations (user_id, provider) values ($1, 'notion') returning id",
      [owner.id],
    );
    await sql(
      'insert into private.integration_tokens (integration_id, access_token) values ($1, $2)',
      [integration!.id, 'top-secret-token'],
    );
    for (const client of [anonClient(), owner.client]) {
      const { data, error } = await client.schema('private').from('integration_tokens').select('*');
      expect(data).toBeNull();
      expect(error?.code).toBe('PGRST106');
    }
    // and the owner's integration row carries no token
    const { data } = await owner.client.from('integrations').select('*').eq('id', integration!.id);
    expect(data).toHaveLength(1);
    expect(JSON.stringify(data)).not.toContain('top-secret-token');
  });

  it('schema auth is not exposed by PostgREST', async () => {
    const owner = await newUser();
    for (const client of [anonClient(), owner.client]) {
      const { data, error } = await client.schema('auth').from('users').select('*');
      expect(data).toBeNull();
      expect(error?.code).toBe('PGRST106');
    }
  });

  it('functions in schema private cannot be called as RPCs', async () => {
    const owner = await newUser();
    for (const fn of [
      'handle_new_user',
      'record_audience_event',
      'visible_block',
      'bump_audience_group',
    ]) {
      const { error } = await owner.client.rpc(fn, {});
      expect(error?.code, fn).toBe('PGRST202');
    }
  });

  it('a raw REST request for the tokens table is refused', async () => {
    const res = await fetch(`${stack().apiUrl}/rest/v1/integration_tokens?select=*`, {
      headers: { apikey: stack().anonKey, 'accept-profile': 'private' },
    });
    expect(res.status).toBe(406);
    const plain = await fetch(`${stack().apiUrl}/rest/v1/integration_tokens?select=*`, {
      headers: { apikey: stack().anonKey },
    });
    expect(plain.status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// what visitors read of a published block
// ---------------------------------------------------------------------------------------------

describe('published blocks and private fields', () => {
  it("commenter emails: the block owner reads them; the author reads their own; anon and others don't", async () => {
    const { owner, commentBlock } = await ownerWithBlocks();
    const author = await newGuest();
    const other = await newUser('other');
    const email = uniqueEmail('commenter');
    const messageId = await postAsGuest(author, commentBlock, email);
    expect(
      await sql('select creator_email from public.message_private where message_id = $1', [
        messageId,
      ]),
    ).toEqual([{ creator_email: email }]);

    const read = (client: typeof owner.client) =>
      client.from('message_private').select('creator_email').eq('message_id', messageId);
    expect((await read(owner.client)).data).toEqual([{ creator_email: email }]);
    expect((await read(author.client)).data).toEqual([{ creator_email: email }]);
    expect((await read(other.client)).data).toEqual([]);
    expect(seen(await read(anonClient()))).toEqual([]);
    // a whole-table read by a stranger finds no email at all
    expect((await other.client.from('message_private').select('*')).data).toEqual([]);
    expect(seen(await anonClient().from('message_private').select('*'))).toEqual([]);
    // and the message itself carries no email, through the table or through the visitor RPCs
    const asAnon = anonClient();
    const viaTable = await asAnon.from('messages').select('*').eq('id', messageId);
    expect(viaTable.data).toHaveLength(1);
    const view = await asAnon.rpc('get_block_view', { p_block_id: commentBlock });
    const list = await asAnon.rpc('list_messages', { p_block_id: commentBlock });
    const otherView = await other.client.rpc('get_block_view', { p_block_id: commentBlock });
    const publicView = await asAnon.rpc(
      'get_block_public',
      { p_block_id: commentBlock },
      { get: true },
    );
    const otherMine = await other.client.rpc('get_block_me', {
      p_block_id: commentBlock,
      p_message_ids: [messageId],
    });
    expect(publicView.error).toBeNull();
    expect(otherMine.error).toBeNull();
    expect(JSON.stringify(otherMine.data)).not.toContain(email);
    // embedding the private rows in readable ones goes through their RLS too
    const embedded = await asAnon
      .from('messages')
      .select('*, message_private(*)')
      .eq('id', messageId);
    const embeddedByOther = await other.client
      .from('blocks')
      .select('id, block_private(*), messages(*, message_private(*))')
      .eq('id', commentBlock);
    expect(view.error).toBeNull();
    expect(list.error).toBeNull();
    // anon holds nothing on message_private: the embedding is refused outright
    expect(embedded.error?.code).toBe('42501');
    expect(embeddedByOther.error).toBeNull();
    // blocks are readable by their owner only (visitors read the public settings through
    // get_block_view), so there is nothing to embed the messages in
    expect(embeddedByOther.data).toEqual([]);
    for (const payload of [viaTable.data, view.data, list.data, otherView.data, publicView.data]) {
      expect(JSON.stringify(payload)).toContain(messageId);
      expect(JSON.stringify(payload)).not.toContain(email);
    }
  });

  it("the owner's email, plan and usage are not readable by anon or other users, even through a block", async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    for (const client of [anonClient(), other.client]) {
      expect(seen(await client.from('profiles').select('*').eq('id', owner.id))).toEqual([]);
      // embedding the owner's profile in a readable block gives nothing either
      const { data } = await client
        .from('blocks')
        .select('id, owner:profiles(email, paid, block_limit)')
        .eq('id', formBlock);
      expect(JSON.stringify(data)).not.toContain(owner.email);
      const view = await client.rpc('get_block_view', { p_block_id: formBlock });
      expect(view.error).toBeNull();
      expect(JSON.stringify(view.data)).not.toContain(owner.email);
      const pub = await client.rpc('get_block_public', { p_block_id: formBlock }, { get: true });
      expect(pub.error).toBeNull();
      expect(JSON.stringify(pub.data)).not.toContain(owner.email);
    }
  });

  it('responses, payments and audience are unreadable to others, even embedded in a readable block', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const visitor = await newGuest();
    const other = await newUser('other');
    const email = uniqueEmail('respondent');
    // set-up with the service role: an email question is paid-only on the save path
    const { data: question } = await serviceClient()
      .from('questions')
      .insert({
        block_id: formBlock,
        type: 'mail',
        title: 'Email',
        required: true,
        as_visitor_info: 'email',
      })
      .select('id')
      .single();
    const submitted = await visitor.client.rpc('submit_response', {
      p_block_id: formBlock,
      p_answers: { [question!.id as string]: email },
    });
    expect(submitted.error).toBeNull();
    await sql(
      "insert into public.payments (user_id, type, provider_payment_id) values ($1, 'basic', 'PAY-XYZ')",
      [owner.id],
    );

    // the owner sees the response and the visitor in their audience
    expect(
      (await owner.client.from('responses').select('id').eq('block_id', formBlock)).data,
    ).toHaveLength(1);
    expect(
      (await owner.client.from('audience_members').select('email').eq('user_id', owner.id)).data,
    ).toEqual([{ email }]);

    for (const [who, client] of [
      ['anon', anonClient()],
      ['other', other.client],
      ['the visitor', visitor.client],
    ] as const) {
      expect(
        seen(await client.from('responses').select('*').eq('block_id', formBlock)),
        who,
      ).toEqual([]);
      const embedded = await client.from('blocks').select('id, responses(*)').eq('id', formBlock);
      expect(JSON.stringify(embedded.data), who).not.toContain(email);
      expect(
        seen(await client.from('audience_members').select('*').eq('user_id', owner.id)),
        who,
      ).toEqual([]);
      expect(seen(await client.from('payments').select('*').eq('user_id', owner.id)), who).toEqual(
        [],
      );
      expect(
        seen(await client.from('audience_groups').select('*').eq('user_id', owner.id)),
        who,
      ).toEqual([]);
      const view = await client.rpc('get_block_view', { p_block_id: formBlock });
      expect(JSON.stringify(view.data), who).not.toContain(email);
      const pub = await client.rpc('get_block_public', { p_block_id: formBlock }, { get: true });
      expect(JSON.stringify(pub.data), who).not.toContain(email);
      const mine = await client.rpc('get_block_me', { p_block_id: formBlock });
      expect(mine.error, who).toBeNull();
      expect(JSON.stringify(mine.data), who).not.toContain(email);
    }
  });

  it("a visitor reads their own like and nobody else's", async () => {
    const { owner, likeBlock } = await ownerWithBlocks();
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    expect((await a.client.rpc('toggle_block_like', { p_block_id: likeBlock })).error).toBeNull();
    expect((await b.client.rpc('toggle_block_like', { p_block_id: likeBlock })).error).toBeNull();
    const mine = await a.client.from('responses').select('creator_id').eq('block_id', likeBlock);
    expect(mine.data).toEqual([{ creator_id: a.id }]);
    expect(
      seen(await anonClient().from('responses').select('*').eq('block_id', likeBlock)),
    ).toEqual([]);
    expect(
      (await owner.client.from('responses').select('id').eq('block_id', likeBlock)).data,
    ).toHaveLength(2);
  });

  it("get_block_view tells a visitor their own A/B vote (me.vote) and nobody else's", async () => {
    const owner = await newUser('owner');
    const created = await owner.client.rpc('create_block', { p_block_type: 'ab' });
    expect(created.error).toBeNull();
    const abBlock = (created.data as { id: string }).id;
    const [a, b] = await Promise.all([newGuest(), newGuest()]);
    const before = await a.client.rpc('get_block_view', { p_block_id: abBlock });
    expect(before.error).toBeNull();
    const [question] = before.data.questions as Array<{ id: string; options: { id: string }[] }>;
    expect(before.data.me.vote, 'not voted yet').toBeNull();
    const [good, bad] = question!.options;

    const voted = await a.client.rpc('submit_response', {
      p_block_id: abBlock,
      p_answers: { [question!.id]: bad!.id },
    });
    expect(voted.error).toBeNull();

    const after = await a.client.rpc('get_block_view', { p_block_id: abBlock });
    expect(after.data.me.vote).toEqual([bad!.id]);
    // the elements' split read says the same: the vote in get_block_me only
    const mine = await a.client.rpc('get_block_me', { p_block_id: abBlock });
    expect(mine.data.me.vote).toEqual([bad!.id]);
    // with the counts as they are now (the public copy may be cached from before the vote)
    expect(mine.data.questions).toEqual(after.data.questions);
    expect(mine.data.block).toEqual(after.data.block);
    const pub = await a.client.rpc('get_block_public', { p_block_id: abBlock }, { get: true });
    expect(pub.data).not.toHaveProperty('me');
    expect(pub.data.questions).toEqual(after.data.questions);
    // The rest of the view keeps its shape; the counts include the vote.
    expect(Object.keys(after.data).sort()).toEqual([
      'block',
      'endings',
      'me',
      'messages',
      'questions',
    ]);
    expect(after.data.me).toEqual({
      liked: false,
      liked_message_ids: [],
      reported_message_ids: [],
      vote: [bad!.id],
    });
    const counts = (after.data.questions[0].options as { id: string; response_count: number }[])
      .map((o) => [o.id, o.response_count])
      .sort();
    expect(counts).toEqual(
      [
        [bad!.id, 1],
        [good!.id, 0],
      ].sort(),
    );

    // Another visitor, anon and the owner see no vote of theirs.
    for (const [who, client] of [
      ['another visitor', b.client],
      ['anon', anonClient()],
      ['the owner', owner.client],
    ] as const) {
      const view = await client.rpc('get_block_view', { p_block_id: abBlock });
      expect(view.error, who).toBeNull();
      expect(view.data.me.vote, who).toBeNull();
      const mine = await client.rpc('get_block_me', { p_block_id: abBlock });
      expect(mine.data.me.vote, who).toBeNull();
    }
    // Other block types carry no vote.
    const { formBlock } = await ownerWithBlocks();
    expect(
      (await a.client.rpc('get_block_view', { p_block_id: formBlock })).data.me.vote,
    ).toBeNull();
  });

  it('deactivated blocks and their content are hidden from anon and other users, not from the owner', async () => {
    const { owner, formBlock, commentBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    const guest = await newGuest();
    await postAsGuest(guest, commentBlock, '');
    const added = await serviceClient()
      .from('questions')
      .insert({ block_id: formBlock, type: 'poll', title: 'Pick' });
    expect(added.error).toBeNull();
    await sql('update public.blocks set deactivated = true where id = any($1)', [
      [formBlock, commentBlock],
    ]);
    const ids = [formBlock, commentBlock];

    for (const [who, client] of [
      ['anon', anonClient()],
      ['other', other.client],
      ['guest', guest.client],
    ] as const) {
      expect(seen(await client.from('blocks').select('id').in('id', ids)), who).toEqual([]);
      for (const table of ['questions', 'options', 'endings', 'ending_conditions', 'messages']) {
        expect(
          (await client.from(table).select('*').in('block_id', ids)).data,
          `${who} ${table}`,
        ).toEqual([]);
      }
      for (const blockId of ids) {
        const view = await client.rpc('get_block_view', { p_block_id: blockId });
        expect(view.data, who).toBeNull();
        expect(view.error?.message, who).toBe("block doesn't exists");
      }
      expect(
        (await client.rpc('list_messages', { p_block_id: commentBlock })).error,
        who,
      ).not.toBeNull();
    }
    expect((await owner.client.from('blocks').select('id').in('id', ids)).data).toHaveLength(2);
    expect(
      (await owner.client.from('questions').select('id').eq('block_id', formBlock)).data,
    ).toHaveLength(1);
    expect(
      (await owner.client.from('messages').select('id').eq('block_id', commentBlock)).data,
    ).toHaveLength(1);
  });

  it('deleted questions and options are hidden from anon and other users, not from the owner', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    const guest = await newGuest();
    // one live poll with a live and a deleted option, one deleted poll with a live option
    const [live, gone] = await sql<{ id: string }>(
      `insert into public.questions (block_id, type, title, index, deleted)
       values ($1, 'poll', 'Live', 0, false), ($1, 'poll', 'Deleted', 9999, true) returning id`,
      [formBlock],
    );
    await sql(
      `insert into public.options (question_id, block_id, value, index, deleted)
       values ($1, $3, 'kept', 0, false), ($1, $3, 'dropped', 1, true), ($2, $3, 'of deleted', 0, false)`,
      [live!.id, gone!.id, formBlock],
    );

    for (const [who, client] of [
      ['anon', anonClient()],
      ['other', other.client],
      ['guest', guest.client],
    ] as const) {
      // the tester's request: GET /rest/v1/questions?deleted=eq.true&select=title,block_id
      expect(
        seen(await client.from('questions').select('title, block_id').eq('deleted', true)),
        who,
      ).toEqual([]);
      expect(
        seen(await client.from('questions').select('title').eq('block_id', formBlock)),
        who,
      ).toEqual([{ title: 'Live' }]);
      expect(
        seen(await client.from('options').select('value').eq('block_id', formBlock).order('value')),
        who,
      ).toEqual([{ value: 'kept' }, { value: 'of deleted' }]);
      expect(seen(await client.from('options').select('value').eq('deleted', true)), who).toEqual(
        [],
      );
      // nor embedded in a live question
      const embedded = await client
        .from('questions')
        .select('title, options(value)')
        .eq('block_id', formBlock);
      expect(JSON.stringify(embedded.data), who).not.toContain('dropped');
    }
    // the owner still reads everything (results and the CSV name deleted questions and options)
    expect(
      seen(
        await owner.client
          .from('questions')
          .select('title')
          .eq('block_id', formBlock)
          .order('index'),
      ),
    ).toEqual([{ title: 'Live' }, { title: 'Deleted' }]);
    expect(
      seen(
        await owner.client.from('options').select('value').eq('block_id', formBlock).order('value'),
      ),
    ).toEqual([{ value: 'dropped' }, { value: 'kept' }, { value: 'of deleted' }]);
  });

  it('anonymous visitors cannot write to a deactivated block', async () => {
    const { likeBlock, commentBlock, formBlock } = await ownerWithBlocks();
    const guest = await newGuest();
    await sql(
      'update public.blocks set deactivated = true where owner_id = (select owner_id from public.blocks where id = $1)',
      [likeBlock],
    );
    const calls = [
      guest.client.rpc('toggle_block_like', { p_block_id: likeBlock }),
      guest.client.rpc('post_message', { p_block_id: commentBlock, p_content: 'hi' }),
      guest.client.rpc('submit_response', { p_block_id: formBlock, p_answers: {} }),
    ];
    for (const res of await Promise.all(calls))
      expect(res.error?.message).toBe("block doesn't exists");
    expect(
      await sql('select 1 from public.responses where block_id = any($1)', [
        [likeBlock, formBlock],
      ]),
    ).toEqual([]);
    expect(await sql('select 1 from public.messages where block_id = $1', [commentBlock])).toEqual(
      [],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// RPCs
// ---------------------------------------------------------------------------------------------

describe('anonymous visitors own nothing', () => {
  it('cannot create tags, audience, groups, templates or private settings for themselves', async () => {
    const guest = await newGuest();
    const { formBlock } = await ownerWithBlocks();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['user_tags', { user_id: guest.id, label: 'mine' }],
      ['audience_groups', { user_id: guest.id, name: 'mine' }],
      ['audience_members', { user_id: guest.id, email: 'someone@example.com' }],
      ['letter_templates', { block_id: formBlock, user_id: guest.id, mail_title: 'mine' }],
      ['block_private', { block_id: formBlock, owner_id: guest.id }],
      ['blocks', { owner_id: guest.id, type: 'like' }],
    ];
    for (const [table, row] of attempts) {
      const res = await guest.client.from(table).insert(row);
      expect(res.error, table).not.toBeNull();
    }
    expect(await sql('select 1 from public.profiles where id = $1', [guest.id])).toEqual([]);
    for (const [table, column] of [
      ['user_tags', 'user_id'],
      ['audience_groups', 'user_id'],
      ['audience_members', 'user_id'],
      ['letter_templates', 'user_id'],
      ['block_private', 'owner_id'],
      ['blocks', 'owner_id'],
    ]) {
      expect(
        await sql(`select 1 from public.${table} where ${column} = $1`, [guest.id]),
        table,
      ).toEqual([]);
    }
  });
});

describe('RPCs', () => {
  it('every write RPC is refused with the anon key alone, and nothing is written', async () => {
    const { owner, commentBlock, formBlock, likeBlock } = await ownerWithBlocks();
    const guest = await newGuest();
    const messageId = await postAsGuest(guest, commentBlock, '');
    const before = await sql(
      'select response_count, like_count from public.blocks where owner_id = $1 order by id',
      [owner.id],
    );
    const anon = anonClient();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['create_block', { p_block_type: 'like' }],
      ['duplicate_block', { p_block_id: formBlock }],
      ['post_message', { p_block_id: commentBlock, p_content: 'anon' }],
      ['edit_message', { p_message_id: messageId, p_content: 'anon edit' }],
      ['delete_message', { p_message_id: messageId }],
      ['toggle_message_like', { p_message_id: messageId }],
      ['set_message_resolved', { p_message_id: messageId, p_resolved: true }],
      ['toggle_block_like', { p_block_id: likeBlock }],
      ['record_button_click', { p_block_id: likeBlock }],
      ['submit_response', { p_block_id: formBlock, p_answers: {} }],
    ];
    for (const [fn, args] of calls) {
      const { error } = await anon.rpc(fn, args);
      expect(error?.code, fn).toBe('42501');
    }
    expect(
      await sql(
        'select response_count, like_count from public.blocks where owner_id = $1 order by id',
        [owner.id],
      ),
    ).toEqual(before);
    expect(
      await sql('select content, resolved, like_count from public.messages where id = $1', [
        messageId,
      ]),
    ).toEqual([expect.objectContaining({ resolved: false, like_count: 0 })]);
    expect(await sql('select block_count from public.profiles where id = $1', [owner.id])).toEqual([
      { block_count: 3 },
    ]);
  });

  it('anonymous visitors cannot create or duplicate blocks', async () => {
    const { formBlock } = await ownerWithBlocks();
    const guest = await newGuest();
    expect((await guest.client.rpc('create_block', { p_block_type: 'like' })).error).not.toBeNull();
    expect(
      (await guest.client.rpc('duplicate_block', { p_block_id: formBlock })).error,
    ).not.toBeNull();
    const direct = await guest.client.from('blocks').insert({ type: 'like' });
    expect(direct.error).not.toBeNull();
    expect(await sql('select 1 from public.blocks where owner_id = $1', [guest.id])).toEqual([]);
  });

  it("another user cannot duplicate, edit, resolve or delete on someone else's block", async () => {
    const { owner, commentBlock, formBlock } = await ownerWithBlocks();
    const author = await newGuest();
    const other = await newUser('other');
    const messageId = await postAsGuest(author, commentBlock, '');
    const [before] = await sql('select * from public.messages where id = $1', [messageId]);

    const dup = await other.client.rpc('duplicate_block', { p_block_id: formBlock });
    expect(dup.error?.message).toBe("block doesn't exists");
    const edit = await other.client.rpc('edit_message', {
      p_message_id: messageId,
      p_content: 'hijacked',
    });
    expect(edit.error?.message).toBe('Only the author can edit this message');
    const resolve = await other.client.rpc('set_message_resolved', {
      p_message_id: messageId,
      p_resolved: true,
    });
    expect(resolve.error?.message).toBe('Only the block owner can resolve messages');
    const del = await other.client.rpc('delete_message', { p_message_id: messageId });
    expect(del.error?.message).toBe('Only the author or the block owner can delete this message');
    // the author may not resolve on the owner's block either
    const authorResolve = await author.client.rpc('set_message_resolved', {
      p_message_id: messageId,
      p_resolved: true,
    });
    expect(authorResolve.error).not.toBeNull();
    // the block owner may not rewrite a visitor's words
    const ownerEdit = await owner.client.rpc('edit_message', {
      p_message_id: messageId,
      p_content: 'put words in mouth',
    });
    expect(ownerEdit.error?.message).toBe('Only the author can edit this message');

    expect(await sql('select * from public.messages where id = $1', [messageId])).toEqual([before]);
    expect(await sql('select 1 from public.blocks where owner_id = $1', [other.id])).toEqual([]);
  });

  it('the author edits and deletes their own message; the block owner resolves and deletes any', async () => {
    const { owner, commentBlock } = await ownerWithBlocks();
    const author = await newGuest();
    const first = await postAsGuest(author, commentBlock, '');
    const second = await postAsGuest(author, commentBlock, '');
    expect(
      (await author.client.rpc('edit_message', { p_message_id: first, p_content: 'edited' })).error,
    ).toBeNull();
    expect(
      (await owner.client.rpc('set_message_resolved', { p_message_id: first, p_resolved: true }))
        .error,
    ).toBeNull();
    expect(
      await sql('select content, is_edited, resolved from public.messages where id = $1', [first]),
    ).toEqual([{ content: 'edited', is_edited: true, resolved: true }]);
    expect((await author.client.rpc('delete_message', { p_message_id: first })).error).toBeNull();
    expect((await owner.client.rpc('delete_message', { p_message_id: second })).error).toBeNull();
    expect(
      await sql('select 1 from public.messages where id = any($1)', [[first, second]]),
    ).toEqual([]);
  });

  it("a stranger's refused block insert leaves the owner's block count alone", async () => {
    const { owner } = await ownerWithBlocks();
    await sql('update public.profiles set block_limit = 10 where id = $1', [owner.id]);
    const other = await newUser('other');
    const res = await other.client.from('blocks').insert({ owner_id: owner.id, type: 'like' });
    expect(res.error?.code).toBe('42501');
    expect(await sql('select block_count from public.profiles where id = $1', [owner.id])).toEqual([
      { block_count: 3 },
    ]);
    expect(
      await sql('select count(*)::int as n from public.blocks where owner_id = $1', [owner.id]),
    ).toEqual([{ n: 3 }]);
  });

  // private.blocks_before_insert (a BEFORE trigger) runs before the RLS check; it must refuse a
  // stranger's row itself, or "Block limit reached!" would reveal another user's plan state.
  it("a stranger's block insert for a user at their limit is refused like any other (no plan leak)", async () => {
    const { owner } = await ownerWithBlocks();
    const other = await newUser('other');
    const res = await other.client.from('blocks').insert({ owner_id: owner.id, type: 'like' });
    expect(res.error?.code).toBe('42501');
    expect(res.error?.message).not.toContain('Block limit');
  });

  it('the owner may reset new_response_count to 0 but not set it', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    await sql('update public.blocks set new_response_count = 4 where id = $1', [formBlock]);
    const raise = await owner.client
      .from('blocks')
      .update({ new_response_count: 9 })
      .eq('id', formBlock);
    expect(raise.error?.code).toBe('42501');
    expect(
      await sql('select new_response_count from public.blocks where id = $1', [formBlock]),
    ).toEqual([{ new_response_count: 4 }]);
    const reset = await owner.client
      .from('blocks')
      .update({ new_response_count: 0 })
      .eq('id', formBlock);
    expect(reset.error).toBeNull();
    expect(
      await sql('select new_response_count from public.blocks where id = $1', [formBlock]),
    ).toEqual([{ new_response_count: 0 }]);
  });

  it('the reserved audience groups and the default ending cannot be renamed or deleted by the owner', async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const rename = await owner.client
      .from('audience_groups')
      .update({ name: 'renamed' }, { count: 'exact' })
      .eq('user_id', owner.id)
      .in('name', ['activated', 'deactivated']);
    expect(rename.count ?? 0).toBe(0);
    const del = await owner.client
      .from('audience_groups')
      .delete({ count: 'exact' })
      .eq('user_id', owner.id)
      .in('name', ['activated', 'deactivated']);
    expect(del.count ?? 0).toBe(0);
    expect(
      await sql('select name from public.audience_groups where user_id = $1 order by name', [
        owner.id,
      ]),
    ).toEqual([{ name: 'activated' }, { name: 'deactivated' }]);
    const endingDelete = await owner.client
      .from('endings')
      .delete({ count: 'exact' })
      .eq('block_id', formBlock)
      .eq('is_default', true);
    expect(endingDelete.count ?? 0).toBe(0);
    expect(
      await sql('select 1 from public.endings where block_id = $1 and is_default', [formBlock]),
    ).toHaveLength(1);
  });
});

describe('references across owners', () => {
  // questions.trigger_letter_block is a plain foreign key to blocks, and foreign keys are checked
  // without RLS. Owners write questions through save-block only (no table rights:
  // block-content.sql), and save_block checks that the letter block is the owner's
  // (save-block.test.ts, "a letter trigger that is not one of the owner's letter blocks").
  it("an owner cannot point a question's trigger_letter_block at another user's letter block", async () => {
    const { owner, formBlock } = await ownerWithBlocks();
    const other = await newUser('other');
    const letter = await other.client.rpc('create_block', { p_block_type: 'notion_letter' });
    const letterBlock = (letter.data as { id: string }).id;
    const res = await owner.client.from('questions').insert({
      block_id: formBlock,
      type: 'mail',
      title: 'Email',
      trigger_letter_block: letterBlock,
    });
    expect(res.error).not.toBeNull();
    expect(
      await sql('select 1 from public.questions where trigger_letter_block = $1', [letterBlock]),
    ).toEqual([]);
  });
});

describe('Realtime follows RLS', () => {
  it('anon viewers hear hints on a block topic and read published changes only, never a commenter email', async () => {
    const { owner, commentBlock } = await ownerWithBlocks();
    await sql('update public.profiles set block_limit = 10 where id = $1', [owner.id]);
    const hidden = await owner.client.rpc('create_block', { p_block_type: 'qna' });
    expect(hidden.error).toBeNull();
    const hiddenBlock = (hidden.data as { id: string }).id;
    await sql('update public.blocks set deactivated = true where id = $1', [hiddenBlock]);

    const viewer = anonClient();
    const received: Array<Record<string, unknown>> = [];
    const join = (topic: string, isPrivate = false) =>
      new Promise<void>((resolve, reject) => {
        viewer
          .channel(topic, { config: { private: isPrivate } })
          .on('broadcast', { event: '*' }, (m) =>
            received.push({ topic, event: m.event, ...(m.payload as Record<string, unknown>) }),
          )
          .subscribe((status, err) => {
            if (status === 'SUBSCRIBED') resolve();
            if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
              reject(err ?? new Error(status));
          });
      });
    // block topics are public (joining asks the database nothing); the owner topic is private
    await join(`block:${commentBlock}`);
    await join(`block:${hiddenBlock}`);
    await expect(join(`block:${commentBlock}:owner`, true)).rejects.toThrow(/permissions to read/);
    // postgres_changes on the messages table: no longer published, nothing arrives that way
    viewer
      .channel(`rls-messages-${randomUUID()}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'messages' }, (payload) =>
        received.push({ topic: 'postgres_changes', ...(payload.new as Record<string, unknown>) }),
      )
      .subscribe();

    const secret = `hidden-${randomUUID()}`;
    await sql('insert into public.messages (block_id, creator_id, content) values ($1, $2, $3)', [
      hiddenBlock,
      randomUUID(),
      secret,
    ]);
    const guest = await newGuest();
    const email = uniqueEmail('rt-commenter');
    const markerId = await postAsGuest(guest, commentBlock, email);

    // what the hints name, read as the elements read it (a GET with the anon key)
    const reads = async () =>
      Promise.all(
        received
          .filter((m) => m.event === 'hint')
          .map(async (m) => {
            const { data, error } = await viewer.rpc(
              'get_block_change',
              { p_block_id: (m.topic as string).slice('block:'.length), p_id: m.id },
              { get: true },
            );
            expect(error).toBeNull();
            return data as { payload: { row?: { id?: string } } } | null;
          }),
      );
    await expect
      .poll(async () => (await reads()).map((c) => c?.payload.row?.id))
      .toContain(markerId);
    await new Promise((r) => setTimeout(r, 300));
    await viewer.removeAllChannels();
    const changes = await reads();
    // the hidden block's message was announced (its topic is public) but reads as nothing
    expect(changes.filter((c) => c !== null).map((c) => c!.payload.row?.id)).toEqual([markerId]);
    expect(JSON.stringify(received)).not.toContain(secret);
    expect(JSON.stringify(changes)).not.toContain(secret);
    expect(received.filter((m) => m.topic === 'postgres_changes')).toEqual([]);
    expect(received.every((m) => m.event === 'hint' && Object.keys(m).length === 3)).toBe(true);
    expect(JSON.stringify([received, changes])).not.toContain(email);
  });
});

// Beyond the table matrix (rls.test.ts): what the catalogue grants to client roles (schemas
// private and auth, callable functions, RLS switched on, policy style), and that secrets are not
// reachable through the API at all. Published blocks: rls-published.test.ts; RPCs: rls-rpc.test.ts.
import { describe, expect, it } from 'vitest';
import { anonClient, newUser, rolledBack, sql, stack } from './support/clients.ts';

const CLIENT_ROLES = ['anon', 'authenticated'];

/** Every function of schema public, and whether each client role may execute it. */
const functionGrants = () =>
  sql<{ name: string; anon: boolean; authenticated: boolean }>(
    `select p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon,
            has_function_privilege('authenticated', p.oid, 'execute') as authenticated
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
  );

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
        String(
          (await db.query(`select private.is_profile_url('https://example.com/') as ok`)).rows[0]
            .ok,
        ),
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

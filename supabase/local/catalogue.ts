// What a database's schema is, read from its catalogue, as one text per object: the check that
// supabase/schemas and supabase/migrations agree (db-diff.ts) builds a database from each and
// compares these texts, and so did the proof that the squashed baseline changed nothing.
//
// Why not pg_dump: the embedded PostgreSQL 18 ships only initdb, pg_ctl and postgres, and the
// pg_dump that Debian's packages offer here is version 15, which refuses to dump a newer server.
// So each object is read with PostgreSQL's own deparsers (pg_get_functiondef,
// pg_get_constraintdef, pg_get_indexdef, pg_get_triggerdef, pg_get_viewdef, pg_get_expr). It covers
// our schemas (public, private), the policies and triggers we put on Supabase's tables
// (realtime.messages, auth.users), the extensions, default privileges and the Realtime
// publication; with `data`, also what only migrations can hold (pg_cron jobs, Vault secret names,
// rows of private.settings).
import type pg from 'pg';

const SCHEMAS = ['public', 'private'];

type Row = Record<string, string | null>;

/** key ('function public.x(uuid)', 'table public.blocks', ...) -> the object's text */
export type Catalogue = Map<string, string>;

const ident = (name: string) =>
  /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
const literal = (text: string | null | undefined) => `'${(text ?? '').replace(/'/g, "''")}'`;

const PRIVILEGES: Record<string, string> = {
  r: 'select',
  a: 'insert',
  w: 'update',
  d: 'delete',
  D: 'truncate',
  x: 'references',
  t: 'trigger',
  X: 'execute',
  U: 'usage',
  C: 'create',
  m: 'maintain',
};

/** `grant ... to role` lines from an ACL array's text form ({role=arwd/owner,...}). */
function grants(acl: string | null | undefined, on: string): string[] {
  if (!acl) return [];
  const out: string[] = [];
  for (const item of acl.replace(/^\{|\}$/g, '').split(',')) {
    const match = /^"?([^=]*)"?=([a-zA-Z*]*)\//.exec(item);
    if (!match) continue;
    const role = match[1] || 'public';
    if (role === 'postgres' || role === 'supabase_admin') continue;
    const privileges = [...match[2]!.replace(/\*/g, '')].map((c) => PRIVILEGES[c] ?? c).join(', ');
    if (privileges) out.push(`grant ${privileges} on ${on} to ${role};`);
  }
  return out.sort();
}

export async function describe(
  client: pg.Client,
  opts: { data?: boolean } = {},
): Promise<Catalogue> {
  const objects: Catalogue = new Map();
  const add = (key: string, lines: Array<string | null | undefined | false>) =>
    objects.set(key, lines.filter((l): l is string => typeof l === 'string').join('\n'));
  const rows = async (text: string, params: unknown[] = [SCHEMAS]) =>
    (await client.query<Row>(text, params)).rows;
  // an empty search path makes the deparsers qualify every name
  await client.query(`set search_path = ''`);

  for (const s of await rows(
    `select nspname as name, nspacl::text as acl from pg_namespace where nspname = any($1)`,
  )) {
    add(`schema ${s.name}`, [`create schema ${s.name};`, ...grants(s.acl, `schema ${s.name}`)]);
  }
  for (const d of await rows(
    `select coalesce(n.nspname, '') as schema, r.rolname as role, d.defaclobjtype as kind,
            d.defaclacl::text as acl
     from pg_default_acl d join pg_roles r on r.oid = d.defaclrole
     left join pg_namespace n on n.oid = d.defaclnamespace
     where n.nspname is null or n.nspname = any($1)`,
  )) {
    add(`default privileges ${d.role} ${d.schema} ${d.kind}`, [d.acl]);
  }
  for (const e of await rows(
    `select e.extname as name, e.extversion as version, n.nspname as schema
     from pg_extension e join pg_namespace n on n.oid = e.extnamespace`,
    [],
  )) {
    add(`extension ${e.name}`, [
      `create extension ${e.name} with schema ${e.schema} version ${literal(e.version)};`,
    ]);
  }
  for (const t of await rows(
    `select n.nspname as schema, t.typname as name,
            string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder) as labels
     from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_enum e on e.enumtypid = t.oid
     where n.nspname = any($1) group by 1, 2`,
  )) {
    add(`type ${t.schema}.${t.name}`, [
      `create type ${t.schema}.${ident(t.name!)} as enum (${t.labels});`,
    ]);
  }

  for (const table of await rows(
    `select c.oid::text as oid, n.nspname as schema, c.relname as name, c.relrowsecurity::text as rls,
            c.relforcerowsecurity::text as force, c.relacl::text as acl,
            obj_description(c.oid, 'pg_class') as comment,
            array_to_string(c.reloptions, ', ') as options, c.relpersistence as persistence
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p')`,
  )) {
    const full = `${table.schema}.${ident(table.name!)}`;
    const columns = await rows(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull::text as notnull,
              pg_get_expr(d.adbin, d.adrelid) as def, a.attgenerated as generated, a.attidentity as identity,
              a.attacl::text as acl, col_description(a.attrelid, a.attnum) as comment
       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where a.attrelid = $1::oid and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [table.oid],
    );
    const constraints = await rows(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
       where conrelid = $1::oid and contype <> 'n' order by contype <> 'p', conname`,
      [table.oid],
    );
    const lines = columns.map((c) => {
      let line = `  ${ident(c.name!)} ${c.type}`;
      if (c.identity === 'a') line += ' generated always as identity';
      else if (c.identity === 'd') line += ' generated by default as identity';
      else if (c.generated === 's') line += ` generated always as (${c.def}) stored`;
      else if (c.def !== null) line += ` default ${c.def}`;
      if (c.notnull === 'true') line += ' not null';
      return line;
    });
    for (const con of constraints) lines.push(`  constraint ${ident(con.name!)} ${con.def}`);
    add(`table ${full}`, [
      `create ${table.persistence === 'u' ? 'unlogged table' : 'table'} ${full} (`,
      lines.join(',\n'),
      `)${table.options ? ` with (${table.options})` : ''};`,
      table.comment !== null && `comment on table ${full} is ${literal(table.comment)};`,
      ...columns
        .filter((c) => c.comment !== null)
        .map((c) => `comment on column ${full}.${ident(c.name!)} is ${literal(c.comment)};`),
      table.rls === 'true' && `alter table ${full} enable row level security;`,
      table.force === 'true' && `alter table ${full} force row level security;`,
      ...grants(table.acl, full),
      ...columns.flatMap((c) =>
        grants(c.acl, full).map((g) =>
          g.replace(
            /^grant ([a-z, ]+) on /,
            (_, p: string) => `grant ${p} (${ident(c.name!)}) on `,
          ),
        ),
      ),
    ]);
  }

  for (const s of await rows(
    `select n.nspname || '.' || c.relname as name, c.relacl::text as acl
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind = 'S'`,
  )) {
    add(`sequence ${s.name}`, [`sequence ${s.name};`, ...grants(s.acl, `sequence ${s.name}`)]);
  }

  for (const i of await rows(
    `select n.nspname || '.' || ic.relname as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class ic on ic.oid = i.indexrelid
     join pg_namespace n on n.oid = ic.relnamespace
     where n.nspname = any($1)
       and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
  )) {
    add(`index ${i.name}`, [`${i.def};`]);
  }

  // our policies, and the ones we put on Supabase's realtime.messages
  for (const p of await rows(
    `select schemaname || '.' || tablename as tbl, policyname as name, cmd, permissive,
            array_to_string(roles, ', ') as roles, qual, with_check
     from pg_policies where schemaname = any($1) or schemaname = 'realtime'`,
  )) {
    let line = `create policy ${ident(p.name!)} on ${p.tbl}`;
    if (p.permissive !== 'PERMISSIVE') line += ' as restrictive';
    line += ` for ${p.cmd!.toLowerCase()} to ${p.roles}`;
    if (p.qual) line += `\n  using (${p.qual})`;
    if (p.with_check) line += `\n  with check (${p.with_check})`;
    add(`policy ${p.tbl} ${p.name}`, [`${line};`]);
  }

  // triggers on our tables, and ours on Supabase's (auth.users)
  for (const t of await rows(
    `select n.nspname || '.' || c.relname as tbl, t.tgname as name, pg_get_triggerdef(t.oid) as def,
            t.tgenabled as enabled
     from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_proc p on p.oid = t.tgfoid join pg_namespace pn on pn.oid = p.pronamespace
     where not t.tgisinternal and (n.nspname = any($1) or pn.nspname = any($1))`,
  )) {
    add(`trigger ${t.tbl} ${t.name}`, [
      `${t.def};`,
      t.enabled !== 'O' && `-- enabled: ${t.enabled}`,
    ]);
  }

  for (const v of await rows(
    `select n.nspname as schema, c.relname as name, pg_get_viewdef(c.oid, true) as def,
            c.relacl::text as acl, array_to_string(c.reloptions, ', ') as options
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('v', 'm')`,
  )) {
    const full = `${v.schema}.${ident(v.name!)}`;
    add(`view ${full}`, [
      `create view ${full}${v.options ? ` with (${v.options})` : ''} as`,
      v.def!.trimEnd(),
      ...grants(v.acl, full),
    ]);
  }

  for (const f of await rows(
    `select pg_get_functiondef(p.oid) as def, p.proacl::text as acl,
            case p.prokind when 'p' then 'procedure' else 'function' end as kind,
            n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature,
            obj_description(p.oid, 'pg_proc') as comment
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any($1) and p.prokind in ('f', 'p')
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  )) {
    add(`function ${f.signature}`, [
      `${f.def!.trimEnd()};`,
      f.comment !== null && `comment on ${f.kind} ${f.signature} is ${literal(f.comment)};`,
      // no ACL: PostgreSQL's default, executable by public
      ...grants(f.acl ?? '{=X/postgres}', `${f.kind} ${f.signature}`),
    ]);
  }

  for (const p of await rows(
    `select pubname as pub, schemaname || '.' || tablename as tbl from pg_publication_tables
     where schemaname = any($1)`,
  )) {
    add(`publication ${p.pub} ${p.tbl}`, [`alter publication ${p.pub} add table ${p.tbl};`]);
  }

  if (opts.data) {
    const has = async (relation: string) =>
      (await rows(`select to_regclass($1) is not null as found`, [relation]))[0]!.found;
    if (await has('cron.job')) {
      for (const j of await rows(
        `select jobname, schedule, command, active::text as active from cron.job`,
        [],
      )) {
        add(`cron job ${j.jobname}`, [
          `select cron.schedule(${literal(j.jobname)}, ${literal(j.schedule)}, $cron$${j.command}$cron$);`,
          j.active !== 'true' && '-- inactive',
        ]);
      }
    }
    if (await has('vault.secrets')) {
      for (const s of await rows(`select name, description from vault.secrets`, [])) {
        add(`vault secret ${s.name}`, [`-- ${s.description ?? ''}`]);
      }
    }
    if (await has('private.settings')) {
      for (const s of await rows(`select key, value::text as value from private.settings`, [])) {
        add(`setting ${s.key}`, [s.value]);
      }
    }
  }
  return objects;
}

/** The objects that differ between two catalogues, as text a person can read; '' when none. */
export function difference(from: Catalogue, to: Catalogue, names = ['from', 'to']): string {
  const out: string[] = [];
  const keys = [...new Set([...from.keys(), ...to.keys()])].sort();
  for (const key of keys) {
    const a = from.get(key);
    const b = to.get(key);
    if (a === b) continue;
    if (a === undefined) out.push(`+ ${key}: only in ${names[1]}`, indent(b!));
    else if (b === undefined) out.push(`- ${key}: only in ${names[0]}`, indent(a));
    else {
      out.push(`~ ${key}: differs`);
      const al = a.split('\n');
      const bl = b.split('\n');
      for (const line of al) if (!bl.includes(line)) out.push(`    ${names[0]}: ${line}`);
      for (const line of bl) if (!al.includes(line)) out.push(`    ${names[1]}: ${line}`);
    }
  }
  return out.join('\n');
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

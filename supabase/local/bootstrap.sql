-- Local-only bootstrap: gives a plain PostgreSQL what a hosted Supabase project already has,
-- so that supabase/migrations/*.sql run unchanged on both. Never pushed to a Supabase project.
-- Idempotent: applied on every start before the migrations.

-- The roles hosted Supabase has, with their attributes; supabase_auth_admin is the role the auth
-- server and realtime connect as there.
do $$
declare
  v_role text[];
begin
  foreach v_role slice 1 in array array[
    ['anon', 'nologin noinherit'],
    ['authenticated', 'nologin noinherit'],
    ['service_role', 'nologin noinherit bypassrls'],
    ['authenticator', 'login noinherit'],
    ['supabase_auth_admin', 'login noinherit createrole']]
  loop
    if not exists (select from pg_roles where rolname = v_role[1]) then
      execute format('create role %I %s', v_role[1], v_role[2]);
    end if;
  end loop;
end
$$;

grant anon, authenticated, service_role to authenticator;

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists citext with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;

-- Vault is installed on every hosted project. Locally it is the SQL stand-in of
-- local/extensions/ (found through extension_control_path when the embedded server runs).
do $$
begin
  if exists (select from pg_available_extensions where name = 'supabase_vault') then
    create extension if not exists supabase_vault;
  end if;
end
$$;

-- auth schema: the subset of GoTrue's tables the local auth server uses
create schema if not exists auth authorization supabase_auth_admin;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  recovery_token varchar(255),
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  is_super_admin boolean,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  phone text unique,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
-- columns of Supabase Auth's auth.users for mailed links (the email change, sign-in links);
-- added apart so a data directory made before them gets them on its next start
alter table auth.users
  add column if not exists confirmation_sent_at timestamptz,
  add column if not exists recovery_sent_at timestamptz,
  add column if not exists email_change varchar(255),
  add column if not exists email_change_token_new varchar(255),
  add column if not exists email_change_token_current varchar(255),
  add column if not exists email_change_confirm_status smallint not null default 0,
  add column if not exists email_change_sent_at timestamptz;
create unique index if not exists users_email_partial_key on auth.users (lower(email))
  where is_sso_user = false and email is not null;

create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  aal text not null default 'aal1',
  not_after timestamptz
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  revoked boolean not null default false,
  parent varchar(255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- PKCE flow state between /authorize and /token?grant_type=pkce
create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid references auth.users (id) on delete cascade,
  auth_code text not null unique,
  code_challenge_method text not null,
  code_challenge text not null,
  provider_type text not null,
  authentication_method text not null,
  redirect_to text,
  created_at timestamptz not null default now(),
  auth_code_issued_at timestamptz
);

-- The helpers hosted Supabase defines; PostgREST sets request.jwt.claims per request.
create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- A claim of the request's JWT: the older request.jwt.claim.<name> setting, or the one in
-- request.jwt.claims, as hosted Supabase's auth.uid(), auth.role() and auth.email() read theirs.
create or replace function auth._claim(p_name text) returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.' || p_name, true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> p_name
  )
$$;
create or replace function auth.uid() returns uuid language sql stable as $$ select auth._claim('sub')::uuid $$;
create or replace function auth.role() returns text language sql stable as $$ select auth._claim('role') $$;
create or replace function auth.email() returns text language sql stable as $$ select auth._claim('email') $$;

grant execute on function auth.jwt(), auth._claim(text), auth.uid(), auth.role(), auth.email()
  to anon, authenticated, service_role;

-- Hosted Supabase grants the API roles full table privileges in public and relies on RLS.
-- The default privileges once, on a new database, as a project gets them: the migrations narrow
-- them (setup.sql takes truncate away), and a later start must not widen them again.
grant usage on schema public to anon, authenticated, service_role;
do $$
begin
  if not exists (select 1 from pg_default_acl d join pg_namespace n on n.oid = d.defaclnamespace
                 where n.nspname = 'public' and d.defaclrole = current_user::regrole) then
    alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
    alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
    alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  end if;
end
$$;

-- service_role reads auth tables on hosted Supabase through the admin API only; here too.
grant all on all tables in schema auth to supabase_auth_admin;

-- Realtime's publication exists on every hosted project.
do $$
begin
  if not exists (select from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- LOCAL ONLY: Realtime's schema (hosted Supabase has it on every project, owned by the Realtime
-- service). The same SQL surface the migrations and policies use: realtime.messages (RLS on,
-- policies decide who may join a private channel), realtime.topic() (the topic being joined, in
-- the policies), realtime.send(payload, event, topic, private) and realtime.broadcast_changes(...)
-- (broadcast from the database). Hosted Realtime reads the inserted rows from the WAL; here
-- send() also notifies channel `_realtime_local_broadcast`, which supabase/local/realtime/ LISTENs
-- on. Differences: realtime.messages is not partitioned (the local server deletes rows older
-- than a day); the notification carries the message when it fits in 7,900 bytes, else its id.
-- ---------------------------------------------------------------------------------------------
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;

create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
grant select, insert on realtime.messages to anon, authenticated;
revoke update, delete, truncate on realtime.messages from anon, authenticated;
grant all on realtime.messages to service_role;

create or replace function realtime.topic() returns text
language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  v_id uuid := gen_random_uuid();
  v_payload jsonb;
  v_note text;
begin
  begin
    -- as hosted: a payload without a top-level id gets the message's id
    v_payload := case when payload ? 'id' then payload
                      else jsonb_set(payload, '{id}', to_jsonb(v_id)) end;
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, payload, event, topic, private, extension)
      values (v_id, v_payload, event, topic, private, 'broadcast');
    v_note := jsonb_build_object('id', v_id, 'topic', topic, 'event', event,
                                 'private', private, 'payload', v_payload)::text;
    if octet_length(v_note) > 7900 then
      v_note := jsonb_build_object('id', v_id)::text;
    end if;
    perform pg_notify('_realtime_local_broadcast', v_note);
  exception when others then
    -- as hosted: a broadcast never fails the writer's transaction
    raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW')
returns void
language plpgsql
as $$
begin
  perform realtime.send(
    jsonb_build_object('operation', operation, 'table', table_name, 'schema', table_schema,
                       'record', case when new is null then null else to_jsonb(new) end,
                       'old_record', case when old is null then null else to_jsonb(old) end),
    event_name, topic_name, true);
end;
$$;

-- Hosted Supabase tells PostgREST to reload its schema cache after DDL: two event triggers,
-- pgrst_ddl_watch (ddl_command_end) and pgrst_drop_watch (sql_drop), whose functions live in
-- schema extensions and send NOTIFY pgrst 'reload schema'. The same here, so a migration applied
-- to a running stack (or DDL typed into psql) is seen by PostgREST without a restart. Temporary
-- objects are left out: the local pg_cron runner makes a temporary function for every run, and
-- PostgREST never serves those.
create or replace function extensions.pgrst_ddl_watch()
returns event_trigger
language plpgsql
as $$
begin
  if exists (select from pg_event_trigger_ddl_commands()
             where schema_name is null or schema_name not like 'pg\_temp%') then
    perform pg_notify('pgrst', 'reload schema');
  end if;
end;
$$;

create or replace function extensions.pgrst_drop_watch()
returns event_trigger
language plpgsql
as $$
begin
  if exists (select from pg_event_trigger_dropped_objects() where not is_temporary) then
    perform pg_notify('pgrst', 'reload schema');
  end if;
end;
$$;

drop event trigger if exists pgrst_ddl_watch;
create event trigger pgrst_ddl_watch on ddl_command_end
  execute function extensions.pgrst_ddl_watch();
drop event trigger if exists pgrst_drop_watch;
create event trigger pgrst_drop_watch on sql_drop
  execute function extensions.pgrst_drop_watch();

-- Baseline (twenty-fourth squash): every migration up to 20261130052723 squashed into one, made of
-- the declarative schema (supabase/schemas/, in the order of config.toml schema_paths) as it was
-- then, file after file. It replaces the twenty-third baseline (20261130022342), its schedules and
-- the 6 migrations of 2026-11-30 that followed them (all generated); its version is the newest
-- one's, so a project that applied them all already has it (docs/data-model.md, "Migrations", says
-- what such a project does). The schedules are in the next migration.
-- Like every migration, never edited: change supabase/schemas/ and run `npm run db:diff -- <name>`.

-- =============================================================================================
-- schemas/setup.sql
-- =============================================================================================

-- What every other file builds on: the schema `private`, the default privileges of the API
-- roles, and the extensions of background work. Roles, `auth`, `extensions` and `realtime` are
-- Supabase's own (on hosted projects; locally supabase/local/bootstrap.sql gives them).
--
-- Conventions: internal functions (triggers, helpers) live in schema `private`, which PostgREST
-- does not expose and no client role may use. Counters and limits are kept by triggers so they
-- hold whoever writes: a client through PostgREST, an RPC, or an edge function.
--
-- Every function revokes PostgreSQL's default EXECUTE for PUBLIC where it is defined and grants it
-- by name to the roles whose statements run it. Schema private's lack of usage keeps clients from
-- naming its functions, but not a policy, a check constraint or an invoker the service role calls
-- from reaching one, as the caller. Written per function because default privileges cannot do it
-- for one schema (a per-schema revoke does not take away the built-in PUBLIC grant) and a global
-- one would reach the functions of every extension created later. Trigger functions are exempt
-- (a trigger runs its function without the check). rls-catalogue.test.ts lists what clients may run.

-- Function bodies are checked when they first run, not when they are created (as pg_dump's output
-- does): a file holds a table with the functions that serve it, and those may read tables of a
-- file further down. The files are applied over one connection, so this holds for all of them.
set check_function_bodies = off;

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to service_role;

-- Hosted Supabase grants the API roles every privilege on new tables in public and relies on
-- RLS. Truncate ignores RLS, so the client roles never get it.
alter default privileges in schema public revoke truncate on tables from anon, authenticated;

-- Background work: pg_cron (schedules), pg_net (HTTP requests from SQL) and Vault (secrets such as
-- the URL and key a schedule posts to), the way Supabase's docs enable them. On a Supabase project
-- these are the real extensions (Vault is already installed there, so its line is a no-op). On the
-- local stack they are SQL-only stand-ins with the same names and SQL surface
-- (supabase/local/extensions/, LOCAL-ONLY), whose background work supabase/local/background/ does.
-- The schedules themselves are data (`cron.schedule` calls), so they live in a hand-written
-- migration (see docs/getting-started.md, "Changing the database schema").
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;
create extension if not exists supabase_vault with schema vault;

-- =============================================================================================
-- schemas/types.sql
-- =============================================================================================

-- Enums shared by several tables. A new value is added at the end of its list (a migration adds
-- it with `alter type ... add value`, which cannot be used in the transaction that adds it).

create type public.block_type as enum (
  'comment', 'qna', 'like', 'button', 'ab', 'form', 'notion_letter', 'typedream_letter', 'brunch_letter'
);
create type public.block_theme as enum ('light', 'dark', 'custom');
create type public.block_align as enum ('left', 'center', 'right');
create type public.question_type as enum (
  'poll', 'ab', 'short_text', 'long_text', 'number', 'phone', 'mail', 'description', 'image'
);
create type public.condition_type as enum ('equal', 'empty', 'not_empty', 'include');
create type public.response_kind as enum ('form', 'ab', 'like', 'button');
create type public.language_code as enum ('en', 'ko');
create type public.payment_type as enum ('custom', 'basic', 'coupon', 'promote_coupon', 'subscription');
create type public.payment_method as enum ('iamport', 'paypal');
-- skipped: the address unsubscribed or was suppressed between the reservation and the send, or
-- the sender was suspended meanwhile; failed: the provider refused the mail for good
create type public.delivery_status as enum (
  'reserved', 'sent', 'delivered', 'opened', 'bounced', 'rejected', 'complaint', 'skipped', 'failed'
);
create type public.sender_email_status as enum ('pending', 'not_verified', 'verified');
create type public.integration_status as enum ('granted', 'not_granted');

-- =============================================================================================
-- schemas/shared.sql
-- =============================================================================================

-- What many files use: the tunable settings of background work and limits (private.settings and
-- private.setting), and small helpers (updated_at, JSON numbers, trimming as JavaScript's trim()
-- does, e-mail shape, the caller's id).

create table private.settings (
  key text primary key check (key ~ '^[a-z][a-z0-9_.]{0,99}$'),
  value jsonb not null,
  updated_at timestamptz not null default now()
);
comment on table private.settings is
  'Tunable settings of background work and limits (key -> JSON value). Only the database owner and definer functions read them.';
alter table private.settings enable row level security;

-- The setting's value, or the default when unset.
create function private.setting(p_key text, p_default jsonb)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce((select value from private.settings where key = p_key), p_default);
$$;
revoke execute on function private.setting(text, jsonb) from public;

-- A table clients may read but never write (their writes go through RPCs, edge functions and
-- triggers): RLS on, no insert, update or delete for anon and authenticated, and the policy by
-- which a signed-in user reads rows, named p_policy, `for select to authenticated using
-- (p_using)`, p_using written as Supabase recommends ((select auth.uid())). anon reads through
-- p_anon_policy `for select to anon using (p_anon_using)`, or, without one, holds nothing on the
-- table. Called once per table right after it in its schema file, so the call is where the
-- table's access reads (docs/data-model.md, "Reading a table's access"); a table with any other
-- access writes its grants and policies out.
create procedure private.clients_read(p_table regclass, p_policy text, p_using text,
                                      p_anon_policy text default null, p_anon_using text default null)
language plpgsql set search_path = '' as $$
begin
  execute format('alter table %s enable row level security', p_table);
  execute format('revoke insert, update, delete on %s from anon, authenticated', p_table);
  execute format('create policy %I on %s for select to authenticated using (%s)', p_policy, p_table, p_using);
  if p_anon_policy is null then
    execute format('revoke all on %s from anon', p_table);
  else
    execute format('create policy %I on %s for select to anon using (%s)', p_anon_policy, p_table, p_anon_using);
  end if;
end;
$$;
revoke execute on procedure private.clients_read(regclass, text, text, text, text) from public;

-- A table its owners write themselves through the API, each their own rows (user_id): RLS on,
-- nothing for anon, and for a signed-in user the four policies "Owners can read|add|update|delete
-- their <p_what>" with user_id = (select auth.uid()) (Supabase's recommended form). Called as
-- clients_read is; column grants, if any, follow the call.
create procedure private.owners_write(p_table regclass, p_what text)
language plpgsql set search_path = '' as $$
begin
  execute format('alter table %s enable row level security', p_table);
  execute format('revoke all on %s from anon', p_table);
  execute format('create policy %I on %s for select to authenticated using (user_id = (select auth.uid()))',
                 'Owners can read their ' || p_what, p_table);
  execute format('create policy %I on %s for insert to authenticated with check (user_id = (select auth.uid()))',
                 'Owners can add their ' || p_what, p_table);
  execute format('create policy %I on %s for update to authenticated using (user_id = (select auth.uid())) '
                 'with check (user_id = (select auth.uid()))', 'Owners can update their ' || p_what, p_table);
  execute format('create policy %I on %s for delete to authenticated using (user_id = (select auth.uid()))',
                 'Owners can delete their ' || p_what, p_table);
end;
$$;
revoke execute on procedure private.owners_write(regclass, text) from public;

create function private.set_updated_at()
returns trigger language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- The columns named in the trigger's arguments are the database's to write (counters, flags a
-- function sets): a client role (anon, authenticated) that inserts a row gets them at 0, one that
-- updates a row keeps them as they were. Other roles (definer functions, the service role) write
-- them. For example `before insert or update ... execute function
-- private.keep_from_clients('response_count')`.
create function private.keep_from_clients()
returns trigger language plpgsql set search_path = '' as $$
declare
  v_old jsonb;
  v_kept jsonb := '{}';
  v_column text;
begin
  -- clients only; inline because client roles have no usage on schema private
  if current_user in ('anon', 'authenticated') and tg_nargs > 0 then
    if tg_op <> 'INSERT' then
      v_old := to_jsonb(old); -- once per row, not once per column
    end if;
    foreach v_column in array tg_argv loop
      v_kept[v_column] := case when tg_op = 'INSERT' then to_jsonb(0) else v_old -> v_column end;
    end loop;
    new := jsonb_populate_record(new, v_kept);
  end if;
  return new;
end;
$$;

-- An integer member of a JSON object, or null when it is missing or not a whole number.
create function private.jsonb_int(p_value jsonb, p_key text)
returns integer language sql immutable set search_path = '' as $$
  select case when jsonb_typeof(p_value -> p_key) = 'number'
                   and (p_value ->> p_key) ~ '^-?[0-9]{1,9}(\.0+)?$'
              then (p_value ->> p_key)::numeric::integer end;
$$;
revoke execute on function private.jsonb_int(jsonb, text) from public;

-- The characters of JavaScript's String.prototype.trim: tab, line tab, form feed, LF, CR,
-- space, NBSP, U+1680, U+2000..U+200A, line and paragraph separators, U+202F, U+205F, U+3000
-- and the BOM.
create function private.trim_whitespace(p_text text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select regexp_replace(
    p_text,
    '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g');
$$;
revoke execute on function private.trim_whitespace(text) from public;
comment on function private.trim_whitespace(text) is
  'p_text without leading and trailing whitespace, as JavaScript''s String.prototype.trim().';

-- The address rule (contracts/limits.ts EMAIL_RE is the same rule, written shorter, and
-- supabase/tests/contracts.test.ts holds them to the same verdicts), what SES takes: ASCII only; a
-- local part of 1 to 64 letters, digits and . _ % + ' - with no dot first, last or twice in a
-- row; a domain of at most 253 characters in labels of 1 to 63 letters, digits and hyphens, none
-- starting or ending with a hyphen, the last one letters only (2 to 63). Until 2026-11-29 it
-- was local@domain.tld with any dots and hyphens (a..b@x.com, .a@x.com, a@-x.com passed and SES
-- refused the mail after the send was counted). The RPCs run it on what they are given; the two
-- email columns (audience_members, sender_emails) through private.check_email_written, on an
-- address written, so a row kept from the older rule is not refused its other updates. The
-- service role runs it in save_block (an invoker); owners no longer need it since their writes
-- of audience_members are checked by that trigger (a definer), not by a check constraint.
create function private.is_valid_email(p_email text)
returns boolean language sql immutable set search_path = '' as $$
  select p_email ~* '^(?=[^@]{1,64}@[^@]{1,253}$)[A-Z0-9_%+''-]+(?:\.[A-Z0-9_%+''-]+)*@(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+[A-Z]{2,63}$';
$$;
revoke execute on function private.is_valid_email(text) from public;
grant execute on function private.is_valid_email(text) to service_role;

-- The email columns' rule on write (audience_members, sender_emails): a new row's address, or a
-- changed one, must pass private.is_valid_email, or the write fails as a check constraint does
-- (23514, "Email address is invalid"). An update that leaves the address as it was (counts, a
-- name, a group, a status) is not checked: rows written under the older rule keep their address
-- and their updates (docs/data-model.md). A definer: an owner writing their audience has no
-- USAGE on schema private to name the rule from an invoker.
create function private.check_email_written()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.email is not null and (tg_op = 'INSERT' or new.email is distinct from old.email)
     and not private.is_valid_email(new.email) then
    raise exception 'Email address is invalid'
      using errcode = 'check_violation', schema = tg_table_schema, table = tg_table_name,
            column = 'email';
  end if;
  return new;
end;
$$;

create function private.require_uid()
returns uuid language plpgsql stable set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception 'Please sign in' using errcode = 'PT401';
  end if;
  return v_uid;
end;
$$;
revoke execute on function private.require_uid() from public;

create function private.is_anonymous_caller()
returns boolean language sql stable set search_path = '' as $$
  select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false);
$$;
revoke execute on function private.is_anonymous_caller() from public;

-- Whether the caller may read what is p_user_id's: that user, or the service role and internal
-- callers (no API role). The computed fields that add private rows to a row (member_count,
-- live_*_count, response_monthly_count) answer null for anyone else's row.
create function private.may_read_as(p_user_id uuid)
returns boolean language sql stable set search_path = '' as $$
  select p_user_id = (select auth.uid())
         or coalesce((select auth.role()), 'service_role') not in ('anon', 'authenticated');
$$;
revoke execute on function private.may_read_as(uuid) from public;

-- A save that turns on or changes a paid-only feature (p_change) by an owner without a paid plan
-- fails: 'Paid plan required (<field>)'.
create function private.require_paid(p_field text, p_change boolean)
returns void language plpgsql set search_path = '' as $$
begin
  if p_change then
    raise exception 'Paid plan required (%)', p_field using errcode = 'PT403';
  end if;
end;
$$;
revoke execute on function private.require_paid(text, boolean) from public;
grant execute on function private.require_paid(text, boolean) to service_role;

-- ids of the objects of a jsonb array, refusing duplicates
create function private.payload_ids(p_items jsonb, p_what text)
returns uuid[] language plpgsql immutable set search_path = '' as $$
declare
  v_ids uuid[];
begin
  if jsonb_typeof(p_items) is distinct from 'array' then
    raise exception 'Invalid % list', p_what using errcode = 'P0001';
  end if;
  select coalesce(array_agg((e ->> 'id')::uuid), '{}') into v_ids
    from jsonb_array_elements(p_items) e;
  if exists (select 1 from unnest(v_ids) i where i is null) then
    raise exception 'Invalid id' using errcode = 'P0001';
  end if;
  if cardinality(v_ids) <> (select count(distinct i) from unnest(v_ids) i) then
    raise exception 'Duplicate % id', p_what using errcode = 'P0001';
  end if;
  return v_ids;
end;
$$;
revoke execute on function private.payload_ids(jsonb, text) from public;
grant execute on function private.payload_ids(jsonb, text) to service_role;

-- =============================================================================================
-- schemas/profiles.sql
-- =============================================================================================

-- Profiles (one per owner, created by a trigger on auth.users; private.is_owner_account below
-- says who is one) and the owner's tag list. Deleting an auth user also deletes what they wrote
-- as a visitor on other owners' blocks; idle anonymous visitors are purged daily.

-- A profile's photo or homepage URL: empty (cleared) or http(s) without spaces, the rule of the
-- contracts' ZUpdateProfile (optionalUrl), so an owner writing the row through PostgREST stores no
-- other scheme (javascript:) than update-profile would; create_block copies the photo to a block.
-- The check constraints run it as the writer (update-profile runs as the owner).
create function private.is_profile_url(p_url text)
returns boolean language sql immutable set search_path = '' as $$
  select p_url = '' or p_url ~* '^https?://[^[:space:]]+$';
$$;
revoke execute on function private.is_profile_url(text) from public;
grant execute on function private.is_profile_url(text) to authenticated, service_role;

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text not null default '' check (char_length(name) <= 100),
  email text check (char_length(email) <= 255),
  photo_url text check (char_length(photo_url) <= 500 and private.is_profile_url(photo_url)),
  home_url text check (char_length(home_url) <= 500 and private.is_profile_url(home_url)),
  language public.language_code not null default 'en',
  agree boolean not null default false,
  domain_list text[] not null default '{}' check (cardinality(domain_list) <= 100),
  paid boolean not null default false,
  block_limit integer not null default 3 check (block_limit >= 0),
  block_count integer not null default 0 check (block_count >= 0),
  response_monthly_limit integer not null default 100 check (response_monthly_limit >= 0),
  deactivated_mode boolean not null default false,
  group_mode text check (char_length(group_mode) <= 100),
  email_only boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.profiles is
  'One row per owner (private.is_owner_account: Google or Apple, or made one by the admin API): profile fields, consent, plan limits and usage counters.';
comment on column public.profiles.group_mode is 'Audience group selected on the audience page (null: all).';
alter table public.profiles enable row level security;
revoke insert, update, delete on public.profiles from anon, authenticated;
revoke all on public.profiles from anon;
grant update (name, photo_url, home_url, language, domain_list, deactivated_mode, group_mode, email_only) on public.profiles to authenticated;

create policy "Users can read their own profile" on public.profiles
  for select to authenticated using (id = (select auth.uid()));

create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

create table public.user_tags (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  label text not null check (char_length(label) between 1 and 50),
  active boolean not null default false,
  created_at timestamptz not null default now(),
  unique (user_id, label)
);
comment on table public.user_tags is 'The owner''s tag list (label and active flag) used to filter block cards.';
call private.owners_write('public.user_tags', 'tags');

-- Who is an owner: a user who signs in with Google or Apple (the providers the spec names), or
-- one the operator made an owner through the admin API. A profile is made for such a user only,
-- and everything an owner has (blocks, senders, audience, integrations, letters) hangs off their
-- profile, so a user without one owns nothing and can make nothing. Read from what only the auth
-- server and the service role write: app_metadata.providers (GoTrue keeps it equal to the user's
-- identities' providers) and app_metadata.owner (set by the admin API only; tests and benchmarks
-- make their owners so). An anonymous visitor who adds an email and confirms it becomes a
-- permanent user, as on GoTrue, but with an email identity only: a visitor still (docs/security.md).
create function private.is_owner_account(p_app_meta_data jsonb, p_anonymous boolean)
returns boolean language sql immutable set search_path = '' as $$
  select not coalesce(p_anonymous, false)
     and (coalesce(p_app_meta_data -> 'providers', '[]'::jsonb) ?| array['google', 'apple']
          or coalesce(p_app_meta_data -> 'owner', 'false'::jsonb) = 'true'::jsonb);
$$;
comment on function private.is_owner_account(jsonb, boolean) is
  'An owner: a permanent user with a Google or Apple identity (app_metadata.providers), or made one by the admin API (app_metadata.owner = true).';
revoke execute on function private.is_owner_account(jsonb, boolean) from public;

-- The auth server's Send Email Hook (config.toml [auth.hook.send_email]; on a hosted project
-- Authentication -> Hooks, the same function): the auth server calls it, as supabase_auth_admin,
-- instead of sending any auth mail, and its error is the caller's answer, with the change that
-- would have mailed rolled back. The product sends no auth mail: owners sign in with Google or
-- Apple, visitors stay anonymous, and nobody confirms, recovers or changes an address; the mail
-- an email change would send goes to any address typed (a "Not me" mailbox too), outside every
-- per-mailbox cap (docs/security.md). So it refuses every kind.
create function public.send_email_hook(event jsonb)
returns jsonb language sql immutable set search_path = '' as $$
  select jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message',
    case event -> 'email_data' ->> 'email_action_type'
      when 'email_change' then 'Email addresses cannot be changed: owners sign in with Google or Apple'
      else 'This project sends no sign-in mail: owners sign in with Google or Apple' end));
$$;
comment on function public.send_email_hook(jsonb) is
  'Send Email Hook of the auth server: refuses every auth mail (the product sends none; docs/security.md).';
revoke execute on function public.send_email_hook(jsonb) from public, anon, authenticated, service_role;
grant usage on schema public to supabase_auth_admin;
grant execute on function public.send_email_hook(jsonb) to supabase_auth_admin;

-- Creates the profile (profiles_after_insert adds its reserved audience groups) for a user who
-- is an owner (above), when the user is made or becomes one. security definer: runs as the auth
-- server's role, which has no rights on public tables.
create function private.handle_new_user()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_language text := v_meta ->> 'language';
  v_photo text := left(coalesce(nullif(v_meta ->> 'avatar_url', ''), nullif(v_meta ->> 'picture', '')),
                       500);
begin
  if not private.is_owner_account(new.raw_app_meta_data, new.is_anonymous) then
    return new;
  end if;
  insert into public.profiles (id, name, email, photo_url, language)
  values (
    new.id,
    left(coalesce(nullif(v_meta ->> 'full_name', ''), nullif(v_meta ->> 'name', ''),
                  split_part(coalesce(new.email, ''), '@', 1)), 100),
    new.email,
    case when private.is_profile_url(v_photo) then v_photo end,
    (case when v_language in ('en', 'ko') then v_language else 'en' end)::public.language_code
  )
  on conflict (id) do nothing;
  return new;
end;
$$;

-- An owner stays one while they have a profile (issue 17): a change that would leave such a user
-- no owner account is refused, and the transaction making it rolls back. Unlinking the last
-- Google or Apple identity (DELETE /auth/v1/user/identities/{id}) is such a change: GoTrue allows
-- it while any other identity (an email) is left, then rewrites app_metadata.providers in the same
-- transaction, which this refuses (GoTrue answers 500 'Database error updating user providers'),
-- and so is the admin API taking app_metadata.owner from an owner without either. The other way
-- out, dropping the profile, would delete every block and response the owner has (all of it hangs
-- off the profile); an owner who wants to stop deletes the account. security definer: runs inside
-- the auth server's update, which has no rights on public tables.
create function private.keep_owner_account()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if private.is_owner_account(old.raw_app_meta_data, old.is_anonymous)
     and not private.is_owner_account(new.raw_app_meta_data, new.is_anonymous)
     and exists (select 1 from public.profiles p where p.id = new.id) then
    raise exception 'An owner keeps a Google or Apple identity: link another one before unlinking this one'
      using errcode = 'check_violation';
  end if;
  return new;
end;
$$;

-- Every profile gets the reserved groups. security definer: runs inside the auth.users trigger.
create function private.profiles_after_insert()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  insert into public.audience_groups (user_id, name) values (new.id, 'activated'), (new.id, 'deactivated')
    on conflict (user_id, name) do nothing;
  return new;
end;
$$;

-- Deleting an auth user (account deletion) also deletes what they wrote as a visitor on other
-- owners' blocks (messages, likes, responses, audience entries), unless the idle-visitor purge
-- below says otherwise for its own transaction (rb.keep_visitor_content; no client role can
-- delete auth users or reach that setting). security definer: runs inside the auth server's
-- delete, which has no rights on public tables. Row triggers on these tables keep the other
-- owners' counters right.
create or replace function private.handle_deleted_user()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('rb.keep_visitor_content', true) = 'on' then
    return old;
  end if;
  delete from public.message_likes where user_id = old.id;
  delete from public.messages where creator_id = old.id;
  delete from public.responses where creator_id = old.id;
  delete from public.audience_members where creator_id = old.id;
  return old;
end;
$$;

-- Anonymous visitors pile up: the SDK signs a visitor up anonymously on the first write (a
-- comment, a like, a response), one auth user per browser, and nothing removes them. On hosted
-- Supabase each is a row in auth.users (plus its sessions and refresh tokens) and counts as a
-- monthly active user while it refreshes its token. What a visitor wrote does not depend on the
-- user row (messages, likes and responses keep the visitor's id and name without a foreign key),
-- so an identity idle for 30 days is deleted: its browser's session then ends, and the next write
-- there signs up a fresh anonymous visitor (who can no longer edit or unlike what the old one did).
-- Regular users (Google, Apple, or an anonymous user who linked one) are never touched.
-- A user who deletes their account still takes their visitor content along
-- (private.handle_deleted_user above); the purge says otherwise for its own transaction only.
create function private.purge_idle_anonymous_users(
  p_idle interval default interval '30 days',
  p_limit integer default 10000
)
returns integer language plpgsql security definer set search_path = '' as $$
declare
  v_deleted integer;
begin
  perform set_config('rb.keep_visitor_content', 'on', true);
  with idle as (
    select u.id
    from auth.users u
    where u.is_anonymous
      and u.created_at < now() - p_idle
      and not exists (
        select 1 from auth.sessions s
        where s.user_id = u.id and s.updated_at >= now() - p_idle
      )
    order by u.created_at
    limit p_limit
    for update of u skip locked
  )
  delete from auth.users u using idle where u.id = idle.id;
  get diagnostics v_deleted = row_count;
  perform set_config('rb.keep_visitor_content', '', true);
  return v_deleted;
end;
$$;
comment on function private.purge_idle_anonymous_users(interval, integer) is
  'Deletes anonymous auth users created and last active (session refresh) more than p_idle ago, at most p_limit per call; their messages, likes and responses stay. Daily by pg_cron.';
revoke execute on function private.purge_idle_anonymous_users(interval, integer) from public;

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function private.set_updated_at();
create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_user();
-- a user who becomes an owner gets a profile then: an anonymous user who links Google or Apple
-- (GoTrue adds the identity, then updates app_metadata.providers and is_anonymous), a permanent
-- user who links one later, or one the admin API makes an owner
create trigger on_auth_user_upgraded after update of is_anonymous, raw_app_meta_data on auth.users
  for each row when (not new.is_anonymous
                     and (old.is_anonymous or old.raw_app_meta_data is distinct from new.raw_app_meta_data))
  execute function private.handle_new_user();
-- an owner's change that would leave them no owner is refused (private.keep_owner_account)
create trigger on_auth_user_owner_kept before update of is_anonymous, raw_app_meta_data on auth.users
  for each row when (old.raw_app_meta_data is distinct from new.raw_app_meta_data
                     or old.is_anonymous is distinct from new.is_anonymous)
  execute function private.keep_owner_account();
create trigger profiles_after_insert after insert on public.profiles
  for each row execute function private.profiles_after_insert();
create trigger on_auth_user_deleted before delete on auth.users
  for each row execute function private.handle_deleted_user();

-- =============================================================================================
-- schemas/blocks.sql
-- =============================================================================================

-- Blocks: the public settings and counters of a block, its owner-only settings (block_private), and
-- the owner's RPCs to create and duplicate one. Block content and settings are written through
-- the save-block edge function only (save-block.sql); owners may write directly only what needs no
-- validation: delete a block, update `tags` (checked here with the dashboard's rule) and reset
-- `new_response_count`. The triggers keep block_count right under concurrent creates.

-- Tags are written directly (the block list's tag dialog), so the database holds them to the
-- dashboard's rule (ZUpdateBlockTagsInput): at most 50 labels, each 1..50 characters with no
-- leading or trailing whitespace (the characters JavaScript's trim() strips, as in
-- private.trim_whitespace, inlined: the check runs as the client role, which may not use schema
-- private by name). Defined before the table, whose check constraint calls it; a check runs with
-- the writer's rights, so the roles that write blocks may execute it.
create function private.block_tags_are_valid(p_tags text[])
returns boolean language sql immutable parallel safe set search_path = '' as $$
  select coalesce(bool_and(
           t is not null and char_length(t) between 1 and 50
           and t !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'),
         true)
  from unnest(p_tags) t;
$$;
revoke execute on function private.block_tags_are_valid(text[]) from public;
grant execute on function private.block_tags_are_valid(text[]) to authenticated, service_role;
comment on function private.block_tags_are_valid(text[]) is
  'Every tag is 1..50 characters without leading or trailing whitespace (blocks.tags check).';

create table public.blocks (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  type public.block_type not null,
  name text not null default 'Untitled' check (char_length(name) <= 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  response_count integer not null default 0 check (response_count >= 0),
  new_response_count integer not null default 0 check (new_response_count >= 0),
  like_count integer not null default 0 check (like_count >= 0),
  tags text[] not null default '{}' check (cardinality(tags) <= 50),
  deactivated boolean not null default false,
  theme public.block_theme not null default 'light',
  custom_color jsonb check (custom_color is null or jsonb_typeof(custom_color) = 'object'),
  custom_label_color jsonb check (custom_label_color is null or jsonb_typeof(custom_label_color) = 'object'),
  custom_label_name jsonb not null default '{"admin": "Admin", "me": "Me"}'::jsonb
    check (jsonb_typeof(custom_label_name) = 'object'
           and char_length(coalesce(custom_label_name ->> 'admin', '')) <= 100
           and char_length(coalesce(custom_label_name ->> 'me', '')) <= 100),
  embeded_url text check (char_length(embeded_url) <= 2000),
  welcome_message text check (char_length(welcome_message) <= 1000),
  placeholder text check (char_length(placeholder) <= 500),
  submit_button_text text check (char_length(submit_button_text) <= 100),
  language public.language_code not null default 'en',
  block_anonymous boolean not null default false,
  allow_reaction boolean not null default true,
  allow_reply boolean not null default true,
  admin_only_reply boolean not null default false,
  show_count boolean not null default false,
  show_profile boolean not null default false,
  owner_name text check (char_length(owner_name) <= 100),
  owner_photo_url text check (char_length(owner_photo_url) <= 500),
  qna_subject text check (char_length(qna_subject) <= 500),
  align public.block_align not null default 'center',
  button_text text check (char_length(button_text) <= 100),
  url_to_open text check (char_length(url_to_open) <= 2000),
  open_graph jsonb check (
    open_graph is null or (
      jsonb_typeof(open_graph) = 'object'
      and char_length(coalesce(open_graph ->> 'title', '')) < 100
      and char_length(coalesce(open_graph ->> 'description', '')) < 500
      and char_length(coalesce(open_graph ->> 'image_url', '')) < 500
    )
  ),
  allow_creator_email boolean not null default false,
  mode text check (mode in ('ending')),
  ending_mode text check (char_length(ending_mode) <= 10),
  -- visitor trust (issue 9)
  hold_messages text not null default 'off'
    check (hold_messages in ('off', 'all', 'first_time', 'links')),
  honeypot boolean not null default false,
  captcha boolean not null default false,
  rate_limits jsonb check (rate_limits is null or jsonb_typeof(rate_limits) = 'object'),
  unique (id, owner_id),
  constraint blocks_tags_are_labels check (private.block_tags_are_valid(tags))
)
-- counter updates stay HOT (heap-only tuples): room on the page for the new row version
with (fillfactor = 70);
comment on table public.blocks is
  'A reaction or letter block owned by a user: settings and counters. Readable by its owner; visitors read the public settings through get_block_view.';
comment on column public.blocks.custom_color is 'Custom theme colours: {"--PRIMARY","--SECONDARY","--TERTIARY","--BACKGROUND"}.';
comment on column public.blocks.custom_label_color is 'Label colours: {"--ADMIN_LABEL","--ME_LABEL"}.';
comment on column public.blocks.open_graph is 'Open Graph override: {title (<100), description (<500), image_url (<500)}.';
comment on column public.blocks.ending_mode is 'Index (as text) of the ending shown in the editor preview, or null.';
comment on column public.blocks.hold_messages is
  'Hold new comments and questions for the owner''s approval: off, all, first_time (writers without a published message here), links (messages with a link). Paid.';
comment on column public.blocks.honeypot is
  'The elements add a hidden field people never fill; a write without it empty is refused. Paid.';
comment on column public.blocks.captcha is
  'A visitor who trips a rate limit may continue after a captcha (Turnstile) instead of waiting. Paid.';
comment on column public.blocks.rate_limits is
  'Operator override of the visitor rate limits for this block: {"<action>": {"visitor_per_minute", "visitor_burst", "block_per_minute", "block_burst"}}. Not writable by owners.';
alter table public.blocks enable row level security;
-- anon (the bare anon key) holds nothing on a table no policy lets it read, so the API document
-- anon is shown lists only what anon may read (rls-catalogue.test.ts checks every table)
revoke all on public.blocks from anon;
revoke insert, update on public.blocks from authenticated;
grant update (new_response_count, tags) on public.blocks to authenticated;
create index blocks_owner_id_created_at_idx on public.blocks (owner_id, created_at desc);

create policy "Owners can update their blocks" on public.blocks
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));

create policy "Owners can delete their blocks" on public.blocks
  for delete to authenticated using (owner_id = (select auth.uid()));

create policy "Owners can read their blocks" on public.blocks
  for select to authenticated using (owner_id = (select auth.uid()));

create table public.block_private (
  block_id uuid primary key,
  owner_id uuid not null,
  mail_to text check (char_length(mail_to) <= 100),
  notion_database text check (char_length(notion_database) <= 100),
  notion_page text check (char_length(notion_page) <= 100),
  notion_database_title text not null default 'response_id'
    check (notion_database_title in ('response_id', 'block_name', 'creator', 'content')),
  mail_from text check (char_length(mail_from) <= 60),
  mail_name text check (char_length(mail_name) <= 100),
  mail_html text check (char_length(mail_html) <= 1000000),
  template_mode text not null default 'default' check (char_length(template_mode) <= 50),
  brunch_profile_page text check (char_length(brunch_profile_page) <= 500),
  publish_mode text check (char_length(publish_mode) <= 50),
  updated_at timestamptz not null default now(),
  -- letters (issue 11)
  -- the subject of the letter's mails: one line (a line break in a header makes SES refuse the send)
  mail_title text check (char_length(mail_title) <= 200)
    constraint block_private_mail_title_one_line check (mail_title !~ '[\r\n]'),
  mail_text text check (char_length(mail_text) <= 300000),
  page_url text check (char_length(page_url) <= 2000),
  -- the block model the editor deletes rows from: {version, source, blocks, cta, image_button}
  letter jsonb check (letter is null or (jsonb_typeof(letter) = 'object'
                                         and octet_length(letter::text) <= 2000000)),
  foreign key (block_id, owner_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.block_private is
  'Owner-only settings of a block (notification mail, Notion, letter sender and template). One row per block, created with it.';
comment on column public.block_private.letter is
  'The letter as a block model (headings, paragraphs, lists, images, ...), from which save-letter renders mail_html and mail_text.';
call private.clients_read('public.block_private', 'Owners can read their blocks'' private settings',
  'owner_id = (select auth.uid())');
create index block_private_owner_id_idx on public.block_private (owner_id);

create or replace function private.blocks_before_insert()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_profile public.profiles;
begin
  if (select auth.role()) in ('anon', 'authenticated')
     and new.owner_id is distinct from (select auth.uid()) then
    raise exception 'new row violates row-level security policy for table "blocks"'
      using errcode = '42501';
  end if;
  select * into v_profile from public.profiles where id = new.owner_id for update;
  if not found then
    raise exception 'Please sign in to create a block' using errcode = 'P0001';
  end if;
  if v_profile.block_limit - v_profile.block_count < 1 then
    raise exception 'Block limit reached!' using errcode = 'P0001';
  end if;
  update public.profiles set block_count = block_count + 1 where id = new.owner_id;
  -- a new block starts clean whatever the caller sent
  new.created_at := now();
  new.updated_at := now();
  new.response_count := 0;
  new.new_response_count := 0;
  new.like_count := 0;
  new.deactivated := false;
  return new;
end;
$$;

-- The texts a new block starts with, in its language: name, the suffix of a duplicate's name, the
-- default ending's text and the ab question's two options. The same table as BLOCK_DEFAULTS in
-- @reaction-blocks/contracts/block-defaults (what the dashboard shows), tied by
-- tests/functions.test.ts for every language_code.
create function private.block_defaults(p_language public.language_code)
returns jsonb language sql immutable parallel safe set search_path = '' as $$
  select case p_language
    when 'ko' then '{"name": "제목 없음", "copySuffix": " 사본", "ending": "감사합니다",
                     "abOptions": ["좋아요", "별로예요"]}'::jsonb
    else '{"name": "Untitled", "copySuffix": " Copy", "ending": "Thank you",
           "abOptions": ["Good", "Bad"]}'::jsonb
  end;
$$;
revoke execute on function private.block_defaults(public.language_code) from public;

-- Creates what every block needs: its private settings row and, for form and ab, the default
-- ending; for ab also the ab question with its two options (texts in the block's language,
-- private.block_defaults).
-- duplicate_block sets private.skip_block_defaults to copy these instead.
-- security definer: the default ending may not be inserted by clients.
create function private.blocks_after_insert()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_question_id uuid;
  v_defaults jsonb;
begin
  insert into public.block_private (block_id, owner_id) values (new.id, new.owner_id);
  if coalesce(current_setting('private.skip_block_defaults', true), '') = 'on' then
    return new;
  end if;
  v_defaults := private.block_defaults(new.language);
  if new.type in ('form', 'ab') then
    insert into public.endings (block_id, is_default, index, closing_text)
      values (new.id, true, 0, v_defaults ->> 'ending');
  end if;
  if new.type = 'ab' then
    insert into public.questions (block_id, type, title, required, index)
      values (new.id, 'ab', '', true, 0)
      returning id into v_question_id;
    insert into public.options (question_id, block_id, value, index)
      values (v_question_id, new.id, v_defaults -> 'abOptions' ->> 0, 0),
             (v_question_id, new.id, v_defaults -> 'abOptions' ->> 1, 1);
  end if;
  return new;
end;
$$;

create function private.blocks_after_delete()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set block_count = greatest(block_count - 1, 0) where id = old.owner_id;
  return old;
end;
$$;

-- Clients may only reset new_response_count ("mark as read"), not raise it.
create function private.blocks_guard_update()
returns trigger language plpgsql set search_path = '' as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.new_response_count is distinct from old.new_response_count
     and new.new_response_count <> 0 then
    raise exception 'new_response_count can only be reset to 0' using errcode = '42501';
  end if;
  return new;
end;
$$;

-- security definer: a visitor may not read public.blocks (tags, counters), but the policies of
-- messages and of the form content must know whether the block is published.
create function private.block_is_published(p_block_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.blocks where id = p_block_id and not deactivated);
$$;
revoke execute on function private.block_is_published(uuid) from public;
grant execute on function private.block_is_published(uuid) to anon, authenticated, service_role;

-- security definer: as above, for "the caller owns this block" (policies of other tables).
create function private.is_block_owner(p_block_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.blocks where id = p_block_id and owner_id = (select auth.uid()));
$$;
revoke execute on function private.is_block_owner(uuid) from public;
grant execute on function private.is_block_owner(uuid) to anon, authenticated, service_role;

-- A published block; raises 'block doesn't exists' when missing or deactivated. A visitor's
-- write names the block types it serves (p_types: 'Not supported block' for another) and its
-- writer (p_uid: refused when the owner blocked them, private.check_writer, called only when a
-- blocked_writers row exists): the opening checks of the write RPCs, in one place, in the call
-- they make anyway.
create function private.visible_block(p_block_id uuid, p_uid uuid default null,
                                      p_types public.block_type[] default null)
returns public.blocks language plpgsql stable set search_path = '' as $$
declare
  v_block public.blocks;
begin
  select * into v_block from public.blocks where id = p_block_id and not deactivated;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if p_types is not null and not (v_block.type = any (p_types)) then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  if p_uid is not null
     and exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = p_uid) then
    perform private.check_writer(v_block, p_uid);
  end if;
  return v_block;
end;
$$;
revoke execute on function private.visible_block(uuid, uuid, public.block_type[]) from public;

-- A new block of the caller's with the defaults of its type, named and worded in the caller's
-- language (private.block_defaults). security definer: clients hold no
-- insert on public.blocks (the settings columns are written by save_block only). The owner is the caller (auth.uid()), checked below; the blocks
-- triggers still refuse a row for anyone else, enforce the block limit and add the defaults.
create or replace function public.create_block(p_block_type text)
returns public.blocks language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_profile public.profiles;
  v_block public.blocks;
begin
  if v_uid is null then
    raise exception 'Please sign in to create a block' using errcode = 'PT401';
  end if;
  if p_block_type is null
     or not (p_block_type = any (enum_range(null::public.block_type)::text[])) then
    raise exception 'Invalid block' using errcode = 'P0001';
  end if;
  select * into v_profile from public.profiles where id = v_uid;
  if not found then
    raise exception 'Please sign in to create a block' using errcode = 'PT401';
  end if;
  insert into public.blocks (owner_id, type, name, language, owner_name, owner_photo_url)
    values (v_uid, p_block_type::public.block_type,
            private.block_defaults(v_profile.language) ->> 'name', v_profile.language,
            nullif(v_profile.name, ''), v_profile.photo_url)
    returning * into v_block;
  return v_block;
end;
$$;
comment on function public.create_block(text) is
  'Creates a block of a type (comment, qna, like, button, ab, form, notion_letter, typedream_letter, brunch_letter). Errors: Invalid block, Block limit reached!';
revoke execute on function public.create_block(text) from public, anon;

-- Copies a block of the caller: settings, private settings, questions and options (option
-- counts reset), endings and their conditions; name + ' Copy' (in the block's language,
-- private.block_defaults), created now, counters reset.
-- security definer: the copy of the default ending may not be inserted by clients; ownership
-- is checked explicitly below.
create function public.duplicate_block(p_block_id uuid)
returns public.blocks language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_src public.blocks;
  v_new public.blocks;
  v_question_map jsonb;
  v_ending_map jsonb;
  v_suffix text;
  v_paid boolean;
begin
  select * into v_src from public.blocks where id = p_block_id and owner_id = v_uid;
  if v_uid is null or not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;

  v_new := v_src;
  v_new.id := gen_random_uuid();
  v_suffix := private.block_defaults(v_src.language) ->> 'copySuffix';
  v_new.name := left(v_src.name, 200 - char_length(v_suffix)) || v_suffix;
  -- the insert trigger resets counters, created_at and deactivated and checks the limit
  perform set_config('private.skip_block_defaults', 'on', true);
  insert into public.blocks select (v_new).* returning * into v_new;
  perform set_config('private.skip_block_defaults', 'off', true);

  -- the copy's Notion link is a new link: kept only as save_block_private would take it (a paid
  -- owner, a target the current connection listed), else the copy is unlinked
  select coalesce(p.paid, false) into v_paid from public.profiles p where p.id = v_uid;
  update public.block_private d
    set mail_to = s.mail_to,
        notion_database = case when coalesce(v_paid, false) and coalesce(s.notion_database, '') <> ''
          then private.notion_listed_id(v_uid, s.notion_database, 'data_source') end,
        notion_page = case when coalesce(v_paid, false) and coalesce(s.notion_page, '') <> ''
          then private.notion_listed_id(v_uid, s.notion_page, 'page') end,
        notion_database_title = case when coalesce(v_paid, false) then s.notion_database_title
          else 'response_id' end,
        mail_from = s.mail_from,
        mail_name = s.mail_name, mail_html = s.mail_html, template_mode = s.template_mode,
        brunch_profile_page = s.brunch_profile_page, publish_mode = s.publish_mode,
        -- a letter's copy is the whole letter: the model the workspace edits and send-letter
        -- checks, the subject, the text part and the page address with the mail
        mail_title = s.mail_title, mail_text = s.mail_text, page_url = s.page_url,
        letter = s.letter
    from public.block_private s
    where s.block_id = v_src.id and d.block_id = v_new.id;

  -- questions (not deleted) and endings under new ids; the maps (old id -> new id) point the
  -- options and conditions at the copies
  select coalesce(jsonb_object_agg(id, gen_random_uuid()), '{}') into v_question_map
    from public.questions where block_id = v_src.id and not deleted;
  insert into public.questions
    select (jsonb_populate_record(q, jsonb_build_object(
              'id', v_question_map -> q.id::text, 'block_id', v_new.id, 'created_at', now()))).*
    from public.questions q where q.block_id = v_src.id and v_question_map ? q.id::text
    order by q.index, q.created_at;

  insert into public.options (question_id, block_id, value, index)
    select (v_question_map ->> o.question_id::text)::uuid, v_new.id, o.value, o.index
    from public.options o
    where o.block_id = v_src.id and not o.deleted and v_question_map ? o.question_id::text;

  select coalesce(jsonb_object_agg(id, gen_random_uuid()), '{}') into v_ending_map
    from public.endings where block_id = v_src.id;
  insert into public.endings
    select (jsonb_populate_record(e, jsonb_build_object(
              'id', v_ending_map -> e.id::text, 'block_id', v_new.id, 'created_at', now()))).*
    from public.endings e where e.block_id = v_src.id
    order by e.index, e.created_at;

  insert into public.ending_conditions (ending_id, block_id, index, question_id, type, value)
    select (v_ending_map ->> c.ending_id::text)::uuid, v_new.id, c.index,
           (v_question_map ->> c.question_id::text)::uuid, c.type, c.value
    from public.ending_conditions c
    where c.block_id = v_src.id and v_ending_map ? c.ending_id::text
      and v_question_map ? c.question_id::text;

  return v_new;
end;
$$;
comment on function public.duplicate_block(uuid) is
  'Copies one of the caller''s blocks (name + '' Copy'' in the block''s language, counters reset). Errors: block doesn''t exists, Block limit reached!';
revoke execute on function public.duplicate_block(uuid) from public, anon;

create trigger blocks_set_updated_at before update on public.blocks
  for each row execute function private.set_updated_at();
create trigger blocks_before_insert before insert on public.blocks
  for each row execute function private.blocks_before_insert();
create trigger blocks_after_delete after delete on public.blocks
  for each row execute function private.blocks_after_delete();
create trigger blocks_guard_update before update of new_response_count on public.blocks
  for each row execute function private.blocks_guard_update();
create trigger block_private_set_updated_at before update on public.block_private
  for each row execute function private.set_updated_at();
create trigger blocks_after_insert after insert on public.blocks
  for each row execute function private.blocks_after_insert();

-- =============================================================================================
-- schemas/block-content.sql
-- =============================================================================================

-- The form content of a block: questions, options, endings and ending conditions. Written through
-- save_block only; visitors read the content of published blocks, owners their own. Triggers keep
-- what clients must not change (option counts, the default-ending flag) at their stored value.

-- The access of each of the four tables (p_what: its rows in the policies' names): anyone reads
-- the content of a published block, a signed-in user that and their own blocks' too; no client
-- writes it. A soft-deleted row (p_soft_deleted: the table has a deleted column) is its owner's
-- only: a visitor reads none, whatever the block.
create procedure private.block_content_read(p_table regclass, p_what text, p_soft_deleted boolean default false)
language plpgsql set search_path = '' as $$
declare
  v_visible text := case when p_soft_deleted then 'not deleted and private.block_is_published(block_id)'
                         else 'private.block_is_published(block_id)' end;
begin
  call private.clients_read(p_table,
    format('Users can read %s of published or own blocks', p_what),
    format('(%s) or private.is_block_owner(block_id)', v_visible),
    format('Anyone can read %s of published blocks', p_what),
    v_visible);
end;
$$;
revoke execute on procedure private.block_content_read(regclass, text, boolean) from public;

create table public.questions (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  type public.question_type not null,
  title text not null default '' check (char_length(title) <= 500),
  required boolean not null default true,
  index integer not null default 0,
  placeholder text check (char_length(placeholder) <= 500),
  allow_multi_select boolean not null default false,
  as_visitor_info text check (as_visitor_info in ('email', 'name')),
  trigger_letter_block uuid references public.blocks (id) on delete set null,
  content text check (char_length(content) <= 10000),
  image_src text check (char_length(image_src) <= 2000),
  deleted boolean not null default false,
  created_at timestamptz not null default now(),
  unique (id, block_id)
);
comment on table public.questions is
  'Questions of a form or ab block, ordered by index; deleted marks a soft delete.';
call private.block_content_read('public.questions', 'questions', p_soft_deleted => true);
create index questions_block_id_index_idx on public.questions (block_id, index);
create index questions_trigger_letter_block_idx on public.questions (trigger_letter_block);

create table public.options (
  id uuid primary key default gen_random_uuid(),
  question_id uuid not null,
  block_id uuid not null,
  value text not null default '' check (char_length(value) <= 500),
  response_count integer not null default 0 check (response_count >= 0),
  index integer not null default 0,
  deleted boolean not null default false,
  created_at timestamptz not null default now(),
  foreign key (question_id, block_id) references public.questions (id, block_id) on delete cascade
)
-- count updates stay HOT (heap-only tuples)
with (fillfactor = 80);
comment on table public.options is
  'Choices of a poll or ab question with their response counts; deleted marks a soft delete.';
call private.block_content_read('public.options', 'options', p_soft_deleted => true);
create index options_question_id_index_idx on public.options (question_id, index);
create index options_block_id_idx on public.options (block_id);

create table public.endings (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  is_default boolean not null default false,
  index integer not null default 0,
  title text not null default '' check (char_length(title) <= 200),
  closing_text text not null default '' check (char_length(closing_text) <= 1000),
  open_url text check (char_length(open_url) <= 2000),
  open_link_type text not null default 'submit' check (open_link_type in ('submit', 'button')),
  open_url_text text check (char_length(open_url_text) < 100),
  resubmit_text text check (char_length(resubmit_text) <= 100),
  block_submit_another boolean not null default false,
  created_at timestamptz not null default now(),
  unique (id, block_id)
);
comment on table public.endings is
  'Endings (closing logic) of a form or ab block; exactly one default ending per such block, created with it.';
call private.block_content_read('public.endings', 'endings');
create unique index endings_one_default_per_block_idx on public.endings (block_id) where is_default;
create index endings_block_id_index_idx on public.endings (block_id, index);

create table public.ending_conditions (
  id uuid primary key default gen_random_uuid(),
  ending_id uuid not null,
  block_id uuid not null,
  index integer not null default 0,
  question_id uuid not null,
  type public.condition_type not null,
  value text check (char_length(value) <= 1000),
  created_at timestamptz not null default now(),
  foreign key (ending_id, block_id) references public.endings (id, block_id) on delete cascade,
  foreign key (question_id, block_id) references public.questions (id, block_id) on delete cascade,
  check (type in ('empty', 'not_empty') or coalesce(value, '') <> '')
);
comment on table public.ending_conditions is
  'Conditions of an ending: all must hold for the ending to be chosen (equal, empty, not_empty, include).';
call private.block_content_read('public.ending_conditions', 'ending conditions');
create index ending_conditions_ending_id_index_idx on public.ending_conditions (ending_id, index);
create index ending_conditions_block_id_idx on public.ending_conditions (block_id);
create index ending_conditions_question_id_idx on public.ending_conditions (question_id);

-- Question count: 20 per block, 5 for owners without a paid plan (spec limits questionCountMax,
-- questionCountMaxFree). The block row is locked so concurrent inserts count right.
create function private.questions_check_count()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_paid boolean;
  v_count integer;
  v_max integer;
begin
  if new.deleted then
    return new;
  end if;
  if tg_op = 'UPDATE' and not old.deleted then
    return new;
  end if;
  select p.paid into v_paid
    from public.blocks b join public.profiles p on p.id = b.owner_id
    where b.id = new.block_id
    for update of b;
  v_max := case when coalesce(v_paid, false) then 20 else 5 end;
  select count(*) into v_count from public.questions
    where block_id = new.block_id and not deleted and id <> new.id;
  if v_count >= v_max then
    raise exception 'Too many questions (at most %)', v_max using errcode = 'P0001';
  end if;
  return new;
end;
$$;

create trigger questions_check_count before insert or update of deleted on public.questions
  for each row execute function private.questions_check_count();
create trigger options_keep_counts before insert or update on public.options
  for each row execute function private.keep_from_clients('response_count');
create trigger endings_keep_default before update on public.endings
  for each row execute function private.keep_from_clients('is_default');

-- =============================================================================================
-- schemas/audience.sql
-- =============================================================================================

-- An owner's audience: groups (the reserved `activated` and `deactivated` count members by state)
-- and members. Visitors join by writing on the owner's blocks (record_audience_event); owners add
-- people by hand or by CSV import up to audience.max_members. Group counts go through
-- counters.sql when the group row is busy.

create table public.audience_groups (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  -- 'activated' and 'deactivated' count members by state; other groups count their members
  count integer not null default 0 check (count >= 0),
  created_at timestamptz not null default now(),
  unique (user_id, name)
);
comment on table public.audience_groups is
  'Audience groups of a user with member counts; the reserved groups activated and deactivated count members by state.';
alter table public.audience_groups enable row level security;
revoke insert, update on public.audience_groups from anon, authenticated;
revoke all on public.audience_groups from anon;
grant insert (user_id, name) on public.audience_groups to authenticated;
grant update (name) on public.audience_groups to authenticated;

create policy "Users can read their own audience groups" on public.audience_groups
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users can rename their own audience groups" on public.audience_groups
  for update to authenticated
  using (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'))
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));

create policy "Users can delete their own audience groups" on public.audience_groups
  for delete to authenticated
  using (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));

create policy "Paid users can create their own audience groups" on public.audience_groups
  for insert to authenticated
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated')
              and coalesce((select p.paid from public.profiles p where p.id = (select auth.uid())), false));

create table public.audience_members (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  creator_id uuid,
  creator_name text not null default '' check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  -- the address rule on write: private.check_email_written (audience_members_email_rule)
  email text check (email is null or char_length(email) <= 100),
  group_name text,
  created_at timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  deactivated boolean not null default false,
  has_email boolean generated always as (coalesce(email, '') <> '') stored,
  -- events [{id, type, created_at}], newest last
  history jsonb not null default '[]'::jsonb check (jsonb_typeof(history) = 'array'),
  first_event jsonb check (first_event is null or jsonb_typeof(first_event) = 'object'),
  info jsonb not null default '{}'::jsonb check (jsonb_typeof(info) = 'object'),
  sent_count integer not null default 0 check (sent_count >= 0),
  delivered_count integer not null default 0 check (delivered_count >= 0),
  opened_count integer not null default 0 check (opened_count >= 0),
  bounced_count integer not null default 0 check (bounced_count >= 0),
  rejected_count integer not null default 0 check (rejected_count >= 0),
  complaint_count integer not null default 0 check (complaint_count >= 0),
  -- a visitor typed the address (a form's email answer, a comment's notification email): no
  -- letter goes to it until it confirms the owner's letters (mail-consent.sql). Members the owner
  -- adds by hand or by CSV are the owner's responsibility and active at once. Not writable by
  -- clients (no column grant): an owner cannot mark a typed address confirmed.
  awaiting_confirmation boolean not null default false,
  unique (user_id, email),
  unique (user_id, creator_id),
  foreign key (user_id, group_name) references public.audience_groups (user_id, name)
    on update cascade on delete set null (group_name),
  check (group_name is null or group_name not in ('activated', 'deactivated'))
);
comment on table public.audience_members is
  'A user''s audience: visitors who reacted and imported contacts, with group, state, event history and mail counts.';
alter table public.audience_members enable row level security;
revoke insert, update on public.audience_members from anon, authenticated;
revoke all on public.audience_members from anon;
-- Column grants (all columns) instead of table-wide ones, so an upsert from the dashboard works:
-- PostgREST's upsert needs insert and update on the columns it names.
grant insert (id, user_id, creator_id, creator_name, creator_photo_url, color, email, group_name, created_at, last_updated, deactivated, history, first_event, info, sent_count, delivered_count, opened_count, bounced_count, rejected_count, complaint_count) on public.audience_members to authenticated;
grant update (id, user_id, creator_id, creator_name, creator_photo_url, color, email, group_name, created_at, last_updated, deactivated, history, first_event, info, sent_count, delivered_count, opened_count, bounced_count, rejected_count, complaint_count) on public.audience_members to authenticated;
create index audience_members_user_id_created_at_idx on public.audience_members (user_id, deactivated, created_at desc);
create index audience_members_user_id_group_name_idx on public.audience_members (user_id, group_name);
-- One member per address, case aside (Ann@Example.com and ann@example.com are one person's
-- mailbox): the key the audience keeps. It also serves the lookups of an owner's member by address:
-- the insert trigger audience_members_take_awaiting (once per inserted row: a CSV import),
-- letters_allowed, a confirmed address (confirm_mail), a trigger letter's member and a manual
-- send's recipients. unique (user_id, email) above stays as the arbiter of the dashboard's
-- upserts by address: PostgREST's on_conflict names columns, never an expression.
create unique index audience_members_user_id_lower_email_idx on public.audience_members (user_id, lower(email));

create policy "Users can read their own audience" on public.audience_members
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users can update their own audience" on public.audience_members
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

create policy "Users can delete from their own audience" on public.audience_members
  for delete to authenticated using (user_id = (select auth.uid()));

create policy "Paid users can add to their own audience" on public.audience_members
  for insert to authenticated
  with check (user_id = (select auth.uid()) and coalesce((select p.paid from public.profiles p where p.id = (select auth.uid())), false));

-- group counts follow the members. security definer: clients may not write counts. A group's
-- rename reaches its members through the foreign key (on update cascade), after the group row has
-- its new name: the member stays in the same group, so its count stays (the old name is no group
-- any more: without this the -1 found nothing and the +1 counted every member again).
create function private.audience_members_after_change()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_renamed boolean := tg_op = 'UPDATE' and old.group_name is distinct from new.group_name
    and old.group_name is not null and new.group_name is not null
    and not exists (select 1 from public.audience_groups g
                    where g.user_id = old.user_id and g.name = old.group_name);
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.bump_audience_group(old.user_id,
      case when old.deactivated then 'deactivated' else 'activated' end, -1);
    if old.group_name is not null and not v_renamed then
      perform private.bump_audience_group(old.user_id, old.group_name, -1);
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.bump_audience_group(new.user_id,
      case when new.deactivated then 'deactivated' else 'activated' end, 1);
    if new.group_name is not null and not v_renamed then
      perform private.bump_audience_group(new.user_id, new.group_name, 1);
    end if;
    return new;
  end if;
  return old;
end;
$$;

-- last_updated is when the member itself changed (the owner's edit, a visitor's event), not when
-- a mail to it was counted: an update that changes only the *_count columns leaves it as it was.
-- Stamped on every update, it told a suppressed address from a real bounce (rev-mail3 D1): the
-- suppressed member's equalled the send's preparation time (prepare_letter_jobs counts its
-- bounce in that transaction), a real bounce's came later with the SES event, and the owner
-- reads the column at any time afterwards (docs/security.md, "What an owner learns of a
-- suppressed address").
create function private.audience_members_touch()
returns trigger language plpgsql set search_path = '' as $$
declare
  -- has_email too: a generated column is null in a before trigger's new row
  v_counts constant text[] := array['sent_count', 'delivered_count', 'opened_count', 'bounced_count',
                                    'rejected_count', 'complaint_count', 'last_updated', 'has_email'];
begin
  if (to_jsonb(new) - v_counts) = (to_jsonb(old) - v_counts)
     and (to_jsonb(new) - v_counts[7:8]) <> (to_jsonb(old) - v_counts[7:8]) then
    new.last_updated := old.last_updated;
  else
    new.last_updated := now();
  end if;
  return new;
end;
$$;

-- An owner's audience has a ceiling: adding people by hand or by CSV import stops at
-- audience.max_members (private.settings, default 100,000), so a loop of imports cannot fill the
-- database. People who join by writing on the owner's blocks (record_audience_event, as the
-- visitor) are not counted against it here: that growth is the product working, and checking it
-- would cost every visitor's first write a count.
create function private.audience_members_cap()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid := (select auth.uid());
  v_cap integer;
begin
  if v_owner is null or not exists (select 1 from inserted where user_id = v_owner) then
    return null;
  end if;
  -- one of the owner's adds counts at a time: without it, adds in two tabs (or N requests at
  -- once) each counted what was committed and their own rows, and all passed the ceiling together
  -- (break7 F1: 30 stored under a ceiling of 10). The count below is a new statement, so it sees
  -- what an add that held the lock committed; the lock is held to the end of the transaction.
  perform pg_advisory_xact_lock(hashtextextended('audience_members_cap:' || v_owner, 0));
  v_cap := coalesce((private.setting('audience.max_members', '100000'::jsonb) #>> '{}')::integer, 100000);
  if (select count(*) from public.audience_members where user_id = v_owner) > v_cap then
    raise exception 'Your audience is full' using errcode = 'PT403',
      detail = format('at most %s people', v_cap),
      hint = 'Remove people who no longer read your letters, then add again.';
  end if;
  return null;
end;
$$;
revoke execute on function private.audience_members_cap() from public;

-- An owner who adds by hand, or imports by CSV, an address a visitor typed and that is still
-- awaiting confirmation takes it on as their own (as any address they add): that member becomes
-- active and the added row is not inserted (it would be a second member for the address; an
-- import's conflict would leave it waiting). Only the owner's own inserts (auth.uid() is the
-- audience's owner: the dashboard), never a visitor's write (record_audience_event).
-- security definer: awaiting_confirmation has no client grant.
create function private.audience_members_take_awaiting()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.email is null or new.user_id is distinct from (select auth.uid()) then
    return new;
  end if;
  update public.audience_members set awaiting_confirmation = false
    where user_id = new.user_id and lower(email) = lower(btrim(new.email)) and awaiting_confirmation;
  if found then
    return null;
  end if;
  return new;
end;
$$;
revoke execute on function private.audience_members_take_awaiting() from public;

-- Records a visitor's reaction in the owner's audience (one member per visitor, last 20 events).
-- An email is attached only when no other member of the owner has it. The visitor typed it, so
-- it waits for confirmation (awaiting_confirmation) unless the address already confirmed this
-- owner's letters; a form's answer asks the address to confirm (a `confirm.mail` job,
-- mail-consent.sql) when the owner can send letters to their audience (a paid plan: an audience
-- send, letter-triggers.sql and reserve_letter's group send all need one). An unpaid owner's
-- member is kept, awaiting, and asked nothing: the mail would ask for letters that cannot come
-- (docs/data-model.md, "A typed address is asked when letters can follow"); it is asked when the
-- address is next given once the owner is paid, as a capped ask is. A comment's address is asked
-- about reply notifications instead (post_message) and stays awaiting here until it confirms the
-- owner's letters through one of their forms.
-- One visitor's member row of the owner's audience, added or brought up to date with this event
-- (record_audience_event).
create function private.upsert_audience_member(p_block public.blocks, p_uid uuid, p_name text,
  p_photo_url text, p_color text, p_email text, p_awaiting boolean, p_event jsonb)
returns void language sql set search_path = '' as $$
  insert into public.audience_members as a
      (user_id, creator_id, creator_name, creator_photo_url, color, email, history, first_event,
       awaiting_confirmation)
    values (p_block.owner_id, p_uid, coalesce(left(p_name, 100), ''), left(p_photo_url, 500),
            left(p_color, 32), p_email, jsonb_build_array(p_event), p_event, p_awaiting)
    on conflict (user_id, creator_id) do update
      set history = (case when jsonb_array_length(a.history) >= 20 then a.history - 0 else a.history end)
                    || excluded.history,
          creator_name = case when excluded.creator_name <> '' then excluded.creator_name else a.creator_name end,
          creator_photo_url = coalesce(excluded.creator_photo_url, a.creator_photo_url),
          color = coalesce(excluded.color, a.color),
          email = coalesce(a.email, excluded.email),
          awaiting_confirmation = case when a.email is null and excluded.email is not null
                                       then excluded.awaiting_confirmation
                                       else a.awaiting_confirmation end;
$$;
revoke execute on function private.upsert_audience_member(public.blocks, uuid, text, text, text, text, boolean, jsonb) from public;

create function private.record_audience_event(p_block public.blocks, p_uid uuid, p_name text,
                                               p_photo_url text, p_color text, p_email text)
returns void language plpgsql set search_path = '' as $$
declare
  v_event jsonb := jsonb_build_object('id', p_block.id, 'type', p_block.type, 'created_at', now());
  v_email text := nullif(btrim(p_email), '');
  v_awaiting boolean := false;
begin
  if p_uid = p_block.owner_id then
    return;
  end if;
  if v_email is not null and (char_length(v_email) > 100 or not private.is_valid_email(v_email)
      or exists (select 1 from public.audience_members
                 where user_id = p_block.owner_id and lower(email) = lower(v_email)
                   and creator_id is distinct from p_uid)) then
    v_email := null;
  end if;
  if v_email is not null then
    v_awaiting := not private.mail_confirmed(v_email, p_block.owner_id, null);
    -- no ask to an address that unsubscribed from the owner: its yes would lead to no letter
    -- (every letter skips it), and a stranger could make the owner mail it (rev-mission D1);
    -- none for an owner who cannot send letters to their audience (not paid): no letter follows
    if v_awaiting and p_block.type = 'form'
       and coalesce((select p.paid from public.profiles p where p.id = p_block.owner_id), false)
       and not private.letter_unsubscribed(p_block.owner_id, v_email) then
      perform private.ask_mail_consent(v_email, p_block.owner_id, null, p_block.id,
                                       private.request_locale(p_block.language));
    end if;
  end if;
  if v_email is null then
    perform private.upsert_audience_member(p_block, p_uid, p_name, p_photo_url, p_color, null, false, v_event);
    return;
  end if;
  -- two visitors naming the same address at once both passed the check above: the second
  -- insert meets the (user_id, lower(email)) key, and that visitor joins without it (as the check would
  -- have had it) instead of their write failing
  begin
    perform private.upsert_audience_member(p_block, p_uid, p_name, p_photo_url, p_color, v_email, v_awaiting, v_event);
  exception when unique_violation then
    perform private.upsert_audience_member(p_block, p_uid, p_name, p_photo_url, p_color, null, false, v_event);
  end;
end;
$$;
revoke execute on function private.record_audience_event(public.blocks, uuid, text, text, text, text) from public;

create trigger audience_members_after_change
  after insert or delete or update of deactivated, group_name on public.audience_members
  for each row execute function private.audience_members_after_change();
create trigger audience_members_email_rule before insert or update of email on public.audience_members
  for each row execute function private.check_email_written();
create trigger audience_members_take_awaiting before insert on public.audience_members
  for each row execute function private.audience_members_take_awaiting();
create trigger audience_members_touch before update on public.audience_members
  for each row execute function private.audience_members_touch();
create trigger audience_members_keep_counts before insert or update on public.audience_members
  for each row execute function private.keep_from_clients('sent_count', 'delivered_count', 'opened_count',
                                                          'bounced_count', 'rejected_count', 'complaint_count');
create trigger audience_members_cap
  after insert on public.audience_members
  referencing new table as inserted
  for each statement execute function private.audience_members_cap();

-- =============================================================================================
-- schemas/counters.sql
-- =============================================================================================

-- No hot rows on the visitor's path (issues 13 and 19). Block counters, option counts, audience
-- group counts and a message's like and reply counts (messages.sql) stay on their rows and go to
-- a delta row of the writer when another write holds the row, folded back by pg_cron
-- `fold-counters`. A writer picks its shard with private.free_shard: one no other open
-- transaction holds, so two writers never queue on one shard row (the owner's monthly response
-- count, in 32 shards, uses it too: quota.sql). Computed fields (member_count, live_*_count), the
-- block view and every message read (private.live_message_json) read row plus deltas.

create table private.block_count_deltas (
  block_id uuid not null references public.blocks (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  response_count integer not null default 0,
  new_response_count integer not null default 0,
  like_count integer not null default 0,
  primary key (block_id, shard)
) with (fillfactor = 70);
comment on table private.block_count_deltas is
  'Changes to a block''s counters made while another write held the block row (one row per block and writer session mod 32); folded into public.blocks by pg_cron fold-counters. A block''s counts are the row plus these (private.with_live_counts). No client role can read it.';
alter table private.block_count_deltas enable row level security;

create table private.option_count_deltas (
  option_id uuid not null references public.options (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  delta integer not null default 0,
  primary key (option_id, shard)
) with (fillfactor = 70);
comment on table private.option_count_deltas is
  'Changes to an option''s response_count made while another write held the option row (one row per option and writer shard); folded into public.options by pg_cron fold-counters. An option''s count is the row''s plus these. No client role can read it.';
alter table private.option_count_deltas enable row level security;

-- No foreign key to the group: its check locked the group row (FOR KEY SHARE), which a rename
-- holds (its key changes) while its cascade takes each member; a move or delete of a member in
-- another tab holds that member, then its -1 for the group waited here for the rename: the two
-- deadlocked (breaker break6, finding 6). A group's deltas go with it at the next fold.
create table private.audience_group_deltas (
  group_id uuid not null,
  shard smallint not null check (shard between 0 and 31),
  delta integer not null default 0,
  primary key (group_id, shard)
) with (fillfactor = 70);
comment on table private.audience_group_deltas is
  'Changes to an audience group''s count made while another write held the group row; folded into public.audience_groups by pg_cron fold-counters, which also drops those of a deleted group (no foreign key, so a member''s move never waits for a rename of its group). A group''s count is the row''s plus these (public.member_count). No client role can read it.';
alter table private.audience_group_deltas enable row level security;

-- The shard a writer uses among p_n shard rows of one thing (p_key: a block's rate-limit bucket,
-- its delta rows, an owner's count shards): the first from p_start on that no other open
-- transaction holds, each tried with a transaction-level advisory lock that is never waited for
-- (so the row lock taken next is never waited for either: every writer of these rows holds the
-- shard's advisory lock first). When all are held (more writers at once than shards), p_start,
-- whose row is then waited for as before. Two writers that hash or whose sessions fall on the same
-- shard no longer queue on it (issue 19: 20 sessions on 32 shards met on one a third of the time).
create function private.free_shard(p_key text, p_start integer, p_n integer)
returns integer language plpgsql set search_path = '' as $$
declare
  v_key integer := hashtext(p_key);
  v_shard integer;
begin
  for v_i in 0 .. p_n - 1 loop
    v_shard := (p_start + v_i) % p_n;
    if pg_try_advisory_xact_lock(v_key, v_shard) then
      return v_shard;
    end if;
  end loop;
  return p_start % p_n;
end;
$$;
revoke execute on function private.free_shard(text, integer, integer) from public;

-- Adds to a block's counters: on the row when no other write holds it, else on a delta row of a
-- shard no other write holds (never waits for another visitor's write). One visitor write at a
-- time may take the row (a transaction lock tried, never waited for): SKIP LOCKED alone did not
-- keep two from waiting on each other, since a locker that finds the row updated by an open write
-- waits for it while holding the row's tuple lock, which that write may then want (a deadlock
-- under a like storm on one block, storm.test).
create function private.bump_block_counts(p_block_id uuid, p_responses integer, p_new integer, p_likes integer)
returns void language plpgsql set search_path = '' as $$
begin
  if not pg_try_advisory_xact_lock(hashtext('block_count_row:' || p_block_id), 0) then
    perform private.bump_block_deltas(p_block_id, p_responses, p_new, p_likes);
    return;
  end if;
  update public.blocks
    set response_count = greatest(response_count + p_responses, 0),
        new_response_count = greatest(new_response_count + p_new, 0),
        like_count = greatest(like_count + p_likes, 0)
    where id = (select id from public.blocks where id = p_block_id for no key update skip locked)
      -- a decrement the row cannot take (the increments it undoes are still deltas) is a delta
      and response_count + p_responses >= 0 and like_count + p_likes >= 0;
  if found then
    return;
  end if;
  -- busy, short of a decrement, or gone (the block's delete cascading here)
  perform private.bump_block_deltas(p_block_id, p_responses, p_new, p_likes);
end;
$$;
revoke execute on function private.bump_block_counts(uuid, integer, integer, integer) from public;

-- Adds to a block's counters on a delta row of a shard no other write holds (bump_block_counts).
create function private.bump_block_deltas(p_block_id uuid, p_responses integer, p_new integer, p_likes integer)
returns void language plpgsql set search_path = '' as $$
begin
  insert into private.block_count_deltas as d (block_id, shard, response_count, new_response_count, like_count)
    select b.id, private.free_shard('block_count_deltas:' || p_block_id, pg_backend_pid() % 32, 32),
           p_responses, p_new, p_likes
    from public.blocks b where b.id = p_block_id
    on conflict (block_id, shard) do update
      set response_count = d.response_count + excluded.response_count,
          new_response_count = d.new_response_count + excluded.new_response_count,
          like_count = d.like_count + excluded.like_count;
end;
$$;
revoke execute on function private.bump_block_deltas(uuid, integer, integer, integer) from public;

-- The block with its exact counters: the row's plus the deltas not folded yet (one probe of an
-- index that is empty for a block nobody is writing to at the moment).
create function private.with_live_counts(p_block public.blocks)
returns public.blocks language plpgsql stable set search_path = '' as $$
declare
  v_block public.blocks := p_block;
begin
  if p_block.id is null then
    return p_block;
  end if;
  select greatest(p_block.response_count + coalesce(sum(d.response_count), 0), 0),
         greatest(p_block.new_response_count + coalesce(sum(d.new_response_count), 0), 0),
         greatest(p_block.like_count + coalesce(sum(d.like_count), 0), 0)
    into v_block.response_count, v_block.new_response_count, v_block.like_count
    from private.block_count_deltas d where d.block_id = p_block.id;
  return v_block;
end;
$$;
revoke execute on function private.with_live_counts(public.blocks) from public;

-- Adds p_delta to the response counts of options of a block (a submit's chosen options, or a
-- deleted response's): each on its row when no other write holds it, else on a delta row of a
-- shard no other write of this block's options holds (one shard for all of this write's options).
-- A decrement the row cannot take (the increments it undoes are still deltas) is a delta too.
create function private.bump_option_counts(p_block_id uuid, p_option_ids uuid[], p_delta integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_done uuid[] := '{}';
begin
  if coalesce(cardinality(p_option_ids), 0) = 0 or p_delta = 0 then
    return;
  end if;
  -- one write at a time takes a block's option rows, as bump_block_counts' row; the others: deltas
  if pg_try_advisory_xact_lock(hashtext('option_count_rows:' || p_block_id), 0) then
    with free as (
      select o.id from public.options o
      where o.id = any (p_option_ids) and o.block_id = p_block_id
      order by o.id
      for no key update skip locked
    ), bumped as (
      update public.options o set response_count = o.response_count + p_delta
        from free f where o.id = f.id and o.response_count + p_delta >= 0
        returning o.id
    )
    select coalesce(array_agg(id), '{}') into v_done from bumped;
  end if;
  if cardinality(v_done) = cardinality(p_option_ids) then
    return;
  end if;
  insert into private.option_count_deltas as d (option_id, shard, delta)
    select o.id, s.shard, p_delta
    from public.options o,
         (select private.free_shard('option_count_deltas:' || p_block_id, pg_backend_pid() % 32, 32) as shard) s
    where o.id = any (p_option_ids) and o.block_id = p_block_id and not (o.id = any (v_done))
    order by o.id
    on conflict (option_id, shard) do update set delta = d.delta + excluded.delta;
end;
$$;
revoke execute on function private.bump_option_counts(uuid, uuid[], integer) from public;

-- Options' exact response counts, [{id, response_count}]: the row's plus the deltas not folded yet.
create function private.option_counts(p_option_ids uuid[])
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'response_count',
           greatest(o.response_count + coalesce((select sum(d.delta) from private.option_count_deltas d
                                                 where d.option_id = o.id), 0), 0))
           order by o.index, o.created_at), '[]'::jsonb)
  from public.options o where o.id = any (p_option_ids);
$$;
revoke execute on function private.option_counts(uuid[]) from public;

-- "Reset new responses" (the owner sets new_response_count to 0, nothing else) resets the
-- deltas too: one delta row more, on a shard no other write holds, takes away what the others
-- hold (their sum), so the reset never waits for a visitor's open write of a delta row (it
-- updated each of them, and a visitor's like queued behind the owner who waited for another
-- visitor: breaker break6). A counter update moves response_count with it, so it never fires
-- this; nor does the fold, which says so in a transaction-local setting.
create function private.blocks_reset_new_deltas()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('counters.folding', true) = 'on' then
    return null;
  end if;
  perform private.bump_block_deltas(new.id, 0, -sum(d.new_response_count)::integer, 0)
    from private.block_count_deltas d where d.block_id = new.id
    having sum(d.new_response_count) <> 0;
  return null;
end;
$$;
revoke execute on function private.blocks_reset_new_deltas() from public;

-- Moves an audience group's count: the group row when free and no other write is taking it (one
-- at a time, as bump_block_counts' row), else a delta row of a free shard.
create or replace function private.bump_audience_group(p_user_id uuid, p_name text, p_delta integer)
returns void language plpgsql set search_path = '' as $$
begin
  if pg_try_advisory_xact_lock(hashtext('audience_group_row:' || p_user_id || '/' || p_name), 0) then
    update public.audience_groups set count = count + p_delta
      where id = (select id from public.audience_groups
                  where user_id = p_user_id and name = p_name for no key update skip locked)
        and count + p_delta >= 0;
    if found then
      return;
    end if;
  end if;
  insert into private.audience_group_deltas as d (group_id, shard, delta)
    select g.id, private.free_shard('audience_group_deltas:' || g.id, pg_backend_pid() % 32, 32), p_delta
    from public.audience_groups g where g.user_id = p_user_id and g.name = p_name
    on conflict (group_id, shard) do update set delta = d.delta + excluded.delta;
end;
$$;
revoke execute on function private.bump_audience_group(uuid, text, integer) from public;

-- A group's exact member count (computed field of audience_groups:
-- `audience_groups?select=*,member_count`): the row's count plus the deltas not folded yet.
-- security definer: the deltas are in schema private; a group the caller cannot read (RLS) is
-- never handed to it by PostgREST, and the count of another owner's group is null. The stored row
-- decides, not the one passed in: called as an RPC (/rpc/member_count), p_group is whatever the
-- caller wrote, another owner's group id under their own user id.
create function public.member_count(p_group public.audience_groups)
returns integer language sql stable security definer set search_path = '' as $$
  select greatest(g.count + coalesce((select sum(d.delta) from private.audience_group_deltas d
                                      where d.group_id = g.id), 0), 0)::integer
  from public.audience_groups g
  where g.id = p_group.id and private.may_read_as(g.user_id);
$$;
comment on function public.member_count(public.audience_groups) is
  'The group''s exact member count (computed field of audience_groups: count plus the changes not folded yet). Null for another owner''s group.';
revoke execute on function public.member_count(public.audience_groups) from public, anon;

-- Folds one kind of delta rows into the rows they count for (p_target, keyed by p_key in
-- p_deltas): the rows nobody holds, and of those only the ones whose every delta row is free, so
-- the row plus all its deltas is exact and the fold never clamps a partial sum. p_sums names each
-- counter column of p_target and the delta column added to it. Answers the rows updated.
create function private.fold_deltas(p_target regclass, p_deltas regclass, p_key text, p_sums jsonb)
returns integer language plpgsql set search_path = '' as $$
declare
  v_sums text;
  v_sets text;
  v_count integer;
begin
  select string_agg(format('sum(%I) as %I', value, key), ', ' order by key),
         string_agg(format('%I = greatest(t.%I + s.%I, 0)', key, key, key), ', ' order by key)
    into v_sums, v_sets
    from jsonb_each_text(p_sums);
  execute format($sql$
    with free as (
      select t.id from %1$s t
      where t.id in (select distinct %3$I from %2$s)
      for no key update of t skip locked
    ), locked as (
      select %3$I, shard from %2$s
      where %3$I in (select id from free) for update skip locked
    ), whole as (
      select l.%3$I from locked l group by l.%3$I
      having count(*) = (select count(*) from %2$s a where a.%3$I = l.%3$I)
    ), taken as (
      delete from %2$s d
      using locked x
      where x.%3$I in (select %3$I from whole) and d.%3$I = x.%3$I and d.shard = x.shard
      returning d.*
    ), sums as (
      select %3$I, %4$s from taken group by %3$I
    )
    update %1$s t set %5$s from sums s where t.id = s.%3$I
  $sql$, p_target, p_deltas, p_key, v_sums, v_sets);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.fold_deltas(regclass, regclass, text, jsonb) from public;

-- Folds the deltas into the rows: the blocks, groups, options and messages nobody holds, their delta rows
-- nobody holds (SKIP LOCKED throughout). SKIP LOCKED still waits for a row's newer version that an
-- open write holds (the chain of updated versions is followed, then waited for), so the fold gives
-- up after 100 ms of any wait, so that it, not a visitor, is the one to give way: a fold and a
-- visitor waiting on each other end with the fold's lock timeout, before the visitor's 1 s
-- deadlock check, unless the visitor had already waited about 900 ms for this fold when the fold
-- began to wait (a fold slowed to most of a second: then the visitor's write fails as before).
-- The fold answers 0 (no error: the next fold, 5 seconds later, takes what this one left).
-- Every 5 seconds.
create function private.fold_counters()
returns integer language plpgsql set search_path = '' set lock_timeout = '100ms' as $$
declare
  v_blocks integer;
  v_groups integer;
  v_options integer;
  v_messages integer;
begin
  perform set_config('counters.folding', 'on', true);
  v_blocks := private.fold_deltas('public.blocks', 'private.block_count_deltas', 'block_id',
    '{"response_count": "response_count", "new_response_count": "new_response_count", "like_count": "like_count"}');
  v_groups := private.fold_deltas('public.audience_groups', 'private.audience_group_deltas',
    'group_id', '{"count": "delta"}');
  v_options := private.fold_deltas('public.options', 'private.option_count_deltas', 'option_id',
    '{"response_count": "delta"}');
  -- the deltas of a deleted group (audience_group_deltas has no foreign key), those nobody holds
  delete from private.audience_group_deltas d
    where (d.group_id, d.shard) in (
      select o.group_id, o.shard from private.audience_group_deltas o
      where not exists (select 1 from public.audience_groups g where g.id = o.group_id)
      for update skip locked);
  -- a message's like and reply counts (private.message_count_deltas, messages.sql)
  v_messages := private.fold_deltas('public.messages', 'private.message_count_deltas', 'message_id',
    '{"like_count": "like_count", "reply_count": "reply_count"}');
  return v_blocks + v_groups + v_options + v_messages;
exception when lock_not_available then
  -- it waited 100 ms (lock_timeout): nothing folded, the next fold takes it all
  return 0;
end;
$$;
revoke execute on function private.fold_counters() from public;

-- The owner's block list reads exact counts. A block's counters may sit in
-- private.block_count_deltas for up to the 5 s fold while the row is busy, so the row's columns
-- can be a few seconds behind under a burst. These computed fields
-- (`blocks?select=response_count:live_response_count,...`) add the deltas not folded yet, like
-- member_count does for audience groups. security definer: the deltas are in schema private; a
-- block the caller cannot read (RLS: owners only) is never handed to them by PostgREST, and for
-- another owner's block the answer is null. The stored row decides, and is the one counted: called
-- as an RPC, p_block is whatever the caller wrote (another owner's block id under their own id).
create function public.live_response_count(p_block public.blocks)
returns integer language sql stable security definer set search_path = '' as $$
  select (private.with_live_counts(b)).response_count
  from public.blocks b
  where b.id = p_block.id and private.may_read_as(b.owner_id);
$$;
comment on function public.live_response_count(public.blocks) is
  'The block''s exact response count (computed field: the row plus the changes not folded yet). Null for another owner''s block.';
revoke execute on function public.live_response_count(public.blocks) from public, anon;

create function public.live_new_response_count(p_block public.blocks)
returns integer language sql stable security definer set search_path = '' as $$
  select (private.with_live_counts(b)).new_response_count
  from public.blocks b
  where b.id = p_block.id and private.may_read_as(b.owner_id);
$$;
comment on function public.live_new_response_count(public.blocks) is
  'The block''s exact count of new responses (computed field: the row plus the changes not folded yet). Null for another owner''s block.';
revoke execute on function public.live_new_response_count(public.blocks) from public, anon;

create trigger blocks_reset_new_deltas after update of new_response_count on public.blocks
  for each row when (new.new_response_count = 0 and new.response_count = old.response_count
                     and new.like_count = old.like_count)
  execute function private.blocks_reset_new_deltas();

-- =============================================================================================
-- schemas/client-address.sql
-- =============================================================================================

-- The client's address (issue 17): who is writing, as far as the network says, for the shares
-- of a block's budget (trust.sql) and of the owner's quota (quota.sql) that one address may take.

-- An address as an X-Forwarded-For entry gives it, read as the local servers read one
-- (supabase/local/http.ts normaliseAddress): spaces and [brackets] dropped, and an IPv6 zone id
-- (`fe80::1%eth0`: it names a link of the sender's machine, not another address); an IPv4-mapped
-- IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address. Null when it is no single address (a
-- range with a mask is none).
create function private.parse_address(p_text text)
returns inet language plpgsql immutable set search_path = '' as $$
declare
  v_text text := split_part(regexp_replace(btrim(p_text), '^\[|\]$', '', 'g'), '%', 1);
  v_address inet;
begin
  if not pg_input_is_valid(v_text, 'inet') or position('/' in v_text) > 0 then
    return null;
  end if;
  v_address := v_text::inet;
  if masklen(v_address) <> (case family(v_address) when 4 then 32 else 128 end) then
    return null;
  end if;
  if family(v_address) = 6 and v_address <<= '::ffff:0.0.0.0/96'::inet then
    return regexp_replace(host(v_address), '^.*:', '')::inet;
  end if;
  return v_address;
end;
$$;
revoke execute on function private.parse_address(text) from public;

-- The client's address as the API saw it (issue 17): the right-most X-Forwarded-For entry that is
-- not a trusted proxy (`network.trusted_proxies`: addresses or CIDR ranges, none by default), the
-- rule the local auth server follows for sign-ups (supabase/local/auth/rate-limit.ts
-- clientAddress). The local gateway appends the peer it saw, so a client's own X-Forwarded-For
-- only adds entries left of its real address; behind a CDN or load balancer that appends too,
-- name its addresses in the setting (docs/self-hosting.md). An entry that is no address ends the
-- chain (the hop right of it stands). Null outside an API request (no request.headers).
-- Where the platform's own edge sets one header to the address it saw and drops what a client
-- sent in it (`network.client_address_header`, e.g. `x-envoy-external-address` on hosted
-- Supabase, docs/data-model.md), that header alone is the address (null when it is missing or no
-- address); callers pass the two settings when they have read them already.
create function private.client_address(p_trusted jsonb default null, p_header text default null)
returns inet language plpgsql stable set search_path = '' as $$
declare
  v_headers text := nullif(current_setting('request.headers', true), '');
  v_chain text[];
  v_hop inet;
  v_address inet;
  v_trusted jsonb := coalesce(p_trusted, private.setting('network.trusted_proxies', '[]'::jsonb));
  v_header text := lower(nullif(coalesce(p_header, case when p_trusted is null
                     then private.setting('network.client_address_header', 'null'::jsonb) #>> '{}' end), ''));
begin
  if v_headers is null then
    return null;
  end if;
  if v_header is not null then
    return private.parse_address(v_headers::jsonb ->> v_header);
  end if;
  v_chain := string_to_array(v_headers::jsonb ->> 'x-forwarded-for', ',');
  for i in reverse coalesce(array_length(v_chain, 1), 0) .. 1 loop
    v_hop := private.parse_address(v_chain[i]);
    if v_hop is null then
      return v_address;
    end if;
    v_address := v_hop;
    if jsonb_typeof(v_trusted) is distinct from 'array' or not exists (
         select 1 from jsonb_array_elements_text(v_trusted) t(range)
         where pg_input_is_valid(t.range, 'cidr') and v_address <<= t.range::cidr) then
      return v_address;
    end if;
  end loop;
  return v_address;
end;
$$;
revoke execute on function private.client_address(jsonb, text) from public;

-- What an address's limits count under: an IPv4 address itself (an IPv4-mapped IPv6 one too),
-- or an IPv6 address's /64 (one host gets a whole /64 to pick addresses from), written as
-- `2001:db8:1:2::/64`. The same rule as the local auth server's per-address limits
-- (supabase/local/auth/rate-limit.ts addressGroup; address-group.test.ts checks both agree).
-- p_v6_bits widens an IPv6 group (reserve_key: a site's /48).
create function private.address_group(p_address inet, p_v6_bits integer default 64)
returns text language sql immutable set search_path = '' as $$
  select case when family(a) = 6 then host(network(set_masklen(a, p_v6_bits))) || '/' || p_v6_bits
              else host(a) end
  from (select private.parse_address(host(p_address)) as a) x;
$$;
revoke execute on function private.address_group(inet, integer) from public;

-- The key of what a site takes of a block's reserve (check_rate_limit): an IPv4 address's group,
-- an IPv6 address's /48, the most one site is usually given (a home connection gets a /56: 256
-- /64s, each a group of its own for the shares; the eighth hostile review spent the reserve
-- with 24 /64s of one /56). Hashed, as address_key.
create function private.reserve_key(p_address inet)
returns uuid language sql immutable set search_path = '' as $$
  select md5('reserve:' || private.address_group(p_address, 48))::uuid;
$$;
revoke execute on function private.reserve_key(inet) from public;

-- The key of an address's bucket: its group (above), hashed. Never a user id: not a version 4
-- UUID.
create function private.address_key(p_address inet)
returns uuid language sql immutable set search_path = '' as $$
  select case when p_address is not null then md5('address:' || private.address_group(p_address))::uuid end;
$$;
revoke execute on function private.address_key(inet) from public;

-- =============================================================================================
-- schemas/quota.sql
-- =============================================================================================

-- The owner's monthly response quota (issue 13): the count lives in 32 count shards per owner and
-- month, each allowed its share of the limit, so the quota holds exactly without one row every
-- submit of the owner's blocks locks (a writer takes a shard no other open transaction holds,
-- private.free_shard in counters.sql); the quota notices at 80 % and 100 % and what their mail
-- needs. The computed field profiles.response_monthly_count reads the sum of the shards.

create table private.response_counts (
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- first day of the month (UTC) the count belongs to
  month date not null,
  shard smallint not null check (shard between 0 and 31),
  count integer not null default 0 check (count >= 0),
  primary key (user_id, month, shard)
) with (fillfactor = 70);
comment on table private.response_counts is
  'The owner''s monthly response count in 32 shards per month, each allowed its share of response_monthly_limit (private.take_response_quota); the count is their sum (private.monthly_response_count). No client role can read it.';
alter table private.response_counts enable row level security;

create table private.quota_notices (
  user_id uuid not null references public.profiles (id) on delete cascade,
  month date not null,
  level integer not null check (level in (80, 100)),
  created_at timestamptz not null default now(),
  primary key (user_id, month, level)
);
comment on table private.quota_notices is
  'The monthly response quota mails sent to an owner: once per month at 80 % and once at 100 %.';
alter table private.quota_notices enable row level security;

-- This month's count of an owner: the sum of their shards (at most 32 rows, one index range).
create function private.monthly_response_count(p_user_id uuid)
returns integer language sql stable set search_path = '' as $$
  select coalesce(sum(count), 0)::integer from private.response_counts
  where user_id = p_user_id and month = date_trunc('month', now())::date;
$$;
revoke execute on function private.monthly_response_count(uuid) from public;

-- A shard's share of the limit: limit / 32, the remainder to the first shards. The shares add up
-- to the limit.
create function private.quota_share(p_limit integer, p_shard integer)
returns integer language sql immutable set search_path = '' as $$
  select greatest(p_limit, 0) / 32 + (p_shard < greatest(p_limit, 0) % 32)::integer;
$$;
revoke execute on function private.quota_share(integer, integer) from public;

-- Records the quota level an owner's count reached (80: 80 % of the limit, 100: the limit) and
-- enqueues its mail, once per owner, month and level.
create function private.quota_notice(p_user_id uuid, p_month date, p_count integer, p_limit integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_level integer;
begin
  if p_limit <= 0 then
    return;
  end if;
  v_level := case when p_count >= p_limit then 100 when p_count >= ceil(p_limit * 0.8) then 80 end;
  if v_level is null
     or exists (select 1 from private.quota_notices where user_id = p_user_id and month = p_month and level = v_level) then
    return;
  end if;
  insert into private.quota_notices (user_id, month, level) values (p_user_id, p_month, v_level)
    on conflict do nothing;
  if found then
    perform public.enqueue_job('quota.notice',
      jsonb_build_object('user_id', p_user_id, 'month', p_month, 'level', v_level,
                         'count', p_count, 'limit', p_limit),
      'quota.notice:' || p_user_id || ':' || p_month || ':' || v_level, null, null, 'mail');
  end if;
end;
$$;
revoke execute on function private.quota_notice(uuid, date, integer, integer) from public;

-- Takes p_n units of the owner's monthly quota, or answers false. Without deadlocks (found by
-- hot-rows.test.ts under a burst at the limit): `insert ... on conflict do update ... where
-- count < share` would lock a full shard's row till commit even though the WHERE failed, so a
-- writer holding its full shard could wait for another shard held by a writer waiting for the
-- first. So a unit is taken by `update ... where count < share`, which locks a row only when it takes
-- from it (a row that no longer qualifies after waiting is passed over unlocked), and a missing
-- shard row is inserted with `on conflict do nothing` (no lock on conflict). So a single-unit
-- writer holds a shard lock only once it has its unit, and never waits while holding one: no
-- cycle can form. Several units (letter sends) still lock every shard in shard order.
create or replace function private.take_response_quota(p_user_id uuid, p_n integer default 1)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_limit integer;
  v_start integer;
  v_shard integer;
  v_share integer;
  v_total integer;
  v_left integer := p_n;
  v_take integer;
  v_row record;
begin
  if coalesce(p_n, 0) <= 0 then
    return true;
  end if;
  select response_monthly_limit into v_limit from public.profiles where id = p_user_id;
  if v_limit is null then
    return false;
  end if;
  if p_n = 1 then
    -- a shard no other writer holds first (from the session's own), then the shards that look
    -- like they have room (read without a lock: a full shard stays full this month)
    v_start := private.free_shard('response_counts:' || p_user_id || ':' || v_month, pg_backend_pid() % 32, 32);
    for v_shard in
      select s.n from generate_series(0, 31) g(i)
      cross join lateral (select (v_start + g.i) % 32 as n) s
      left join private.response_counts c
        on c.user_id = p_user_id and c.month = v_month and c.shard = s.n
      where g.i = 0 or coalesce(c.count, 0) < private.quota_share(v_limit, s.n)
      order by g.i
    loop
      -- (the share written out: a function with SET search_path is never inlined)
      v_share := greatest(v_limit, 0) / 32 + (v_shard < greatest(v_limit, 0) % 32)::integer;
      continue when v_share <= 0;
      update private.response_counts set count = count + 1
        where user_id = p_user_id and month = v_month and shard = v_shard and count < v_share;
      if not found then
        insert into private.response_counts (user_id, month, shard, count)
          values (p_user_id, v_month, v_shard, 1)
          on conflict do nothing;
        if not found then
          -- another writer created the row meanwhile: its share may still have room
          update private.response_counts set count = count + 1
            where user_id = p_user_id and month = v_month and shard = v_shard
              and count < v_share;
        end if;
      end if;
      if found then
        v_left := 0;
        exit;
      end if;
    end loop;
  else
    insert into private.response_counts (user_id, month, shard, count)
      select p_user_id, v_month, g, 0 from generate_series(0, 31) g
      on conflict do nothing;
    if (select sum(greatest(private.quota_share(v_limit, c.shard) - c.count, 0))
        from (select shard, count from private.response_counts
              where user_id = p_user_id and month = v_month order by shard for update) c) < p_n then
      return false;
    end if;
    for v_row in select shard, count from private.response_counts
                 where user_id = p_user_id and month = v_month order by shard loop
      v_take := least(v_left, greatest(private.quota_share(v_limit, v_row.shard) - v_row.count, 0));
      if v_take > 0 then
        update private.response_counts set count = count + v_take
          where user_id = p_user_id and month = v_month and shard = v_row.shard;
        v_left := v_left - v_take;
      end if;
      exit when v_left = 0;
    end loop;
  end if;
  if v_left > 0 then
    return false;
  end if;
  if v_limit > 0 then
    select coalesce(sum(count), 0)::integer into v_total from private.response_counts
      where user_id = p_user_id and month = v_month;
    if v_total >= ceil(v_limit * 0.8) then
      perform private.quota_notice(p_user_id, v_month, v_total, v_limit);
    end if;
  end if;
  return true;
end;
$$;
revoke execute on function private.take_response_quota(uuid, integer) from public;

-- Sets an owner's count for this month (spread over the shards by their shares; what is beyond
-- the limit goes to shard 0). For the seed and for operators; service role only.
create function private.set_monthly_response_count(p_user_id uuid, p_count integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_limit integer := coalesce((select response_monthly_limit from public.profiles where id = p_user_id), 0);
  v_left integer := greatest(coalesce(p_count, 0), 0);
  v_take integer;
begin
  delete from private.response_counts where user_id = p_user_id and month = v_month;
  for s in 0..31 loop
    v_take := least(v_left, private.quota_share(v_limit, s));
    if s = 31 then
      v_take := v_left;
    end if;
    if v_take > 0 then
      insert into private.response_counts (user_id, month, shard, count)
        values (p_user_id, v_month, case when s = 31 and v_take > private.quota_share(v_limit, s) then 0 else s end, v_take)
        on conflict (user_id, month, shard) do update set count = private.response_counts.count + excluded.count;
      v_left := v_left - v_take;
    end if;
  end loop;
end;
$$;
revoke execute on function private.set_monthly_response_count(uuid, integer) from public;

-- Levels reached that no write saw (two writes crossing a level together): every minute.
create function private.sweep_quota_notices()
returns integer language plpgsql set search_path = '' as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_row record;
  v_n integer := 0;
begin
  for v_row in
    select c.user_id, sum(c.count)::integer as total, p.response_monthly_limit as lim
    from private.response_counts c join public.profiles p on p.id = c.user_id
    where c.month = v_month and p.response_monthly_limit > 0
    group by c.user_id, p.response_monthly_limit
    having sum(c.count) >= ceil(p.response_monthly_limit * 0.8)
  loop
    perform private.quota_notice(v_row.user_id, v_month, v_row.total, v_row.lim);
    v_n := v_n + 1;
  end loop;
  return v_n;
end;
$$;
revoke execute on function private.sweep_quota_notices() from public;

create function public.response_monthly_count(p_profile public.profiles)
returns integer language sql stable security definer set search_path = '' as $$
  select case when private.may_read_as(p_profile.id)
              then private.monthly_response_count(p_profile.id) end;
$$;
comment on function public.response_monthly_count(public.profiles) is
  'This month''s response count of the owner (computed field of profiles: the sum of their count shards). Null for another user''s profile.';
revoke execute on function public.response_monthly_count(public.profiles) from public, anon;

-- What each quota.notice job's mail needs: the owner's address, language and name, the level,
-- the count and the limit when the threshold was crossed; or {skip} (no address, suppressed,
-- account gone).
create or replace function public.quota_notice_context(p_payloads jsonb)
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(
    case
      when pr.id is null then jsonb_build_object('skip', 'the account was deleted')
      when nullif(pr.email, '') is null then jsonb_build_object('skip', 'the owner has no email address')
      when private.mailbox_suppressed(pr.email)
        then jsonb_build_object('skip', 'the address is suppressed (bounce or complaint)')
      else jsonb_build_object(
        'to', pr.email, 'user_id', pr.id, 'language', pr.language, 'name', pr.name,
        'level', (x ->> 'level')::integer, 'month', x ->> 'month',
        'count', coalesce((x ->> 'count')::integer, private.monthly_response_count(pr.id)),
        'limit', coalesce((x ->> 'limit')::integer, pr.response_monthly_limit))
    end order by i), '[]'::jsonb)
  from jsonb_array_elements(p_payloads) with ordinality p(x, i)
  left join public.profiles pr on pr.id = (x ->> 'user_id')::uuid;
$$;
revoke execute on function public.quota_notice_context(jsonb) from public, anon, authenticated;

-- What the visitors of a site counted today (UTC) of one owner's monthly responses (issue 17),
-- and what all visitors without a track record counted together: at most
-- `limits.address_quota_share` (0.1) and `limits.fresh_quota_share` (0.25) of their
-- response_monthly_limit; beyond either the response is kept but held. In up to 32 shards per
-- (owner, key, day), each allowed its part (the parts add up to the whole), so the visitors of one
-- address (an office, a school, the load test's loopback) do not queue on one row (npm run
-- bench:load). Unlogged like the buckets (a crash gives each its share again); rows of past days
-- are purged.
create unlogged table private.address_quota (
  owner_id uuid not null,
  -- private.reserve_key of the client address (an IPv4 address, an IPv6 /48), or the nil uuid:
  -- every visitor without a track record together
  address uuid not null,
  day date not null,
  counted integer not null check (counted >= 0),
  shard smallint not null default 0 check (shard between 0 and 31),
  primary key (owner_id, address, day, shard)
) with (fillfactor = 50);
comment on table private.address_quota is
  'Responses and votes one site (reserve_key), or all visitors without a track record together (the nil uuid), counted today for one owner, in up to 32 shards (private.take_address_quota): at most limits.address_quota_share / limits.fresh_quota_share of the monthly limit, the rest is held.';
alter table private.address_quota enable row level security;

-- One unit of a day's share p_cap of an owner's monthly responses under p_key (an address, or the
-- nil uuid of the visitors without a track record): the shard it was taken from, null when the
-- share is spent today (UTC). The share is exact and split in n = min(32, cap) shards of cap / n
-- (the remainder to the first ones); a unit is taken as the owner's quota takes one
-- (take_response_quota): first a shard no other open transaction holds (private.free_shard), by
-- `update ... where counted < part`, which locks a row only when it takes from it, a missing row
-- inserted with `on conflict do nothing`; then the other shards that look like they have room.
-- So a writer holds a shard only once it has its unit and never waits while holding one: no
-- deadlock, and writers of one key wait for each other only when more of them than shards write
-- at once. (An upsert `on conflict do update ... where` would keep a full shard locked and let two
-- writers wait on each other.)
create or replace function private.take_day_share(p_owner uuid, p_key uuid, p_cap integer)
returns integer language plpgsql set search_path = '' as $$
declare
  v_n integer := least(32, p_cap);
  v_day date := (now() at time zone 'UTC')::date;
  v_start integer;
  v_shard integer;
  v_part integer;
begin
  -- a shard no other writer holds first, then the shards that look like they have room (read
  -- without a lock: a full shard stays full today)
  v_start := private.free_shard('address_quota:' || p_owner || ':' || p_key, pg_backend_pid() % v_n, v_n);
  for v_shard in
    select s.n from generate_series(0, v_n - 1) g(i)
    cross join lateral (select (v_start + g.i) % v_n as n) s
    left join private.address_quota q
      on q.owner_id = p_owner and q.address = p_key and q.day = v_day and q.shard = s.n
    where g.i = 0 or coalesce(q.counted, 0) < p_cap / v_n + (s.n < p_cap % v_n)::integer
    order by g.i
  loop
    v_part := p_cap / v_n + (v_shard < p_cap % v_n)::integer;
    update private.address_quota set counted = counted + 1
      where owner_id = p_owner and address = p_key and day = v_day and shard = v_shard
        and counted < v_part;
    if not found then
      insert into private.address_quota (owner_id, address, day, shard, counted)
        values (p_owner, p_key, v_day, v_shard, 1)
        on conflict do nothing;
      if not found then
        -- another writer created the row meanwhile: its part may still have room
        update private.address_quota set counted = counted + 1
          where owner_id = p_owner and address = p_key and day = v_day and shard = v_shard
            and counted < v_part;
      end if;
    end if;
    if found then
      return v_shard;
    end if;
  end loop;
  return null;
end;
$$;
revoke execute on function private.take_day_share(uuid, uuid, integer) from public;

-- The fair shares of the owner's monthly responses (issue 17; docs/data-model.md "When a shared
-- budget is under pressure"): true when this form response or A/B vote may count, false when it
-- is to be held. Two shares a day (UTC) of the owner's response_monthly_limit, at least one each
-- (`address_quota_share` / `fresh_quota_share` in `limits.<action>` or the block's rate_limits
-- override the settings):
-- - a site's, `limits.address_quota_share` (0.1), whoever writes: keyed as the reserve
--   (private.reserve_key: an IPv4 address, an IPv6 /48, so one home connection's /56 is one site);
--   a track record does not lift it (an address makes one for its own accounts inside its share a
--   day ahead, hostile-track-record.test);
-- - every visitor without a track record together, `limits.fresh_quota_share` (0.25): ten fresh
--   addresses' shares add up to the month, this does not (break9 Q1: fresh accounts of 10
--   addresses counted a free owner's month in 4 s and every visitor was refused until it turned).
--   A unit of the site's share taken for a response this one holds is given back.
-- No address (SQL outside an API request), the owner, limits or escalation off: always true.
create or replace function private.take_address_quota(p_block public.blocks, p_uid uuid, p_action text)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_on boolean;
  v_share double precision;
  v_fresh double precision;
  v_trusted jsonb;
  v_header text;
  v_addr uuid;
  v_limit integer;
  v_shard integer;
begin
  if p_uid = p_block.owner_id then
    return true;
  end if;
  select coalesce((s -> 'limits.enabled' #>> '{}')::boolean, true)
           and coalesce((s -> 'limits.escalation' #>> '{}')::boolean, true),
         coalesce((p_block.rate_limits -> p_action ->> 'address_quota_share')::double precision,
                  (s -> ('limits.' || p_action) ->> 'address_quota_share')::double precision,
                  (s -> 'limits.address_quota_share' #>> '{}')::double precision, 0.1),
         coalesce((p_block.rate_limits -> p_action ->> 'fresh_quota_share')::double precision,
                  (s -> ('limits.' || p_action) ->> 'fresh_quota_share')::double precision,
                  (s -> 'limits.fresh_quota_share' #>> '{}')::double precision, 0.25),
         case when jsonb_typeof(s -> 'network.trusted_proxies') = 'array'
              then s -> 'network.trusted_proxies' else '[]'::jsonb end,
         coalesce(s -> 'network.client_address_header' #>> '{}', '')
    into v_on, v_share, v_fresh, v_trusted, v_header
    from (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) as s from private.settings
          where key in ('limits.enabled', 'limits.escalation', 'limits.address_quota_share',
                        'limits.fresh_quota_share', 'limits.' || p_action,
                        'network.trusted_proxies', 'network.client_address_header')) settings;
  if not v_on then
    return true;
  end if;
  v_addr := private.reserve_key(private.client_address(v_trusted, v_header));
  if v_addr is null then
    return true;
  end if;
  select response_monthly_limit into v_limit from public.profiles where id = p_block.owner_id;
  v_shard := private.take_day_share(p_block.owner_id, v_addr,
    greatest(1, floor(least(coalesce(v_limit, 0) * least(1, greatest(0, v_share)), 2e9)))::integer);
  if v_shard is null then
    return false;
  end if;
  if private.has_track_record(p_block.id, p_uid) or private.take_day_share(p_block.owner_id,
       '00000000-0000-0000-0000-000000000000',
       greatest(1, floor(least(coalesce(v_limit, 0) * least(1, greatest(0, v_fresh)), 2e9)))::integer) is not null then
    return true;
  end if;
  update private.address_quota set counted = counted - 1
    where owner_id = p_block.owner_id and address = v_addr
      and day = (now() at time zone 'UTC')::date and shard = v_shard;
  return false;
end;
$$;
revoke execute on function private.take_address_quota(public.blocks, uuid, text) from public;

-- =============================================================================================
-- schemas/responses.sql
-- =============================================================================================

-- Responses (form, ab, like, button) and the visitor RPCs that write them. Visitors have no write
-- rights on the table: every write goes through these security definer functions, which check
-- the block's settings, validate the input with the spec's messages and keep counters in the same
-- transaction. Error codes (PostgREST turns them into HTTP statuses): P0001 invalid input (400),
-- PT401 not signed in, PT403 not allowed, PT404 not found, PT429 limit reached.

create table public.responses (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  kind public.response_kind not null,
  -- the visitor's auth uid (often an anonymous Supabase user); not a foreign key, so a response
  -- outlives the visitor's session user
  creator_id uuid not null,
  creator_name text check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  is_like boolean not null default false,
  timezone text check (char_length(timezone) <= 64),
  -- keyed by question id: {index, title, type, value, option_ids, as_visitor_info}
  answers jsonb not null default '{}'::jsonb check (jsonb_typeof(answers) = 'object'),
  created_at timestamptz not null default now(),
  -- the page a like was given on (one thread per page, issue 18); '' for the block's own
  page_key text not null default '' check (page_key = '' or page_key ~ '^[A-Za-z0-9._:/~-]{1,100}$'),
  -- held by escalation (issue 17): a form response or A/B vote that came in a burst or from an
  -- address beyond its fair share of the owner's quota is kept but not counted (block and option
  -- counters, the owner's monthly quota, webhooks, audience, trigger letters) until the owner
  -- approves it (approve_responses)
  held boolean not null default false,
  check (is_like = (kind = 'like')),
  check (not held or kind in ('form', 'ab'))
);
comment on table public.responses is
  'A visitor''s response to a block: a form or ab submission, a like (one per visitor) or a button click.';
alter table public.responses enable row level security;
revoke insert, update on public.responses from anon, authenticated;
revoke all on public.responses from anon;
-- one like per visitor per page (and a page's like count)
create unique index responses_one_like_per_visitor_idx on public.responses (block_id, page_key, creator_id)
  where kind = 'like';
create unique index responses_one_ab_vote_per_visitor_idx on public.responses (block_id, creator_id)
  where kind = 'ab';
create index responses_block_id_created_at_idx on public.responses (block_id, created_at desc);
create index responses_creator_id_idx on public.responses (creator_id);
-- the held ones of a block (escalation, issue 17), for the owner's results
create index responses_held_idx on public.responses (block_id, created_at desc) where held;

create policy "Owners read their blocks' responses and visitors their own like" on public.responses
  for select to authenticated using (
    (kind = 'like' and creator_id = (select auth.uid()))
    or exists (select 1 from public.blocks b
               where b.id = responses.block_id and b.owner_id = (select auth.uid())));

create policy "Owners can delete responses to their blocks" on public.responses
  for delete to authenticated using (exists (
    select 1 from public.blocks b where b.id = responses.block_id and b.owner_id = (select auth.uid())));

create or replace function private.responses_after_insert()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  -- a held response counts once the owner approves it (responses_after_approve)
  if not new.held then
    perform private.bump_block_counts(new.block_id, 1, 1, (new.kind = 'like')::integer);
  end if;
  return new;
end;
$$;

-- The owner approved a held response: it counts now, with its chosen options.
create or replace function private.responses_after_approve()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  perform private.bump_block_counts(new.block_id, 1, 1, 0);
  perform private.bump_option_counts(new.block_id, private.response_option_ids(new.answers), 1);
  return new;
end;
$$;

-- The option ids a response chose (answers' option_ids of its poll and ab questions).
create function private.response_option_ids(p_answers jsonb)
returns uuid[] language sql immutable set search_path = '' as $$
  select coalesce(array_agg(o.value::uuid), '{}')
    from jsonb_each(p_answers) a,
         jsonb_array_elements_text(case when jsonb_typeof(a.value -> 'option_ids') = 'array'
                                        then a.value -> 'option_ids' else '[]'::jsonb end) o;
$$;
revoke execute on function private.response_option_ids(jsonb) from public;

create or replace function private.responses_after_delete()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  -- a held response was never counted
  if old.held then
    return old;
  end if;
  perform private.bump_block_counts(old.block_id, -1, -1, -(old.kind = 'like')::integer);
  if old.kind in ('form', 'ab') then
    perform private.bump_option_counts(old.block_id, private.response_option_ids(old.answers), -1);
  end if;
  return old;
end;
$$;

-- Submits a form or ab response. p_answers maps question id to the answer: a string for text
-- questions, an option id or an array of option ids for poll and ab (an object {"value": ...}
-- is accepted too). Validates with the spec's rules (a text made only of whitespace is empty, as
-- JavaScript's trim() sees it; text answers are stored trimmed that way), refuses a blocked
-- writer, checks the honeypot and the rate limits (action vote for ab, submit for form), takes
-- the owner's monthly quota, stores the response and counts the chosen options in one
-- transaction (private.bump_option_counts: no row all of a popular form's submits wait for).
-- security definer: see the header.
create or replace function public.submit_response(p_block_id uuid, p_answers jsonb,
  p_creator_name text default null, p_color text default null, p_timezone text default null,
  p_honeypot text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id, v_uid, '{form,ab}');
  v_question public.questions;
  v_raw jsonb;
  v_text text;
  v_ids uuid[];
  v_values jsonb;
  v_all_option_ids uuid[] := '{}';
  v_answers jsonb := '{}'::jsonb;
  v_found integer;
  v_email text;
  v_name text;
  v_response_id uuid;
  v_options jsonb;
  v_action text := case when v_block.type = 'ab' then 'vote' else 'submit' end;
  v_held boolean;
  v_spent boolean;
begin
  if v_block.honeypot then
    perform private.check_honeypot(v_block, p_honeypot);
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Please check response' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color, null, null, p_timezone);
  if exists (select 1 from jsonb_object_keys(p_answers) k
             where not exists (select 1 from public.questions q
                               where q.block_id = p_block_id and not q.deleted and q.id::text = k)) then
    raise exception 'Not valid question' using errcode = 'P0001';
  end if;

  for v_question in
    select * from public.questions where block_id = p_block_id and not deleted order by index, created_at
  loop
    continue when v_question.type in ('description', 'image');
    v_raw := p_answers -> v_question.id::text;
    if jsonb_typeof(v_raw) = 'object' then
      v_raw := v_raw -> 'value';
    end if;
    if v_raw is null or jsonb_typeof(v_raw) = 'null' then
      v_raw := null;
    end if;

    if v_question.type in ('poll', 'ab') then
      if v_raw is not null and jsonb_typeof(v_raw) not in ('string', 'array') then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      if jsonb_typeof(v_raw) = 'string' then
        v_raw := jsonb_build_array(v_raw);
      end if;
      v_raw := coalesce(v_raw, '[]'::jsonb);
      if exists (select 1 from jsonb_array_elements(v_raw) e
                 where jsonb_typeof(e) <> 'string' or (e #>> '{}') !~* '^[0-9a-f-]{36}$') then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      select coalesce(array_agg(distinct (e #>> '{}')::uuid), '{}') into v_ids from jsonb_array_elements(v_raw) e;
      if cardinality(v_ids) = 0 then
        if v_question.required then
          raise exception 'Required' using errcode = 'P0001', detail = v_question.id::text;
        end if;
        continue;
      end if;
      if cardinality(v_ids) > 1 and (v_question.type = 'ab' or not v_question.allow_multi_select) then
        raise exception 'Choose one option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      select coalesce(jsonb_agg(o.value order by o.index), '[]'::jsonb), count(*) into v_values, v_found
        from public.options o where o.id = any (v_ids) and o.question_id = v_question.id and not o.deleted;
      if v_found <> cardinality(v_ids) then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      v_all_option_ids := v_all_option_ids || v_ids;
      v_answers := v_answers || jsonb_build_object(v_question.id::text, jsonb_build_object(
        'index', v_question.index, 'title', v_question.title, 'type', v_question.type,
        'value', v_values, 'option_ids', to_jsonb(v_ids), 'as_visitor_info', v_question.as_visitor_info));
      continue;
    end if;

    -- text-like questions
    if v_raw is not null and jsonb_typeof(v_raw) not in ('string', 'number') then
      raise exception 'Please check response' using errcode = 'P0001', detail = v_question.id::text;
    end if;
    v_text := nullif(private.trim_whitespace(v_raw #>> '{}'), '');
    if v_text is null then
      if v_question.required then
        raise exception 'Required' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      continue;
    end if;
    case v_question.type
      when 'short_text' then
        if char_length(v_text) > 300 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'long_text' then
        if char_length(v_text) > 1000 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'mail' then
        if char_length(v_text) > 50 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
        if not private.is_valid_email(v_text) then
          raise exception 'Invalid email address.' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'phone' then
        if v_text !~ '^[0-9 -]{1,20}$' then
          raise exception 'Invalid phone number' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'number' then
        if v_text !~ '^[-+]?[0-9]{1,18}$' then
          raise exception 'Not a number' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      else
        null;
    end case;
    if v_question.as_visitor_info = 'email' and v_question.type = 'mail' then
      v_email := v_text;
    elsif v_question.as_visitor_info = 'name' then
      v_name := left(v_text, 100);
    end if;
    v_answers := v_answers || jsonb_build_object(v_question.id::text, jsonb_build_object(
      'index', v_question.index, 'title', v_question.title, 'type', v_question.type,
      'value', v_text, 'as_visitor_info', v_question.as_visitor_info));
  end loop;

  if v_block.type = 'ab' and exists (
      select 1 from public.responses where block_id = p_block_id and kind = 'ab' and creator_id = v_uid) then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;

  -- before the quota: a refused submit never touches the owner's row. Escalation (issue 17): in a
  -- burst (the block's bucket spent), or from an address that has counted its share of the
  -- owner's monthly responses today, a visitor without a track record is kept but held: not
  -- counted until the owner approves it (docs/data-model.md "When a shared budget is under
  -- pressure")
  v_held := private.check_rate_limit(v_block, v_uid, v_action);
  if not v_held then
    v_held := not private.take_address_quota(v_block, v_uid, v_action);
  end if;

  -- the owner's monthly quota: one of the owner's count shards, never a row all their visitors
  -- share (private.take_response_quota); a held response takes none, but once the month is spent
  -- it is refused as any other (it could not be approved this month)
  if v_held then
    v_spent := private.monthly_response_count(v_block.owner_id)
               >= (select response_monthly_limit from public.profiles where id = v_block.owner_id);
  else
    v_spent := not private.take_response_quota(v_block.owner_id, 1);
  end if;
  if v_spent then
    -- until the count starts again: the first of next month (UTC)
    perform private.refuse_limit(v_action, 'owner',
      extract(epoch from (date_trunc('month', now() at time zone 'UTC') + interval '1 month') - now() at time zone 'UTC'),
      'quota');
  end if;

  insert into public.responses (block_id, kind, creator_id, creator_name, color, timezone, answers, held)
    values (p_block_id, v_block.type::text::public.response_kind, v_uid,
            coalesce(v_name, p_creator_name), p_color, p_timezone, v_answers, v_held)
    on conflict (block_id, creator_id) where kind = 'ab' do nothing
    returning id into v_response_id;
  if v_response_id is null then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;
  if v_held then
    -- counted, in the audience and its letters once the owner approves it (approve_responses)
    return jsonb_build_object(
      'id', v_response_id, 'held', true,
      'response_count', (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = p_block_id),
      'options', private.option_counts(v_all_option_ids));
  end if;

  -- the chosen options' counts: on their rows, or beside them when another submit holds them (a
  -- popular form or A/B), and answered exact (the A/B shows its bars from them)
  perform private.bump_option_counts(p_block_id, v_all_option_ids, 1);
  v_options := private.option_counts(v_all_option_ids);

  perform private.record_audience_event(v_block, v_uid, coalesce(v_name, p_creator_name), null, p_color, v_email);
  -- the letters its mail questions send by themselves, queued with the response (letter-triggers.sql)
  perform private.enqueue_trigger_letters(v_block, v_response_id, v_answers);

  return jsonb_build_object(
    'id', v_response_id, 'held', false,
    'response_count', (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = p_block_id),
    'options', v_options);
end;
$$;
comment on function public.submit_response(uuid, jsonb, text, text, text, text) is
  'Submits a form or ab response. Errors: Required, Too long message, Invalid email address., Invalid phone number, Not a number, Choose one option, Invalid option, Already voted, The owner of this block has blocked you from writing here., This was not sent: it looked automated., a 429 that says what is refused and for how long (the visitor''s or the block''s limit, the owner''s monthly responses: docs/data-model.md), block doesn''t exists.';
revoke execute on function public.submit_response(uuid, jsonb, text, text, text, text) from public, anon;

-- The owner approves responses held by escalation (issue 17): each counts now (block and option
-- counters by trigger, the owner's monthly quota, the audience and the letters its mail questions
-- send), as it would have when it came in. All or nothing: a response of another owner's block
-- refuses the whole call, and so does a quota that cannot take them all (nothing is approved;
-- the error says how many are left this month). Responses not held are left as they are.
create function public.approve_responses(p_response_ids uuid[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_row public.responses;
  v_block public.blocks;
  v_n integer;
  v_left integer;
begin
  if p_response_ids is null or cardinality(p_response_ids) not between 1 and 200 then
    raise exception 'Choose 1 to 200 responses' using errcode = 'P0001';
  end if;
  if exists (select 1 from unnest(p_response_ids) i(id)
             left join public.responses r on r.id = i.id
             left join public.blocks b on b.id = r.block_id
             where b.owner_id is distinct from v_uid) then
    raise exception 'Only the block owner can approve responses' using errcode = 'PT403';
  end if;
  perform 1 from public.responses where id = any (p_response_ids) and held order by id for update;
  select count(*) into v_n from public.responses where id = any (p_response_ids) and held;
  if v_n > 0 and not private.take_response_quota(v_uid, v_n) then
    v_left := greatest(coalesce((select response_monthly_limit from public.profiles where id = v_uid), 0)
                       - private.monthly_response_count(v_uid), 0);
    raise exception 'Monthly response limit reached: % left this month, % to approve.', v_left, v_n
      using errcode = 'P0001', detail = 'quota',
            hint = jsonb_build_object('left', v_left, 'approving', v_n)::text;
  end if;
  for v_row in select * from public.responses where id = any (p_response_ids) and held order by created_at, id loop
    select * into v_block from public.blocks where id = v_row.block_id;
    update public.responses set held = false where id = v_row.id;
    perform private.record_audience_event(v_block, v_row.creator_id, v_row.creator_name, null, v_row.color,
      (select a.value ->> 'value' from jsonb_each(v_row.answers) a
       where a.value ->> 'as_visitor_info' = 'email' and a.value ->> 'type' = 'mail' limit 1));
    perform private.enqueue_trigger_letters(v_block, v_row.id, v_row.answers);
  end loop;
  return jsonb_build_object('approved', v_n);
end;
$$;
comment on function public.approve_responses(uuid[]) is
  'Approves form responses and A/B votes held by escalation: they count from now (counters, the monthly quota, audience, trigger letters). Errors: Choose 1 to 200 responses, Only the block owner can approve responses (PT403), Monthly response limit reached (details quota; nothing approved).';
revoke execute on function public.approve_responses(uuid[]) from public, anon;

-- One like per visitor and like block; p_liked sets the state instead of toggling. Only a call
-- that changes the state spends a token. like_count is kept by the responses triggers.
-- security definer: see the header.
create function public.toggle_block_like(p_block_id uuid, p_creator_name text default null, p_color text default null,
                                         p_liked boolean default null, p_page_key text default '')
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id, v_uid, '{like}');
  v_page text := private.check_page_key(v_block, p_page_key);
  v_has boolean;
  v_want boolean;
begin
  perform private.check_visitor_fields(p_creator_name, p_color);
  v_has := exists (select 1 from public.responses
                   where block_id = p_block_id and page_key = v_page and kind = 'like' and creator_id = v_uid);
  v_want := coalesce(p_liked, not v_has);
  if v_want <> v_has then
    perform private.check_rate_limit(v_block, v_uid, 'like');
    if v_want then
      insert into public.responses (block_id, kind, creator_id, creator_name, color, is_like, page_key)
        values (p_block_id, 'like', v_uid, p_creator_name, p_color, true, v_page)
        on conflict (block_id, page_key, creator_id) where kind = 'like' do nothing;
      if found then
        perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
      end if;
    else
      delete from public.responses
        where block_id = p_block_id and page_key = v_page and kind = 'like' and creator_id = v_uid;
    end if;
  end if;

  return jsonb_build_object('liked', v_want,
    'like_count', case when v_page = ''
      then (select (private.with_live_counts(b)).like_count from public.blocks b where b.id = p_block_id)
      else (select count(*) from public.responses r
            where r.block_id = p_block_id and r.page_key = v_page and r.kind = 'like') end);
end;
$$;
comment on function public.toggle_block_like(uuid, text, text, boolean, text) is
  'Likes or unlikes a like block (p_liked, or the opposite of now) on the page p_page_key; answers liked and the like count (of the page). Errors: Not supported block, Not valid page key, block doesn''t exists, You''re going too fast (429).';
revoke execute on function public.toggle_block_like(uuid, text, text, boolean, text) from public, anon;

-- Records a click on a button block. security definer: see the header.
create or replace function public.record_button_click(p_block_id uuid,
  p_creator_name text default null, p_color text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id, v_uid, '{button}');
begin
  perform private.check_visitor_fields(p_creator_name, p_color);
  perform private.check_rate_limit(v_block, v_uid, 'click');
  insert into public.responses (block_id, kind, creator_id, creator_name, color)
    values (p_block_id, 'button', v_uid, p_creator_name, p_color);
  perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
  return jsonb_build_object('response_count', (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = p_block_id));
end;
$$;
revoke execute on function public.record_button_click(uuid, text, text) from public, anon;

create trigger responses_after_insert after insert on public.responses
  for each row execute function private.responses_after_insert();
create trigger responses_after_approve after update of held on public.responses
  for each row when (old.held and not new.held) execute function private.responses_after_approve();
create trigger responses_after_delete after delete on public.responses
  for each row execute function private.responses_after_delete();

-- =============================================================================================
-- schemas/messages.sql
-- =============================================================================================

-- Comment and Q&A messages (one level of replies), the commenter's private notification e-mail,
-- per-user message likes, and the visitor RPCs that write them (security definer, as in
-- responses.sql: visitors have no write rights on these tables). Counters are kept by triggers
-- with relative updates, so they stay right under concurrency and when the owner deletes rows.

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  parent_id uuid,
  creator_id uuid not null,
  creator_name text not null default '' check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  home_url text check (char_length(home_url) <= 500),
  content text not null check (char_length(btrim(content)) > 0 and char_length(content) <= 500),
  is_edited boolean not null default false,
  resolved boolean not null default false,
  like_count integer not null default 0 check (like_count >= 0),
  reply_count integer not null default 0 check (reply_count >= 0),
  timezone text check (char_length(timezone) <= 64),
  created_at timestamptz not null default now(),
  -- visitor trust (issue 9)
  status text not null default 'published' check (status in ('published', 'held', 'hidden')),
  pinned_at timestamptz,
  imitates_owner boolean not null default false,
  -- one thread per page (issue 18, docs/cafe24.md): '' is the block's own thread
  page_key text not null default '' check (page_key = '' or page_key ~ '^[A-Za-z0-9._:/~-]{1,100}$'),
  unique (id, block_id),
  foreign key (parent_id, block_id) references public.messages (id, block_id) on delete cascade,
  constraint messages_pins_top_level_only check (pinned_at is null or parent_id is null)
)
-- like and reply counts update in place (when no other write holds the row: counters above) and
-- stay HOT (heap-only tuples)
with (fillfactor = 85);
comment on table public.messages is
  'Comment and Q&A messages; parent_id makes a reply (one level only). Published ones are public with the block; held and hidden ones are not served to others. No email here.';
comment on column public.messages.status is
  'published (everyone), held (waiting for the owner''s approval: the writer and the owner), hidden (the owner only).';
comment on column public.messages.pinned_at is 'Pinned to the top by the owner (top-level messages), or null.';
comment on column public.messages.page_key is
  'The page whose thread this message belongs to ('''' for the block''s own thread); a reply has its parent''s.';
comment on column public.messages.imitates_owner is
  'The writer''s name reads like the owner''s label or name (set by post_message for anyone but the owner); the elements mark it.';
alter table public.messages enable row level security;
revoke insert, update, delete on public.messages from anon, authenticated;

-- ---- one thread per page (issue 18, docs/cafe24.md) ----

-- The caller's page key, checked: '' or the key format, and only on block types with threads or
-- likes. Errors: Not valid page key.
create function private.check_page_key(p_block public.blocks, p_page_key text)
returns text language plpgsql immutable set search_path = '' as $$
declare
  v_key text := coalesce(p_page_key, '');
begin
  if v_key = '' then
    return '';
  end if;
  if v_key !~ '^[A-Za-z0-9._:/~-]{1,100}$' or p_block.type not in ('comment', 'qna', 'like') then
    raise exception 'Not valid page key' using errcode = 'P0001';
  end if;
  return v_key;
end;
$$;

-- A page's counts, to lay over the block's totals ({} for the block's own thread).
create function private.page_counts_json(p_block public.blocks, p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  select case when coalesce(p_page_key, '') = '' then '{}'::jsonb
    when p_block.type in ('comment', 'qna') then jsonb_build_object(
      'page_key', p_page_key, 'like_count', 0,
      'response_count', (select count(*) from public.messages m
                         where m.block_id = p_block.id and m.page_key = p_page_key
                           and m.status = 'published'))
    else jsonb_build_object(
      'page_key', p_page_key,
      'like_count', (select count(*) from public.responses r
                     where r.block_id = p_block.id and r.page_key = p_page_key and r.kind = 'like'),
      'response_count', (select count(*) from public.responses r
                         where r.block_id = p_block.id and r.page_key = p_page_key and r.kind = 'like'))
  end;
$$;

revoke all on function private.check_page_key(public.blocks, text) from public;
revoke all on function private.page_counts_json(public.blocks, text) from public;
-- threads of one page, newest first; a page's message count
create index messages_block_id_page_top_level_idx on public.messages (block_id, page_key, created_at desc)
  where parent_id is null;
create index messages_block_id_page_key_idx on public.messages (block_id, page_key) where page_key <> '';
create index messages_parent_id_created_at_idx on public.messages (parent_id, created_at);
create index messages_creator_id_idx on public.messages (creator_id);
-- The messages the read paths must treat apart (held, hidden, pinned): an entry only for those,
-- so a block without any answers "none" from an empty range (get_block_view's fast path).
create index messages_block_id_special_idx on public.messages (block_id, created_at desc)
  where status <> 'published' or pinned_at is not null;
create index messages_block_id_pinned_idx on public.messages (block_id, pinned_at desc)
  where pinned_at is not null;

create policy "Anyone can read published messages of published blocks" on public.messages
  for select to anon using (status = 'published' and private.block_is_published(block_id));

create policy "Users can read published messages, their own held ones and all of their blocks'" on public.messages
  for select to authenticated using (
    ((status = 'published' or (status = 'held' and creator_id = (select auth.uid())))
       and private.block_is_published(block_id))
    or private.is_block_owner(block_id));

create table public.message_private (
  message_id uuid primary key,
  block_id uuid not null,
  creator_email text not null check (char_length(creator_email) <= 50),
  foreign key (message_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.message_private is
  'Notification email a commenter left with a top-level message; readable by the block owner and the author only.';
call private.clients_read('public.message_private', 'Block owners and authors can read commenter emails',
  'exists (select 1 from public.blocks b
          where b.id = message_private.block_id and b.owner_id = (select auth.uid()))
  or exists (select 1 from public.messages m
             where m.id = message_private.message_id and m.creator_id = (select auth.uid()))');
create index message_private_block_id_idx on public.message_private (block_id);

create table public.message_likes (
  message_id uuid not null references public.messages (id) on delete cascade,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (message_id, user_id)
);
comment on table public.message_likes is 'One like per user and message; messages.like_count (with private.message_count_deltas) follows it.';
call private.clients_read('public.message_likes', 'Users can read their own message likes',
  'user_id = (select auth.uid())');
create index message_likes_user_id_idx on public.message_likes (user_id);

-- A message's like and reply counts, as a block's counters (counters.sql): on the message's row
-- when no other write holds it, else on a delta row of a shard no other write holds, folded back
-- by pg_cron fold-counters. A like of a popular comment never waits for another visitor's open
-- like or reply of it (breaker break6: it queued behind each, the row updated in place).
create table private.message_count_deltas (
  message_id uuid not null references public.messages (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  like_count integer not null default 0,
  reply_count integer not null default 0,
  primary key (message_id, shard)
) with (fillfactor = 70);
alter table private.message_count_deltas enable row level security;
comment on table private.message_count_deltas is
  'Changes to a message''s like_count and reply_count made while another write held the message row (one row per message and writer shard); folded into public.messages by pg_cron fold-counters. A message''s counts are the row''s plus these (private.live_message_json). No client role can read it.';

-- Adds to a message's like and reply counts: on the row when no other write holds it or is taking
-- it (its turn, one write at a time, as bump_block_counts'), and the change keeps the counts
-- non-negative; else on a delta row of a free shard. Then announces the counts to the block's
-- viewers (realtime.sql). A message being deleted (its replies' deletes cascading here) gets
-- neither.
create function private.bump_message_counts(p_message_id uuid, p_likes integer, p_replies integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_on_row boolean := false;
begin
  if pg_try_advisory_xact_lock(hashtext('message_count_row:' || p_message_id), 0) then
    update public.messages
      set like_count = like_count + p_likes, reply_count = reply_count + p_replies
      where id = (select id from public.messages where id = p_message_id for no key update skip locked)
        and like_count + p_likes >= 0 and reply_count + p_replies >= 0;
    v_on_row := found;
  end if;
  if not v_on_row then
    insert into private.message_count_deltas as d (message_id, shard, like_count, reply_count)
      select m.id, private.free_shard('message_count_deltas:' || m.id, pg_backend_pid() % 32, 32),
             p_likes, p_replies
      from public.messages m where m.id = p_message_id
      on conflict (message_id, shard) do update
        set like_count = d.like_count + excluded.like_count, reply_count = d.reply_count + excluded.reply_count;
  end if;
  perform private.send_message_counts(p_message_id, p_likes, p_replies);
end;
$$;
revoke execute on function private.bump_message_counts(uuid, integer, integer) from public;

-- A message as visitors and the owner read it (to_jsonb of its row) with its exact counts: the
-- row's plus the deltas not folded yet (one probe of an index that is empty for a message nobody
-- is liking or answering at the moment). Every reader of the counts goes through it: the block
-- view, list_messages, get_block_me, the write RPCs' answers, moderation_messages, live changes.
create function private.live_message_json(p_message jsonb)
returns jsonb language sql stable set search_path = '' as $$
  select case when count(*) = 0 then p_message
    else p_message || jsonb_build_object(
      'like_count', greatest((p_message ->> 'like_count')::integer + sum(d.like_count), 0),
      'reply_count', greatest((p_message ->> 'reply_count')::integer + sum(d.reply_count), 0)) end
  from private.message_count_deltas d where d.message_id = (p_message ->> 'id')::uuid;
$$;
revoke execute on function private.live_message_json(jsonb) from public;

-- one level of replies; a reply has no resolved state
create or replace function private.messages_before_insert()
returns trigger language plpgsql set search_path = '' as $$
declare
  v_parent public.messages;
begin
  if new.parent_id is not null then
    select * into v_parent from public.messages where id = new.parent_id;
    if v_parent.parent_id is not null then
      raise exception 'Replies nest one level only' using errcode = 'P0001';
    end if;
    new.resolved := false;
    new.page_key := coalesce(v_parent.page_key, '');
  end if;
  return new;
end;
$$;

-- The block's response_count and new_response_count and the parent's reply_count count the
-- published messages only (break8 F5): a held one counts when the owner approves it, never if it
-- is rejected (deleted or hidden); one held again (an edit) or hidden stops counting, and counts
-- again when published. Readers see as many as are counted, and a reply waiting for approval is no
-- `counts` change of the public topic.
create function private.count_published_message(p_message public.messages, p_delta integer)
returns void language plpgsql set search_path = '' as $$
begin
  perform private.bump_block_counts(p_message.block_id, p_delta, p_delta, 0);
  if p_message.parent_id is not null then
    perform private.bump_message_counts(p_message.parent_id, 0, p_delta);
  end if;
end;
$$;
revoke execute on function private.count_published_message(public.messages, integer) from public;

-- A message counts out as it leaves published (deleted, held, hidden) and in as it becomes
-- published (inserted so, approved, shown again): the triggers messages_after_insert,
-- messages_after_delete and messages_after_status (published <-> held or hidden: approve, hide,
-- unhide, an edit held again).
create function private.messages_count_published()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_op <> 'INSERT' and old.status = 'published' then
    perform private.count_published_message(old, -1);
  end if;
  if tg_op <> 'DELETE' and new.status = 'published' then
    perform private.count_published_message(new, 1);
  end if;
  return null;
end;
$$;
revoke execute on function private.messages_count_published() from public;

create function private.message_likes_after_change()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform private.bump_message_counts(new.message_id, 1, 0);
    return new;
  end if;
  perform private.bump_message_counts(old.message_id, -1, 0);
  return old;
end;
$$;

create or replace function private.check_message_content(p_content text)
returns text language plpgsql immutable set search_path = '' as $$
begin
  if p_content is null or private.trim_whitespace(p_content) = '' then
    raise exception 'Message cannot be empty' using errcode = 'P0001';
  end if;
  if char_length(p_content) > 500 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  return p_content;
end;
$$;
revoke execute on function private.check_message_content(text) from public;

-- A visitor's short fields (a comment's, a form's, a like's): the contracts' rules
-- (VISITOR_COLOR_RE, BIDI_CONTROL_RE; visitor-checks.sql; contracts.test.ts runs both on the same
-- cases). Each refusal says invalid_input in its detail, which the elements say in the block's
-- language. No exception block: a visitor write costs no subtransaction here.
create function private.check_visitor_fields(p_creator_name text, p_color text,
                                              p_photo_url text default null, p_home_url text default null,
                                              p_timezone text default null)
returns void language plpgsql immutable set search_path = '' as $$
begin
  if char_length(p_creator_name) > 100 then
    raise exception 'Too long name' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  -- a bidi embedding, override or isolate would let a name read as another's ('\u202eOwner')
  if private.has_bidi_control(p_creator_name) then
    raise exception 'Invalid name' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  -- a colour as the elements draw an avatar with (#rgb or #rrggbb; the SDK sends #rrggbb), or
  -- none ('' or null): only its length was checked, and 'red;}' was stored as given
  if nullif(p_color, '') is not null and not private.is_visitor_color(p_color) then
    raise exception 'Invalid color' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  if char_length(p_photo_url) > 500 or char_length(p_home_url) > 500 then
    raise exception 'Too long URL' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  if char_length(p_timezone) > 64 then
    raise exception 'Invalid timezone' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  -- The zone's name is not checked against Postgres's zone table: it is the visitor's browser's
  -- word (Intl), shown to the owner as text and never computed with, and a browser can name a
  -- zone this server's tzdata is too old to know, or 'Etc/Unknown' (Chrome, no system zone):
  -- refusing it refused that visitor's every write (and its check cost a subtransaction a write).
end;
$$;
revoke execute on function private.check_visitor_fields(text, text, text, text, text) from public;

-- Loads a message for a change and checks its block is published.
create function private.message_for_update(p_message_id uuid)
returns public.messages language plpgsql set search_path = '' as $$
declare
  v_message public.messages;
begin
  select m.* into v_message from public.messages m
    join public.blocks b on b.id = m.block_id and not b.deactivated
    where m.id = p_message_id
    for update of m;
  if not found then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  return v_message;
end;
$$;
revoke execute on function private.message_for_update(uuid) from public;

-- Posts a comment, question or reply. security definer: see the header.
create function public.post_message(p_block_id uuid, p_parent_id uuid default null, p_content text default null,
                                    p_creator_name text default null, p_color text default null,
                                    p_creator_photo_url text default null, p_home_url text default null,
                                    p_creator_email text default null, p_timezone text default null,
                                    p_honeypot text default null, p_page_key text default '')
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id, v_uid, '{comment,qna}');
  v_page text := private.check_page_key(v_block, p_page_key);
  v_parent public.messages;
  v_message public.messages;
  v_email text := nullif(btrim(p_creator_email), '');
  v_name text := coalesce(btrim(p_creator_name), '');
  v_held boolean;
  v_refusal text;
  v_refusal_detail text;
  v_refusal_hint text;
begin
  if v_block.block_anonymous and private.is_anonymous_caller() then
    raise exception 'Please sign in to leave a message.' using errcode = 'PT403';
  end if;
  -- the other trust checks, written out where they are cheap (the blocked writer: visible_block)
  if v_block.honeypot then
    perform private.check_honeypot(v_block, p_honeypot);
  end if;
  perform private.check_message_content(p_content);
  perform private.check_visitor_fields(p_creator_name, p_color, p_creator_photo_url, p_home_url, p_timezone);
  if nullif(p_creator_photo_url, '') is not null or nullif(p_home_url, '') is not null then
    perform private.check_visitor_urls(p_creator_photo_url, p_home_url);
  end if;

  if p_parent_id is not null then
    select * into v_parent from public.messages where id = p_parent_id and block_id = p_block_id;
    if not found or not private.message_visible(v_parent, v_uid, v_uid = v_block.owner_id) then
      raise exception 'message doesn''t exists' using errcode = 'PT404';
    end if;
    if v_parent.parent_id is not null then
      raise exception 'Replies nest one level only' using errcode = 'P0001';
    end if;
    if not v_block.allow_reply then
      raise exception 'Replies are turned off' using errcode = 'PT403';
    end if;
    if v_block.admin_only_reply and v_uid <> v_block.owner_id then
      raise exception 'Only the owner can reply' using errcode = 'PT403';
    end if;
    -- a reply is on its parent's page (the trigger says so too)
    v_page := v_parent.page_key;
  end if;

  -- a resubmission of the same content by the same author within 3000 ms is ignored (before
  -- the limits: a double click spends one token)
  perform pg_advisory_xact_lock(hashtextextended(v_uid::text || p_block_id::text, 0));
  select * into v_message from public.messages
    where block_id = p_block_id and creator_id = v_uid and parent_id is not distinct from p_parent_id
      and page_key = v_page
      and content = p_content and created_at > clock_timestamp() - interval '3000 milliseconds'
    order by created_at desc limit 1;
  if found then
    return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id);
  end if;

  -- true when a spent shared budget holds the message for the owner (escalation, trust.sql)
  begin
    v_held := private.check_rate_limit(v_block, v_uid, 'message');
  exception when sqlstate 'PGRST' then
    -- Refused, with the address's share spent: its burst is held all the same. The refusal
    -- rolled back what the check took (its tokens; a hold made there too), so the hold is made
    -- here, after it, and the 429 is answered without an error, which would roll the hold back
    -- (PostgREST commits and answers the status and headers set: the same body and Retry-After).
    get stacked diagnostics v_refusal = message_text, v_refusal_detail = pg_exception_detail,
                            v_refusal_hint = pg_exception_hint;
    if v_refusal_hint is distinct from 'hold_address_burst' then
      raise;
    end if;
    perform private.hold_address_burst(v_block, private.address_key(private.client_address()), clock_timestamp());
    perform set_config('response.status', '429', true),
            set_config('response.headers', jsonb_build_array(v_refusal_detail::jsonb -> 'headers')::text, true);
    return v_refusal::jsonb;
  end;

  insert into public.messages (block_id, parent_id, creator_id, creator_name, creator_photo_url, color,
                               home_url, content, timezone, created_at, status, imitates_owner, page_key)
    values (p_block_id, p_parent_id, v_uid, v_name, nullif(p_creator_photo_url, ''),
            p_color, nullif(p_home_url, ''), p_content, p_timezone, clock_timestamp(),
            case when v_held then 'held'
                 when v_block.hold_messages = 'off' then 'published'
                 else private.hold_status(v_block, v_uid, p_content) end,
            v_uid <> v_block.owner_id and private.imitates_owner(v_block, v_name), v_page)
    returning * into v_message;
  if v_held then
    insert into private.escalated_messages (message_id) values (v_message.id);
  end if;

  -- the notification email is kept only for top-level messages of blocks that ask for it
  if p_parent_id is null and v_block.allow_creator_email and v_email is not null
     and char_length(v_email) <= 50 and private.is_valid_email(v_email) then
    insert into public.message_private (message_id, block_id, creator_email)
      values (v_message.id, p_block_id, v_email);
  else
    v_email := null;
  end if;

  perform private.record_audience_event(v_block, v_uid, p_creator_name, nullif(p_creator_photo_url, ''), p_color, v_email);
  -- replies are mailed only to an address that confirmed it wants them, for this writer on this
  -- owner's blocks (mail-consent.sql). Unless it is that, the writer is told the same whatever the
  -- address's state (new, asked today, suppressed, confirmed for someone else, over a cap):
  -- 'pending', so the answer says nothing about an address that is not theirs.
  if v_email is not null
     and private.ask_mail_consent(v_email, v_block.owner_id, v_uid, p_block_id,
                                  private.request_locale(v_block.language)) <> 'confirmed' then
    return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id)
           || jsonb_build_object('email_confirmation', 'pending');
  end if;
  return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id);
end;
$$;
comment on function public.post_message(uuid, uuid, text, text, text, text, text, text, text, text, text) is
  'Posts a message or a one-level reply (held for approval when the block says so), in the thread of p_page_key (a reply: its parent''s). Errors: Please sign in to leave a message., Message cannot be empty, Too long message, Invalid avatar URL, Invalid home URL, Replies are turned off, Only the owner can reply, The owner of this block has blocked you from writing here., This was not sent: it looked automated., a 429 that says what is refused and for how long (docs/data-model.md), Not valid page key, block doesn''t exists. Held for approval when a shared budget is spent and the writer has no track record here.';
revoke execute on function public.post_message(uuid, uuid, text, text, text, text, text, text, text, text, text) from public, anon;

-- Author edits their message (a message waiting for approval too). Under the block's hold
-- setting an edit may be held again. security definer: see the header.
create or replace function public.edit_message(p_message_id uuid, p_content text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid, true);
  v_block public.blocks := private.visible_block(v_message.block_id);
begin
  if v_message.creator_id <> v_uid then
    raise exception 'Only the author can edit this message' using errcode = 'PT403';
  end if;
  perform private.check_writer(v_block, v_uid);
  perform private.check_message_content(p_content);
  perform private.check_rate_limit(v_block, v_uid, 'edit');
  update public.messages
    set content = p_content, is_edited = true,
        status = case when status = 'held' then 'held' else private.hold_status(v_block, v_uid, p_content) end
    where id = p_message_id returning * into v_message;
  return private.message_json(v_message, v_uid);
end;
$$;
revoke execute on function public.edit_message(uuid, text) from public, anon;

-- Author or block owner deletes a message (with its replies). security definer: see the header.
create or replace function public.delete_message(p_message_id uuid)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid, true);
begin
  if v_message.creator_id <> v_uid
     and not exists (select 1 from public.blocks where id = v_message.block_id and owner_id = v_uid) then
    raise exception 'Only the author or the block owner can delete this message' using errcode = 'PT403';
  end if;
  delete from public.messages where id = p_message_id;
  return jsonb_build_object('id', p_message_id, 'deleted', true);
end;
$$;
revoke execute on function public.delete_message(uuid) from public, anon;

-- Likes or unlikes a message for the caller; p_liked sets the state instead of toggling. Only a
-- call that changes the state spends a token. security definer: see the header.
create or replace function public.toggle_message_like(p_message_id uuid,
  p_liked boolean default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid);
  v_block public.blocks := private.visible_block(v_message.block_id);
  v_has boolean;
  v_want boolean;
begin
  if not v_block.allow_reaction then
    raise exception 'Reactions are turned off' using errcode = 'PT403';
  end if;
  perform private.check_writer(v_block, v_uid);
  v_has := exists (select 1 from public.message_likes where message_id = p_message_id and user_id = v_uid);
  v_want := coalesce(p_liked, not v_has);
  if v_want <> v_has then
    perform private.check_rate_limit(v_block, v_uid, 'like');
    if v_want then
      insert into public.message_likes (message_id, user_id) values (p_message_id, v_uid)
        on conflict do nothing;
    else
      delete from public.message_likes where message_id = p_message_id and user_id = v_uid;
    end if;
  end if;

  return jsonb_build_object('liked', v_want,
    'like_count', (select private.live_message_json(to_jsonb(m)) -> 'like_count'
                   from public.messages m where m.id = p_message_id));
end;
$$;
revoke execute on function public.toggle_message_like(uuid, boolean) from public, anon;

-- Block owner resolves or reopens a top-level message. security definer: see the header.
create function public.set_message_resolved(p_message_id uuid, p_resolved boolean)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.message_for_update(p_message_id);
begin
  if not exists (select 1 from public.blocks where id = v_message.block_id and owner_id = v_uid) then
    raise exception 'Only the block owner can resolve messages' using errcode = 'PT403';
  end if;
  if v_message.parent_id is not null then
    raise exception 'Only top-level messages can be resolved' using errcode = 'P0001';
  end if;
  update public.messages set resolved = coalesce(p_resolved, false)
    where id = p_message_id returning * into v_message;
  return private.message_json(v_message, v_uid);
end;
$$;
revoke execute on function public.set_message_resolved(uuid, boolean) from public, anon;

create trigger messages_before_insert before insert on public.messages
  for each row execute function private.messages_before_insert();
create trigger messages_after_insert after insert on public.messages
  for each row execute function private.messages_count_published();
create trigger messages_after_delete after delete on public.messages
  for each row execute function private.messages_count_published();
create trigger messages_after_status after update of status on public.messages
  for each row when ((old.status = 'published') <> (new.status = 'published'))
  execute function private.messages_count_published();
create trigger message_likes_after_change after insert or delete on public.message_likes
  for each row execute function private.message_likes_after_change();

-- =============================================================================================
-- schemas/captcha.sql
-- =============================================================================================

-- Captcha passes (issue 9): once a visitor trips the limits (or a block under pressure escalates),
-- the elements show the platform's captcha; a solved one buys a few writes past the limits of
-- one block (trust.sql private.check_rate_limit spends them). The site key and script are
-- settings (`captcha.site_key`, `captcha.script_url`); the secret check is the verify-captcha
-- function's.

-- A solved captcha lets the visitor past the limits of one block a few more times.
create table private.captcha_passes (
  block_id uuid not null references public.blocks (id) on delete cascade,
  user_id uuid not null,
  uses_left integer not null check (uses_left >= 0),
  expires_at timestamptz not null,
  primary key (block_id, user_id)
);
comment on table private.captcha_passes is
  'What a solved captcha buys: uses_left writes past the rate limits of one block until expires_at (settings captcha.pass_uses, captcha.pass_minutes).';
alter table private.captcha_passes enable row level security;

-- Tokens already used (by hash): a replayed token is refused even if the provider took it.
create table private.captcha_tokens (
  token_hash text primary key check (char_length(token_hash) = 64),
  created_at timestamptz not null default now()
);
comment on table private.captcha_tokens is 'SHA-256 of the captcha tokens already spent (purged after a day).';
alter table private.captcha_tokens enable row level security;

-- The captcha the elements show once the limits trip: null until an operator set the site key.
create function private.captcha_config()
returns jsonb language sql stable set search_path = '' as $$
  select case when coalesce(k.site_key, '') <> '' then jsonb_build_object(
           'provider', 'turnstile',
           'site_key', k.site_key,
           'script_url', private.setting('captcha.script_url',
             '"https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit"'::jsonb) #>> '{}')
         end
  from (select private.setting('captcha.site_key', 'null'::jsonb) #>> '{}' as site_key) k;
$$;
revoke execute on function private.captcha_config() from public;

-- Whether a block asks for the captcha: it is active, and either the platform escalates every block
-- to it when a shared budget is spent (limits.escalation, on by default) or a paid block asks for it
-- at a visitor's own limit too (blocks.captcha). verify-captcha asks this before the provider spends
-- the visitor's token, and grant_captcha_pass after it: one rule for both.
create function public.captcha_wanted(p_block_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.blocks
    where id = p_block_id and not deactivated
      and (captcha or coalesce((private.setting('limits.escalation', 'true'::jsonb) #>> '{}')::boolean, true)));
$$;
revoke execute on function public.captcha_wanted(uuid) from public, anon, authenticated;

-- Records a captcha the provider accepted for a visitor on a block: captcha.pass_uses (10)
-- writes past the limits within captcha.pass_minutes (10). A token seen before is refused.
create function public.grant_captcha_pass(p_user_id uuid, p_block_id uuid, p_token_hash text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uses integer := coalesce((private.setting('captcha.pass_uses', '10'::jsonb) #>> '{}')::integer, 10);
  v_minutes integer := coalesce((private.setting('captcha.pass_minutes', '10'::jsonb) #>> '{}')::integer, 10);
  v_expires timestamptz := now() + make_interval(mins => v_minutes);
begin
  if not public.captcha_wanted(p_block_id) then
    raise exception 'This block does not ask for a captcha' using errcode = 'P0001';
  end if;
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$' then
    raise exception 'Invalid token' using errcode = 'P0001';
  end if;
  insert into private.captcha_tokens (token_hash) values (p_token_hash) on conflict do nothing;
  if not found then
    raise exception 'This captcha was already used' using errcode = 'P0001';
  end if;
  insert into private.captcha_passes (block_id, user_id, uses_left, expires_at)
    values (p_block_id, p_user_id, v_uses, v_expires)
    on conflict (block_id, user_id) do update set uses_left = excluded.uses_left, expires_at = excluded.expires_at;
  return jsonb_build_object('uses_left', v_uses, 'expires_at', v_expires);
end;
$$;
revoke execute on function public.grant_captcha_pass(uuid, uuid, text) from public, anon, authenticated;

-- Spends one write of the visitor's pass for the block (check_rate_limit): true when they held
-- one with a write left that has not expired.
create function private.use_captcha_pass(p_block_id uuid, p_uid uuid, p_now timestamptz)
returns boolean language sql set search_path = '' as $$
  with used as (
    update private.captcha_passes set uses_left = uses_left - 1
      where block_id = p_block_id and user_id = p_uid and uses_left > 0 and expires_at > p_now
      returning 1
  )
  select exists (select 1 from used);
$$;
revoke execute on function private.use_captcha_pass(uuid, uuid, timestamptz) from public;

-- =============================================================================================
-- schemas/owner-calls.sql
-- =============================================================================================

-- Per-owner limits (issue 9) on the edge functions that an owner could call in a loop to guess
-- or to make us work: use-coupon (coupon codes are words an operator picks: ten tries an hour), and the
-- letter functions that fetch outside pages and copy their images (web-to-template,
-- verify-brunch-id). A call is noted in a call of its own before the work (a refused redemption
-- rolls back, so it could not note itself), and counts whether it succeeds or not. The visitors'
-- rate limits are in trust.sql, whose purge (private.purge_trust) drops calls older than an hour.
create table private.owner_calls (
  user_id uuid not null references public.profiles (id) on delete cascade,
  name text not null check (name ~ '^[a-z][a-z0-9-]{0,49}$'),
  called_at timestamptz not null default now()
);
comment on table private.owner_calls is
  'One row per limited edge-function call in the last hour, per owner and function (note_owner_call); older rows go on the next call and with the trust purge.';
alter table private.owner_calls enable row level security;
create index owner_calls_user_name_time on private.owner_calls (user_id, name, called_at);

create function public.note_owner_call(p_user_id uuid, p_name text, p_per_hour integer)
returns integer language plpgsql security definer set search_path = '' as $$
declare
  v_recent integer;
  v_oldest timestamptz;
begin
  -- one owner's calls of one function in a row: parallel calls count one after another
  perform pg_advisory_xact_lock(hashtext('owner_calls:' || p_name), hashtext(p_user_id::text));
  delete from private.owner_calls
    where user_id = p_user_id and name = p_name and called_at < now() - interval '1 hour';
  select count(*) into v_recent from private.owner_calls
    where user_id = p_user_id and name = p_name;
  if v_recent >= p_per_hour then
    -- the next call is allowed once the call that makes the count p_per_hour is an hour old
    select called_at into v_oldest from private.owner_calls
      where user_id = p_user_id and name = p_name
      order by called_at desc offset greatest(p_per_hour - 1, 0) limit 1;
    return greatest(1, ceil(extract(epoch from v_oldest + interval '1 hour' - now())))::integer;
  end if;
  insert into private.owner_calls (user_id, name) values (p_user_id, p_name);
  return 0;
end;
$$;
comment on function public.note_owner_call(uuid, text, integer) is
  'Notes one call of a limited edge function by an owner and answers 0; when they already made p_per_hour in the last hour, notes nothing and answers the seconds until the next call is allowed (the function answers 429 with Retry-After). Service role only.';
revoke execute on function public.note_owner_call(uuid, text, integer) from public, anon, authenticated;

-- =============================================================================================
-- schemas/trust.sql
-- =============================================================================================

-- Visitor trust (issue 9): rate limits (token buckets in an unlogged table, one row per block,
-- visitor and action plus a few shard rows per block and action, and an address's share), the
-- refusal; the buckets' arithmetic and shard rows are in token-buckets.sql. Tunables in
-- private.settings (`limits.<action>`, `limits.block_shards`, `limits.enabled`). The client's address is client-address.sql's; what a spent shared budget
-- does instead of refusing everyone is in escalation.sql; the per-owner limits on edge functions
-- an owner could call in a loop in owner-calls.sql. The other checks of a visitor's write
-- (honeypot, URLs, held messages, the owner-imitation mark) are in visitor-checks.sql, the
-- captcha passes in captcha.sql, the owner's monthly quota, its notices and an address's share of
-- it in quota.sql.

-- UNLOGGED: a bucket is worth nothing after a crash (all buckets start full again), and the
-- visitor's write should not pay a WAL record for it. fillfactor leaves room on each page so
-- the updates stay HOT (no indexed column changes).
create unlogged table private.rate_limits (
  block_id uuid not null,
  -- the visitor's uid, or for the block-wide buckets a shard id (0000...000N)
  subject uuid not null,
  action text not null,
  tokens double precision not null,
  -- the bucket's refill rate and size when it was last taken from
  per_minute double precision not null,
  burst double precision not null,
  updated_at timestamptz not null,
  -- when the bucket is full again: from then on the row is worth nothing (purged)
  full_at timestamptz not null,
  -- a visitor's row: the client address (private.address_key) they last wrote from, for messages
  address uuid,
  primary key (block_id, subject, action)
) with (fillfactor = 50);
comment on table private.rate_limits is
  'Token buckets of the visitor rate limits, per (block, visitor, action), per (block, shard, action) and for messages per (block, client address, action). Unlogged: lost on a crash, which only refills them.';
alter table private.rate_limits enable row level security;

-- A wait as people say it: "1 second", "45 seconds", "20 minutes", "3 hours", "5 days" (rounded
-- up, so the wait said is never shorter than the real one).
create function private.wait_text(p_seconds double precision)
returns text language sql immutable set search_path = '' as $$
  select case
    when s <= 90 then n_s || case when n_s = 1 then ' second' else ' seconds' end
    when s <= 90 * 60 then ceil(s / 60)::bigint || ' minutes'
    when s <= 36 * 3600 then ceil(s / 3600)::bigint || ' hours'
    else ceil(s / 86400)::bigint || ' days'
  end
  from (select greatest(ceil(coalesce(p_seconds, 1)), 1) as s,
               greatest(ceil(coalesce(p_seconds, 1)), 1)::bigint as n_s) x;
$$;
revoke execute on function private.wait_text(double precision) from public;

-- Refuses a write over a limit: HTTP 429 with Retry-After (whole seconds, at least 1) and a body
-- that says what is refused and for how long, per action, in the shape of every PostgREST error:
-- {code: PT429, message, details, hint}. `details` is what the elements act on (rate_limit,
-- captcha, quota); `hint` is JSON for programs: {"retry_after": seconds, "action", "scope"}
-- (scope: visitor = this visitor's own limit; block = everyone's on this block; address = the
-- share of it for everyone at the visitor's address; owner = the owner's monthly responses). Browsers cannot read Retry-After across origins (hosted Supabase
-- exposes only a few headers), so the elements read the hint.
-- Raised with SQLSTATE PGRST, PostgREST's way to set the status and headers of an error
-- (response.headers set before a raise are dropped with the failed transaction).
create function private.refuse_limit(p_action text, p_scope text, p_seconds double precision,
  p_details text default 'rate_limit', p_hold_address boolean default false)
returns void language plpgsql set search_path = '' as $$
declare
  v_seconds bigint := greatest(ceil(coalesce(p_seconds, 1)), 1)::bigint;
  v_wait text := private.wait_text(v_seconds);
  v_message text;
  v_body text;
  v_status text;
begin
  v_message := case
    when p_scope = 'owner' then
      'Monthly response limit reached. This form takes responses again in ' || v_wait || '.'
    when p_scope in ('block', 'address') then
      'Too many people are writing here right now. Try again in ' || v_wait || '.'
    when p_action = 'message' then 'You''re posting too fast. You can post again in ' || v_wait || '.'
    when p_action = 'edit' then 'You''re editing too fast. You can edit again in ' || v_wait || '.'
    when p_action = 'like' then 'You''re liking too fast. You can like again in ' || v_wait || '.'
    when p_action = 'vote' then 'You''re voting too fast. You can vote again in ' || v_wait || '.'
    when p_action = 'submit' then
      'You''ve sent this form several times. You can send it again in ' || v_wait || '.'
    when p_action = 'click' then 'You''re clicking too fast. You can click again in ' || v_wait || '.'
    when p_action = 'report' then 'You''re reporting too fast. You can report again in ' || v_wait || '.'
    else 'You''re going too fast. Try again in ' || v_wait || '.'
  end;
  v_body := jsonb_build_object('code', 'PT429', 'message', v_message, 'details', p_details,
    'hint', jsonb_build_object('retry_after', v_seconds, 'action', p_action, 'scope', p_scope)::text)::text;
  v_status := jsonb_build_object('status', 429, 'headers', jsonb_build_object('Retry-After', v_seconds::text))::text;
  if p_hold_address then
    -- the hint, which PostgREST does not read from a PGRST error, tells post_message to hold the
    -- address's burst after this refusal's rollback (it answers the 429 itself then)
    raise sqlstate 'PGRST' using message = v_body, detail = v_status, hint = 'hold_address_burst';
  end if;
  raise sqlstate 'PGRST' using message = v_body, detail = v_status;
end;
$$;
revoke execute on function private.refuse_limit(text, text, double precision, text, boolean) from public;

-- The visitor's and the block's token for this action, or a 429. The owner is never limited on
-- their own block. A visitor holding a captcha pass for the block goes through while it lasts.
-- Bucket sizes: the defaults below, then private.settings `limits.<action>`, then the block's
-- rate_limits -> <action>. The block's bucket is split in `limits.block_shards` (32; never more
-- shards than the block's burst) rows, each with its share of the rate; a visitor draws from its
-- own shard, and from another shard that has a token when its own is empty: the block's limit is
-- the sum of its shards, one shard's share never limits a visitor, and no single row is locked by
-- all of a block's visitors (npm run bench:hot-rows: 20 concurrent likes on one block ran at 70 %
-- of the spread throughput with 4 shards, 88 % with 32). The visitor's shard is the hash of their
-- uid, or the next shard no concurrent write holds (private.free_shard: 20 writers on 32 hashed
-- shards met on one, and waited for it, a third of the time; issue 19).
-- All tokens are taken by one upsert on the primary key (the visitor's row first, then the
-- address's, then the shard's; always in that order, and the other shards tried after: no
-- deadlock between writers, since a writer holding a shard holds its address's row); an empty
-- bucket is not updated and returns no row. A refusal raises, which rolls back whatever the
-- statement took. The shards' subjects: private.block_shard, private.address_shard.
--
-- Escalation instead of refusing everyone (issue 17; docs/data-model.md "When a shared budget is
-- under pressure"): every write but a form response or an A/B vote also takes a token from its
-- client address's fair share of the block (`limits.address_share` of the block's rate and
-- burst). When the block's bucket is empty (pressure), a visitor with a track record writes on as
-- usual; a visitor without one needs a solved captcha for a message (the platform's key: every
-- block, free ones too), which is held for the owner with the address's fresh writers' recent
-- messages, and is refused other writes. Past the address's share a message is held, a
-- response or vote held, any other write refused (scope address), whoever writes it.
-- The block's reserve (issue 17: four addresses at a quarter each took a like block's whole
-- budget): when a write has a client address, the block's last `limits.reserve` (a quarter) of
-- its shards are kept for addresses that write little: a write is drawn from the other shards,
-- and from the reserve only when those are spent, its address has used at most
-- `limits.reserve_share` (1/16) of the block's burst (what its share's shards are short of, this
-- write's token included; at least one token) and its site's reserve bucket (that share of the
-- reserve's burst and rate; a site is an IPv4 address, or an IPv6 /48: private.reserve_key) has a
-- token. Answers true when the write must be held.
create or replace function private.check_rate_limit(p_block public.blocks, p_uid uuid,
  p_action text)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_now timestamptz := clock_timestamp();
  v_enabled boolean;
  v_shards integer;
  v_cfg jsonb;
  v_escalate boolean;
  v_share double precision;
  v_trusted jsonb;
  v_header text;
  v_visitor_rate double precision;
  v_visitor_burst double precision;
  v_block_rate double precision;
  v_block_burst double precision;
  v_addr uuid;
  v_addr_rate double precision;
  v_addr_burst double precision;
  v_addr_n integer;
  v_addr_sub uuid;
  v_addr_part double precision;
  v_home integer;
  v_shard integer;
  v_visitor_ok boolean;
  v_shard_ok boolean;
  v_addr_ok boolean;
  v_addr_left double precision;
  v_beyond boolean;
  v_hold boolean;
  v_kept boolean;
  v_wait double precision;
  v_reserve double precision;
  v_reserve_share double precision;
  v_main integer;
  v_light boolean := false;
  v_used double precision;
  v_client inet;
begin
  if p_uid = p_block.owner_id then
    return false;
  end if;
  -- the settings in one index scan
  select coalesce((s -> 'limits.enabled' #>> '{}')::boolean, true),
         greatest(1, least(64, coalesce((s -> 'limits.block_shards' #>> '{}')::integer, 32))),
         -- the defaults: a person never meets them, a script does at once (per minute and burst,
         -- for one visitor on one block and for the whole block); one visitor's form submits:
         -- five at once (Submit again), then three an hour, so one visitor cannot burn the
         -- owner's monthly responses
         case p_action
           when 'message' then '{"visitor_per_minute": 6, "visitor_burst": 8, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'edit' then '{"visitor_per_minute": 10, "visitor_burst": 10, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'like' then '{"visitor_per_minute": 60, "visitor_burst": 30, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'vote' then '{"visitor_per_minute": 10, "visitor_burst": 5, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'submit' then '{"visitor_per_minute": 0.05, "visitor_burst": 5, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'click' then '{"visitor_per_minute": 30, "visitor_burst": 20, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'report' then '{"visitor_per_minute": 10, "visitor_burst": 10, "block_per_minute": 60, "block_burst": 60}'::jsonb
         end
           || case when jsonb_typeof(s -> ('limits.' || p_action)) = 'object'
                   then s -> ('limits.' || p_action) else '{}'::jsonb end
           || case when jsonb_typeof(p_block.rate_limits -> p_action) = 'object'
                   then p_block.rate_limits -> p_action else '{}'::jsonb end,
         coalesce((s -> 'limits.escalation' #>> '{}')::boolean, true),
         least(1, greatest(0, coalesce((s -> 'limits.address_share' #>> '{}')::double precision, 0.25))),
         case when jsonb_typeof(s -> 'network.trusted_proxies') = 'array'
              then s -> 'network.trusted_proxies' else '[]'::jsonb end,
         coalesce(s -> 'network.client_address_header' #>> '{}', ''),
         least(0.75, greatest(0, coalesce((s -> 'limits.reserve' #>> '{}')::double precision, 0.25))),
         least(1, greatest(0, coalesce((s -> 'limits.reserve_share' #>> '{}')::double precision, 0.0625)))
    into v_enabled, v_shards, v_cfg, v_escalate, v_share, v_trusted, v_header, v_reserve, v_reserve_share
    from (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) as s from private.settings
          where key in ('limits.enabled', 'limits.block_shards', 'limits.' || p_action,
                        'limits.escalation', 'limits.address_share', 'network.trusted_proxies',
                        'network.client_address_header', 'limits.reserve', 'limits.reserve_share')) settings;
  if not v_enabled then
    return false;
  end if;
  v_visitor_rate := greatest((v_cfg ->> 'visitor_per_minute')::double precision, 0.0001);
  v_visitor_burst := greatest((v_cfg ->> 'visitor_burst')::double precision, 1);
  -- no more shards than the block's burst: each holds at least one token, and together they
  -- hold the burst (a small bucket of 8 is 8 shards of 1, not 32 of 1); a visitor whose shard is
  -- empty takes a token from another one (below), so a shard's share never limits one visitor
  v_shards := greatest(1, least(v_shards, floor(greatest((v_cfg ->> 'block_burst')::double precision, 1))::integer));
  v_block_rate := greatest((v_cfg ->> 'block_per_minute')::double precision / v_shards, 0.0001);
  v_block_burst := greatest((v_cfg ->> 'block_burst')::double precision / v_shards, 1);
  -- the client address's fair share of the block, for every write a spent budget would refuse:
  -- messages, edits, likes, clicks and reports (a form response or an A/B vote in a burst is
  -- held instead, and an address's share of the owner's quota bounds what it counts:
  -- private.take_address_quota). Without it a few fresh accounts of one address toggling a like
  -- kept a like block's bucket empty and its real visitors' likes were refused
  -- (hostile-storm.test).
  if v_escalate and p_action not in ('submit', 'vote') then
    v_client := private.client_address(v_trusted, v_header);
    v_addr := private.address_key(v_client);
    v_addr_rate := greatest(coalesce((v_cfg ->> 'address_per_minute')::double precision,
                                     (v_cfg ->> 'block_per_minute')::double precision * v_share), 0.0001);
    v_addr_burst := greatest(coalesce((v_cfg ->> 'address_burst')::double precision,
                                      floor((v_cfg ->> 'block_burst')::double precision * v_share)), 1);
    -- the share in shards of at least 4 tokens (at most 32), so the writers of one address (an
    -- office, a school, the load test's loopback) do not queue on one row: each starts on a shard
    -- no other open transaction holds. Each shard holds its part of the burst (private.shard_part)
    -- and the same part of the rate, so the shards add up to the share (taken from another shard
    -- when one is empty: private.take_address_token).
    if v_addr is not null then
      v_addr_burst := floor(v_addr_burst);
      v_addr_n := greatest(1, least(32, floor(v_addr_burst / 4)::integer));
      v_shard := private.free_shard('rate_limits:' || p_block.id || ':' || p_action || ':' || v_addr,
                                    abs(mod(hashtext(p_uid::text), v_addr_n)), v_addr_n);
      v_addr_sub := private.address_shard(v_addr, v_shard);
      v_addr_part := private.shard_part(v_addr_burst, v_addr_n, v_shard);
    end if;
  end if;

  -- the block's shards outside its reserve (all of them for a write without an address's share:
  -- a response, a vote, or escalation off); at least one
  v_main := case when v_addr is null then v_shards
                 else greatest(1, v_shards - floor(v_shards * v_reserve)::integer) end;
  -- the visitor's shard, or the next one no concurrent write of this block and action holds
  v_home := private.free_shard('rate_limits:' || p_block.id || ':' || p_action,
                               abs(mod(hashtext(p_uid::text), v_main)), v_main);
  with taken as (
  insert into private.rate_limits as r (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at, address)
    select p_block.id, v.subject, p_action, v.burst - 1, v.rate, v.burst, v_now,
           private.bucket_full_at(v.burst, v_now, v.rate, v.burst, v_now), v.address
    from (values (1, p_uid, v_visitor_rate, v_visitor_burst, v_addr),
                 (2, v_addr_sub, v_addr_rate * v_addr_part / v_addr_burst, v_addr_part, null::uuid),
                 (3, private.block_shard(v_home),
                  v_block_rate, v_block_burst, null::uuid)) v(n, subject, rate, burst, address)
    where v.subject is not null
    order by v.n
    on conflict (block_id, subject, action) do update
      set tokens = private.bucket_tokens(r.tokens, r.updated_at, excluded.per_minute, excluded.burst, v_now) - 1,
          per_minute = excluded.per_minute,
          burst = excluded.burst,
          updated_at = v_now,
          full_at = private.bucket_full_at(r.tokens, r.updated_at, excluded.per_minute, excluded.burst, v_now),
          address = coalesce(excluded.address, r.address)
      where private.bucket_tokens(r.tokens, r.updated_at, excluded.per_minute, excluded.burst, v_now) >= 1
    returning r.subject, r.tokens
  )
  -- inserted or updated: a bucket that had no token is neither
  select coalesce(bool_or(subject = p_uid), false),
         coalesce(bool_or(subject <> p_uid and subject is distinct from v_addr_sub), false),
         coalesce(bool_or(subject = v_addr_sub), false),
         min(tokens) filter (where subject = v_addr_sub)
    into v_visitor_ok, v_shard_ok, v_addr_ok, v_addr_left from taken;
  -- The address's shard was empty, or this write took its last token: the share is spent only
  -- when no shard has a whole token (another shard's token is taken; never waiting for a shard
  -- another write holds: private.take_address_token).
  if v_addr_n > 1 and v_visitor_ok and (not v_addr_ok or v_addr_left < 1) then
    if not v_addr_ok then
      v_addr_left := private.take_address_token(p_block.id, p_action, v_addr, v_addr_n,
                                                v_addr_rate, v_addr_burst, v_now);
      v_addr_ok := v_addr_left is not null;
    end if;
    if v_addr_ok and v_addr_left < 1 then
      select coalesce(sum(floor(coalesce(private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, v_now),
                                         private.shard_part(v_addr_burst, v_addr_n, g.n)))), 0)
        into v_addr_left
        from generate_series(0, v_addr_n - 1) g(n)
        left join private.rate_limits r
          on r.block_id = p_block.id and r.action = p_action and r.subject = private.address_shard(v_addr, g.n);
    end if;
  end if;
  if v_visitor_ok and v_shard_ok and (v_addr is null or v_addr_left >= 1) then
    -- published, unless the address's burst was held a moment ago
    return p_action = 'message' and private.address_hold_applies(p_block, p_uid, v_addr);
  end if;
  -- The visitor has a token but their shard of the block's bucket is empty: the block still has
  -- tokens if another shard has one (the shards together are the block's bucket).
  if v_visitor_ok and not v_shard_ok and v_main > 1 then
    v_shard_ok := private.take_block_token(p_block.id, p_action, 0, v_main, v_home + 1,
                                           v_block_rate, v_block_burst, v_now);
  end if;
  -- Those are spent: the reserve, for an address that has used little of the block's budget (its
  -- share's shards are short of at most limits.reserve_share of the block's burst, this write's
  -- token included; a missing shard is full: a storm's addresses have used far more), and at most
  -- that share of the reserve (its burst and rate) to each address: the address's reserve bucket,
  -- so an address writing just under its share's rate, which keeps its shards full, still takes
  -- no more of the reserve than that.
  if v_visitor_ok and not v_shard_ok and v_main < v_shards and v_addr_ok then
    select v_addr_burst - coalesce(sum(coalesce(private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, v_now),
                                                private.shard_part(v_addr_burst, v_addr_n, g.n))), 0)
      into v_used
      from generate_series(0, v_addr_n - 1) g(n)
      left join private.rate_limits r
        on r.block_id = p_block.id and r.action = p_action and r.subject = private.address_shard(v_addr, g.n);
    v_light := v_used <= greatest(1, (v_cfg ->> 'block_burst')::double precision * v_reserve_share);
    if v_light then
      -- the site's reserve bucket: an IPv6 address's /48, not its /64 (private.reserve_key)
      v_light := private.take_token(p_block.id, p_action, private.reserve_key(v_client),
                                    v_block_rate * (v_shards - v_main) * v_reserve_share,
                                    greatest(1, v_block_burst * (v_shards - v_main) * v_reserve_share),
                                    v_now) is not null;
    end if;
    if v_light then
      v_shard_ok := private.take_block_token(p_block.id, p_action, v_main, v_shards - v_main,
                                             abs(mod(hashtext(p_uid::text), v_shards - v_main)),
                                             v_block_rate, v_block_burst, v_now);
    end if;
  end if;
  if v_visitor_ok and v_shard_ok and (v_addr is null or v_addr_left >= 1) then
    return p_action = 'message' and private.address_hold_applies(p_block, p_uid, v_addr);
  end if;

  -- the visitor's own limit: a paid block's captcha pass lets them past it
  if not v_visitor_ok then
    if p_block.captcha then
      if private.use_captcha_pass(p_block.id, p_uid, v_now) then
        return p_action = 'message' and private.address_hold_applies(p_block, p_uid, v_addr);
      end if;
    end if;
    select private.bucket_wait(r.tokens, r.updated_at, r.per_minute, r.burst, v_now) into v_wait
      from private.rate_limits r
      where r.block_id = p_block.id and r.subject = p_uid and r.action = p_action;
    perform private.refuse_limit(p_action, 'visitor', v_wait,
      case when p_block.captcha and private.captcha_config() is not null then 'captcha' else 'rate_limit' end);
  end if;

  -- A shared budget is spent: the block's bucket (pressure), or this address's share of it
  -- (beyond: no token left; at: this write took the last one).
  v_beyond := v_addr is not null and not v_addr_ok;
  -- an edit, like, click or report that took its address's last token is within the share (only
  -- a message's holds the address's burst there)
  if p_action <> 'message' and v_shard_ok and not v_beyond then
    return false;
  end if;
  if v_escalate then
    -- visitors with a track record write on, unchallenged (their own bucket still holds them),
    -- but not past their address's share: there a regular's message is kept and held, like
    -- anyone's from that address (an address can make a track record for its own accounts
    -- inside its share a day ahead: hostile-track-record.test)
    -- (an edit, like, click or report past the share is refused, below)
    if p_action = 'message' then
      -- a regular's message: published within the share, held past it
      if private.has_track_record(p_block.id, p_uid) then
        return v_beyond;
      end if;
    elsif not v_beyond then
      -- a regular's other write within the share: written
      if private.has_track_record(p_block.id, p_uid) then
        return false;
      end if;
    end if;
    -- (a non-message write past the share is refused whoever writes it: no track record asked)
    -- a form response or A/B vote in a burst is kept, held: it does not count against the
    -- owner's quota until approved (their own bucket bounds each visitor)
    if p_action in ('submit', 'vote') then
      return true;
    end if;
    if p_action = 'message' then
      -- this address's fresh writers' messages of the last minutes looked like anyone's until
      -- the address used its share: they are held with this one (all of it is the burst); when
      -- this write is refused below, post_message holds them after the refusal's rollback
      v_hold := v_addr is not null and (v_beyond or v_addr_left < 1);
      -- kept, held: within the block's budget and this write within the address's share; past
      -- a spent budget only with a solved captcha (the platform's, on every block); with no
      -- captcha configured, beyond the address's share (the visitor's own bucket bounds it)
      if v_shard_ok and not v_beyond then
        v_kept := true;
      elsif private.captcha_config() is not null then
        v_kept := private.use_captcha_pass(p_block.id, p_uid, v_now);
      else
        v_kept := v_shard_ok;
      end if;
      if v_kept then
        if v_hold then
          perform private.hold_address_burst(p_block, v_addr, v_now);
        end if;
        return true;
      end if;
    end if;
  end if;
  -- a paid block's captcha pass lets a visitor past the block's bucket on its other writes
  if p_block.captcha and not (v_escalate and p_action = 'message') then
    if private.use_captcha_pass(p_block.id, p_uid, v_now) then
      return false;
    end if;
  end if;
  -- how long until the spent budget has a token: the block's soonest shard this write may use
  -- (the reserve only for a light address), or the address's
  if not v_shard_ok then
    select min(private.bucket_wait(r.tokens, r.updated_at, r.per_minute, r.burst, v_now)) into v_wait
      from private.rate_limits r
      where r.block_id = p_block.id and r.action = p_action
        and r.subject <= private.block_shard(case when v_light then v_shards else v_main end - 1);
  else
    -- the address's soonest shard
    select min(private.bucket_wait(r.tokens, r.updated_at, r.per_minute, r.burst, v_now)) into v_wait
      from generate_series(0, coalesce(v_addr_n, 1) - 1) g(n)
      join private.rate_limits r
        on r.block_id = p_block.id and r.action = p_action and r.subject = private.address_shard(v_addr, g.n);
  end if;
  perform private.refuse_limit(p_action, case when v_shard_ok then 'address' else 'block' end, v_wait,
    case when private.captcha_config() is not null and (p_block.captcha or (v_escalate and p_action = 'message'))
         then 'captcha' else 'rate_limit' end, coalesce(v_hold, false));
  return false;
end;
$$;
revoke execute on function private.check_rate_limit(public.blocks, uuid, text) from public;

-- Buckets full again are worth nothing (a missing row is a full bucket); passes and tokens
-- expire; owner calls older than an hour no longer count. Every 10 minutes; a sequential scan of
-- a small unlogged table. SKIP LOCKED: a bucket a visitor's write holds is left for the next run,
-- so the purge never waits for a visitor and can never deadlock with one (a write locks its
-- visitor's row, then its block's shard).
create or replace function private.purge_trust()
returns void language sql set search_path = '' as $$
  delete from private.rate_limits r
    using (select block_id, subject, action from private.rate_limits
           where full_at < now() for update skip locked) x
    where r.block_id = x.block_id and r.subject = x.subject and r.action = x.action;
  delete from private.address_quota where day < (now() at time zone 'UTC')::date - 1;
  delete from private.address_holds where held_at < now() - interval '1 day';
  delete from private.captcha_passes where expires_at < now();
  delete from private.captcha_tokens where created_at < now() - interval '1 day';
  delete from private.owner_calls where called_at < now() - interval '1 hour';
$$;
revoke execute on function private.purge_trust() from public;

-- =============================================================================================
-- schemas/token-buckets.sql
-- =============================================================================================

-- Token buckets (issue 9, split out of trust.sql): the arithmetic of a bucket of
-- private.rate_limits (trust.sql's table), the subjects of a block's and an address's shard rows,
-- and taking a token from one shard, from an address's share or from a run of a block's shards.
-- private.check_rate_limit (trust.sql) decides which buckets a write takes from.

-- The arithmetic of a token bucket of private.rate_limits, written once: what the bucket holds
-- at p_now (what it held at p_updated_at, refilled at p_per_minute tokens a minute, never more
-- than p_burst); when it is full again after a token taken at p_now (its row is then worth
-- nothing: private.purge_trust); how many seconds until it holds a whole token. A missing row
-- (all null) holds null.
create function private.bucket_tokens(p_tokens double precision, p_updated_at timestamptz,
  p_per_minute double precision, p_burst double precision, p_now timestamptz)
returns double precision language sql immutable set search_path = '' as $$
  -- no time runs backwards: a write whose clock_timestamp() was read before it waited for the
  -- row lock of one that went on (an earlier p_now than the row's updated_at) sees the tokens as
  -- they are, not fewer (a visitor's five concurrent submits had the fifth refused with "again
  -- in 1 second" at load: the bucket held 0.9999 of a token)
  select least(p_burst, p_tokens + greatest(extract(epoch from p_now - p_updated_at)::double precision, 0)
                                   * p_per_minute / 60);
$$;
revoke execute on function private.bucket_tokens(double precision, timestamptz, double precision, double precision, timestamptz) from public;

create function private.bucket_full_at(p_tokens double precision, p_updated_at timestamptz,
  p_per_minute double precision, p_burst double precision, p_now timestamptz)
returns timestamptz language sql stable set search_path = '' as $$
  select p_now + make_interval(secs => (p_burst + 1 - private.bucket_tokens(p_tokens, p_updated_at,
                                          p_per_minute, p_burst, p_now)) * 60 / p_per_minute);
$$;
revoke execute on function private.bucket_full_at(double precision, timestamptz, double precision, double precision, timestamptz) from public;

create function private.bucket_wait(p_tokens double precision, p_updated_at timestamptz,
  p_per_minute double precision, p_burst double precision, p_now timestamptz)
returns double precision language sql immutable set search_path = '' as $$
  select (1 - private.bucket_tokens(p_tokens, p_updated_at, p_per_minute, p_burst, p_now))
         * 60 / p_per_minute;
$$;
revoke execute on function private.bucket_wait(double precision, timestamptz, double precision, double precision, timestamptz) from public;

-- The subjects of the shard rows: a block's bucket's shard k is 00000000-0000-0000-0000-0000000000kk
-- (never a user id: those are version 4 UUIDs); an address's share's shard 0 is the address key
-- (private.address_key), shard k md5(key:k). Shard k of p_n holds p_burst / p_n whole tokens, the
-- remainder to the first shards.
create function private.block_shard(p_shard integer)
returns uuid language sql immutable set search_path = '' as $$
  select ('00000000-0000-0000-0000-' || lpad(to_hex(p_shard), 12, '0'))::uuid;
$$;
revoke execute on function private.block_shard(integer) from public;

create function private.address_shard(p_addr uuid, p_shard integer)
returns uuid language sql immutable set search_path = '' as $$
  select case when p_shard = 0 then p_addr else md5(p_addr::text || ':' || p_shard)::uuid end;
$$;
revoke execute on function private.address_shard(uuid, integer) from public;

create function private.shard_part(p_burst double precision, p_n integer, p_shard integer)
returns double precision language sql immutable set search_path = '' as $$
  select floor(p_burst / p_n) + (p_shard < p_burst::bigint % p_n)::integer;
$$;
revoke execute on function private.shard_part(double precision, integer, integer) from public;

-- Takes a token from one shard row when no other write holds it (the row locked with SKIP
-- LOCKED: never waited for) and it has one, at p_rate tokens a minute and p_burst at most (the
-- row takes them on); a missing row is a full bucket. Answers the tokens left, or null.
create function private.take_token(p_block_id uuid, p_action text, p_subject uuid,
  p_rate double precision, p_burst double precision, p_now timestamptz)
returns double precision language plpgsql set search_path = '' as $$
declare
  v_left double precision;
begin
  update private.rate_limits r
    set tokens = private.bucket_tokens(r.tokens, r.updated_at, p_rate, p_burst, p_now) - 1,
        per_minute = p_rate,
        burst = p_burst,
        updated_at = p_now,
        full_at = private.bucket_full_at(r.tokens, r.updated_at, p_rate, p_burst, p_now)
    where r.block_id = p_block_id and r.action = p_action
      and r.subject = (select l.subject from private.rate_limits l
                       where l.block_id = p_block_id and l.action = p_action and l.subject = p_subject
                       for no key update skip locked)
      and private.bucket_tokens(r.tokens, r.updated_at, p_rate, p_burst, p_now) >= 1
    returning r.tokens into v_left;
  if not found and not exists (select 1 from private.rate_limits
                               where block_id = p_block_id and action = p_action and subject = p_subject) then
    insert into private.rate_limits (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at)
      values (p_block_id, p_subject, p_action, p_burst - 1, p_rate, p_burst, p_now,
              private.bucket_full_at(p_burst, p_now, p_rate, p_burst, p_now))
      on conflict do nothing
      returning tokens into v_left;
  end if;
  return v_left;
end;
$$;
revoke execute on function private.take_token(uuid, text, uuid, double precision, double precision, timestamptz) from public;

-- Takes a token from another shard of an address's share of a block (check_rate_limit, when the
-- writer's own shard is empty): the shards that look like they have one (read without a lock; a
-- missing row is a full shard), each only when no other write holds it (an advisory lock tried,
-- then the row locked with SKIP LOCKED), so a writer that already holds its block shard never
-- waits here. p_rate and p_burst are the whole share's (each shard holds its part of both:
-- private.shard_part). Answers the tokens left in the shard it took from, or null when none had
-- one.
create function private.take_address_token(p_block_id uuid, p_action text, p_addr uuid, p_n integer,
  p_rate double precision, p_burst double precision, p_now timestamptz)
returns double precision language plpgsql set search_path = '' as $$
declare
  v_shard integer;
  v_part double precision;
  v_left double precision;
begin
  for v_shard, v_part in
    select g.n, private.shard_part(p_burst, p_n, g.n)
    from generate_series(0, p_n - 1) g(n)
    left join private.rate_limits r
      on r.block_id = p_block_id and r.action = p_action and r.subject = private.address_shard(p_addr, g.n)
    where r.block_id is null
       or private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, p_now) >= 1
    order by g.n
  loop
    continue when not pg_try_advisory_xact_lock(
      hashtext('rate_limits:' || p_block_id || ':' || p_action || ':' || p_addr), v_shard);
    v_left := private.take_token(p_block_id, p_action, private.address_shard(p_addr, v_shard),
                                 p_rate * v_part / p_burst, v_part, p_now);
    if v_left is not null then
      return v_left;
    end if;
  end loop;
  return null;
end;
$$;
revoke execute on function private.take_address_token(uuid, text, uuid, integer, double precision, double precision, timestamptz) from public;

-- Takes a token from one of a block's shards p_first .. p_first + p_n - 1, starting at p_start
-- within them (check_rate_limit: the other shards of the block's budget when the writer's own is
-- empty, or its reserve). Only the shards that look like they have a token are tried (read
-- without a lock first), so a writer rarely holds a shard it could not use, and never one a
-- concurrent write holds (an advisory lock tried, then the row locked with SKIP LOCKED: no wait,
-- no deadlock with a writer doing the same). True when it took one.
create function private.take_block_token(p_block_id uuid, p_action text, p_first integer,
  p_n integer, p_start integer, p_rate double precision, p_burst double precision, p_now timestamptz)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_shard integer;
begin
  for v_shard in
    select s.n from generate_series(0, p_n - 1) g(i)
    cross join lateral (select p_first + (p_start + g.i) % p_n as n) s
    left join private.rate_limits r
      on r.block_id = p_block_id and r.action = p_action and r.subject = private.block_shard(s.n)
    where r.block_id is null
       or private.bucket_tokens(r.tokens, r.updated_at, p_rate, p_burst, p_now) >= 1
    order by g.i
  loop
    continue when not pg_try_advisory_xact_lock(hashtext('rate_limits:' || p_block_id || ':' || p_action), v_shard);
    if private.take_token(p_block_id, p_action, private.block_shard(v_shard), p_rate, p_burst, p_now) is not null then
      return true;
    end if;
  end loop;
  return false;
end;
$$;
revoke execute on function private.take_block_token(uuid, text, integer, integer, integer, double precision, double precision, timestamptz) from public;

-- =============================================================================================
-- schemas/escalation.sql
-- =============================================================================================

-- Escalation (issue 17): what a spent shared budget does instead of refusing everyone
-- (private.check_rate_limit in trust.sql, private.take_address_quota in quota.sql): who writes on
-- (a track record), and the burst of an address held for the owner.

-- Messages held by escalation (issue 17), not by the block's hold setting: the owner's moderation
-- list says so (moderation_messages held_by). A table of its own, not a column of messages, so the
-- visitors' message JSON (to_jsonb of the row) does not grow.
create table private.escalated_messages (
  message_id uuid primary key references public.messages (id) on delete cascade,
  created_at timestamptz not null default now()
);
comment on table private.escalated_messages is
  'Messages a spent shared budget held for the owner (post_message, private.hold_address_burst); read by moderation_messages.';
alter table private.escalated_messages enable row level security;

-- A visitor with a track record on a block keeps writing when its shared budgets are spent:
-- one with history there that the owner could see, a published message or a counted response
-- on the block older than `limits.track_record_hours` (24). An account's age is none: visitors
-- sign in with Google or Apple, where new accounts are cheap, and an anonymous visitor who
-- confirms an email keeps the age of their anonymous sign-up (breaker reviews: 20 signed-in
-- accounts a minute old counted a free owner's 100 monthly responses in 2 s; when a day's age
-- was asked, 20 accounts a day old counted them in 5 s and published 180 comments in 15 s, none
-- held). A storm's accounts have no history on the block, anonymous or not.
create function private.has_track_record(p_block_id uuid, p_uid uuid)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from public.messages m
                 where m.creator_id = p_uid and m.block_id = p_block_id and m.status = 'published'
                   and m.created_at < now() - make_interval(hours => h.hours))
      or exists (select 1 from public.responses r
                 where r.creator_id = p_uid and r.block_id = p_block_id and not r.held
                   and r.created_at < now() - make_interval(hours => h.hours))
  from (select coalesce((private.setting('limits.track_record_hours', '24'::jsonb) #>> '{}')::integer, 24) as hours) h;
$$;
revoke execute on function private.has_track_record(uuid, uuid) from public;

-- An address whose burst was held (private.hold_address_burst), and when: for
-- `limits.burst_hold_minutes` after it, its fresh writers' messages are held as they come
-- (private.address_hold_applies), even when the share has a token again. Committed with the hold,
-- so a write that starts after the hold reads it.
create table private.address_holds (
  block_id uuid not null references public.blocks (id) on delete cascade,
  address uuid not null,
  held_at timestamptz not null,
  primary key (block_id, address)
);
comment on table private.address_holds is
  'When an address''s burst on a block was last held (private.hold_address_burst); its fresh writers are held while it is recent (private.address_hold_applies).';
alter table private.address_holds enable row level security;

-- The lock that orders an address's publishing messages and the holds of its burst on a block: a
-- message about to be published takes it shared (private.address_hold_applies), a hold takes it
-- exclusive and so waits for every message of the address that is still being written. Without
-- it a hold's snapshot missed a message not yet committed, which was then published after the
-- hold (storm.test at load 17: 5 of the storm's messages were published).
create function private.lock_address_holds(p_block_id uuid, p_address uuid, p_exclusive boolean)
returns void language plpgsql set search_path = '' as $$
begin
  if p_exclusive then
    perform pg_advisory_xact_lock(hashtext('address_holds:' || p_block_id), hashtext(p_address::text));
  else
    perform pg_advisory_xact_lock_shared(hashtext('address_holds:' || p_block_id), hashtext(p_address::text));
  end if;
end;
$$;
revoke execute on function private.lock_address_holds(uuid, uuid, boolean) from public;

-- When an address has used its share of a block: the published messages its writers without a
-- track record posted there in the last `limits.burst_hold_minutes` (10) are held for the owner
-- (a writer is the address's while their bucket row says they last wrote from it), and the hold
-- is noted (private.address_holds), so the address's fresh writers are held as they come for as
-- long. They looked like anyone's one by one; together they are the burst. The address's lock
-- first (exclusive: the messages of the address still being written commit first, and this
-- hold's update, a later statement, sees them), then one hold of a block at a time (a
-- transaction lock): two holds at once could lock the same messages in different orders (the
-- writers' bucket rows, which the update walks, move with every write) and deadlock; the next
-- one sees what the first held. A write refused after its hold still commits the hold
-- (public.post_message).
create function private.hold_address_burst(p_block public.blocks, p_address uuid, p_now timestamptz)
returns void language sql set search_path = '' as $$
  select private.lock_address_holds(p_block.id, p_address, true);
  select pg_advisory_xact_lock(hashtext('hold_address_burst'), hashtext(p_block.id::text));
  with held as (
  update public.messages m set status = 'held'
    where m.block_id = p_block.id and m.status = 'published' and m.creator_id <> p_block.owner_id
      and m.created_at > p_now - make_interval(mins =>
            coalesce((private.setting('limits.burst_hold_minutes', '10'::jsonb) #>> '{}')::integer, 10))
      and m.creator_id in (select r.subject from private.rate_limits r
                           where r.block_id = p_block.id and r.action = 'message' and r.address = p_address)
      and not private.has_track_record(p_block.id, m.creator_id)
    returning m.id
  )
  insert into private.escalated_messages (message_id) select id from held on conflict do nothing;
  insert into private.address_holds as h (block_id, address, held_at) values (p_block.id, p_address, p_now)
    on conflict (block_id, address) do update set held_at = greatest(h.held_at, excluded.held_at);
$$;
revoke execute on function private.hold_address_burst(public.blocks, uuid, timestamp with time zone) from public;

-- A message of the address about to be published (private.check_rate_limit): true when it is
-- held instead, because the address's burst was held in the last `limits.burst_hold_minutes` and
-- the writer has no track record. Takes the address's lock shared first, so a hold that starts
-- now waits for this message, and this message sees a hold that committed before it.
create function private.address_hold_applies(p_block public.blocks, p_uid uuid, p_address uuid)
returns boolean language plpgsql set search_path = '' as $$
begin
  perform private.lock_address_holds(p_block.id, p_address, false);
  return exists (select 1 from private.address_holds h
                 where h.block_id = p_block.id and h.address = p_address
                   and h.held_at > clock_timestamp() - make_interval(mins =>
                         coalesce((private.setting('limits.burst_hold_minutes', '10'::jsonb) #>> '{}')::integer, 10)))
     and not private.has_track_record(p_block.id, p_uid);
end;
$$;
revoke execute on function private.address_hold_applies(public.blocks, uuid, uuid) from public;

-- =============================================================================================
-- schemas/visitor-checks.sql
-- =============================================================================================

-- The checks a visitor's write passes besides the rate limits (trust.sql): a writer the owner
-- blocked, the honeypot, the avatar and home URL rules, links, the hold setting, and a name that
-- imitates the owner's.

-- A writer the owner blocked from this block.
create function private.check_writer(p_block public.blocks, p_uid uuid)
returns void language plpgsql stable set search_path = '' as $$
begin
  if exists (select 1 from public.blocked_writers where block_id = p_block.id and user_id = p_uid) then
    raise exception 'The owner of this block has blocked you from writing here.' using
      errcode = 'PT403', detail = 'blocked';
  end if;
end;
$$;
revoke execute on function private.check_writer(public.blocks, uuid) from public;

-- The honeypot: the elements always send the hidden field's value, which people leave empty.
-- A block with the honeypot on refuses a filled one, and a missing one (a script calling the
-- API without the element).
create function private.check_honeypot(p_block public.blocks, p_value text)
returns void language plpgsql immutable set search_path = '' as $$
begin
  if p_block.honeypot and p_value is distinct from '' then
    raise exception 'This was not sent: it looked automated.' using errcode = 'P0001', detail = 'honeypot';
  end if;
end;
$$;
revoke execute on function private.check_honeypot(public.blocks, text) from public;

-- The rules of a visitor's short fields, one definition each, as the contracts write them
-- (contracts/limits.ts VISITOR_COLOR_RE and BIDI_CONTROL_RE; supabase/tests/contracts.test.ts
-- runs both on the same cases). A colour is #rgb or #rrggbb (what the elements draw an avatar
-- with).
create function private.is_visitor_color(p_color text)
returns boolean language sql immutable set search_path = '' as $$
  select p_color ~ '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$';
$$;
revoke execute on function private.is_visitor_color(text) from public;

-- A bidi embedding, override or isolate (U+202A-U+202E, U+2066-U+2069): in a name or a link it
-- makes the text read as something else (a visitor's name as another's, a link's end reversed).
create function private.has_bidi_control(p_text text)
returns boolean language sql immutable set search_path = '' as $$
  select p_text ~ '[\u202A-\u202E\u2066-\u2069]';
$$;
revoke execute on function private.has_bidi_control(text) from public;

-- An avatar comes only from a signed-in visitor's provider profile (https, the providers' image
-- hosts of setting avatars.hosts, or the project's storage under avatars.storage_prefix);
-- anonymous visitors have none. A home URL is http or https, nothing else. Both without
-- whitespace, control characters or credentials.
create function private.check_visitor_urls(p_photo_url text, p_home_url text)
returns void language plpgsql stable set search_path = '' as $$
declare
  v_host text;
  v_prefix text;
  v_allowed boolean := false;
begin
  if nullif(p_photo_url, '') is not null then
    v_host := lower(substring(p_photo_url from '^https://([^/?#:@[:space:]]+)(?::443)?(?:[/?#]|$)'));
    v_prefix := private.setting('avatars.storage_prefix', 'null'::jsonb) #>> '{}';
    if v_host is not null then
      v_allowed := coalesce(private.setting('avatars.hosts',
        '["lh3.googleusercontent.com", "lh4.googleusercontent.com", "lh5.googleusercontent.com", "lh6.googleusercontent.com"]'::jsonb)
        ? v_host, false);
    end if;
    if not v_allowed and coalesce(v_prefix ~ '^https://[^/]+/', false) then
      v_allowed := left(p_photo_url, char_length(v_prefix)) = v_prefix and position('..' in p_photo_url) = 0;
    end if;
    if private.is_anonymous_caller() or p_photo_url ~ '[[:space:][:cntrl:]]' or not v_allowed
       or private.has_bidi_control(p_photo_url) then
      raise exception 'Invalid avatar URL' using errcode = 'P0001', detail = 'invalid_input';
    end if;
  end if;
  if nullif(p_home_url, '') is not null
     and (p_home_url !~* '^https?://[^/?#@[:space:]]+([/?#]|$)' or p_home_url ~ '[[:space:][:cntrl:]]'
          or private.has_bidi_control(p_home_url)) then
    raise exception 'Invalid home URL' using errcode = 'P0001', detail = 'invalid_input';
  end if;
end;
$$;
revoke execute on function private.check_visitor_urls(text, text) from public;

-- A link in a message: a URL with a scheme, www., or a host with a common top-level domain.
create function private.has_link(p_content text)
returns boolean language sql immutable set search_path = '' as $$
  select p_content ~* '(https?://|www\.)[^[:space:]]'
      or p_content ~* '[a-z0-9-]\.(com|net|org|io|co|kr|xyz|info|biz|ru|cn|top|site|online|shop|app|dev|me|ly|gl|link|click|live|store|vip|club)([/:?#[:space:]]|$)';
$$;
revoke execute on function private.has_link(text) from public;

-- The state of a new or edited message under the block's hold setting (the owner's are always
-- published).
create function private.hold_status(p_block public.blocks, p_uid uuid, p_content text)
returns text language sql stable set search_path = '' as $$
  select case
    when p_uid = p_block.owner_id or p_block.hold_messages = 'off' then 'published'
    when p_block.hold_messages = 'all' then 'held'
    when p_block.hold_messages = 'links' then
      case when private.has_link(p_content) then 'held' else 'published' end
    -- first_time: until the owner approved one of the writer's messages here
    when exists (select 1 from public.messages
                 where block_id = p_block.id and creator_id = p_uid and status = 'published') then 'published'
    else 'held'
  end;
$$;
revoke execute on function private.hold_status(public.blocks, uuid, text) from public;

-- Whether a visitor's name reads like the owner. Both sides are compared on a skeleton: NFKD
-- without combining marks, then NFKC ("Owneŕ", "Ow̶ner", full-width, circled, math letters), the
-- negative circled and squared letters and regional indicators as letters ("🅰dmin"), lower case,
-- the letters of other scripts that look like Latin ones read as those (v_from, v_to: Cyrillic,
-- Greek, Cherokee, Latin small capitals, Lisu, Armenian, Canadian syllabics, dotless i, alpha;
-- NFKC keeps them apart), then as Unicode's confusables skeleton (TR39) reads Latin: i, l, I, 1,
-- | and a ! between letters one letter, 0 an o, rn as m; without spaces, punctuation and
-- invisible characters. Marked: a word for an owner (admin/administrator/owner/moderator/
-- official/staff/manager/support) as the whole name or a word of it, where a CamelCase join or
-- digits also end a word ("The Admin", "SiteAdmin", "Admin2"), punctuation inside a word and
-- single letters apart join one ("A.d.m.i.n", "O w n e r"), and a word also counts with a letter
-- doubled ("Adminn") or one character more inside it ("Ad0min"); "admin" and "moderator" also
-- at the start or end ("sysadmin"; not "badminton", "Stafford", "Downer", "Staf"); a Korean word
-- for an owner anywhere, but 공식 and 오너 only as a word of their own or at the start or end of
-- four syllables or more (공식계정, 블로그오너; not the names 김공식, 공식환, 박오너); the block's
-- own owner label (when not the default Admin) as the name or a word of it, a label of several
-- words anywhere ("The Site Team"); the owner's name, as the block shows it or as the profile
-- says now, as the name (also with letters doubled: "Billl Kim"), contained from four letters
-- on (rn read as the m), or a Korean name of two or three syllables with no other Hangul beside
-- it ("이지은2", not "김이지은"). Not words for an owner: "team" and "root" (names: "Team Kim",
-- Joe Root). plpgsql with the expressions written out: this runs on every comment, small helper
-- functions with SET search_path are never inlined, and an expression without a query is
-- evaluated without the executor; so the four texts take the skeleton in one pass, a line each.
create function private.imitates_owner(p_block public.blocks, p_name text)
returns boolean language plpgsql stable set search_path = '' as $$
declare
  v_strip constant text := '[[:space:][:punct:][:cntrl:]\u00a0\u00ad\u115f\u1160\u200b-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff·•・]+';
  v_marks constant text := '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]';
  -- negative circled A-Z, negative squared A-Z, regional indicators A-Z (NFKC keeps them)
  v_enclosed constant text := '🅐🅑🅒🅓🅔🅕🅖🅗🅘🅙🅚🅛🅜🅝🅞🅟🅠🅡🅢🅣🅤🅥🅦🅧🅨🅩🅰🅱🅲🅳🅴🅵🅶🅷🅸🅹🅺🅻🅼🅽🅾🅿🆀🆁🆂🆃🆄🆅🆆🆇🆈🆉🇦🇧🇨🇩🇪🇫🇬🇭🇮🇯🇰🇱🇲🇳🇴🇵🇶🇷🇸🇹🇺🇻🇼🇽🇾🇿';
  v_from constant text := 'АаВвЕеЁёКкМмНнОоРрСсТтУуХхІіЇїЈјЅѕԀԁԚԛԜԝҺһӀӏΑαΒβΕεΖζΗηΙιΚκΜμΝνΟοΡρΤτΥυΧχϹϲᎪꭺᏴᏟꮯᎠꭰᎬꭼᏀꮐᎻꮋᎥꭵᎫꭻᏦꮶᏞꮮᎷꮇᏢꮲᎡꭱᏚꮪᎢꭲᏙꮩᎳꮃᏃꮓᏼ'
                                 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢꓐꓑꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴıɑՕօՍսԼհոցᗅᗩᗞᗪᗷᑕᑭᒪᕼᗯᔕᖇᐯᒍᘔᑌᗰ|ωѡɯ';
  v_to constant text := 'aabbeeeekkmmhhooppccttyyxxiiiijjssddqqwwhhllaabbeezzhhiikkmmnnooppttyyxxccaabccddeegghhiijjkkllmmpprrssttvvwwzzb'
                               'abcdefghijklmnoprstuvwyzbpdtgkjczfmnlsrvhwxyaeiouiaoouulhngaaddbcplhwsrvjzumlwww';
  -- the words for an owner as skeletons, each letter also doubled or more ("Adminn", "Staaff";
  -- not "Staf")
  v_owner_words constant text := 'a+d+m+l+n+|a+d+m+l+n+l+s+t+r+a+t+o+r+|o+w+n+e+r+|m+o+d+e+r+a+t+o+r+|o+f+f+l+d+a+l+|s+t+a+f+f+'
                                 '|m+a+n+a+g+e+r+|s+u+p+p+o+r+t+|w+e+b+m+a+s+t+e+r+';
  v_owner_list constant text[] := array['admln', 'admlnlstrator', 'owner', 'moderator', 'offldal', 'staff', 'manager',
                                        'support', 'webmaster'];
  -- the Korean words for an owner anywhere in the name
  v_ko_words constant text := '관리자|관리쟈|관리인|운영자|운영진|운영팀|어드민|스태프|모더레이터|매니저|주인장|쥔장|작성자|사장님';
  -- final consonants (jongseong) as the initial ones, to read jamo spelt out ("ㄱㅘㄴㄹㅣㅈㅏ")
  v_jong constant text := E'\u11a8\u11a9\u11ab\u11ae\u11af\u11b7\u11b8\u11ba\u11bb\u11bc\u11bd\u11be\u11bf\u11c0\u11c1\u11c2';
  v_cho constant text := E'\u1100\u1101\u1102\u1103\u1105\u1106\u1107\u1109\u110a\u110b\u110c\u110e\u110f\u1110\u1111\u1112';
  v_profile_name text;
  v_sk text[];
  v_key text;
  v_squeezed text;
  v_words text[];
  v_label text;
  v_leet text;
begin
  select pr.name into v_profile_name from public.profiles pr where pr.id = p_block.owner_id;
  -- the skeletons, spaces kept, of the name, the owner label (empty when the default Admin), the
  -- owner's name as the block shows it (the Q&A header; from the profile when created) and as the
  -- profile says now: one line each, in one pass. A lower-case letter before a capital ends a
  -- word ("SiteAdmin").
  v_sk := string_to_array(replace(replace(replace(translate(translate(lower(regexp_replace(regexp_replace(translate(
            normalize(regexp_replace(normalize(concat_ws(E'\n', translate(coalesce(p_name, ''), E'\n', ' '),
              translate(coalesce(nullif(lower(p_block.custom_label_name ->> 'admin'), 'admin'), ''), E'\n', ' '),
              translate(coalesce(p_block.owner_name, ''), E'\n', ' '), translate(coalesce(v_profile_name, ''), E'\n', ' ')),
            NFKD), v_marks, '', 'g'), NFKC), v_enclosed, repeat('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 3)),
            '([[:alpha:]])[!¡](?=[[:alpha:]])', '\1i', 'g'), '([a-z])([A-Z])', '\1 \2', 'g')),
            v_from, v_to), 'i', 'l'), 'rn', 'm'), 'cl', 'd'), 'vv', 'w'), E'\n');
  v_key := regexp_replace(translate(v_sk[1], '10', 'lo'), v_strip, '', 'g');
  if v_key = '' then
    return false;
  end if;
  v_squeezed := regexp_replace(v_key, '([a-z])\1+', '\1', 'g');
  -- 3, 4, 5 and 7 as e, a, s and t: only a word or key that then reads as an owner word counts
  v_leet := translate(v_sk[1], '104357', 'loaest');
  -- the words: digits end one ("Admin2") or read as letters ("Adm1n", "0wner"); punctuation
  -- inside a word, and single letters with spaces between, join one ("Ad.min", "A d m i n")
  v_words := regexp_split_to_array(v_sk[1], '[^[:alpha:]]+')
             || regexp_split_to_array(translate(v_sk[1], '10', 'lo'), '[^[:alnum:]]+')
             || regexp_split_to_array(regexp_replace(regexp_replace(translate(v_sk[1], '10', 'lo'),
                                                                    '([[:alnum:]])[[:punct:]]+(?=[[:alnum:]])', '\1', 'g'),
                                                     '(?<![[:alnum:]])([[:alnum:]])[[:space:]]+(?=[[:alnum:]](?![[:alnum:]]))', '\1', 'g'),
                                      '[^[:alnum:]]+')
             || regexp_split_to_array(v_leet, '[^[:alpha:]]+');
  v_label := regexp_replace(translate(v_sk[2], '10', 'lo'), v_strip, '', 'g');
  return ' ' || array_to_string(v_words, ' ') || ' ' ~ (' (' || v_owner_words || ') ')
      -- "badminton" contains admin but neither starts nor ends with it
      or regexp_replace(v_key, '[0-9]+', '', 'g') ~ '^(admln|moderator)|(admln|moderator)$'
      or regexp_replace(v_leet, v_strip, '', 'g') ~ '^(admln|moderator)|(admln|moderator)$'
      -- author, host and mod(s) only as the whole name ("The Host"; not "Host Kim", "Ghost")
      or regexp_replace(v_key, '[0-9]+', '', 'g') ~ '^(the|blog|site|post|page)?(author|host|mods?)$'
      or v_key ~ v_ko_words
      -- Hangul spelt out in jamo: NFKC makes initial-vowel pairs syllables, not the final consonant
      or (v_key ~ '[\u1100-\u11ff]'
          and translate(normalize(v_key, NFD), v_jong, v_cho) ~ translate(normalize(v_ko_words, NFD), v_jong, v_cho))
      -- 공식, 오너 and 주인 as a word, or starting or ending one of four syllables or more
      or v_sk[1] ~ '(^|[^가-힣])(공식|오너|주인)([^가-힣]|$|[가-힣]{2})|[가-힣]{2}(공식|오너|주인)([^가-힣]|$)'
      or (v_label <> '' and (v_label = v_key or v_label = any (v_words)
                             or (v_sk[2] ~ '[[:alnum:]][^[:alnum:]]+[[:alnum:]]' and position(v_label in v_key) > 0)))
      -- one character more inside a word ("Ad0min"; not "Downer", "Owners")
      or exists (select 1 from unnest(v_words) w, unnest(v_owner_list) r
                  where char_length(w) = char_length(r) + 1 and left(w, 1) = left(r, 1) and right(w, 1) = right(r, 1)
                    and exists (select 1 from generate_series(2, char_length(r)) i
                                 where overlay(w placing '' from i for 1) = r))
      or exists (select 1 from unnest(v_sk[3:4]) s,
                               lateral (select regexp_replace(translate(s, '10', 'lo'), v_strip, '', 'g') as k) o,
                               lateral (select regexp_replace(o.k, '([a-z])\1+', '\1', 'g') as k) q
                  where o.k <> ''
                    and (o.k = v_key or q.k = v_squeezed
                         or (char_length(o.k) >= 4 and position(o.k in v_key) > 0)
                         or (char_length(q.k) >= 4 and position(q.k in v_squeezed) > 0)
                         or (o.k ~ '^[가-힣]{2,3}$' and position(o.k in v_key) > 0
                             and replace(v_key, o.k, '') !~ '[가-힣]')));
end;
$$;
revoke execute on function private.imitates_owner(public.blocks, text) from public;

-- =============================================================================================
-- schemas/moderation.sql
-- =============================================================================================

-- Moderation: visitors report messages, owners read their blocks' reports, approve, hide, pin
-- or delete messages, and block writers from a block.

create table public.message_reports (
  message_id uuid not null,
  block_id uuid not null,
  user_id uuid not null,
  reason text check (char_length(reason) <= 200),
  created_at timestamptz not null default now(),
  primary key (message_id, user_id),
  foreign key (message_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.message_reports is
  'A visitor''s report of a message (once per visitor and message), for the block owner. Written by report_message.';
call private.clients_read('public.message_reports', 'Owners read their blocks'' reports and visitors their own',
  'user_id = (select auth.uid()) or private.is_block_owner(block_id)');
create index message_reports_block_id_idx on public.message_reports (block_id, created_at desc);
create index message_reports_user_id_idx on public.message_reports (user_id, block_id);

create table public.blocked_writers (
  block_id uuid not null references public.blocks (id) on delete cascade,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (block_id, user_id)
);
comment on table public.blocked_writers is
  'Visitors the block owner blocked: every later write of theirs to the block is refused. Written by block_writer.';
call private.clients_read('public.blocked_writers', 'Owners read the writers they blocked',
  'private.is_block_owner(block_id)');
create index blocked_writers_user_id_idx on public.blocked_writers (user_id);

-- A visitor reports a message to the block owner, once (a second report changes nothing).
-- security definer: see the header.
create function public.report_message(p_message_id uuid, p_reason text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid);
  v_block public.blocks := private.visible_block(v_message.block_id);
  v_reason text := nullif(private.trim_whitespace(p_reason), '');
begin
  if v_message.creator_id = v_uid then
    raise exception 'You cannot report your own message' using errcode = 'P0001';
  end if;
  if char_length(v_reason) > 200 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  perform private.check_writer(v_block, v_uid);
  if not exists (select 1 from public.message_reports where message_id = p_message_id and user_id = v_uid) then
    perform private.check_rate_limit(v_block, v_uid, 'report');
    insert into public.message_reports (message_id, block_id, user_id, reason)
      values (p_message_id, v_message.block_id, v_uid, v_reason)
      on conflict do nothing;
  end if;
  return jsonb_build_object('id', p_message_id, 'reported', true);
end;
$$;
comment on function public.report_message(uuid, text) is
  'Reports a message to the block owner (once per visitor; again changes nothing). Errors: You cannot report your own message, Too long message (reason > 200), message doesn''t exists, 429.';
revoke execute on function public.report_message(uuid, text) from public, anon;

-- Every message and reply of one of the caller's blocks, newest first, with its state, the
-- writer (signed in or anonymous, blocked or not, the email they left), the reports and the
-- parent of a reply. Filters: all, held, hidden, pinned, resolved, reported; p_search matches
-- the text or the writer's name. Page with the created_at of the last one.
-- security definer: reads auth.users (anonymous or not) for the owner's block only, checked
-- first.
create function public.moderation_messages(p_block_id uuid, p_filter text default 'all',
                                           p_search text default null, p_before timestamptz default null,
                                           p_limit integer default 50)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_pattern text;
begin
  if not exists (select 1 from public.blocks where id = p_block_id and owner_id = v_uid) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if coalesce(p_filter, 'all') not in ('all', 'held', 'hidden', 'pinned', 'resolved', 'reported') then
    raise exception 'Not a filter' using errcode = 'P0001';
  end if;
  if char_length(p_search) > 200 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  v_pattern := '%' || replace(replace(replace(nullif(private.trim_whitespace(p_search), ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';

  return coalesce((
    select jsonb_agg(private.live_message_json(to_jsonb(m)) || jsonb_build_object(
             'writer_anonymous', coalesce(u.is_anonymous, true),
             'writer_blocked', exists (select 1 from public.blocked_writers w
                                       where w.block_id = m.block_id and w.user_id = m.creator_id),
             'creator_email', (select mp.creator_email from public.message_private mp where mp.message_id = m.id),
             'report_count', (select count(*) from public.message_reports r where r.message_id = m.id),
             -- why a held message is held: a spent shared budget (escalation, issue 17) or the
             -- block's hold setting
             'held_by', case when m.status = 'held' then
                          case when exists (select 1 from private.escalated_messages e where e.message_id = m.id)
                               then 'escalation' else 'setting' end end,
             'reports', coalesce((select jsonb_agg(jsonb_build_object('reason', r.reason, 'created_at', r.created_at)
                                                   order by r.created_at desc)
                                  from public.message_reports r where r.message_id = m.id), '[]'::jsonb),
             'parent', (select jsonb_build_object('id', p.id, 'creator_name', p.creator_name,
                                                  'content', left(p.content, 140), 'status', p.status)
                        from public.messages p where p.id = m.parent_id))
           order by m.created_at desc, m.id desc)
    from (
      select * from public.messages m
      where m.block_id = p_block_id
        and m.created_at < coalesce(p_before, 'infinity'::timestamptz)
        and case coalesce(p_filter, 'all')
              when 'held' then m.status = 'held'
              when 'hidden' then m.status = 'hidden'
              when 'pinned' then m.pinned_at is not null
              when 'resolved' then m.resolved
              when 'reported' then exists (select 1 from public.message_reports r where r.message_id = m.id)
              else true end
        and (v_pattern is null or m.content ilike v_pattern or m.creator_name ilike v_pattern)
      order by m.created_at desc, m.id desc
      limit greatest(1, least(coalesce(p_limit, 50), 100))
    ) m
    left join auth.users u on u.id = m.creator_id), '[]'::jsonb);
end;
$$;
comment on function public.moderation_messages(uuid, text, text, timestamptz, integer) is
  'The owner''s moderation list of a block: every message and reply, newest first, with state, writer, reports and parent. Filters all, held, hidden, pinned, resolved, reported; search in text and names. Errors: block doesn''t exists, Not a filter.';
revoke execute on function public.moderation_messages(uuid, text, text, timestamp with time zone, integer) from public, anon;

-- Approve, hide, unhide, delete, pin, unpin, resolve or unresolve messages of the caller's
-- blocks, several at once (at most 200). All or nothing: one message that is not the caller's
-- refuses the whole call. security definer: clients have no write rights on messages.
create function public.moderate_messages(p_message_ids uuid[], p_action text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_ids uuid[];
  v_count integer;
  v_mine integer;
  v_result jsonb;
begin
  if p_action is null or p_action not in ('approve', 'hide', 'unhide', 'delete', 'pin', 'unpin', 'resolve', 'unresolve') then
    raise exception 'Not a moderation action' using errcode = 'P0001';
  end if;
  select coalesce(array_agg(distinct i), '{}') into v_ids from unnest(p_message_ids) i where i is not null;
  if cardinality(v_ids) = 0 then
    raise exception 'No messages chosen' using errcode = 'P0001';
  end if;
  if cardinality(v_ids) > 200 then
    raise exception 'Too many messages at once (at most 200)' using errcode = 'P0001';
  end if;
  select count(*), count(*) filter (where b.owner_id = v_uid) into v_count, v_mine
    from public.messages m join public.blocks b on b.id = m.block_id
    where m.id = any (v_ids);
  if v_count <> cardinality(v_ids) then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  if v_mine <> v_count then
    raise exception 'Only the block owner can moderate messages' using errcode = 'PT403';
  end if;
  if p_action in ('pin', 'resolve', 'unresolve')
     and exists (select 1 from public.messages where id = any (v_ids) and parent_id is not null) then
    raise exception '%', case when p_action = 'pin' then 'Only top-level messages can be pinned'
                              else 'Only top-level messages can be resolved' end using errcode = 'P0001';
  end if;

  if p_action = 'delete' then
    delete from public.messages where id = any (v_ids);
    return jsonb_build_object('deleted', to_jsonb(v_ids));
  end if;
  with changed as (
    update public.messages m set
      status = case p_action when 'approve' then case when m.status = 'held' then 'published' else m.status end
                             when 'hide' then 'hidden'
                             when 'unhide' then case when m.status = 'hidden' then 'published' else m.status end
                             else m.status end,
      pinned_at = case p_action when 'pin' then coalesce(m.pinned_at, clock_timestamp())
                                when 'unpin' then null else m.pinned_at end,
      resolved = case p_action when 'resolve' then true when 'unresolve' then false else m.resolved end
    where m.id = any (v_ids)
    returning m.*
  )
  select coalesce(jsonb_agg(to_jsonb(c) order by c.created_at desc), '[]'::jsonb) into v_result from changed c;
  return jsonb_build_object('messages', v_result);
end;
$$;
comment on function public.moderate_messages(uuid[], text) is
  'The block owner approves, hides, unhides, deletes, pins, unpins, resolves or unresolves messages (at most 200, all of the caller''s blocks). Errors: Not a moderation action, Only the block owner can moderate messages, Only top-level messages can be pinned/resolved, message doesn''t exists.';
revoke execute on function public.moderate_messages(uuid[], text) from public, anon;

-- The block owner blocks (or unblocks) a writer: their later writes to the block are refused;
-- p_hide_messages also hides what they wrote there. security definer: clients have no write
-- rights on blocked_writers and messages.
create function public.block_writer(p_block_id uuid, p_user_id uuid, p_blocked boolean default true,
                                    p_hide_messages boolean default false)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_hidden integer := 0;
begin
  if not exists (select 1 from public.blocks where id = p_block_id and owner_id = v_uid) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if p_user_id is null or p_user_id = v_uid then
    raise exception 'You cannot block yourself' using errcode = 'P0001';
  end if;
  if coalesce(p_blocked, true) then
    insert into public.blocked_writers (block_id, user_id) values (p_block_id, p_user_id)
      on conflict do nothing;
    if p_hide_messages then
      update public.messages set status = 'hidden'
        where block_id = p_block_id and creator_id = p_user_id and status <> 'hidden';
      get diagnostics v_hidden = row_count;
    end if;
  else
    delete from public.blocked_writers where block_id = p_block_id and user_id = p_user_id;
  end if;
  return jsonb_build_object('user_id', p_user_id, 'blocked', coalesce(p_blocked, true), 'hidden', v_hidden);
end;
$$;
comment on function public.block_writer(uuid, uuid, boolean, boolean) is
  'The block owner blocks or unblocks a writer (and may hide their messages). Errors: block doesn''t exists, You cannot block yourself.';
revoke execute on function public.block_writer(uuid, uuid, boolean, boolean) from public, anon;

-- =============================================================================================
-- schemas/jobs.sql
-- =============================================================================================

-- Background work: one outbox of jobs, drained by the `jobs-worker` edge function.
--
-- A job is written in the transaction of the write that causes it (a trigger on the visitor's
-- comment, a send function's insert), so a job exists if and only if that write committed. The
-- worker claims due jobs with FOR UPDATE SKIP LOCKED through functions only the service role may
-- call, runs each kind's handler, and reports every outcome in one call per batch. Everything
-- lives in schema `private`, which no client role can use; the entry points are `public`
-- functions executable by `service_role` only (PostgREST exposes them, anon and authenticated
-- get "permission denied").
--
-- States: queued -> running -> done | queued (retry, with backoff) | failed (last attempt)
--                    running -> sending (just before a provider call) -> done | unknown
-- A job whose worker vanished while `running` is claimed again (the handler had not called the
-- provider yet); one that vanished while `sending` becomes `unknown`: the provider may have
-- accepted it, so it is never re-sent blindly (docs/architecture.md, "Delivery guarantee").

create table private.jobs (
  id bigint generated always as identity primary key,
  kind text not null check (kind ~ '^[a-z][a-z0-9_.-]{0,63}$'),
  payload jsonb not null default '{}'::jsonb check (jsonb_typeof(payload) = 'object'),
  status text not null default 'queued'
    check (status in ('queued', 'running', 'sending', 'done', 'failed', 'unknown', 'merged')),
  run_at timestamptz not null default now(),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 8 check (max_attempts between 1 and 100),
  locked_until timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  -- at most one job per key, ever (until purged): a retried enqueue adds nothing
  dedupe_key text unique check (char_length(dedupe_key) <= 300),
  -- jobs of one group run one at a time and may be merged into one (a digest)
  group_key text check (char_length(group_key) <= 300),
  -- jobs that spend a provider quota (mail) take tokens from this bucket when claimed
  rate_bucket text check (char_length(rate_bucket) <= 60),
  result jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
comment on table private.jobs is
  'Outbox of background work (mail, Notion writes, plan expiry). Written in the transaction that causes the work; claimed by the jobs-worker edge function.';
alter table private.jobs enable row level security;
create index jobs_due_idx on private.jobs (run_at, id) where status = 'queued';
-- a claim's windows: each bucket's due jobs, and those without one ('') in their order
create index jobs_due_by_bucket_idx on private.jobs ((coalesce(rate_bucket, '')), run_at, id) where status = 'queued';
-- a group's next job: is an older one of the group queued?
create index jobs_group_queued_idx on private.jobs (group_key, run_at, id) where status = 'queued' and group_key is not null;
create index jobs_leased_idx on private.jobs (locked_until) where status in ('running', 'sending');
create index jobs_group_idx on private.jobs (group_key, status) where group_key is not null;
create index jobs_finished_idx on private.jobs (finished_at) where finished_at is not null;
create index jobs_letter_unsettled_idx on private.jobs (finished_at)
  where kind = 'letter' and status in ('unknown', 'failed');

-- Last finished run per group: the digest throttle.
create table private.job_groups (
  group_key text primary key,
  last_done_at timestamptz not null
);
comment on table private.job_groups is 'When a job group last finished a run (for digests: at most one mail per group per window).';
alter table private.job_groups enable row level security;

-- Token buckets for provider quotas (SES sending rate). One row per bucket.
create table private.rate_buckets (
  name text primary key,
  tokens double precision not null,
  updated_at timestamptz not null default clock_timestamp()
);
comment on table private.rate_buckets is 'Token buckets of provider quotas; capacity and refill rate come from settings rate.<name>.per_second / .burst.';
alter table private.rate_buckets enable row level security;

-- The tokens a bucket holds at p_now: what it kept, refilled at rate.<name>.per_second since
-- (default 14), up to its burst (rate.<name>.burst, default one second's worth, and never under
-- one token: a rate under 1 a second with no burst would never hold a whole one). A bucket never
-- used is full. Read only: hold_bucket and take_tokens read it under the bucket's lock.
create function private.bucket_tokens(p_name text, p_now timestamptz)
returns double precision language sql stable set search_path = '' as $$
  with l as (
    select r.rate,
           greatest(1, coalesce(nullif((private.setting('rate.' || p_name || '.burst', 'null'::jsonb))::text, 'null')::double precision,
                                r.rate)) as burst
    from (select (private.setting('rate.' || p_name || '.per_second', '14'::jsonb))::text::double precision as rate) r
  )
  select least(l.burst, coalesce((select b.tokens + extract(epoch from p_now - b.updated_at) * l.rate
                                    from private.rate_buckets b where b.name = p_name), l.burst))
  from l;
$$;
revoke execute on function private.bucket_tokens(text, timestamp with time zone) from public;

-- Locks a bucket's row until the transaction ends (made full if the bucket was never used) and
-- answers the tokens it holds now. Two claims at once take their tokens one after the other: the
-- second reads what the first left once it committed, not the tokens the first is taking.
create function private.hold_bucket(p_name text)
returns double precision language plpgsql set search_path = '' as $$
begin
  insert into private.rate_buckets (name, tokens, updated_at)
    values (p_name, private.bucket_tokens(p_name, clock_timestamp()), clock_timestamp())
    on conflict (name) do nothing;
  perform 1 from private.rate_buckets where name = p_name for update;
  return private.bucket_tokens(p_name, clock_timestamp());
end;
$$;
revoke execute on function private.hold_bucket(text) from public;

-- Takes up to p_wanted tokens from a bucket (bucket_tokens says how many it holds). Returns how
-- many were granted.
create function private.take_tokens(p_name text, p_wanted integer)
returns integer language plpgsql set search_path = '' as $$
declare
  v_now timestamptz;
  v_tokens double precision;
  v_granted integer;
begin
  if p_wanted <= 0 then return 0; end if;
  perform private.hold_bucket(p_name);
  v_now := clock_timestamp();
  v_tokens := private.bucket_tokens(p_name, v_now);
  v_granted := least(p_wanted, floor(v_tokens)::integer);
  update private.rate_buckets set tokens = v_tokens - v_granted, updated_at = v_now where name = p_name;
  return v_granted;
end;
$$;
revoke execute on function private.take_tokens(text, integer) from public;

-- Adds a job. A dedupe key already used returns null and adds nothing. For the SQL code that
-- causes jobs and for edge functions (service role only; definer because private is not theirs).
create function public.enqueue_job(
  p_kind text,
  p_payload jsonb default '{}'::jsonb,
  p_dedupe_key text default null,
  p_run_at timestamptz default null,
  p_group_key text default null,
  p_rate_bucket text default null,
  p_max_attempts integer default null)
returns bigint language sql security definer set search_path = '' as $$
  insert into private.jobs (kind, payload, dedupe_key, run_at, group_key, rate_bucket, max_attempts)
  values (p_kind, coalesce(p_payload, '{}'::jsonb), p_dedupe_key, coalesce(p_run_at, now()),
          p_group_key, p_rate_bucket, coalesce(p_max_attempts, 8))
  on conflict (dedupe_key) do nothing
  returning id;
$$;
revoke execute on function public.enqueue_job(text, jsonb, text, timestamp with time zone, text, text, integer) from public, anon, authenticated;

-- Backoff before attempt n+1: 5 s, 10 s, 20 s, ... capped at an hour, with 20% jitter so a
-- provider coming back is not hit by every job at the same instant.
create function private.job_backoff(p_attempts integer)
returns interval language sql volatile set search_path = '' as $$
  select make_interval(secs => least(3600, 5 * power(2, greatest(p_attempts - 1, 0)))
                               * (0.8 + random() * 0.4));
$$;
revoke execute on function private.job_backoff(integer) from public;

-- Claims up to p_limit due jobs for p_lock_seconds. Leases that ran out are settled first:
-- `running` goes back to the queue (or fails after its last attempt), `sending` becomes
-- `unknown`. A group runs one job at a time, oldest first (its turn, below), so a digest
-- handler sees its siblings still queued; two claims at once agree on that through the group's
-- advisory lock (below). A rate bucket's jobs are candidates only as many as it holds tokens,
-- read under its lock, so a bucket's backlog never fills the claim ahead of other jobs, another
-- bucket's or those without one, and a claim beside another that holds the bucket waits for it
-- and fills from the rest. Rows another claim holds are skipped. p_kinds limits the claim to the
-- kinds a worker knows (null: any). Answers the claimed jobs as a JSON array, oldest first.
create function public.claim_jobs(p_limit integer default 50, p_lock_seconds integer default 60,
                                  p_kinds text[] default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_limit integer := greatest(1, least(coalesce(p_limit, 50), 500));
  v_reaped bigint[];
  v_ids bigint[];
  v_buckets text[];
  v_groups text[];
  v_names text[] := '{}';
  v_counts integer[] := '{}';
  v_name text;
  v_tokens integer;
  v_grants jsonb := '{}'::jsonb;
  v_bucket record;
  v_claimed jsonb;
begin
  with reaped as (
    update private.jobs
      set status = 'unknown', finished_at = now(), updated_at = now(), locked_until = null,
          last_error = left(coalesce(last_error || '; ', '') ||
            'the worker stopped after calling the provider; not re-sent', 2000)
      where status = 'sending' and locked_until < now()
      returning id)
  select array_agg(id) into v_reaped from reaped;
  -- a platform mail that went before its worker stopped: recorded from its kept events
  if v_reaped is not null then
    perform private.adopt_kept_job_mails(v_reaped);
  end if;
  update private.jobs
    set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
        finished_at = case when attempts >= max_attempts then now() end,
        run_at = now(), locked_until = null, updated_at = now(),
        last_error = left(coalesce(last_error || '; ', '') || 'the worker stopped before finishing', 2000)
    where status = 'running' and locked_until < now();

  -- each bucket with due jobs of these kinds, in name order (two claims never wait on each
  -- other's buckets crosswise), held to the end (private.hold_bucket): the jobs it may give are
  -- as many as it holds whole tokens once a claim beside us that holds it has committed, so we
  -- neither wait for its tokens only to be refused them nor leave our slots empty
  for v_name in
    with recursive b(name) as (
      (select coalesce(j.rate_bucket, '') from private.jobs j
        where j.status = 'queued' and coalesce(j.rate_bucket, '') > '' order by 1 limit 1)
      union all
      select (select coalesce(j.rate_bucket, '') from private.jobs j
               where j.status = 'queued' and coalesce(j.rate_bucket, '') > b.name order by 1 limit 1)
        from b where b.name is not null
    )
    select b.name from b where b.name is not null
  loop
    continue when not exists (
      select 1 from private.jobs j
      where coalesce(j.rate_bucket, '') = v_name and j.status = 'queued' and j.run_at <= now()
        and (p_kinds is null or j.kind = any(p_kinds)));
    v_tokens := least(v_limit, floor(private.hold_bucket(v_name)))::integer;
    continue when v_tokens < 1;
    v_names := v_names || v_name;
    v_counts := v_counts || v_tokens;
  end loop;

  -- the window: the oldest due jobs without a bucket (up to limit) and of each bucket (up to its
  -- tokens), each a group's turn, skipping the rows another claim holds; of them the oldest limit
  with due as (
    select w.name, d.id, d.run_at, d.group_key
    from unnest(array[''] || v_names, array[v_limit] || v_counts) as w(name, n)
    cross join lateral (
      select j.id, j.run_at, j.group_key
      from private.jobs j
      where coalesce(j.rate_bucket, '') = w.name and j.status = 'queued' and j.run_at <= now()
        and (p_kinds is null or j.kind = any(p_kinds))
        -- a group's turn: none of it runs and no older job of it waits (one another claim holds,
        -- or one of a bucket without a token): the group keeps its order. Written here, not as a
        -- function: one called per row cost a digest's backlog of 2,000 some 50 ms a claim
        and (j.group_key is null or (
          not exists (select 1 from private.jobs r
                      where r.group_key = j.group_key and r.status in ('running', 'sending'))
          and not exists (select 1 from private.jobs o
                          where o.group_key = j.group_key and o.status = 'queued'
                            and (o.run_at, o.id) < (j.run_at, j.id))))
      order by j.run_at, j.id
      limit w.n
      for update of j skip locked
    ) d
  ), picked as (
    select * from due order by run_at, id limit v_limit
  )
  select array_agg(id order by run_at, id), array_agg(nullif(name, '') order by run_at, id),
         array_agg(group_key order by run_at, id)
    into v_ids, v_buckets, v_groups from picked;
  if v_ids is null then
    return '[]'::jsonb;
  end if;

  -- a group's job only under the group's lock, and only if none of the group runs as read after
  -- taking it: a second guard beside the group's turn for two claims at once, each reading the queue
  -- before the other's `running` commits (the check is a statement of its own: its snapshot
  -- comes after the lock)
  select array_agg(id order by ord), array_agg(bucket order by ord), array_agg(grp order by ord)
    into v_ids, v_buckets, v_groups
    from unnest(v_ids, v_buckets, v_groups) with ordinality as t(id, bucket, grp, ord)
    where grp is null or pg_try_advisory_xact_lock(hashtextextended('private.jobs group:' || grp, 0));
  select array_agg(id order by ord), array_agg(bucket order by ord)
    into v_ids, v_buckets
    from unnest(v_ids, v_buckets, v_groups) with ordinality as t(id, bucket, grp, ord)
    where grp is null or not exists (
      select 1 from private.jobs r where r.group_key = t.grp and r.status in ('running', 'sending'));
  if v_ids is null then
    return '[]'::jsonb;
  end if;

  -- provider quotas: take the tokens of the jobs picked (the bucket held since its window was
  -- read, so all are granted; the filter is a guard), the others stay queued untouched
  for v_bucket in select b as name, count(*)::integer as wanted from unnest(v_buckets) b
                  where b is not null group by b loop
    v_grants := v_grants || jsonb_build_object(v_bucket.name, private.take_tokens(v_bucket.name, v_bucket.wanted));
  end loop;
  if v_grants <> '{}'::jsonb then
    select array_agg(id order by ord) into v_ids
    from (
      select id, bucket, ord, row_number() over (partition by bucket order by ord) as rn
      from unnest(v_ids, v_buckets) with ordinality as t(id, bucket, ord)
    ) r
    where bucket is null or rn <= (v_grants ->> bucket)::integer;
    if v_ids is null then
      return '[]'::jsonb;
    end if;
  end if;

  with updated as (
    update private.jobs j
      set status = 'running', attempts = j.attempts + 1, updated_at = now(),
          locked_until = now() + make_interval(secs => greatest(5, least(coalesce(p_lock_seconds, 60), 900)))
      where j.id = any(v_ids)
      returning j.id, j.kind, j.payload, j.attempts, j.max_attempts, j.run_at, j.group_key, j.created_at
  )
  select coalesce(jsonb_agg(to_jsonb(u) order by u.run_at, u.id), '[]'::jsonb) into v_claimed from updated u;
  return v_claimed;
end;
$$;
revoke execute on function public.claim_jobs(integer, integer, text[]) from public, anon, authenticated;

-- Marks claimed jobs as being handed to a provider: from here a lost worker means `unknown`.
create function public.mark_jobs_sending(p_ids bigint[])
returns void language sql security definer set search_path = '' as $$
  update private.jobs set status = 'sending', updated_at = now()
    where id = any(p_ids) and status = 'running';
$$;
revoke execute on function public.mark_jobs_sending(bigint[]) from public, anon, authenticated;

-- Records the outcome of claimed jobs, one call per batch. p_outcomes is an array of
--   {id, status: done|retry|failed|unknown|defer, error?, result?, retry_in?, run_at?, mail?}
-- retry: back to the queue after the backoff (or retry_in seconds), failed after the last attempt;
-- defer: back to the queue at run_at without counting the attempt (throttles, quotas).
-- An outcome's `mail` (done: sent, unknown: maybe sent) is recorded by
-- private.record_outbound_mail (mail-log.sql).
-- Answers {done, retried, failed, unknown, deferred}.
create function public.finish_jobs(p_outcomes jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_item jsonb;
  v_job private.jobs;
  v_status text;
  v_error text;
  v_counts jsonb := '{"done":0,"retried":0,"failed":0,"unknown":0,"deferred":0}'::jsonb;
  v_key text;
begin
  if jsonb_typeof(p_outcomes) <> 'array' then
    raise exception 'outcomes must be an array' using errcode = 'P0001';
  end if;
  -- the lock of every mail of the batch first (private.lock_mail_messages): a provider's event
  -- for one of them, which takes it first too, waits for this record, or was kept for it
  perform private.lock_mail_messages(array(
    select o.value -> 'mail' ->> 'provider_message_id' from jsonb_array_elements(p_outcomes) o));
  -- then the letters' sends and members, for the whole batch (private.lock_sends): a provider's
  -- event for one mail of the batch must not hold its delivery while waiting for the send this
  -- transaction counted an earlier mail in
  perform private.lock_sends(array(
    select coalesce(o.value -> 'mail' ->> 'delivery_id', j.payload ->> 'delivery_id')::uuid
    from jsonb_array_elements(p_outcomes) o
    join private.jobs j on j.id = (o.value ->> 'id')::bigint
    where j.kind = 'letter' or o.value -> 'mail' ? 'delivery_id'));
  for v_item in select * from jsonb_array_elements(p_outcomes) loop
    select * into v_job from private.jobs
      where id = (v_item ->> 'id')::bigint and status in ('running', 'sending') for update;
    continue when not found;
    v_status := v_item ->> 'status';
    v_error := left(v_item ->> 'error', 2000);
    if v_status = 'done' then
      update private.jobs set status = 'done', result = v_item -> 'result', finished_at = now(),
        updated_at = now(), locked_until = null, last_error = null where id = v_job.id;
      if v_job.group_key is not null then
        insert into private.job_groups (group_key, last_done_at) values (v_job.group_key, now())
          on conflict (group_key) do update set last_done_at = excluded.last_done_at;
      end if;
      if jsonb_typeof(v_item -> 'mail') = 'object' then
        perform private.record_outbound_mail(v_job.id, v_item -> 'mail', 'sent');
      end if;
      -- a like's page under its Notion page: where a later retry's lookup starts (notion.sql)
      if v_job.kind = 'notion' and v_item -> 'result' ? 'under' then
        perform private.keep_notion_page(v_job, v_item -> 'result');
      end if;
      v_key := 'done';
    elsif v_status = 'defer' then
      update private.jobs set status = 'queued', attempts = greatest(attempts - 1, 0),
        run_at = coalesce((v_item ->> 'run_at')::timestamptz, now()), locked_until = null,
        updated_at = now() where id = v_job.id;
      v_key := 'deferred';
    elsif v_status = 'retry' and v_job.attempts < v_job.max_attempts then
      update private.jobs set status = 'queued', last_error = v_error, locked_until = null,
        run_at = now() + coalesce(make_interval(secs => (v_item ->> 'retry_in')::double precision),
                                  private.job_backoff(v_job.attempts)),
        updated_at = now() where id = v_job.id;
      v_key := 'retried';
    elsif v_status = 'unknown' then
      update private.jobs set status = 'unknown', last_error = v_error, finished_at = now(),
        locked_until = null, updated_at = now() where id = v_job.id;
      if jsonb_typeof(v_item -> 'mail') = 'object' then
        perform private.record_outbound_mail(v_job.id, v_item -> 'mail', 'unknown');
      end if;
      v_key := 'unknown';
    elsif v_status in ('retry', 'failed') then
      update private.jobs set status = 'failed', last_error = v_error, finished_at = now(),
        locked_until = null, updated_at = now() where id = v_job.id;
      -- a consent mail that did not go gives its mailbox's day back (mail-consent.sql)
      if v_job.kind = 'confirm.mail' then
        perform private.release_mail_consent(v_job.id);
      end if;
      v_key := 'failed';
    else
      raise exception 'unknown outcome status %', v_status using errcode = 'P0001';
    end if;
    v_counts := jsonb_set(v_counts, array[v_key], to_jsonb((v_counts ->> v_key)::integer + 1));
  end loop;
  return v_counts;
end;
$$;
revoke execute on function public.finish_jobs(jsonb) from public, anon, authenticated;

-- For a digest: the claimed job takes over the queued jobs of its group (their payloads go into
-- its payload's `merged` array, they become `merged`). When the group ran within
-- p_window_seconds (default: setting jobs.group_window_seconds, 60), nothing is merged, the
-- answer names when to run instead, and the group's queued jobs move to that time too.
-- Answers {payloads: [...], defer_until}.
create function public.merge_job_group(p_job_id bigint, p_window_seconds integer default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_last timestamptz;
  v_until timestamptz;
  v_merged jsonb;
begin
  select * into v_job from private.jobs where id = p_job_id and status = 'running' for update;
  if not found then
    raise exception 'job % is not running', p_job_id using errcode = 'PT404';
  end if;
  if v_job.group_key is null then
    return jsonb_build_object('payloads', jsonb_build_array(v_job.payload), 'defer_until', null);
  end if;
  select last_done_at into v_last from private.job_groups where group_key = v_job.group_key;
  v_until := v_last + make_interval(secs => greatest(coalesce(p_window_seconds,
    (private.setting('jobs.group_window_seconds', '60'::jsonb))::text::integer), 0));
  if v_until is not null and v_until > now() then
    update private.jobs set run_at = greatest(run_at, v_until), updated_at = now()
      where group_key = v_job.group_key and status = 'queued';
    return jsonb_build_object('payloads', '[]'::jsonb, 'defer_until', v_until);
  end if;
  with siblings as (
    select id from private.jobs
    where group_key = v_job.group_key and kind = v_job.kind and status = 'queued' and id <> v_job.id
    order by id
    limit 500
    for update skip locked
  ), merged as (
    update private.jobs j
      set status = 'merged', finished_at = now(), updated_at = now(),
          result = jsonb_build_object('merged_into', v_job.id)
      from siblings s where j.id = s.id
      returning j.id, j.payload
  )
  select coalesce(jsonb_agg(payload order by id), '[]'::jsonb) into v_merged from merged;
  if jsonb_array_length(v_merged) > 0 then
    update private.jobs
      set payload = payload || jsonb_build_object('merged', coalesce(payload -> 'merged', '[]'::jsonb) || v_merged),
          updated_at = now()
      where id = v_job.id
      returning * into v_job;
  end if;
  return jsonb_build_object(
    'payloads', jsonb_build_array(v_job.payload - 'merged') || coalesce(v_job.payload -> 'merged', '[]'::jsonb),
    'defer_until', null);
end;
$$;
revoke execute on function public.merge_job_group(bigint, integer) from public, anon, authenticated;

-- Whether due work waits: what the schedule checks before it calls the worker, so an idle
-- project makes no function calls.
create function private.jobs_are_due()
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.jobs where status = 'queued' and run_at <= now())
      or exists (select 1 from private.jobs where status in ('running', 'sending') and locked_until < now());
$$;
revoke execute on function private.jobs_are_due() from public;

-- Finished jobs are kept for a while to read what happened, then purged.
create function private.purge_jobs()
returns integer language plpgsql set search_path = '' as $$
declare
  v_done integer;
  v_other integer;
begin
  delete from private.jobs
    where status in ('done', 'merged')
      and finished_at < now() - make_interval(days => (private.setting('jobs.keep_done_days', '7'::jsonb))::text::integer);
  get diagnostics v_done = row_count;
  delete from private.jobs
    where status in ('failed', 'unknown')
      and finished_at < now() - make_interval(days => (private.setting('jobs.keep_failed_days', '30'::jsonb))::text::integer);
  get diagnostics v_other = row_count;
  delete from private.job_groups where last_done_at < now() - interval '1 day';
  -- provider events of a mail never recorded (mail-log.sql, private.early_mail_events)
  delete from private.early_mail_events where received_at < now() - interval '1 day';
  -- the ids of provider events already applied (SNS, PortOne and PayPal webhooks): PayPal re-sends
  -- for 3 days at the most (25 tries), SNS for an hour (AWS's hard limit on an HTTP/S policy),
  -- PortOne up to 5 times a minute apart; an id older than 30 days can come again only from a
  -- resend by hand (PortOne's resend API), which the payment read back from the provider keeps
  -- single as every repeat is
  delete from private.provider_events where received_at < now() - interval '30 days';
  -- the mail log (mail-log.sql) keeps 30 days (setting mail.keep_log_days): the sender's
  -- reputation reads 14 (mail_sender_status), and an event for a mail purged still suppresses
  -- its bounced or complaining recipients (record_mail_event). What outlives that: an owner's
  -- newest digest (notify.owner) to each address, for as long as the owner's account, because an
  -- owner-scope unsubscribe link never expires and, once its block is deleted, that row is all
  -- that proves the link's owner mailed the address (private.optout_owner)
  delete from private.outbound_mails o
    where o.created_at < now() - make_interval(days => (private.setting('mail.keep_log_days', '30'::jsonb))::text::integer)
      and (o.kind <> 'notify.owner' or o.user_id is null or exists (
        select 1 from private.outbound_mails n
        where n.kind = 'notify.owner' and n.user_id = o.user_id and lower(n.to_email) = lower(o.to_email)
          and (n.created_at, n.id) > (o.created_at, o.id)));
  -- the webhook delivery log (webhooks.sql) keeps 30 days of what is settled
  delete from public.webhook_deliveries
    where status <> 'pending' and created_at < now() - interval '30 days';
  return v_done + v_other;
end;
$$;
revoke execute on function private.purge_jobs() from public;

-- =============================================================================================
-- schemas/letters.sql
-- =============================================================================================

-- Letters (issue 11): templates, sends reserved in one transaction (a publish, one delivery and
-- one job per recipient), the worker's batch preparation, the delivery counts, the reconciliation
-- of sends the worker lost track of, and the public view of a letter.
--
-- Who writes what:
--   block_private letter fields   save_letter (the `save-letter` function renders the HTML from
--                                 the block model on the server; the client never sends HTML)
--   publishes, deliveries, jobs   reserve_letter (`send-letter`, `publish-letter`)
--   delivery states and counts    finish_jobs (sent), record_mail_event (provider events),
--                                 prepare_letter_jobs (skipped), settle_letter_jobs (failed)
-- Every function here is executable by service_role only, except get_letter_view (public).

create table public.letter_templates (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null,
  user_id uuid not null default auth.uid(),
  mail_html text check (char_length(mail_html) <= 1000000),
  mail_title text check (char_length(mail_title) <= 200),
  mail_text text check (char_length(mail_text) <= 100000),
  mail_name text check (char_length(mail_name) <= 100),
  cta boolean not null default false,
  cta_link text check (char_length(cta_link) <= 2000),
  cta_text text check (char_length(cta_text) < 100),
  image_link text check (char_length(image_link) <= 2000),
  page_url text check (char_length(page_url) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (block_id, user_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.letter_templates is 'Saved templates of a letter block (the default one is kept on block_private).';
call private.owners_write('public.letter_templates', 'letter templates');
revoke update on public.letter_templates from authenticated;
grant update (id, block_id, user_id, mail_html, mail_title, mail_text, mail_name, cta, cta_link, cta_text, image_link, page_url, created_at, updated_at) on public.letter_templates to authenticated;
create index letter_templates_block_id_idx on public.letter_templates (block_id);
create index letter_templates_user_id_idx on public.letter_templates (user_id);

create table public.publishes (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null,
  user_id uuid not null,
  subject text not null default '' check (char_length(subject) <= 200),
  html text check (char_length(html) <= 1000000),
  group_name text check (char_length(group_name) <= 100),
  reserved_count integer not null default 0 check (reserved_count >= 0),
  sent_count integer not null default 0 check (sent_count >= 0),
  opened_count integer not null default 0 check (opened_count >= 0),
  delivered_count integer not null default 0 check (delivered_count >= 0),
  bounced_count integer not null default 0 check (bounced_count >= 0),
  rejected_count integer not null default 0 check (rejected_count >= 0),
  complaint_count integer not null default 0 check (complaint_count >= 0),
  created_at timestamptz not null default now(),
  -- what a send needs, kept with the publish
  text text check (char_length(text) <= 300000),
  mail_from text check (char_length(mail_from) <= 320),
  mail_name text check (char_length(mail_name) <= 100),
  reply_to text check (char_length(reply_to) <= 320),
  skipped_count integer not null default 0 check (skipped_count >= 0),
  failed_count integer not null default 0 check (failed_count >= 0),
  -- the form whose responses send this letter by themselves (letter-triggers.sql): one such
  -- automatic send per letter and form, its deliveries one per address
  trigger_block_id uuid references public.blocks (id) on delete set null,
  foreign key (block_id, user_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.publishes is 'One letter send (publish) of a letter block with its delivery counts. Written by the send functions.';
call private.clients_read('public.publishes', 'Owners can read their publishes',
  'user_id = (select auth.uid())');
create index publishes_block_id_created_at_idx on public.publishes (block_id, created_at desc);
create index publishes_user_id_idx on public.publishes (user_id);
create unique index publishes_block_id_trigger_block_id_idx on public.publishes (block_id, trigger_block_id)
  where trigger_block_id is not null;
create index publishes_trigger_block_id_idx on public.publishes (trigger_block_id);

create table public.deliveries (
  id uuid primary key default gen_random_uuid(),
  publish_id uuid not null references public.publishes (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  audience_member_id uuid references public.audience_members (id) on delete set null,
  email text not null check (char_length(email) <= 100),
  status public.delivery_status not null default 'reserved',
  provider_message_id text check (char_length(provider_message_id) <= 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  reason text check (char_length(reason) <= 500),
  unique (publish_id, email)
);
comment on table public.deliveries is 'Per-recipient state of a letter send (reserved, sent, delivered, opened, bounced, ...).';
comment on column public.deliveries.reason is
  'Why the mail was not sent: the provider''s answer when it failed, the rule (DELIVERY_SKIP_REASONS) when it was skipped. Shown in the letter history.';
call private.clients_read('public.deliveries', 'Owners can read their deliveries',
  'user_id = (select auth.uid())');
-- The owner reads what the letter history shows, not SES's message id nor when the row last
-- changed: a suppressed address's bounce has neither SES's id nor SES's delay, so those would
-- tell it from a real bounce (docs/security.md "What an owner learns of a suppressed address").
revoke select on public.deliveries from authenticated;
grant select (id, publish_id, user_id, audience_member_id, email, status, reason, created_at)
  on public.deliveries to authenticated;
create index deliveries_user_id_idx on public.deliveries (user_id);
create index deliveries_provider_message_id_idx on public.deliveries (provider_message_id);
create index deliveries_audience_member_id_idx on public.deliveries (audience_member_id);
create index deliveries_publish_id_status_idx on public.deliveries (publish_id, status);

-- A delivery leaving `reserved` counts once in its send (and its audience member).
-- security definer: counts are not the client's to write (they cannot write deliveries at all).
create function private.deliveries_after_status()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_column text;
begin
  if old.status <> 'reserved' or new.status = old.status then
    return null;
  end if;
  v_column := case new.status when 'sent' then 'sent_count' when 'skipped' then 'skipped_count'
                              when 'failed' then 'failed_count' end;
  if v_column is null then
    -- an event (delivered, bounced ...) reached a delivery the worker had not recorded yet:
    -- record_mail_event records it as sent first, so this does not happen; count nothing
    return null;
  end if;
  execute format('update public.publishes set %I = %I + 1 where id = $1', v_column, v_column)
    using new.publish_id;
  if new.status = 'sent' and new.audience_member_id is not null then
    update public.audience_members set sent_count = sent_count + 1 where id = new.audience_member_id;
  end if;
  return null;
end;
$$;

-- Every writer of a letter's rows locks them in one order, so two never wait on each other: the
-- sends (publishes) by id, then the audience members by id, then the deliveries. A delivery
-- leaving `reserved` counts in its send's and its member's rows (deliveries_after_status), and a
-- provider's event counts there too; the worker records a batch of mails of one send in one
-- transaction (finish_jobs) while SES reports the first of them (record_mail_event): taken
-- delivery first, the two deadlocked. Call this before the first delivery is locked or updated.
create function private.lock_sends(p_delivery_ids uuid[])
returns void language plpgsql set search_path = '' as $$
begin
  perform 1 from public.publishes
    where id in (select publish_id from public.deliveries where id = any(p_delivery_ids))
    order by id for no key update;
  perform 1 from public.audience_members
    where id in (select audience_member_id from public.deliveries where id = any(p_delivery_ids))
    order by id for no key update;
end;
$$;
revoke execute on function private.lock_sends(uuid[]) from public;

-- A letter job that failed for good fails its delivery at once, with the provider's answer as the
-- reason, so the history shows it (settle_letter_jobs, every 30 s, remains for older jobs).
create function private.fail_letter_delivery()
returns trigger language plpgsql set search_path = '' as $$
begin
  -- (finish_jobs, which fails the job, locked the send first: private.lock_sends)
  update public.deliveries set status = 'failed', reason = left(new.last_error, 500)
    where id = (new.payload ->> 'delivery_id')::uuid and status = 'reserved';
  return null;
end;
$$;
revoke execute on function private.fail_letter_delivery() from public;

-- Saves a letter block's name, language and letter (the save-letter function validated the payload with
-- ZSaveLetter and rendered mail_html and mail_text from the model itself). p_payload:
--   {name?, language?, mail_title, mail_from, mail_name, page_url, letter, mail_html, mail_text}
-- mail_from must be one of the owner's verified sender emails (or null). Answers {block, private}.
create function public.save_letter(p_owner_id uuid, p_block_id uuid, p_payload jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_from text := nullif(btrim(p_payload ->> 'mail_from'), '');
  v_private public.block_private;
begin
  select * into v_block from public.blocks where id = p_block_id and owner_id = p_owner_id for update;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not a letter block' using errcode = 'P0001';
  end if;
  if v_from is not null and not exists (
      select 1 from public.sender_emails
      where user_id = p_owner_id and email = lower(v_from) and status = 'verified') then
    raise exception 'Verify the sender email first' using errcode = 'P0001';
  end if;
  if p_payload ? 'name' or p_payload ? 'language' then
    -- the language sets the mail footer's and <html lang> of what is sent (U3)
    update public.blocks
      set name = coalesce(p_payload ->> 'name', name),
          language = coalesce((p_payload ->> 'language')::public.language_code, language),
          updated_at = now()
      where id = p_block_id
      returning * into v_block;
  end if;
  update public.block_private
    set mail_title = p_payload ->> 'mail_title',
        mail_from = lower(v_from),
        mail_name = nullif(p_payload ->> 'mail_name', ''),
        page_url = nullif(p_payload ->> 'page_url', ''),
        letter = p_payload -> 'letter',
        mail_html = nullif(p_payload ->> 'mail_html', ''),
        mail_text = nullif(p_payload ->> 'mail_text', ''),
        updated_at = now()
    where block_id = p_block_id
    returning * into v_private;
  return jsonb_build_object('block', to_jsonb(v_block), 'private', to_jsonb(v_private));
end;
$$;
revoke execute on function public.save_letter(uuid, uuid, jsonb) from public, anon, authenticated;

-- One send of a letter, in one transaction: the recipients (typed-in addresses, or the active
-- members with an email of an audience group; `activated` is everyone), minus the addresses that
-- unsubscribed from this owner or are suppressed; the monthly email quota (the owner's
-- response_monthly_limit, shared with responses as in the spec, taken from the count shards of
-- counters.sql); a publish, one delivery and one `letter` job per recipient (dedupe key per
-- delivery).
-- p_sender: {from, from_name, reply_to} as the send-letter function decided them (verified
-- sender, or the platform address with Reply-To under a strict DMARC policy).
-- Answers {publish_id, reserved, skipped}; no publish when nobody is left to send to.
create or replace function public.reserve_letter(p_owner_id uuid, p_block_id uuid, p_emails text[],
  p_group text, p_register boolean, p_sender jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_profile public.profiles;
  v_block public.blocks;
  v_private public.block_private;
  v_total integer;
  v_count integer;
  v_publish_id uuid;
begin
  -- no key update: a visitor's write that adds an audience member (a key share on the profile,
  -- from the foreign key) does not wait for a send
  select * into v_profile from public.profiles where id = p_owner_id for no key update;
  select * into v_block from public.blocks where id = p_block_id and owner_id = p_owner_id;
  if v_profile.id is null or v_block.id is null or v_block.deactivated then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not a letter block' using errcode = 'P0001';
  end if;
  select * into v_private from public.block_private where block_id = p_block_id;
  if not public.letter_has_content(v_private.mail_html) then
    raise exception 'Load a page and save the letter first' using errcode = 'P0001';
  end if;
  if (p_emails is null) = (p_group is null) then
    raise exception 'Give either addresses or a group' using errcode = 'P0001';
  end if;
  if (p_group is not null or coalesce(p_register, false)) and not v_profile.paid then
    raise exception 'Paid plan required (%)', case when p_group is not null then 'audience' else 'registerAudience' end
      using errcode = 'PT403';
  end if;
  if p_group is not null and not exists (
      select 1 from public.audience_groups where user_id = p_owner_id and name = p_group) then
    raise exception 'No such group' using errcode = 'P0001';
  end if;

  create temporary table if not exists pg_temp.letter_recipients (
    email text primary key, member_id uuid, skip text
  ) on commit drop;
  truncate pg_temp.letter_recipients;
  if p_emails is not null then
    if coalesce(array_length(p_emails, 1), 0) > 100 then
      raise exception 'You can send 100 emails at once by manual sending' using errcode = 'P0001';
    end if;
    if exists (select 1 from unnest(p_emails) e
               where e is null or char_length(btrim(e)) > 100 or not private.is_valid_email(btrim(e))) then
      raise exception 'Email address is invalid' using errcode = 'P0001';
    end if;
    insert into pg_temp.letter_recipients (email)
      select distinct lower(btrim(e)) from unnest(p_emails) e
      on conflict do nothing;
    if coalesce(p_register, false) then
      insert into public.audience_members (user_id, email, creator_name, history)
        select p_owner_id, r.email, left(split_part(r.email, '@', 1), 30), '[]'::jsonb
        from pg_temp.letter_recipients r
        where not exists (select 1 from public.audience_members a
                          where a.user_id = p_owner_id and lower(a.email) = r.email)
        on conflict do nothing;
    end if;
    update pg_temp.letter_recipients r set member_id = a.id
      from public.audience_members a where a.user_id = p_owner_id and lower(a.email) = r.email;
  else
    insert into pg_temp.letter_recipients (email, member_id)
      select distinct on (lower(a.email)) lower(a.email), a.id
      from public.audience_members a
      where a.user_id = p_owner_id and not a.deactivated and a.has_email
        and not a.awaiting_confirmation
        and (p_group = 'activated' or a.group_name = p_group)
      order by lower(a.email), a.created_at
      on conflict do nothing;
  end if;

  -- the reason is prepare_letter_jobs' (DELIVERY_SKIP_REASONS), so the history reads them alike.
  -- A suppressed address is reserved like any other and bounces at the send (prepare_letter_jobs,
  -- docs/security.md "What an owner learns of a suppressed address")
  update pg_temp.letter_recipients r set skip = 'the address unsubscribed'
    where private.letter_unsubscribed(p_owner_id, r.email);
  select count(*) filter (where skip is null), count(*) into v_count, v_total from pg_temp.letter_recipients;
  if v_count = 0 then
    return jsonb_build_object('publish_id', null, 'reserved', 0, 'skipped', v_total);
  end if;

  -- the month's quota, from the owner's count shards (private.take_response_quota)
  if not private.take_response_quota(p_owner_id, v_count) then
    raise exception 'Not enough sending email counts' using errcode = 'P0001';
  end if;

  -- the addresses skipped now are counted and listed with the send, as the dialog said them
  insert into public.publishes (block_id, user_id, subject, html, text, group_name, reserved_count,
                                skipped_count, mail_from, mail_name, reply_to)
    values (p_block_id, p_owner_id, left(coalesce(nullif(v_private.mail_title, ''), v_block.name), 200),
            v_private.mail_html, v_private.mail_text, p_group, v_count, v_total - v_count,
            p_sender ->> 'from', left(nullif(p_sender ->> 'from_name', ''), 100), nullif(p_sender ->> 'reply_to', ''))
    returning id into v_publish_id;
  insert into public.deliveries (publish_id, user_id, audience_member_id, email, status, reason)
    select v_publish_id, p_owner_id, r.member_id, r.email, 'skipped', r.skip
    from pg_temp.letter_recipients r where r.skip is not null;

  with d as (
    insert into public.deliveries (publish_id, user_id, audience_member_id, email)
      select v_publish_id, p_owner_id, r.member_id, r.email
      from pg_temp.letter_recipients r where r.skip is null
      returning id
  )
  insert into private.jobs (kind, payload, dedupe_key, rate_bucket)
    select 'letter', jsonb_build_object('delivery_id', d.id, 'publish_id', v_publish_id),
           'letter:' || d.id, 'mail'
    from d;

  update public.blocks
    set response_count = response_count + v_count, new_response_count = new_response_count + v_count
    where id = p_block_id;
  return jsonb_build_object('publish_id', v_publish_id, 'reserved', v_count, 'skipped', v_total - v_count);
end;
$$;
revoke execute on function public.reserve_letter(uuid, uuid, text[], text, boolean, jsonb) from public, anon, authenticated;

-- The groups an audience send can go to (`activated`: every active member), each with the
-- addresses it reaches as reserve_letter picks them (active members with an email, one per
-- address, not awaiting confirmation), how many of those it will skip (unsubscribed from the
-- owner's letters; a suppressed address is not the owner's to learn of: it counts as reached),
-- and how many members it leaves out because their address has not confirmed yet
-- (awaiting_count: a visitor typed it, mail-consent.sql). Counted here: PostgREST answers at most
-- 1,000 rows, so the dashboard cannot count. security definer, the caller's own rows by
-- auth.uid(): the index on unsubscribes (user_id, mailbox) serves it (is_unsubscribed says why).
create function public.letter_send_groups()
returns table (name text, email_count integer, skip_count integer, awaiting_count integer)
language sql stable security definer set search_path = '' as $$
  with m as (
    select a.group_name, lower(a.email) as email, a.awaiting_confirmation as awaiting,
           private.letter_unsubscribed(a.user_id, a.email) as skip
    from public.audience_members a
    where a.user_id = (select auth.uid()) and not a.deactivated and a.has_email
  )
  select g.name, (count(distinct m.email) filter (where not m.awaiting))::integer,
         (count(distinct m.email) filter (where m.skip and not m.awaiting))::integer,
         (count(distinct m.email) filter (where m.awaiting))::integer
  from public.audience_groups g
  left join m on g.name = 'activated' or m.group_name = g.name
  where g.user_id = (select auth.uid()) and g.name <> 'deactivated'
  group by g.id, g.name, g.created_at
  order by g.created_at;
$$;
comment on function public.letter_send_groups() is
  'The caller''s audience groups with the addresses an audience send reaches, how many it skips, and how many members await confirmation (left out).';
revoke execute on function public.letter_send_groups() from public, anon;
grant execute on function public.letter_send_groups() to authenticated;

-- For each claimed letter job: its recipient, or why it is not sent (the delivery is gone or no
-- longer reserved, the address unsubscribed, the sender is suspended, the owner's sender address
-- is no longer a verified claim of theirs; the delivery then becomes `skipped`; a suppressed
-- address: the delivery is sent and bounced, as SES reports a send to an address on its
-- suppression list, so the owner learns no more than mailing it would tell: docs/security.md
-- "What an owner learns of a suppressed address"), and once per send what the mail needs. Answers
-- {jobs: [{id, delivery_id, publish_id, to, name, skip?}], publishes: [{id, ...}]}.
create function public.prepare_letter_jobs(p_job_ids bigint[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_jobs jsonb;
  v_publishes jsonb;
begin
  create temporary table if not exists pg_temp.letter_batch (
    job_id bigint primary key, delivery_id uuid, publish_id uuid, owner_id uuid, email text,
    name text, status text, skip text, bounce boolean not null default false
  ) on commit drop;
  truncate pg_temp.letter_batch;
  insert into pg_temp.letter_batch (job_id, delivery_id, publish_id, owner_id, email, name, status)
    select j.id, d.id, d.publish_id, d.user_id, d.email, nullif(m.creator_name, ''), d.status::text
    from private.jobs j
    left join public.deliveries d on d.id = (j.payload ->> 'delivery_id')::uuid
    left join public.audience_members m on m.id = d.audience_member_id
    where j.id = any(coalesce(p_job_ids, '{}')) and j.status = 'running' and j.kind = 'letter';

  update pg_temp.letter_batch b set skip = case
      when b.delivery_id is null then 'the send was deleted'
      when b.status <> 'reserved' then 'already ' || b.status
      when private.letter_unsubscribed(b.owner_id, b.email) then 'the address unsubscribed'
    end;
  -- a sender whose letters bounce or draw complaints too often stops sending (mail_sender_status)
  update pg_temp.letter_batch b set skip = 'the sender is suspended (bounces or complaints)'
    where b.skip is null and b.owner_id in (
      select o.owner_id from (select distinct owner_id from pg_temp.letter_batch where owner_id is not null) o
      where (public.mail_sender_status(o.owner_id) ->> 'suspended')::boolean);
  -- the owner's address (From, or Reply-To when the letter goes from the platform address) must
  -- still be a verified claim of theirs: deleted or no longer verified meanwhile, nothing goes
  update pg_temp.letter_batch b set skip = 'the sender address is no longer verified'
    where b.skip is null and not exists (
      select 1 from public.publishes p
      join public.sender_emails s
        on s.user_id = p.user_id and s.email = lower(coalesce(p.reply_to, p.mail_from))
      where p.id = b.publish_id and s.status = 'verified');
  -- a suppressed address (last: every reason above is the owner's own to know) is not mailed;
  -- its delivery goes as a mail SES bounced (sent, then bounced, counted as record_mail_event
  -- counts a bounce), and the worker is told to skip it
  update pg_temp.letter_batch b set bounce = true, skip = 'the address is suppressed'
    where b.skip is null and private.mailbox_suppressed(b.email);
  perform private.lock_sends(array(select delivery_id from pg_temp.letter_batch
                                   where status = 'reserved' and skip is not null));
  update public.deliveries d set status = 'skipped', reason = b.skip
    from pg_temp.letter_batch b
    where d.id = b.delivery_id and b.status = 'reserved' and b.skip is not null and not b.bounce;
  -- leaving `reserved` for `sent` counts the send's and the member's sent_count
  -- (deliveries_after_status); the bounce then counts as a provider's bounce event does
  update public.deliveries d set status = 'sent'
    from pg_temp.letter_batch b where d.id = b.delivery_id and b.status = 'reserved' and b.bounce;
  update public.deliveries d set status = 'bounced'
    from pg_temp.letter_batch b where d.id = b.delivery_id and b.status = 'reserved' and b.bounce;
  update public.publishes p set bounced_count = p.bounced_count + n.count
    from (select publish_id, count(*)::integer as count from pg_temp.letter_batch
          where status = 'reserved' and bounce group by publish_id) n
    where p.id = n.publish_id;
  update public.audience_members m set bounced_count = m.bounced_count + n.count
    from (select d.audience_member_id, count(*)::integer as count
          from public.deliveries d join pg_temp.letter_batch b on b.delivery_id = d.id
          where b.status = 'reserved' and b.bounce and d.audience_member_id is not null
          group by d.audience_member_id) n
    where m.id = n.audience_member_id;

  select coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
           'id', b.job_id, 'delivery_id', b.delivery_id, 'publish_id', b.publish_id, 'to', b.email,
           'name', b.name, 'skip', b.skip)) order by b.job_id), '[]'::jsonb)
    into v_jobs from pg_temp.letter_batch b;
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id, 'block_id', p.block_id, 'user_id', p.user_id, 'subject', p.subject,
           'html', p.html, 'text', p.text, 'from', p.mail_from, 'from_name', p.mail_name,
           'reply_to', p.reply_to, 'language', bl.language, 'owner_name', pr.name,
           'block_name', bl.name)), '[]'::jsonb)
    into v_publishes
    from public.publishes p
    join public.profiles pr on pr.id = p.user_id
    join public.blocks bl on bl.id = p.block_id
    where p.id in (select publish_id from pg_temp.letter_batch where skip is null);
  return jsonb_build_object('jobs', v_jobs, 'publishes', v_publishes);
end;
$$;
revoke execute on function public.prepare_letter_jobs(bigint[]) from public, anon, authenticated;

-- When the letter settler last ran, and since when it has run without a gap. The grace for a
-- Send event counts only time the stack was up to take it: a stack that was down longer than the
-- grace (its events endpoint gone, SNS retrying or the SES fake's journal waiting) would
-- otherwise find, on its first run back, jobs `unknown` since before the crash "unseen for too
-- long" and send them again before their pending Send events arrive.
create table private.letter_settle_clock (
  id boolean primary key default true check (id),
  last_run timestamptz not null,
  up_since timestamptz not null
);
comment on table private.letter_settle_clock is
  'settle_letter_jobs''s clock: its last run, and the start of its runs without a gap (a stack that was down).';
alter table private.letter_settle_clock enable row level security;

-- A letter job whose worker died after handing the mail to SES and before recording it is
-- `unknown` (jobs.sql). For letters that is settled, not left in doubt:
--   - SES reports every accepted mail with a Send event carrying the delivery id (an email tag);
--     record_mail_event then records the delivery as sent, and the job becomes done here;
--   - a job still unseen after `letters.unknown_grace_seconds` (default 600) of the stack being
--     up was never accepted (SES publishes Send within seconds, SNS retries a failed post): it is
--     queued again. The grace starts again when the settler finds it did not run for
--     `letters.settle_gap_seconds` (default 120; it runs every 30 s): the stack was down, and
--     the events of that time are still to come (letter_settle_clock).
-- Jobs the provider refused for good (`failed`) make their delivery `failed`.
create function private.settle_letter_jobs()
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_grace integer := (private.setting('letters.unknown_grace_seconds', '600'::jsonb))::text::integer;
  v_gap integer := (private.setting('letters.settle_gap_seconds', '120'::jsonb))::text::integer;
  v_up_since timestamptz;
  v_done integer;
  v_requeued integer;
  v_failed integer;
begin
  update private.jobs j
    set status = 'done', updated_at = now(),
        result = coalesce(j.result, '{}'::jsonb) || jsonb_build_object('settled', 'the provider reported the mail')
    from public.deliveries d
    where j.kind = 'letter' and j.status = 'unknown'
      and d.id = (j.payload ->> 'delivery_id')::uuid and d.status <> 'reserved';
  get diagnostics v_done = row_count;

  insert into private.letter_settle_clock as c (id, last_run, up_since) values (true, now(), now())
    on conflict (id) do update
      set up_since = case when c.last_run < now() - make_interval(secs => v_gap) then now()
                          else c.up_since end,
          last_run = now()
    returning c.up_since into v_up_since;

  update private.jobs j
    set status = 'queued', run_at = now(), finished_at = null, locked_until = null, updated_at = now(),
        max_attempts = greatest(j.max_attempts, j.attempts + 1),
        last_error = left(coalesce(j.last_error || '; ', '') || 'no Send event: queued again', 2000)
    where j.kind = 'letter' and j.status = 'unknown'
      and greatest(j.finished_at, v_up_since) < now() - make_interval(secs => v_grace)
      and exists (select 1 from public.deliveries d
                  where d.id = (j.payload ->> 'delivery_id')::uuid and d.status = 'reserved');
  get diagnostics v_requeued = row_count;

  perform private.lock_sends(array(
    select d.id from private.jobs j join public.deliveries d on d.id = (j.payload ->> 'delivery_id')::uuid
    where j.kind = 'letter' and j.status = 'failed' and d.status = 'reserved'));
  update public.deliveries d set status = 'failed'
    from private.jobs j
    where j.kind = 'letter' and j.status = 'failed' and d.status = 'reserved'
      and d.id = (j.payload ->> 'delivery_id')::uuid;
  get diagnostics v_failed = row_count;
  return jsonb_build_object('done', v_done, 'requeued', v_requeued, 'failed', v_failed);
end;
$$;
revoke execute on function private.settle_letter_jobs() from public;

-- The letter of a published letter block as its public page shows it: the title and the HTML
-- that save-letter rendered and sanitised (never an address, a sender or a send). anon too.
-- security definer: block_private is owner-only; only these two fields leave it.
create function public.get_letter_view(p_block_id uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks := private.visible_block(p_block_id);
  v_private public.block_private;
begin
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not valid type' using errcode = 'P0001';
  end if;
  select * into v_private from public.block_private where block_id = p_block_id;
  return jsonb_build_object(
    'block', jsonb_build_object('id', v_block.id, 'type', v_block.type, 'name', v_block.name,
                                'language', v_block.language, 'owner_id', v_block.owner_id),
    'title', coalesce(nullif(v_private.mail_title, ''), v_block.name),
    'html', v_private.mail_html);
end;
$$;
comment on function public.get_letter_view(uuid) is
  'Title and sanitised HTML of a published letter block, for its public page. Errors: block doesn''t exists, Not valid type.';
revoke execute on function public.get_letter_view(uuid) from public;

create trigger letter_templates_set_updated_at before update on public.letter_templates
  for each row execute function private.set_updated_at();
create trigger deliveries_set_updated_at before update on public.deliveries
  for each row execute function private.set_updated_at();
create trigger deliveries_after_status after update of status on public.deliveries
  for each row execute function private.deliveries_after_status();
create trigger jobs_fail_letter_delivery after update of status on private.jobs
  for each row
  when (new.kind = 'letter' and new.status = 'failed' and old.status is distinct from 'failed')
  execute function private.fail_letter_delivery();

-- =============================================================================================
-- schemas/letter-triggers.sql
-- =============================================================================================

-- A letter a form sends by itself (issue 18; spec: a question's triggerLetterBlock). A mail
-- question of a form may name one of its owner's letter blocks (save_block checks the owner and,
-- as a paid feature, the plan). Then:
--   1. submit_response, in the visitor's transaction, adds one `letter.trigger` job per such
--      answered question (private.enqueue_trigger_letters; dedupe key per response and
--      question: one letter per response, however often a job runs);
--   2. the jobs worker decides the sender as a manual send does (the owner's verified address,
--      or the platform's with Reply-To under a strict DMARC policy) and calls
--      reserve_trigger_letter, which reserves one delivery and one `letter` job in the letter's
--      automatic send (a publish with trigger_block_id: one per letter and form, so the history
--      shows it with its counts), taking the owner's monthly email quota;
--   3. the `letter` job goes out as every letter does (prepare_letter_jobs, the footer and the
--      one-click unsubscribe headers, the provider's events moving the counts).
-- An address gets the letter of a form once: a second response with it (or the same response
-- seen twice) reserves nothing. Unsubscribed and suppressed addresses, and sends past the
-- month's quota, are skipped deliveries with their reason.

-- Adds the trigger jobs of a response just stored (called by submit_response). Only mail
-- questions with an answer and a letter named; the address is read from the stored response
-- when the job runs.
create function private.enqueue_trigger_letters(p_block public.blocks, p_response_id uuid, p_answers jsonb)
returns void language plpgsql set search_path = '' as $$
begin
  insert into private.jobs (kind, payload, dedupe_key)
    select 'letter.trigger',
           jsonb_build_object('response_id', p_response_id, 'question_id', q.id,
                              'form_block_id', p_block.id, 'letter_block_id', q.trigger_letter_block,
                              'owner_id', p_block.owner_id),
           'letter.trigger:' || p_response_id || ':' || q.id
    from public.questions q
    where q.block_id = p_block.id and not q.deleted and q.type = 'mail'
      and q.trigger_letter_block is not null and p_answers ? q.id::text
    on conflict (dedupe_key) do nothing;
end;
$$;
revoke execute on function private.enqueue_trigger_letters(public.blocks, uuid, jsonb) from public;

-- Whether a letter's saved HTML is something to send: the one definition reserve_trigger_letter,
-- the manual send (letters.sql) and the editor's choices (trigger_letter_choices has_html) use,
-- so the editor never offers a letter the send would skip as "no content yet" (rev-mission D4).
create function public.letter_has_content(p_mail_html text)
returns boolean language sql immutable set search_path = '' as $$
  select coalesce(p_mail_html, '') <> '';
$$;
comment on function public.letter_has_content(text) is
  'Whether a letter''s saved mail_html is something to send (not null, not empty).';
revoke execute on function public.letter_has_content(text) from public, anon;
grant execute on function public.letter_has_content(text) to authenticated, service_role;

-- Reserves the letter of one running `letter.trigger` job. p_sender: {from, from_name, reply_to}
-- as the worker decided them (_shared/letter/calls.ts senderFor). Answers {delivery_id,
-- publish_id} when a `letter` job was added, {delivery_id, publish_id, skipped} when the delivery
-- was recorded as skipped, or {skip} when nothing is to be sent (the reason).
create function public.reserve_trigger_letter(p_job_id bigint, p_sender jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_form public.blocks;
  v_letter public.blocks;
  v_private public.block_private;
  v_paid boolean;
  v_email text;
  v_publish_id uuid;
  v_delivery_id uuid;
  v_member_id uuid;
  v_skip text;
  v_quota_left boolean;
begin
  select * into v_job from private.jobs where id = p_job_id and kind = 'letter.trigger' and status = 'running';
  if not found then
    return jsonb_build_object('skip', 'the job is no longer running');
  end if;
  select * into v_form from public.blocks where id = (v_job.payload ->> 'form_block_id')::uuid;
  -- the letter must be the form owner's, whatever the job says
  select * into v_letter from public.blocks
    where id = (v_job.payload ->> 'letter_block_id')::uuid and owner_id = v_form.owner_id
      and type in ('notion_letter', 'typedream_letter', 'brunch_letter');
  if v_form.id is null or v_letter.id is null then
    return jsonb_build_object('skip', 'the letter was deleted or is not the form owner''s');
  end if;
  if not exists (select 1 from public.questions q
                 where q.id = (v_job.payload ->> 'question_id')::uuid and q.block_id = v_form.id
                   and not q.deleted and q.trigger_letter_block = v_letter.id) then
    return jsonb_build_object('skip', 'the question no longer sends this letter');
  end if;
  -- every check that would skip the send comes before the consent ask (rev-mission D2): no
  -- confirmation mail, and none of the owner's daily confirmation cap, for a letter that cannot go
  select paid into v_paid from public.profiles where id = v_form.owner_id;
  if not coalesce(v_paid, false) then
    return jsonb_build_object('skip', 'a paid plan is required');
  end if;
  if v_letter.deactivated then
    return jsonb_build_object('skip', 'the letter is deactivated');
  end if;
  select * into v_private from public.block_private where block_id = v_letter.id;
  if not public.letter_has_content(v_private.mail_html) then
    return jsonb_build_object('skip', 'the letter has no content yet');
  end if;
  select r.answers -> (v_job.payload ->> 'question_id') ->> 'value' into v_email
    from public.responses r where r.id = (v_job.payload ->> 'response_id')::uuid and r.block_id = v_form.id;
  v_email := lower(btrim(v_email));
  if v_email is null or char_length(v_email) > 100 or not private.is_valid_email(v_email) then
    return jsonb_build_object('skip', 'the response was deleted or has no address');
  end if;
  -- double opt-in (mail-consent.sql): a typed address gets the owner's letter once it confirmed
  -- it wants their letters. Until then the confirmation mail goes instead (asked here too: the
  -- question need not be the form's visitor email), and answer_mail_consent queues this job's
  -- letter again when it confirms (the result's `awaiting`). Never to an address that
  -- unsubscribed from the owner (rev-mission D1: a yes would lead to nothing, and a stranger
  -- could make the owner mail someone who opted out; the delivery below is skipped and says so)
  -- nor to a suppressed one (ask_mail_consent asks nothing: the platform mails it nothing).
  -- The month's quota used up is such a check too (rev-fixes2 D7), read here without taking: the
  -- take stays below, with the delivery. An address not asked for it falls through to the
  -- delivery, skipped for the quota as a confirmed address's is.
  v_quota_left := private.monthly_response_count(v_form.owner_id)
                  < coalesce((select response_monthly_limit from public.profiles where id = v_form.owner_id), 0);
  if v_quota_left and not private.letters_allowed(v_form.owner_id, v_email)
     and not private.letter_unsubscribed(v_form.owner_id, v_email) then
    if private.ask_mail_consent(v_email, v_form.owner_id, null, v_form.id, v_form.language) = 'suppressed' then
      return jsonb_build_object('skip', 'the address is suppressed');
    end if;
    return jsonb_build_object('skip', 'the address has not confirmed yet', 'awaiting', v_email);
  end if;

  -- the letter's automatic send for this form, carrying the letter as it is now
  insert into public.publishes (block_id, user_id, trigger_block_id, subject, html, text,
                                mail_from, mail_name, reply_to)
    values (v_letter.id, v_letter.owner_id, v_form.id,
            left(coalesce(nullif(v_private.mail_title, ''), v_letter.name), 200),
            v_private.mail_html, v_private.mail_text, p_sender ->> 'from',
            left(nullif(p_sender ->> 'from_name', ''), 100), nullif(p_sender ->> 'reply_to', ''))
    on conflict (block_id, trigger_block_id) where trigger_block_id is not null do update
      set subject = excluded.subject, html = excluded.html, text = excluded.text,
          mail_from = excluded.mail_from, mail_name = excluded.mail_name, reply_to = excluded.reply_to
    returning id into v_publish_id;

  select id into v_member_id from public.audience_members
    where user_id = v_letter.owner_id and lower(email) = v_email
    order by created_at limit 1;
  insert into public.deliveries (publish_id, user_id, audience_member_id, email)
    values (v_publish_id, v_letter.owner_id, v_member_id, v_email)
    on conflict (publish_id, email) do nothing
    returning id into v_delivery_id;
  if v_delivery_id is null then
    return jsonb_build_object('skip', 'the letter already went to this address', 'publish_id', v_publish_id);
  end if;

  -- the reasons are prepare_letter_jobs' and DELIVERY_SKIP_REASONS'; a suppressed address is
  -- reserved, and bounces at the send (prepare_letter_jobs)
  v_skip := case
    when private.letter_unsubscribed(v_letter.owner_id, v_email) then 'the address unsubscribed'
    -- (its own branch: the take must not run then, and an OR's operands have no set order)
    when not v_quota_left then 'the monthly email quota is used up'
    when not private.take_response_quota(v_letter.owner_id, 1)
      then 'the monthly email quota is used up'
  end;
  if v_skip is not null then
    -- leaving `reserved` counts it in the send's skipped_count (deliveries_after_status)
    update public.deliveries set status = 'skipped', reason = v_skip where id = v_delivery_id;
    return jsonb_build_object('delivery_id', v_delivery_id, 'publish_id', v_publish_id, 'skipped', v_skip);
  end if;

  update public.publishes set reserved_count = reserved_count + 1 where id = v_publish_id;
  insert into private.jobs (kind, payload, dedupe_key, rate_bucket)
    values ('letter', jsonb_build_object('delivery_id', v_delivery_id, 'publish_id', v_publish_id),
            'letter:' || v_delivery_id, 'mail');
  update public.blocks
    set response_count = response_count + 1, new_response_count = new_response_count + 1
    where id = v_letter.id;
  return jsonb_build_object('delivery_id', v_delivery_id, 'publish_id', v_publish_id);
end;
$$;
comment on function public.reserve_trigger_letter(bigint, jsonb) is
  'Reserves the letter a form response sends by itself (one running letter.trigger job). Service role only.';
revoke execute on function public.reserve_trigger_letter(bigint, jsonb) from public, anon, authenticated;

-- The owner's letter blocks a form question may send, with what keeps one from being picked:
-- no saved letter (HTML) yet, or no verified sender address. RLS decides whose rows are read.
create function public.trigger_letter_choices()
returns table (id uuid, name text, type public.block_type, has_html boolean, sender_verified boolean)
language plpgsql stable set search_path = '' as $$
begin
  return query
    select b.id, b.name, b.type, public.letter_has_content(p.mail_html),
           exists (select 1 from public.sender_emails s
                   where s.user_id = b.owner_id and s.email = lower(p.mail_from) and s.status = 'verified')
    from public.blocks b
    left join public.block_private p on p.block_id = b.id
    where b.owner_id = (select auth.uid()) and b.type in ('notion_letter', 'typedream_letter', 'brunch_letter')
    order by b.created_at desc;
end;
$$;
comment on function public.trigger_letter_choices() is
  'The caller''s letter blocks with has_html and sender_verified: what a form question may send.';
revoke execute on function public.trigger_letter_choices() from public, anon;
grant execute on function public.trigger_letter_choices() to authenticated;

-- =============================================================================================
-- schemas/mail.sql
-- =============================================================================================

-- Mail: sender addresses (an owner's own From addresses: claimed, confirmed by a mail, verified at
-- the provider) and their confirmation mails. What the platform mails and what the provider
-- says of it is in mail-log.sql; unsubscribes and opt-outs in mail-optouts.sql.

-- The mailbox an address reaches, for the caps and the suppression checks (docs/security.md
-- "One mailbox, many spellings"): lower case, trimmed, the local part cut at its first '+'
-- (victim+1@x and victim+2@x reach victim@x), for gmail.com and googlemail.com the dots of the
-- local part gone and the domain gmail.com, and the domains one provider documents as one
-- account's (docs/security.md "One mailbox, many spellings", with the sources): Apple's
-- icloud.com, me.com and mac.com are icloud.com; Proton's proton.me, protonmail.com,
-- protonmail.ch and pm.me are proton.me. Only for counting and matching: mail still goes to the
-- address as typed. A local part that is nothing before its '+' stays whole.
create function private.mailbox_key(p_email text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select case when a.domain is null then a.address
              when a.domain in ('gmail.com', 'googlemail.com')
                then replace(a.local, '.', '') || '@gmail.com'
              when a.domain in ('icloud.com', 'me.com', 'mac.com') then a.local || '@icloud.com'
              when a.domain in ('proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me')
                then a.local || '@proton.me'
              else a.local || '@' || a.domain end
  from (select t.address, t.domain,
               coalesce(nullif(split_part(t.whole, '+', 1), ''), t.whole) as local
        from (select lower(btrim(p_email)) as address,
                     nullif(substring(lower(btrim(p_email)) from '@([^@]*)$'), '') as domain,
                     substring(lower(btrim(p_email)) from '^(.*)@[^@]*$') as whole) t) a;
$$;
revoke execute on function private.mailbox_key(text) from public;
-- sender_emails_mailbox_idx runs it as the role that writes the row: the functions' service
-- role (a status update that is not HOT failed without it, now and then: rls-catalogue.test.ts)
grant execute on function private.mailbox_key(text) to service_role;

create table public.sender_emails (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  -- the address rule on write: private.check_email_written (sender_emails_email_rule)
  email text not null check (char_length(email) <= 60),
  status public.sender_email_status not null default 'pending',
  spf_verified boolean not null default false,
  dkim_verified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  dmarc_policy text check (dmarc_policy in ('none', 'quarantine', 'reject')),
  checked_at timestamptz,
  -- issue 17: a sender email is one owner's claim on an address, verified only by that owner's
  -- own proof (request-mail-verify mails a single-use link, confirm-mail-verify spends it). A row
  -- is verified only when it is confirmed AND the provider can send as the address (the SES
  -- identity, which stays the platform's: created after the first owner's confirmation, deleted
  -- with the last confirmed claim).
  confirmed_at timestamptz,
  unique (user_id, email),
  constraint sender_emails_verified_needs_confirmation
    check (status <> 'verified' or confirmed_at is not null)
);
comment on table public.sender_emails is
  'Addresses a user sends letters from, with verification, SPF and DKIM state (set by the mail edge functions).';
comment on column public.sender_emails.dmarc_policy is
  'The _dmarc policy of the address''s domain when last checked; quarantine or reject means letters go from the platform address with Reply-To this one.';
comment on column public.sender_emails.confirmed_at is
  'When this owner opened the confirmation link mailed to the address (confirm-mail-verify); null until then. verified needs it.';
-- deleting too goes through delete-mail-verified: it clears the letters that named the address;
-- the provider's identity goes with the last confirmed claim (sender.release, below)
call private.clients_read('public.sender_emails', 'Users can read their own sender emails',
  'user_id = (select auth.uid())');
-- sender.release looks for the confirmed claims left on an address
create index sender_emails_email_idx on public.sender_emails (email);
-- "Not me" drops the claims nobody confirmed of every spelling of the mailbox (private.not_me)
create index sender_emails_mailbox_idx on public.sender_emails (private.mailbox_key(email))
  where confirmed_at is null;

-- A confirmed claim that goes (delete-mail-verified, or its account's cascade) hands the address
-- to the jobs worker (`sender.release`, _shared/sender-emails.ts), enqueued in the deleting
-- transaction, one job per claim (its id is the dedupe key), with the queue's most attempts (100:
-- with the backoff capped at an hour, about 90 hours of SES outage, give or take the 20% jitter).
-- The job decides, after the rows changed and with no lock held across SES: it deletes the
-- provider's identity only when no confirmed claim of the address is left, and re-creates it when
-- one was confirmed while it deleted (capfix: two owners deleting at once each saw the other's
-- claim, and the identity stayed at SES with no claim). SES refusing the call for good (a 4xx but
-- a throttle or its 404) fails it at once. An outage longer than that, or such a refusal, leaves
-- the identity at SES unowned: the job is then `failed` with SES's last answer (kept 30 days) and
-- the identity is deleted by hand. A claim never confirmed never enqueues: it never made the
-- identity (an owner cannot take another's identity away by adding and deleting an address).
create function private.sender_emails_after_delete()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if old.confirmed_at is not null then
    perform public.enqueue_job('sender.release',
      jsonb_build_object('user_id', old.user_id, 'email', old.email),
      'sender.release:' || old.id, p_max_attempts => 100);
  end if;
  return old;
end;
$$;
create trigger sender_emails_after_delete after delete on public.sender_emails
  for each row execute function private.sender_emails_after_delete();
create trigger sender_emails_email_rule before insert or update of email on public.sender_emails
  for each row execute function private.check_email_written();

create table private.sender_email_tokens (
  sender_email_id uuid primary key references public.sender_emails (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sender_email_tokens_expires_at_idx on private.sender_email_tokens (expires_at);
comment on table private.sender_email_tokens is
  'The live confirmation token of a sender email claim (one per claim; a new request replaces it), as the SHA-256 of the token mailed to the address. Spent by confirm_sender_email; gone with the claim.';
alter table private.sender_email_tokens enable row level security;
revoke all on private.sender_email_tokens from public, anon, authenticated;

-- Every confirmation mail's "Not me" token (sender: request_sender_email; consent:
-- start_mail_consent, where it is also the mail's confirm token), as its SHA-256. It belongs to
-- the mail, not to what asked: the claim, the consent row, the account that asked or the owner
-- may go, and a later mail may replace the claim's or the row's token, while "Not me" keeps
-- suppressing the mailbox for 7 days (answer_mail_consent; single use). owner_id: the account
-- the mail came from (the sender claim's or the consent's owner), no foreign key: the page names
-- it while it exists. Expired rows go with request_sender_email and purge_mail_consents.
create table private.not_me_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  scope text not null check (scope in ('sender', 'reply', 'letters', 'notify')),
  locale public.language_code not null default 'en',
  owner_id uuid,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
comment on table private.not_me_tokens is
  'The "Not me" token of every confirmation mail (sender and consent), as its SHA-256, tied to the mail only: it suppresses the mailbox for 7 days whatever became of the claim, the consent or the accounts (answer_mail_consent).';
alter table private.not_me_tokens enable row level security;
revoke all on private.not_me_tokens from public, anon, authenticated;
create index not_me_tokens_expires_at_idx on private.not_me_tokens (expires_at);

-- Every sender confirmation mail, by mailbox (private.mailbox_key): one a day per mailbox, whoever
-- asks (docs/security.md "Sender addresses"). Not tied to the account or the claim, so deleting
-- either gives the address no day back; rows go after two days (reserve_sender_confirmation).
create table private.sender_confirmation_mails (
  id bigint generated always as identity primary key,
  mailbox text not null,
  user_id uuid not null,
  mailed_at timestamptz not null default now()
);
comment on table private.sender_confirmation_mails is
  'Sender confirmation mails sent (request-mail-verify), by mailbox key, for the one-a-day cap across owners.';
alter table private.sender_confirmation_mails enable row level security;
revoke all on private.sender_confirmation_mails from public, anon, authenticated;
create index sender_confirmation_mails_mailbox_idx
  on private.sender_confirmation_mails (mailbox, mailed_at);

-- Before request-mail-verify mails an address: refuses a new address to an owner who holds
-- p_max_claims claims already ({outcome: too_many}), a suppressed mailbox
-- (private.sender_confirmation_suppressed: a "Not me" only to consent asks does not hold back
-- the owner's own sign-in address)
-- ({outcome: suppressed}) and a mailbox sent a sender confirmation, for any owner, in the last 24
-- hours ({outcome: sent_today, retry_at}); else notes the mail ({outcome: reserved, id}). A consent
-- ask's day does not count: any visitor can make one reach the owner's own address, and so keep
-- the owner from ever confirming it (rev-fixes D4); a consent ask still waits for this one's day
-- (private.mailbox_last_ask). One mailbox at a time (private.lock_mailbox_asks): twenty accounts
-- asking at once make one mail.
-- A new address's claim is written here, pending, before its mail goes ({claim: its id}):
-- release_sender_confirmation removes it when the provider refuses the mail, request_sender_email
-- gives it its tokens once the mail is out. The count and that write are one owner's at a time
-- (an advisory lock per owner, taken before the mailbox's and held to the end): until capfix
-- (2026-11-30) the function counted the owner's rows with no lock and the claim was written only
-- after the mail, so five requests at once for new addresses all read 9 and all passed (14 claims).
create function public.reserve_sender_confirmation(p_user_id uuid, p_email text,
                                                   p_max_claims integer)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_key text := private.mailbox_key(p_email);
  v_new boolean;
  v_last timestamptz;
  v_id bigint;
  v_claim uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('sender_emails_cap:' || p_user_id, 0));
  v_new := not exists (select 1 from public.sender_emails
                       where user_id = p_user_id and email = lower(p_email));
  if v_new and (select count(*) from public.sender_emails where user_id = p_user_id)
               >= p_max_claims then
    return jsonb_build_object('outcome', 'too_many');
  end if;
  perform private.lock_mailbox_asks(v_key);
  if private.sender_confirmation_suppressed(p_email, p_user_id) then
    return jsonb_build_object('outcome', 'suppressed');
  end if;
  -- sender confirmations only: a consent ask's day does not hold this one back (see above)
  select max(mailed_at) into v_last from private.sender_confirmation_mails
    where mailbox = v_key and mailed_at > now() - interval '24 hours';
  if v_last is not null then
    return jsonb_build_object('outcome', 'sent_today', 'retry_at', v_last + interval '24 hours');
  end if;
  delete from private.sender_confirmation_mails where mailed_at < now() - interval '2 days';
  insert into private.sender_confirmation_mails (mailbox, user_id) values (v_key, p_user_id)
    returning id into v_id;
  if v_new then
    insert into public.sender_emails (user_id, email, status)
      values (p_user_id, lower(p_email), 'pending')
      returning id into v_claim;
  end if;
  return jsonb_build_object('outcome', 'reserved', 'id', v_id, 'claim', v_claim);
end;
$$;
comment on function public.reserve_sender_confirmation(uuid, text, integer) is
  'Notes a sender confirmation mail about to go to an address, or refuses it: too_many (a new address when the owner holds p_max_claims claims, counted under a per-owner lock), suppressed, or sent_today (one a day per mailbox, across owners) with retry_at. A new address''s pending claim is written here (claim), before the mail. Service role only (request-mail-verify).';
revoke all on function public.reserve_sender_confirmation(uuid, text, integer) from public, anon, authenticated;
grant execute on function public.reserve_sender_confirmation(uuid, text, integer) to service_role;

-- The provider refused the mail reserve_sender_confirmation noted: it did not go, the day is not
-- spent, and the claim it wrote for a new address (p_claim) goes, unless a token came to it since.
create function public.release_sender_confirmation(p_id bigint, p_claim uuid default null)
returns void language sql security definer set search_path = '' as $$
  delete from private.sender_confirmation_mails where id = p_id;
  delete from public.sender_emails s
    where s.id = p_claim and s.confirmed_at is null
      and not exists (select 1 from private.sender_email_tokens t where t.sender_email_id = s.id);
$$;
revoke all on function public.release_sender_confirmation(bigint, uuid) from public, anon, authenticated;
grant execute on function public.release_sender_confirmation(bigint, uuid) to service_role;

-- Once the mail is out: the claim (written by reserve_sender_confirmation, or an older one) gets
-- the hashes of the mail's tokens. A claim the owner deleted meanwhile stays deleted (writing it
-- again here would pass the owner's count): its mail's "Not me" is still kept, and its link
-- answers invalid.
create function public.request_sender_email(p_user_id uuid, p_email text, p_token_hash text,
                                            p_not_me_hash text)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid;
begin
  delete from private.sender_email_tokens where expires_at < now();
  delete from private.not_me_tokens where expires_at < now();
  update public.sender_emails as s
    set status = case when s.status = 'verified' then s.status else 'pending' end,
        updated_at = now()
    where s.user_id = p_user_id and s.email = lower(p_email)
    returning s.id into v_id;
  if v_id is not null then
    insert into private.sender_email_tokens (sender_email_id, token_hash, expires_at)
      values (v_id, p_token_hash, now() + interval '24 hours')
      on conflict (sender_email_id) do update
        set token_hash = excluded.token_hash, expires_at = excluded.expires_at, created_at = now();
  end if;
  -- the mail's "Not me", which outlives this claim and the next request
  insert into private.not_me_tokens (token_hash, email, scope, locale, owner_id, expires_at)
    select p_not_me_hash, lower(p_email), 'sender',
           coalesce((select p.language from public.profiles p where p.id = p_user_id), 'en'),
           p_user_id, now() + interval '7 days'
    where p_not_me_hash is not null;
  return v_id;
end;
$$;
comment on function public.request_sender_email(uuid, text, text, text) is
  'Gives an owner''s claim on a sender address (written pending by reserve_sender_confirmation, or an older one) the hashes of the tokens just mailed to it (confirm, 24 hours, the claim''s older one stops working; "Not me", 7 days, the mail''s own: private.not_me_tokens); a claim deleted meanwhile is not written again (null). Service role only (request-mail-verify, after reserve_sender_confirmation).';
revoke all on function public.request_sender_email(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.request_sender_email(uuid, text, text, text) to service_role;

create function public.confirm_sender_email(p_user_id uuid, p_token_hash text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_claim public.sender_emails;
begin
  -- the row lock makes the token single use: a second call waits, then finds it gone
  select s.* into v_claim
    from private.sender_email_tokens t
    join public.sender_emails s on s.id = t.sender_email_id
    where t.token_hash = p_token_hash and t.expires_at > now()
    for update of t;
  if not found then
    return jsonb_build_object('outcome', 'invalid');
  end if;
  -- another account's link is not spent: its owner may still open it
  if v_claim.user_id <> p_user_id then
    return jsonb_build_object('outcome', 'other_account');
  end if;
  delete from private.sender_email_tokens where sender_email_id = v_claim.id;
  update public.sender_emails set confirmed_at = now() where id = v_claim.id;
  return jsonb_build_object('outcome', 'confirmed', 'id', v_claim.id, 'email', v_claim.email);
end;
$$;
comment on function public.confirm_sender_email(uuid, text) is
  'Spends a sender email confirmation token for its own owner (outcome confirmed, with the claim''s id and email); invalid when unknown, spent or expired; other_account (not spent) when the caller is not the claim''s owner. Service role only (confirm-mail-verify).';
revoke all on function public.confirm_sender_email(uuid, text) from public, anon, authenticated;
grant execute on function public.confirm_sender_email(uuid, text) to service_role;

create trigger sender_emails_set_updated_at before update on public.sender_emails
  for each row execute function private.set_updated_at();

-- =============================================================================================
-- schemas/mail-log.sql
-- =============================================================================================

-- The mail log: a record of every mail the platform hands to the provider, the provider's
-- events (SES through SNS) applied to it (and those that came before it), suppressions, and the
-- sender's reputation.

create table private.outbound_mails (
  id uuid primary key default gen_random_uuid(),
  job_id bigint,
  kind text not null check (char_length(kind) <= 64),
  -- the owner the mail concerns (notifications: the block owner; letters: the sender)
  user_id uuid references public.profiles (id) on delete set null,
  -- set when the From address is the user's own verified identity: counts in their reputation
  sender_user_id uuid references public.profiles (id) on delete set null,
  block_id uuid references public.blocks (id) on delete set null,
  delivery_id uuid references public.deliveries (id) on delete set null,
  to_email text not null check (char_length(to_email) <= 320),
  from_email text not null check (char_length(from_email) <= 320),
  subject text not null default '' check (char_length(subject) <= 500),
  provider_message_id text unique check (char_length(provider_message_id) <= 300),
  -- sent: the provider accepted it; unknown: the worker lost track after calling the provider
  status text not null default 'sent'
    check (status in ('sent', 'unknown', 'delivered', 'bounced', 'complaint', 'rejected')),
  opened boolean not null default false,
  bounce_type text check (char_length(bounce_type) <= 60),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table private.outbound_mails is
  'Every mail handed to the mail provider, with the state its events reported (delivered, opened, bounced, complaint, rejected).';
alter table private.outbound_mails enable row level security;
create index outbound_mails_sender_created_idx on private.outbound_mails (sender_user_id, created_at desc)
  where sender_user_id is not null;
create index outbound_mails_created_idx on private.outbound_mails (created_at);
-- private.adopt_job_mail: a mail recorded without SES's message id (its answer was lost), found
-- by its job when an event tagged with the job comes
create index outbound_mails_unnamed_job_idx on private.outbound_mails (job_id)
  where provider_message_id is null;
-- private.optout_owner: an owner's notification mails to an address (the unsubscribe link of a
-- deleted block's digest)
create index outbound_mails_notification_idx on private.outbound_mails (user_id, lower(to_email))
  where kind = 'notify.owner';

-- SNS message ids already applied (SNS delivers at least once).
create table private.provider_events (
  id text primary key check (char_length(id) <= 200),
  received_at timestamptz not null default now()
);
comment on table private.provider_events is 'Ids of provider events (SNS MessageId) already applied, so a duplicate delivery changes nothing.';
alter table private.provider_events enable row level security;

-- A provider's events that came before their mail was recorded: SES publishes a mail's events as
-- soon as it takes the mail, and the worker records a batch's mails after its last send
-- (finish_jobs). record_mail_event keeps such an event here (its SNS id is in provider_events
-- already, so SNS's retry stays a duplicate) and private.record_outbound_mail applies it when the
-- mail comes, in the order they came. A mail never recorded (its worker stopped after the send:
-- the job is `unknown`) leaves its events here for a day (private.purge_jobs).
create table private.early_mail_events (
  event_id text primary key check (char_length(event_id) <= 200),
  message_id text not null check (char_length(message_id) <= 300),
  event jsonb not null,
  received_at timestamptz not null default now()
);
comment on table private.early_mail_events is
  'Provider events (SES through SNS) for a mail not recorded yet, kept by record_mail_event and applied by the mail''s record (finish_jobs); purged after a day.';
alter table private.early_mail_events enable row level security;
revoke all on private.early_mail_events from public, anon, authenticated;
create index early_mail_events_message_id_idx on private.early_mail_events (message_id);
create index early_mail_events_received_at_idx on private.early_mail_events (received_at);

-- The lock that orders a mail's record and its provider's events, one per SES message id:
-- finish_jobs takes those of its whole batch before anything else, record_mail_event its event's
-- first, so an event either finds its mail recorded or is kept where the record finds it (without
-- it both could look before the other committed, and the event be kept for good). In one order
-- (the keys sorted), before every other lock either takes.
create function private.lock_mail_messages(p_message_ids text[])
returns void language plpgsql set search_path = '' as $$
declare
  v_key bigint;
begin
  for v_key in
    select distinct hashtextextended('mail_message:' || m, 0) from unnest(p_message_ids) m
    where m is not null order by 1
  loop
    perform pg_advisory_xact_lock(v_key);
  end loop;
end;
$$;
revoke execute on function private.lock_mail_messages(text[]) from public;

-- Addresses nothing is sent to any more: hard bounces and complaints (as SES's suppression list),
-- and "Not me" answers to confirmation mails. Addresses are stored lower-cased; the checks of the
-- confirmation and notification mails go through private.mailbox_suppressed.
create table private.mail_suppressions (
  email text primary key check (char_length(email) <= 320 and email = lower(email)),
  reason text not null check (reason in ('bounce', 'complaint', 'not_me')),
  created_at timestamptz not null default now(),
  -- private.mailbox_key(email): a complaint's or a "Not me"'s reach
  mailbox text generated always as (private.mailbox_key(email)) stored,
  -- not_me: every "Not me" of the mailbox answered a consent ask (a stranger typed the address),
  -- none a sender confirmation mail. Such a no stops every mail of the platform but the sender
  -- confirmation of an owner's own sign-in address (private.sender_confirmation_suppressed)
  from_consent boolean not null default false
);
comment on table private.mail_suppressions is 'Addresses that hard-bounced, complained or answered "not me" to a confirmation mail (mail-consent.sql): every later mail to them is skipped.';
alter table private.mail_suppressions enable row level security;

-- A complaint or a "Not me" is the mailbox's own word: it covers every spelling of the mailbox
-- (private.mailbox_key). A bounce covers the address that bounced only: a domain without
-- '+' addresses bounces victim+x@ while victim@ is fine, and anyone can make that bounce.
create index mail_suppressions_mailbox_idx on private.mail_suppressions (mailbox)
  where reason <> 'bounce';

-- Whether the platform sends an address nothing (the one suppression check of the confirmation
-- mails, sender and consent, and of the notification mails).
create function private.mailbox_suppressed(p_email text)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.mail_suppressions s
                 where s.email = lower(btrim(p_email))
                    or (s.reason <> 'bounce' and s.mailbox = private.mailbox_key(p_email)));
$$;
revoke execute on function private.mailbox_suppressed(text) from public;

-- Whether a sender confirmation that p_user_id (an owner, signed in) asks for p_email is refused
-- (reserve_sender_confirmation): as private.mailbox_suppressed, except that an owner's own sign-in
-- address (the same address, any letter case) is not held back by a "Not me" that only ever
-- answered consent asks (from_consent). Anyone can make a consent ask reach an owner's address (a
-- visitor types it into any form); the owner who says "Not me" to it wants no strangers' mail,
-- and did not give up proving their own address (rev-fixes D4, docs/security.md). Any other
-- owner's claim on that mailbox stays refused.
create function private.sender_confirmation_suppressed(p_email text, p_user_id uuid)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.mail_suppressions s
                 where (s.email = lower(btrim(p_email))
                        or (s.reason <> 'bounce' and s.mailbox = private.mailbox_key(p_email)))
                   and not (s.reason = 'not_me' and s.from_consent
                            and exists (select 1 from auth.users u where u.id = p_user_id
                                        and lower(btrim(u.email)) = lower(btrim(p_email)))));
$$;
revoke execute on function private.sender_confirmation_suppressed(text, uuid) from public;

-- "Not me" to a confirmation mail (p_scope: the mail's, sender or a consent scope): the mailbox
-- gets nothing more from the platform. A sender confirmation mail's no also removes the sender
-- claims on any spelling of the mailbox that nobody confirmed (a claim never confirmed never made
-- the provider's identity); a consent mail's no leaves them and the owner's next sender
-- confirmation (from_consent). The one definition of the answer.
create function private.not_me(p_email text, p_scope text)
returns void language sql set search_path = '' as $$
  insert into private.mail_suppressions (email, reason, from_consent)
    values (lower(btrim(p_email)), 'not_me', p_scope is distinct from 'sender')
    on conflict (email) do update set reason = 'not_me',
      from_consent = case when private.mail_suppressions.reason = 'bounce' then excluded.from_consent
                          else private.mail_suppressions.from_consent and excluded.from_consent end
    where private.mail_suppressions.reason in ('bounce', 'not_me');
  delete from public.sender_emails
    where p_scope is not distinct from 'sender'
      and private.mailbox_key(email) = private.mailbox_key(p_email) and confirmed_at is null;
$$;
revoke execute on function private.not_me(text, text) from public;

-- Called by public.finish_jobs (jobs.sql) for an outcome that carries a `mail`:
--   {to, from, subject, kind, provider_message_id?, user_id?, sender_user_id?, block_id?, delivery_id?}
create function private.record_outbound_mail(p_job_id bigint, p_mail jsonb, p_status text)
returns void language plpgsql set search_path = '' as $$
declare
  v_kept record;
  v_message text;
begin
  -- the send and the delivery before the mail, the order record_mail_event takes them in when a
  -- provider's event outruns this record (private.lock_sends; finish_jobs locked the batch's
  -- sends already)
  if p_mail ? 'delivery_id' then
    perform private.lock_sends(array[(p_mail ->> 'delivery_id')::uuid]);
    perform 1 from public.deliveries where id = (p_mail ->> 'delivery_id')::uuid for update;
  end if;
  insert into private.outbound_mails (job_id, kind, user_id, sender_user_id, block_id, delivery_id,
                                      to_email, from_email, subject, provider_message_id, status)
  values (p_job_id, coalesce(p_mail ->> 'kind', 'mail'),
          (p_mail ->> 'user_id')::uuid, (p_mail ->> 'sender_user_id')::uuid,
          (select id from public.blocks where id = (p_mail ->> 'block_id')::uuid),
          (select id from public.deliveries where id = (p_mail ->> 'delivery_id')::uuid),
          left(p_mail ->> 'to', 320), left(p_mail ->> 'from', 320), left(coalesce(p_mail ->> 'subject', ''), 500),
          p_mail ->> 'provider_message_id', p_status)
  on conflict (provider_message_id) do nothing;
  if p_mail ? 'delivery_id' then
    update public.deliveries
      set status = case when p_status = 'sent' then 'sent'::public.delivery_status else status end,
          provider_message_id = coalesce(p_mail ->> 'provider_message_id', provider_message_id)
      where id = (p_mail ->> 'delivery_id')::uuid and status = 'reserved';
  end if;
  -- a mail whose answer was lost (unknown, no message id): events SES published for it that
  -- came first carry its job's tag, and the first names the message (adopt_job_mail). The job's
  -- lock before the look: every event of the mail carries the tag and passes this lock before it
  -- is kept (adopt_job_mail), holding it until it commits, so the look (a statement after the
  -- lock: its snapshot sees that commit) finds every event kept before, and an event after it
  -- waits and finds this row by the tag. Not the message's lock: an event holds it while it waits
  -- for this one (a deadlock), and a committing event may still hold it when the job's lock is
  -- already released (a commit releases its locks one by one): ce3df4d4's try of it then failed
  -- and the kept event stayed kept (rev-fixes D2)
  if p_status = 'unknown' and p_mail ->> 'provider_message_id' is null and p_job_id is not null then
    perform pg_advisory_xact_lock(hashtextextended('mail_job:' || p_job_id, 0));
    select k.message_id into v_message from private.early_mail_events k
      where k.event -> 'tags' ->> 'job' = p_job_id::text
      order by k.received_at, k.event_id limit 1;
    if v_message is not null then
      perform private.adopt_job_mail(p_job_id, v_message,
        (select k.event from private.early_mail_events k where k.message_id = v_message
         order by k.received_at, k.event_id limit 1));
    end if;
    return;
  end if;
  -- the provider's events that came first (record_mail_event kept them), in the order they came;
  -- finish_jobs holds the mail's lock (private.lock_mail_messages), so none is kept meanwhile
  for v_kept in
    select k.event from private.early_mail_events k
    where k.message_id = p_mail ->> 'provider_message_id' order by k.received_at, k.event_id
  loop
    perform private.apply_mail_event(p_mail ->> 'provider_message_id', v_kept.event);
  end loop;
  delete from private.early_mail_events where message_id = p_mail ->> 'provider_message_id';
end;
$$;
revoke execute on function private.record_outbound_mail(bigint, jsonb, text) from public;

-- Order of delivery states: a late Delivery never overwrites a Bounce or Complaint.
create function private.mail_state_rank(p_status text)
returns integer language sql immutable set search_path = '' as $$
  select case p_status when 'sent' then 1 when 'unknown' then 1 when 'delivered' then 2
                       when 'rejected' then 3 when 'bounced' then 3 when 'complaint' then 4 else 0 end;
$$;
revoke execute on function private.mail_state_rank(text) from public;

-- A permanent bounce's or a complaint's addresses are never mailed again (transient bounces are
-- not suppressed): the event's recipients, else the mail's address (p_to; null: not known yet).
create function private.suppress_for_mail_event(p_event jsonb, p_to text)
returns void language sql set search_path = '' as $$
  insert into private.mail_suppressions (email, reason)
    select lower(r.value), case when lower(p_event ->> 'type') = 'complaint' then 'complaint' else 'bounce' end
    from jsonb_array_elements_text(coalesce(p_event -> 'recipients', jsonb_build_array(p_to))) r
    where r.value is not null
      and (lower(p_event ->> 'type') = 'complaint'
           or (lower(p_event ->> 'type') = 'bounce'
               and coalesce(p_event ->> 'bounce_type', 'Permanent') = 'Permanent'))
    on conflict (email) do nothing;
$$;
revoke execute on function private.suppress_for_mail_event(jsonb, text) from public;

-- Applies one provider event to its recorded mail (record_mail_event; record_outbound_mail for
-- the events that came first): the mail's state, a letter's delivery row and counts, suppression
-- of the address after a permanent bounce or a complaint. The caller took the mail's locks
-- (private.lock_mail_messages, private.lock_sends). Answers record_mail_event's answer.
create function private.apply_mail_event(p_message_id text, p_event jsonb)
returns jsonb language plpgsql set search_path = '' as $$
declare
  v_type text := lower(p_event ->> 'type');
  v_mail private.outbound_mails;
  v_new text;
  v_delivery public.deliveries;
  v_column text;
begin
  select * into v_mail from private.outbound_mails where provider_message_id = p_message_id for update;
  v_new := case v_type when 'delivery' then 'delivered' when 'bounce' then 'bounced'
                       when 'complaint' then 'complaint' when 'reject' then 'rejected' end;
  if v_type = 'open' then
    update private.outbound_mails set opened = true, updated_at = now() where id = v_mail.id;
  elsif v_new is not null and private.mail_state_rank(v_new) > private.mail_state_rank(v_mail.status) then
    update private.outbound_mails set status = v_new, updated_at = now(),
      bounce_type = case when v_type = 'bounce' then left(p_event ->> 'bounce_type', 60) else bounce_type end
      where id = v_mail.id;
  elsif v_type not in ('send', 'delivery', 'bounce', 'complaint', 'reject', 'open') then
    return jsonb_build_object('applied', false, 'reason', 'ignored type');
  end if;

  perform private.suppress_for_mail_event(p_event, v_mail.to_email);

  -- letters: the delivery row, the send's counts and the member's counts
  if v_mail.delivery_id is not null then
    select * into v_delivery from public.deliveries where id = v_mail.delivery_id for update;
    if found then
      v_column := case v_type when 'delivery' then 'delivered' when 'open' then 'opened'
                              when 'bounce' then 'bounced' when 'complaint' then 'complaint'
                              when 'reject' then 'rejected' end;
      if v_column is not null then
        if v_type <> 'open' and private.mail_state_rank(v_new) > private.mail_state_rank(v_delivery.status::text) then
          update public.deliveries set status = v_new::public.delivery_status where id = v_delivery.id;
        elsif v_type = 'open' and v_delivery.status in ('sent', 'delivered') then
          update public.deliveries set status = 'opened' where id = v_delivery.id;
        end if;
        -- each event type counts once per delivery (opens: the first only)
        if v_type <> 'open' or not v_mail.opened then
          execute format('update public.publishes set %I = %I + 1 where id = $1',
                         v_column || '_count', v_column || '_count') using v_delivery.publish_id;
          if v_delivery.audience_member_id is not null then
            execute format('update public.audience_members set %I = %I + 1 where id = $1',
                           v_column || '_count', v_column || '_count') using v_delivery.audience_member_id;
          end if;
        end if;
      end if;
    end if;
  end if;
  return jsonb_build_object('applied', true);
end;
$$;
revoke execute on function private.apply_mail_event(text, jsonb) from public;

-- A platform mail (notifications, confirmations, plan and quota mails) whose SendEmail answer
-- never reached the database, found by the `job` tag every platform mail carries
-- (_shared/mail-delivery.ts) as a letter is by its `delivery` tag (rev-mail3 D5): its answer was
-- lost (finish_jobs recorded it `unknown`, without SES's message id: the id is adopted and it is
-- `sent`), or its worker stopped after the send (claim_jobs made the job `unknown` and nothing
-- recorded the mail: it is recorded from the event, its address, From and subject as SES names
-- them). The kept events of the message then apply, in the order they came. Without it such a
-- mail stayed `unknown` for good and its events, a bounce included, were purged after a day.
-- An event's caller holds the message's lock (private.lock_mail_messages); the job's lock is taken
-- here, after it. finish_jobs' record of an unknown mail (record_outbound_mail) takes the job's lock
-- alone, so an event that waited here for it may find the mail named already. Answers the mail, or
-- null.
-- A job payload's text as a uuid, null when it is none (a payload is the enqueuer's, not checked).
create function private.uuid_in(p_text text)
returns uuid language sql immutable set search_path = '' as $$
  select case when p_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then p_text::uuid end;
$$;
revoke execute on function private.uuid_in(text) from public;

create function private.adopt_job_mail(p_job_id bigint, p_message_id text, p_event jsonb)
returns private.outbound_mails language plpgsql set search_path = '' as $$
declare
  v_mail private.outbound_mails;
  v_job private.jobs;
  v_kept record;
  v_block_id uuid;
  v_owner_id uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('mail_job:' || p_job_id, 0));
  update private.outbound_mails
    set provider_message_id = p_message_id, status = 'sent', updated_at = now()
    where job_id = p_job_id and provider_message_id is null and status = 'unknown' and delivery_id is null
    returning * into v_mail;
  if v_mail.id is null then
    -- named while this waited for the job's lock (record_outbound_mail adopted an earlier event
    -- of the message): the caller's event applies to it
    select * into v_mail from private.outbound_mails
      where job_id = p_job_id and provider_message_id = p_message_id;
  end if;
  if v_mail.id is null then
    select * into v_job from private.jobs where id = p_job_id and status = 'unknown' and kind <> 'letter';
    if v_job.id is null or exists (select 1 from private.outbound_mails where job_id = p_job_id) then
      return null;
    end if;
    -- the owner and block the job was for (rev-fixes D3), as its worker would have recorded them:
    -- a notification's block (payload block_id) and its owner, else the payload's owner_id or
    -- user_id (a quota notice), else its payment's owner (a plan mail; rev-fixes2 D6)
    select b.id, b.owner_id into v_block_id, v_owner_id from public.blocks b
      where b.id = private.uuid_in(v_job.payload ->> 'block_id');
    v_owner_id := coalesce(v_owner_id,
      (select p.id from public.profiles p
        where p.id = coalesce(private.uuid_in(v_job.payload ->> 'owner_id'),
                              private.uuid_in(v_job.payload ->> 'user_id'))),
      (select pay.user_id from public.payments pay
        where pay.id = private.uuid_in(v_job.payload ->> 'payment_id')));
    insert into private.outbound_mails (job_id, kind, user_id, block_id, to_email, from_email, subject,
                                        provider_message_id, status)
      values (p_job_id, v_job.kind, v_owner_id, v_block_id,
              left(coalesce(p_event -> 'destination' ->> 0, p_event -> 'recipients' ->> 0, ''), 320),
              left(coalesce(p_event ->> 'source', ''), 320), left(coalesce(p_event ->> 'subject', ''), 500),
              p_message_id, 'sent')
      on conflict (provider_message_id) do nothing
      returning * into v_mail;
    if v_mail.id is null then
      return null;
    end if;
  end if;
  for v_kept in
    select k.event from private.early_mail_events k
    where k.message_id = p_message_id order by k.received_at, k.event_id
  loop
    perform private.apply_mail_event(p_message_id, v_kept.event);
  end loop;
  delete from private.early_mail_events where message_id = p_message_id;
  select * into v_mail from private.outbound_mails where id = v_mail.id;
  return v_mail;
end;
$$;
revoke execute on function private.adopt_job_mail(bigint, text, jsonb) from public;

-- The jobs that became `unknown` (claim_jobs: their worker stopped after calling the provider)
-- whose mail's events came and were kept: their mails are recorded from them (adopt_job_mail).
create function private.adopt_kept_job_mails(p_job_ids bigint[])
returns void language plpgsql set search_path = '' as $$
declare
  v_kept record;
begin
  for v_kept in
    select distinct on (k.event -> 'tags' ->> 'job') k.message_id, k.event,
           (k.event -> 'tags' ->> 'job')::bigint as job_id
    from private.early_mail_events k
    where k.event -> 'tags' ->> 'job' = any (select id::text from unnest(p_job_ids) id)
    order by k.event -> 'tags' ->> 'job', k.received_at, k.event_id
  loop
    -- the message's lock first, then the job's: the order record_mail_event takes them in
    perform private.lock_mail_messages(array[v_kept.message_id]);
    perform private.adopt_job_mail(v_kept.job_id, v_kept.message_id, v_kept.event);
  end loop;
end;
$$;
revoke execute on function private.adopt_kept_job_mails(bigint[]) from public;

-- Applies a provider event (SES through SNS) once per SNS MessageId to the mail it is about
-- (private.apply_mail_event). An event for a message not recorded yet that carries the
-- `delivery` tag of a letter is recorded from that delivery, so no count is lost and a lost
-- worker's mail is known to have gone. Any other event for a message not recorded yet (the worker
-- records a batch after its last send, or died first) is kept (private.early_mail_events) and
-- applied when the mail is recorded, and a permanent bounce's or a complaint's recipients are
-- suppressed at once: nothing is lost whichever comes first, and SNS's retry of it is a duplicate
-- (a Send, which would change nothing, is not kept: 'unknown message').
-- It waits for a lock (its mail's record under way in finish_jobs, the letter's send rows) at most
-- lock_timeout, then fails whole with 55P03 and ses-events answers 503, so SNS posts it again
-- (the same event id: nothing of this try was kept). Waiting as long as the record took held a
-- PostgREST connection each: 30 events of one batch's mails took the whole pool (20) and an
-- unrelated read waited 8 s for it (rev-mail3 D2).
-- p_event: {event_id, type, message_id, bounce_type?, recipients?, tags? ({name: value})}.
create or replace function public.record_mail_event(p_event jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_mail private.outbound_mails;
  v_delivery public.deliveries;
  v_publish public.publishes;
  v_tag text := p_event -> 'tags' ->> 'delivery';
begin
  if coalesce(p_event ->> 'event_id', '') = '' or coalesce(p_event ->> 'message_id', '') = '' then
    raise exception 'event_id and message_id are required' using errcode = 'P0001';
  end if;
  -- for the rest of this call's transaction (PostgREST's, one per call): see above
  perform set_config('lock_timeout', '250ms', true);
  -- first: a record of this mail that has begun ends before this looks for it
  perform private.lock_mail_messages(array[p_event ->> 'message_id']);
  insert into private.provider_events (id) values (p_event ->> 'event_id') on conflict do nothing;
  if not found then
    return jsonb_build_object('applied', false, 'reason', 'duplicate');
  end if;
  -- a letter's send and member rows before its delivery and mail, in the order every writer takes
  -- them (private.lock_sends): the mail's delivery, or the one the event's tag names
  perform private.lock_sends(array[coalesce(
    (select delivery_id from private.outbound_mails where provider_message_id = p_event ->> 'message_id'),
    private.uuid_in(v_tag))]);
  select * into v_mail from private.outbound_mails where provider_message_id = p_event ->> 'message_id' for update;
  if not found and private.uuid_in(v_tag) is not null then
    select * into v_delivery from public.deliveries where id = v_tag::uuid for update;
    if found then
      select * into v_publish from public.publishes where id = v_delivery.publish_id;
      insert into private.outbound_mails (kind, user_id, sender_user_id, block_id, delivery_id, to_email,
                                          from_email, subject, provider_message_id, status)
        values ('letter', v_delivery.user_id, v_delivery.user_id, v_publish.block_id, v_delivery.id,
                v_delivery.email, coalesce(v_publish.mail_from, ''), left(coalesce(v_publish.subject, ''), 500),
                p_event ->> 'message_id', 'sent')
        on conflict (provider_message_id) do nothing;
      update public.deliveries set status = 'sent', provider_message_id = p_event ->> 'message_id'
        where id = v_delivery.id and status = 'reserved';
      select * into v_mail from private.outbound_mails where provider_message_id = p_event ->> 'message_id' for update;
    end if;
  end if;
  -- a platform mail whose answer was lost or whose worker stopped: its `job` tag finds it
  if v_mail.id is null and p_event -> 'tags' ->> 'job' ~ '^[0-9]{1,18}$' then
    v_mail := private.adopt_job_mail((p_event -> 'tags' ->> 'job')::bigint, p_event ->> 'message_id', p_event);
  end if;
  if v_mail.id is null then
    -- a Send (or a type we ignore) would change nothing: not kept
    if lower(p_event ->> 'type') not in ('delivery', 'bounce', 'complaint', 'reject', 'open') then
      return jsonb_build_object('applied', false, 'reason', 'unknown message');
    end if;
    perform private.suppress_for_mail_event(p_event, null);
    insert into private.early_mail_events (event_id, message_id, event)
      values (p_event ->> 'event_id', p_event ->> 'message_id', p_event);
    return jsonb_build_object('applied', false, 'reason', 'kept until its mail is recorded');
  end if;
  return private.apply_mail_event(p_event ->> 'message_id', p_event);
end;
$$;
revoke execute on function public.record_mail_event(jsonb) from public, anon, authenticated;

-- A sender whose letters bounce or draw complaints too often stops sending, as SES would put the
-- account on probation and suspend it (SES reviews above 5% bounces / 0.1% complaints; we stop
-- at mail.suspend_bounce_rate 0.05 and mail.suspend_complaint_rate 0.001 over the last 14 days,
-- once mail.suspend_min_volume (50) mails were sent).
create function public.mail_sender_status(p_user_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  with recent as (
    select count(*) as sent,
           count(*) filter (where status = 'bounced') as bounced,
           count(*) filter (where status = 'complaint') as complained
    from private.outbound_mails
    where sender_user_id = p_user_id and created_at > now() - interval '14 days'
  )
  select jsonb_build_object(
    'sent', sent, 'bounced', bounced, 'complained', complained,
    'suspended', sent >= (private.setting('mail.suspend_min_volume', '50'::jsonb))::text::integer
      and (bounced::double precision / sent > (private.setting('mail.suspend_bounce_rate', '0.05'::jsonb))::text::double precision
           or complained::double precision / sent > (private.setting('mail.suspend_complaint_rate', '0.001'::jsonb))::text::double precision))
  from recent;
$$;
revoke execute on function public.mail_sender_status(uuid) from public, anon, authenticated;

-- Whether any of these addresses is suppressed (for mails outside notifications).
create function public.mail_suppressed(p_emails text[])
returns text[] language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(lower(btrim(e))), '{}') from unnest(p_emails) e
    where private.mailbox_suppressed(e);
$$;
revoke execute on function public.mail_suppressed(text[]) from public, anon, authenticated;

-- =============================================================================================
-- schemas/mail-optouts.sql
-- =============================================================================================

-- Unsubscribes and opt-outs: letters' unsubscribes (per owner and mailbox) and one-click
-- opt-outs from notification mails, and what the unsubscribe page asks of them.

create table public.unsubscribes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  block_id uuid references public.blocks (id) on delete set null,
  email text not null check (char_length(email) <= 100),
  response_id text check (char_length(response_id) <= 100),
  created_at timestamptz not null default now(),
  -- private.mailbox_key(email): an unsubscribe is the mailbox's own word, as a complaint is; it
  -- stops the owner's letters to every spelling of it (victim+news@ after victim@)
  mailbox text generated always as (private.mailbox_key(email)) stored,
  unique (user_id, email)
);
comment on table public.unsubscribes is
  'Addresses that unsubscribed from a user''s letters; sends skip them. Written by the unsubscribe function.';
call private.clients_read('public.unsubscribes', 'Owners can read their unsubscribes',
  'user_id = (select auth.uid())');
create index unsubscribes_block_id_idx on public.unsubscribes (block_id);
-- Every read asks by the owner and the mailbox (is_unsubscribed per member of the audience list
-- and of a CSV import's answer, letter_send_groups, reserve_letter, prepare_letter_jobs, a form's
-- letter: private.letter_unsubscribed); the unique key above is on the address as written.
create index unsubscribes_user_id_mailbox_idx on public.unsubscribes (user_id, mailbox);

-- Whether an address's mailbox unsubscribed from an owner's letters: the one check of every
-- letter path. Not security definer: its callers are.
create function private.letter_unsubscribed(p_owner_id uuid, p_email text)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from public.unsubscribes u
                 where u.user_id = p_owner_id and u.mailbox = private.mailbox_key(p_email));
$$;
revoke execute on function private.letter_unsubscribed(uuid, text) from public;

-- Whether the member's address unsubscribed from the owner's letters (computed field of
-- audience_members: `audience_members?select=*,is_unsubscribed`), so the audience list says
-- Unsubscribed instead of Active and a CSV import can say which new members letters will skip.
-- security definer, and the caller's own rows by auth.uid(): under RLS the index on
-- (user_id, mailbox) could not serve the read (mailbox_key() is not leakproof, so Postgres
-- applies the policy first and then filters every unsubscribe of the owner's, for each member).
create function public.is_unsubscribed(p_member public.audience_members)
returns boolean language sql stable security definer set search_path = '' as $$
  select p_member.email is not null and p_member.user_id = (select auth.uid())
    and private.letter_unsubscribed(p_member.user_id, p_member.email);
$$;
comment on function public.is_unsubscribed(public.audience_members) is
  'Computed field of audience_members: the member''s address unsubscribed from the owner''s letters.';
revoke execute on function public.is_unsubscribed(public.audience_members) from public, anon;
grant execute on function public.is_unsubscribed(public.audience_members) to authenticated;

-- One-click unsubscribes from notification mails: scope owner (mailTo: all of the owner's block
-- digests to the address, looked up by owner) or reply (replies to the commenter's message on
-- that block). The owner is written at unsubscribe time from the block's owner, so deleting the
-- block keeps the opt-out (block_id names the block the link came from; no foreign key).
-- Letters use public.unsubscribes.
create table private.mail_optouts (
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  scope text not null check (scope in ('owner', 'reply')),
  block_id uuid not null,
  created_at timestamptz not null default now(),
  -- the block's owner when the address unsubscribed
  owner_id uuid not null references public.profiles (id) on delete cascade,
  primary key (email, scope, block_id)
);
comment on table private.mail_optouts is 'Notification unsubscribes (signed one-click links): no more owner digests of that block''s owner (scope owner), or replies on that block (scope reply), to that address.';
alter table private.mail_optouts enable row level security;
-- notification_context's owner-scope lookup, and the owner's cascade
create index mail_optouts_owner_email_scope_idx on private.mail_optouts (owner_id, email, scope);

-- The owner a notification unsubscribe link (owner or reply scope, p_block_id, p_owner_id: the
-- signed link's `u`) stops mails of: the block's owner while the block exists; once it is gone,
-- only an owner the mail log proves mailed the address that owner's digests (owner scope: the
-- link's `u`, and an outbound_mails row of a notify.owner mail from them to the address). Null:
-- nothing left to stop (a reply opt-out is the deleted block's; a link without an owner, or of an
-- owner whose account went or who never mailed the address).
create function private.optout_owner(p_email text, p_scope text, p_block_id uuid, p_owner_id uuid)
returns uuid language sql stable set search_path = '' as $$
  select coalesce(
    (select b.owner_id from public.blocks b where b.id = p_block_id),
    (select o.user_id from private.outbound_mails o
     where p_scope = 'owner' and o.kind = 'notify.owner' and o.user_id = p_owner_id
       and lower(o.to_email) = lower(btrim(p_email))
     limit 1));
$$;
revoke execute on function private.optout_owner(text, text, uuid, uuid) from public;

-- Records a one-click unsubscribe from notification mails (the unsubscribe function checks the
-- signed token first), with its owner (private.optout_owner): an owner-scope opt-out then holds
-- for all of that owner's blocks, deleted ones too. Answers 'recorded' (or it was already), or
-- 'gone' when there is nothing left to stop (nothing is recorded: the block is deleted and the
-- mail log proves no owner). Until rev-mail2's review the link's owner was taken on its word and
-- the page said "unsubscribed" when nothing was recorded.
create function public.record_mail_optout(p_email text, p_scope text, p_block_id uuid,
                                          p_owner_id uuid default null)
returns text language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid := private.optout_owner(p_email, p_scope, p_block_id, p_owner_id);
begin
  if v_owner is null then
    return 'gone';
  end if;
  insert into private.mail_optouts (email, scope, block_id, owner_id)
    values (lower(btrim(p_email)), p_scope, p_block_id, v_owner)
    on conflict do nothing;
  return 'recorded';
end;
$$;
revoke execute on function public.record_mail_optout(text, text, uuid, uuid) from public, anon, authenticated;

-- What an unsubscribe link would do now, for the unsubscribe page: 'out' (the address already
-- left these mails: that block's, or in owner scope any of its owner's digests), 'in' (it can
-- leave them), 'gone' (nothing left to stop: record_mail_optout would record nothing).
-- security definer: private.mail_optouts is not readable through the API.
create function public.mail_optout_state(p_email text, p_scope text, p_block_id uuid,
                                         p_owner_id uuid default null)
returns text language sql stable security definer set search_path = '' as $$
  select case
    when exists (select 1 from private.mail_optouts
                 where email = lower(btrim(p_email)) and scope = p_scope and block_id = p_block_id)
      then 'out'
    when o.id is null then 'gone'
    when p_scope = 'owner' and exists (
           select 1 from private.mail_optouts m
           where m.owner_id = o.id and m.email = lower(btrim(p_email)) and m.scope = 'owner')
      then 'out'
    else 'in' end
  from (select private.optout_owner(p_email, p_scope, p_block_id, p_owner_id) as id) o;
$$;
revoke execute on function public.mail_optout_state(text, text, uuid, uuid) from public, anon, authenticated;

-- Whether an address's mailbox already left an owner's letters (private.letter_unsubscribed, the
-- check every letter path makes): the unsubscribe page says so instead of asking again, for
-- another spelling of the mailbox too (a letter to name+news@ once name@ unsubscribed). security
-- definer: the service role's unsubscribe function asks through PostgREST, which has no private.
create function public.letter_optout_exists(p_owner_id uuid, p_email text)
returns boolean language sql stable security definer set search_path = '' as $$
  select private.letter_unsubscribed(p_owner_id, p_email);
$$;
revoke execute on function public.letter_optout_exists(uuid, text) from public, anon, authenticated;

-- =============================================================================================
-- schemas/mail-consent.sql
-- =============================================================================================

-- Double opt-in for the addresses a visitor types (issue 17). A visitor can name any address: a
-- comment's notification email (reply notifications, allow_creator_email) or a form's email
-- answer (the owner's audience, as_visitor_info 'email', and the letter a mail question sends by
-- itself). None of them gets mail from the platform or from an owner until the address itself
-- said yes, through a single-use link mailed to it (the model of the sender addresses,
-- mail.sql: only the hash of the token is stored, bound to what it confirms).
--
-- What is confirmed (docs/security.md "Addresses a visitor typed"):
-- * reply notifications: per address, owner and commenter (the account whose comment asked).
--   The yes answers what the mail named (replies to that person's comments on that owner's
--   site); another account naming the same address, or the same account on another owner's
--   blocks, is asked afresh.
-- * an owner's letters: per address and owner.
-- * an owner's notification address (a block's mail_to, notifications.sql): per address and
--   owner (for_notifications), unless it is the owner's own sign-in address or one of their
--   verified sender addresses (notification_address_allowed). A yes to owner A is not one to B.
-- The confirmation mail is a `confirm.mail` job, one per mailbox, owner and commenter a day (its
-- dedupe key). start_mail_consent sends at most one confirmation mail per mailbox a day (a reply
-- confirmation past it is dropped, a letters one waits a day), at most the owner's daily cap
-- (mail_consent.owner_daily_free / _paid; past it the ask is dropped and counted for the owner:
-- confirmation_mail_usage), none to a suppressed address. Neither the mail nor its link's page
-- (mail_consent_info) carries free text of a visitor's or an owner's (an owner can be their own
-- visitor, and the address is anyone's): no block name, site or profile name, only the scope,
-- the address, the language, the address the mails would come from (consent_sender: the owner's
-- verified sender address for letters, else the platform's) and (notify) the owner's sign-in
-- address. "Not me" on its page puts the address on the suppression list: the platform then
-- sends it nothing at all. Every count of an address (the ask's dedupe key, the address's day,
-- the suppression checks) is of its mailbox (private.mailbox_key, mail.sql): victim+1@x and
-- victim+2@x are victim@x. Rows that never confirmed go when their token expires
-- (purge_mail_consents, daily).

create table private.mail_consents (
  id bigint generated always as identity primary key,
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  -- the owner: reply notifications on their blocks, or their letters
  owner_id uuid not null references public.profiles (id) on delete cascade,
  -- the block that last asked (for letters, its sender address is the one the mail and the page name)
  block_id uuid references public.blocks (id) on delete set null,
  confirmed_at timestamptz,
  -- the live token's SHA-256 (hex): one per row, a new mail replaces it, spent when answered
  token_hash text unique check (token_hash ~ '^[0-9a-f]{64}$'),
  token_expires_at timestamptz,
  -- the last confirmation mail, and the job that sent it (a retried job may send it again)
  mailed_at timestamptz,
  mailed_job bigint,
  created_at timestamptz not null default now(),
  -- reply notifications: the account whose comment asked for them (the consent is theirs alone);
  -- null: the owner's letters
  commenter_id uuid references auth.users (id) on delete cascade,
  -- the language of the visitor who asked: the mail's, and its link's page's
  locale public.language_code not null default 'en',
  -- the last time the owner's daily cap kept this confirmation mail back
  capped_at timestamptz,
  -- the owner's notification mails (a block's mail_to), not their letters (commenter_id null)
  for_notifications boolean not null default false,
  check (not for_notifications or commenter_id is null),
  unique nulls not distinct (email, owner_id, commenter_id, for_notifications)
);
comment on table private.mail_consents is
  'Double opt-in of visitor-typed addresses: reply notifications (per owner and commenter), an owner''s letters (commenter_id null) or an owner''s notification address (for_notifications), confirmed through a single-use token mailed to the address.';
alter table private.mail_consents enable row level security;
revoke all on private.mail_consents from public, anon, authenticated;
create index mail_consents_owner_mailed_idx on private.mail_consents (owner_id, mailed_at);
create index mail_consents_commenter_id_idx on private.mail_consents (commenter_id) where commenter_id is not null;
create index mail_consents_block_id_idx on private.mail_consents (block_id) where block_id is not null;
create index mail_consents_unconfirmed_idx on private.mail_consents (created_at) where confirmed_at is null;

-- Every confirmation mail sent, by address and owner: what the daily caps count. Kept apart from
-- the consent rows, which go with the account that asked (a visitor who deletes their account
-- must not give the address or the owner their day back: the eighth hostile review had one
-- address mailed three times a day that way). One row per job (a retried job replaces its own);
-- purged after two days with the consents (purge_mail_consents).
create table private.confirmation_mails (
  job_id bigint primary key,
  email text not null,
  owner_id uuid not null,
  mailed_at timestamptz not null default now(),
  -- private.mailbox_key(email): what the address's day counts (victim+1@ is victim@)
  mailbox text generated always as (private.mailbox_key(email)) stored
);
comment on table private.confirmation_mails is
  'Confirmation mails sent (double opt-in), by address and owner, for the daily caps; not tied to the account that asked.';
alter table private.confirmation_mails enable row level security;
revoke all on private.confirmation_mails from public, anon, authenticated;
create index confirmation_mails_mailbox_idx on private.confirmation_mails (mailbox, mailed_at);
create index confirmation_mails_owner_idx on private.confirmation_mails (owner_id, mailed_at);

-- At most one visitor-triggered ask a day per mailbox: a consent ask (start_mail_consent,
-- private.confirmation_mails) waits for a sender confirmation's day (request-mail-verify,
-- private.sender_confirmation_mails) as for another consent ask's (rev-mail3 D4). A sender
-- confirmation, which the owner asks for while signed in, waits only for another sender
-- confirmation (rev-fixes D4). Both take this lock first, one mailbox at a time.
create function private.lock_mailbox_asks(p_mailbox text)
returns void language sql set search_path = '' as $$
  select pg_advisory_xact_lock(hashtextextended('mailbox_ask:' || p_mailbox, 0));
$$;
revoke execute on function private.lock_mailbox_asks(text) from public;

-- When the mailbox (private.mailbox_key) was last asked in the last 24 hours, by either kind of
-- confirmation mail; null when it was not. p_job_id: a consent job's own earlier try, not counted.
-- What a consent ask waits for (start_mail_consent). A sender confirmation counts only its own
-- kind (reserve_sender_confirmation): a visitor typing an owner's address into any form must not
-- keep the owner from proving it theirs (rev-fixes D4).
create function private.mailbox_last_ask(p_mailbox text, p_job_id bigint)
returns timestamptz language sql stable set search_path = '' as $$
  select greatest(
    (select max(mailed_at) from private.sender_confirmation_mails
      where mailbox = p_mailbox and mailed_at > now() - interval '24 hours'),
    (select max(mailed_at) from private.confirmation_mails
      where mailbox = p_mailbox and job_id is distinct from p_job_id
        and mailed_at > now() - interval '24 hours'));
$$;
revoke execute on function private.mailbox_last_ask(text, bigint) from public;

-- A confirm.mail job that ended failed (finish_jobs: the provider refused the mail, or its
-- retries ran out) mailed nothing: its mailbox's and its owner's day are given back, as
-- request-mail-verify gives a refused sender confirmation's back (release_sender_confirmation),
-- and its consent row no longer says it was mailed (its token went nowhere) (rev-fixes D5).
create function private.release_mail_consent(p_job_id bigint)
returns void language sql set search_path = '' as $$
  delete from private.not_me_tokens
    where token_hash in (select token_hash from private.mail_consents where mailed_job = p_job_id);
  update private.mail_consents
    set mailed_at = null, mailed_job = null, token_hash = null, token_expires_at = null
    where mailed_job = p_job_id and confirmed_at is null;
  delete from private.confirmation_mails where job_id = p_job_id;
$$;
revoke execute on function private.release_mail_consent(bigint) from public;

-- Whether an address confirmed reply notifications for a commenter on an owner's blocks, or (p_commenter_id
-- null) the owner's letters, or (p_notifications) the owner's notification mails.
create function private.mail_confirmed(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                       p_notifications boolean default false)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.mail_consents c
                 where c.email = lower(btrim(p_email)) and c.owner_id = p_owner_id
                   and c.commenter_id is not distinct from p_commenter_id
                   and c.for_notifications = coalesce(p_notifications, false)
                   and c.confirmed_at is not null);
$$;
revoke execute on function private.mail_confirmed(text, uuid, uuid, boolean) from public;

-- Whether an owner's notification mails (a block's mail_to) may go to an address: the owner's own
-- sign-in address, one of their verified sender addresses, or an address that confirmed this
-- owner's notifications through the link mailed to it. Anything else gets no notification.
create function private.notification_address_allowed(p_owner_id uuid, p_email text)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from auth.users u
                 where u.id = p_owner_id and lower(u.email) = lower(btrim(p_email)))
    or exists (select 1 from public.sender_emails s
               where s.user_id = p_owner_id and s.status = 'verified'
                 and lower(s.email) = lower(btrim(p_email)))
    or private.mail_confirmed(p_email, p_owner_id, null, true);
$$;
revoke execute on function private.notification_address_allowed(uuid, text) from public;

-- The visitor's language for a mail they caused: the first of en/ko in the request's
-- Accept-Language (the browser's, as PostgREST passes it), else p_fallback (the block's).
create function private.request_locale(p_fallback public.language_code)
returns public.language_code language sql stable set search_path = '' as $$
  select coalesce(
    (select case when btrim(t) like 'ko%' then 'ko' else 'en' end::public.language_code
     from unnest(string_to_array(lower(left(
            nullif(current_setting('request.headers', true), '')::jsonb ->> 'accept-language', 200)), ','))
          with ordinality u(t, n)
     where btrim(split_part(t, ';', 1)) ~ '^(en|ko)(-|$)'
     order by n limit 1),
    p_fallback, 'en');
$$;
revoke execute on function private.request_locale(public.language_code) from public;

-- The dedupe key of today's `confirm.mail` job asking p_email about reply notifications for
-- p_commenter_id, or (p_commenter_id null) p_owner_id's letters, or (p_notifications) their
-- notification mails: one such job per mailbox (private.mailbox_key: a.b+1@gmail.com is
-- ab@gmail.com), owner and commenter (or scope) a UTC day. Until rev-mail2's review it keyed the
-- address as typed, so each spelling of one mailbox had a job, and the letters ones each waited
-- for the mailbox's next free day: one mail a day for as many days as an owner typed spellings.
-- ask_mail_consent enqueues under it; consent_asked_today reads it (the workspace's resend).
create function private.consent_ask_key(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                        p_notifications boolean default false)
returns text language sql stable set search_path = '' as $$
  select 'confirm.mail:' || p_owner_id || ':'
    || coalesce(p_commenter_id::text,
                case when coalesce(p_notifications, false) then 'notify' else 'letters' end)
    || ':' || private.mailbox_key(p_email) || ':' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD');
$$;
revoke execute on function private.consent_ask_key(text, uuid, uuid, boolean) from public;

-- Whether that confirmation was asked today (its job exists, whatever became of it).
create function private.consent_asked_today(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                            p_notifications boolean default false)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.jobs j
                 where j.dedupe_key = private.consent_ask_key(p_email, p_owner_id, p_commenter_id,
                                                              p_notifications));
$$;
revoke execute on function private.consent_asked_today(text, uuid, uuid, boolean) from public;

-- Asks an address to confirm reply notifications for p_commenter_id's comments on p_owner_id's
-- blocks, or (p_commenter_id null) p_owner_id's letters, or (p_notifications) p_owner_id's
-- notification mails: one `confirm.mail` job per address, owner and commenter (or scope) a day. Answers 'confirmed', 'suppressed' (nothing is asked) or 'pending'
-- (a confirmation mail is asked for; start_mail_consent decides whether it goes).
create function private.ask_mail_consent(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                         p_block_id uuid, p_locale public.language_code,
                                         p_notifications boolean default false)
returns text language plpgsql set search_path = '' as $$
declare
  v_email text := lower(btrim(p_email));
  v_notify boolean := coalesce(p_notifications, false) and p_commenter_id is null;
begin
  if private.mailbox_suppressed(v_email) then
    return 'suppressed';
  end if;
  if private.mail_confirmed(v_email, p_owner_id, p_commenter_id, v_notify) then
    return 'confirmed';
  end if;
  perform public.enqueue_job('confirm.mail',
    jsonb_build_object('email', v_email, 'owner_id', p_owner_id, 'commenter_id', p_commenter_id,
                       'block_id', p_block_id, 'locale', coalesce(p_locale, 'en'))
      || case when v_notify then jsonb_build_object('scope', 'notify') else '{}'::jsonb end,
    private.consent_ask_key(v_email, p_owner_id, p_commenter_id, v_notify),
    null, null, 'mail');
  return 'pending';
end;
$$;
revoke execute on function private.ask_mail_consent(text, uuid, uuid, uuid, public.language_code, boolean) from public;

-- Whether an owner's letter may go to an address a visitor typed: the address confirmed the
-- owner's letters, or the owner has it as an active member they added themselves (by hand, by
-- CSV, by a manual send that registers: the owner's responsibility).
create function private.letters_allowed(p_owner_id uuid, p_email text)
returns boolean language sql stable set search_path = '' as $$
  select private.mail_confirmed(p_email, p_owner_id, null)
    or exists (select 1 from public.audience_members a
               where a.user_id = p_owner_id and lower(a.email) = lower(btrim(p_email))
                 and not a.awaiting_confirmation);
$$;
revoke execute on function private.letters_allowed(uuid, text) from public;

-- How many confirmation mails an owner's blocks and forms may cause in 24 hours: by plan
-- (mail_consent.owner_daily_free, default 30; mail_consent.owner_daily_paid, default 300;
-- docs/security.md says why).
create function private.owner_confirmation_cap(p_owner_id uuid)
returns integer language sql stable set search_path = '' as $$
  select case when coalesce((select paid from public.profiles where id = p_owner_id), false)
              then (private.setting('mail_consent.owner_daily_paid', '300'::jsonb))::text::integer
              else (private.setting('mail_consent.owner_daily_free', '30'::jsonb))::text::integer end;
$$;
revoke execute on function private.owner_confirmation_cap(uuid) from public;

-- The caller's confirmation mails of the last 24 hours: {limit, sent, capped} (capped: asks the
-- daily cap kept back, not sent; the audience page shows them). Counts only.
create function public.confirmation_mail_usage()
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'limit', private.owner_confirmation_cap((select auth.uid())),
    'sent', (select count(*) from private.confirmation_mails m
             where m.owner_id = (select auth.uid()) and m.mailed_at > now() - interval '24 hours'),
    'capped', count(*) filter (where c.capped_at > now() - interval '24 hours'
                                 and (c.mailed_at is null or c.mailed_at < c.capped_at)
                                 and c.confirmed_at is null))
  from private.mail_consents c
  where c.owner_id = (select auth.uid());
$$;
comment on function public.confirmation_mail_usage() is
  'The caller''s confirmation mails (double opt-in of visitor-typed addresses) in the last 24 hours: the plan''s limit, how many went, how many the limit kept back.';
revoke all on function public.confirmation_mail_usage() from public, anon;
grant execute on function public.confirmation_mail_usage() to authenticated;

-- Consent rows that never confirmed are kept while their link can still be answered: once the
-- token expired (or, never mailed, a week after the ask) they go. Daily (cron
-- mail-consents-purge); the caps read only the last 24 hours of confirmation_mails, whose rows go
-- after two days.
create function private.purge_mail_consents()
returns integer language sql set search_path = '' as $$
  delete from private.confirmation_mails where mailed_at < now() - interval '2 days';
  delete from private.not_me_tokens where expires_at < now();
  with gone as (
    delete from private.mail_consents
    where confirmed_at is null
      and coalesce(token_expires_at, greatest(mailed_at, capped_at, created_at) + interval '7 days') < now()
    returning 1)
  select count(*)::integer from gone;
$$;
revoke execute on function private.purge_mail_consents() from public;

-- The address an owner's mails to a confirming address would come from, which the confirmation
-- mail and its page name (an address the owner proved theirs, not words they chose): letters
-- (p_letters) come from a verified sender address of the owner's, the asking block's own
-- (block_private.mail_from) when it is one, else their first; null: the platform's (reply and
-- notification mails always, letters of an owner with no verified sender).
create function private.consent_sender(p_owner_id uuid, p_block_id uuid, p_letters boolean)
returns text language sql stable set search_path = '' as $$
  select s.email from public.sender_emails s
  where p_letters and s.user_id = p_owner_id and s.status = 'verified'
  order by s.email = (select bp.mail_from from public.block_private bp where bp.block_id = p_block_id)
             desc nulls last, s.created_at
  limit 1;
$$;
revoke execute on function private.consent_sender(uuid, uuid, boolean) from public;

-- The worker starts one `confirm.mail` job (running) with the hash of the token it is about to
-- mail. Answers {skip: reason}, {defer_until} (a letters confirmation when another went to the
-- address less than a day ago), or what the mail needs: {to, scope: reply|letters|notify, language,
-- block: {id}, owner_id, sender, owner_email}. No confirmation carries a word the owner chose (no
-- block name or site, no profile name: an owner can pose as their own visitor and type any
-- address): only the address the mails would come from (sender: consent_sender; null, the
-- platform's) and, a notify one, the owner's sign-in address. The token replaces the row's older
-- one; a job run again (retried before the provider took it) replaces its own. In order: the
-- same confirmation to the mailbox in the last day (skipped), the mailbox's day (one
-- confirmation mail a day: a reply one past it is dropped, as many accounts may name one address;
-- a letters one, one per owner, waits), then the owner's day (owner_confirmation_cap: past it the
-- ask is dropped and the row's capped_at tells the owner).
create function public.start_mail_consent(p_job_id bigint, p_token_hash text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_email text;
  v_owner uuid;
  v_commenter uuid;
  v_row private.mail_consents;
  v_last timestamptz;
  v_block public.blocks;
  v_sender text;
  v_locale public.language_code;
  v_notify boolean;
  v_owner_email text;
begin
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$' then
    raise exception 'not a token hash' using errcode = 'P0001';
  end if;
  select * into v_job from private.jobs where id = p_job_id and kind = 'confirm.mail' and status = 'running';
  if not found then
    return jsonb_build_object('skip', 'the job is no longer running');
  end if;
  v_email := lower(btrim(v_job.payload ->> 'email'));
  v_owner := (v_job.payload ->> 'owner_id')::uuid;
  v_commenter := (v_job.payload ->> 'commenter_id')::uuid;
  v_notify := coalesce(v_job.payload ->> 'scope', '') = 'notify' and v_commenter is null;
  v_locale := case when v_job.payload ->> 'locale' = 'ko' then 'ko' else 'en' end;
  if v_email is null or not private.is_valid_email(v_email) then
    return jsonb_build_object('skip', 'no address');
  end if;
  if v_owner is null then
    -- asked before consents were per owner and commenter (20261126 migration): ask again
    return jsonb_build_object('skip', 'a request of the old form');
  end if;
  -- one address at a time: the daily cap is read and written under this lock
  perform private.lock_mailbox_asks(private.mailbox_key(v_email));
  if private.mailbox_suppressed(v_email) then
    return jsonb_build_object('skip', 'the address is suppressed');
  end if;
  select * into v_block from public.blocks where id = (v_job.payload ->> 'block_id')::uuid;
  if v_block.id is null or v_block.owner_id <> v_owner then
    return jsonb_build_object('skip', 'the block was deleted');
  end if;
  if not exists (select 1 from public.profiles where id = v_owner) then
    return jsonb_build_object('skip', 'the owner is gone');
  end if;
  if v_commenter is not null and not exists (select 1 from auth.users where id = v_commenter) then
    return jsonb_build_object('skip', 'the commenter is gone');
  end if;
  insert into private.mail_consents (email, owner_id, commenter_id, block_id, locale, for_notifications)
    values (v_email, v_owner, v_commenter, v_block.id, v_locale, v_notify)
    on conflict (email, owner_id, commenter_id, for_notifications) do nothing;
  select * into v_row from private.mail_consents
    where email = v_email and owner_id = v_owner and commenter_id is not distinct from v_commenter
      and for_notifications = v_notify
    for update;
  if v_row.confirmed_at is not null then
    return jsonb_build_object('skip', 'the address already confirmed');
  end if;
  -- this confirmation (owner, and commenter or scope) went to the mailbox today, in any spelling
  if exists (select 1 from private.mail_consents c
             where c.owner_id = v_owner and c.commenter_id is not distinct from v_commenter
               and c.for_notifications = v_notify and c.mailed_at > now() - interval '24 hours'
               and c.mailed_job is distinct from p_job_id
               and private.mailbox_key(c.email) = private.mailbox_key(v_email)) then
    return jsonb_build_object('skip', 'this confirmation went to the address less than a day ago');
  end if;
  -- the mailbox's day, a sender confirmation included (private.mailbox_last_ask)
  v_last := private.mailbox_last_ask(private.mailbox_key(v_email), p_job_id);
  if v_last is not null then
    if v_commenter is not null then
      return jsonb_build_object('skip', 'a confirmation went to the address less than a day ago');
    end if;
    return jsonb_build_object('defer_until', v_last + interval '24 hours');
  end if;
  -- the owner's day: one owner at a time, so concurrent jobs cannot both take the last one
  perform pg_advisory_xact_lock(hashtextextended('mail_consent_owner:' || v_owner, 0));
  if (select count(*) from private.confirmation_mails
      where owner_id = v_owner and mailed_at > now() - interval '24 hours'
        and job_id <> p_job_id) >= private.owner_confirmation_cap(v_owner) then
    update private.mail_consents set capped_at = now() where id = v_row.id;
    return jsonb_build_object('skip', 'the owner''s confirmation mails of the day are spent', 'capped', true);
  end if;

  update private.mail_consents
    set token_hash = p_token_hash, token_expires_at = now() + interval '7 days',
        mailed_at = now(), mailed_job = p_job_id, block_id = v_block.id, locale = v_locale
    where id = v_row.id;
  insert into private.confirmation_mails (job_id, email, owner_id) values (p_job_id, v_email, v_owner)
    on conflict (job_id) do update set mailed_at = now();
  -- the mail's "Not me", which outlives this row, its accounts and the next mail's token
  insert into private.not_me_tokens (token_hash, email, scope, locale, owner_id, expires_at)
    values (p_token_hash, v_email,
            case when v_notify then 'notify' when v_commenter is null then 'letters' else 'reply' end,
            v_locale, v_owner, now() + interval '7 days')
    on conflict (token_hash) do nothing;
  if v_notify then
    select u.email into v_owner_email from auth.users u where u.id = v_owner;
  end if;
  v_sender := private.consent_sender(v_owner, v_block.id, v_commenter is null and not v_notify);
  return jsonb_build_object(
    'to', v_email,
    'scope', case when v_notify then 'notify' when v_commenter is null then 'letters' else 'reply' end,
    'language', v_locale,
    'block', jsonb_build_object('id', v_block.id),
    'owner_id', v_owner, 'sender', v_sender, 'owner_email', v_owner_email);
end;
$$;
comment on function public.start_mail_consent(bigint, text) is
  'Starts a running confirm.mail job with the hash of the token it mails: the mail''s context, a skip reason, or defer_until (one confirmation mail per address a day; the owner''s daily cap). Service role only (jobs-worker).';
revoke all on function public.start_mail_consent(bigint, text) from public, anon, authenticated;
grant execute on function public.start_mail_consent(bigint, text) to service_role;

-- What a live token asks, for the confirmation page: {scope, email, locale, sender, owner_email},
-- or null when the token is unknown, spent or expired (scope sender: the "Not me" link of a
-- sender confirmation mail, which can only say no). Only what the mail says: the page is the
-- mail's, and the address anyone's. No block name, no account name, both the owner's words
-- (rev-mail2, 2026-11-28: a block named "Your bank account is locked, call ..." was shown to
-- whatever address a visitor typed). sender: the address the mails would come from
-- (consent_sender; null: the platform's, which the confirm-email function names); owner_email,
-- a notify token's only: the owner's sign-in address (who asked).
create function public.mail_consent_info(p_token_hash text)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
           'scope', case when c.for_notifications then 'notify'
                         when c.commenter_id is null then 'letters' else 'reply' end,
           'email', c.email, 'locale', c.locale,
           'sender', private.consent_sender(c.owner_id, c.block_id,
                                            c.commenter_id is null and not c.for_notifications),
           'owner_email', case when c.for_notifications then
             (select u.email from auth.users u where u.id = c.owner_id) end)
  from private.mail_consents c
  where c.token_hash = p_token_hash and c.token_expires_at > now()
  -- a "Not me" token alone (private.not_me_tokens): a sender confirmation mail's (scope sender,
  -- named by the sign-in address of the account that asked, while it exists), or a consent mail's
  -- whose row went or holds a later mail's token (it can only say no: nothing is named)
  union all
  select jsonb_build_object('scope', t.scope, 'email', t.email, 'block_name', null,
                            'locale', t.locale, 'owner_name', null,
                            'owner_email', case when t.scope = 'sender' then u.email end)
  from private.not_me_tokens t left join auth.users u on u.id = t.owner_id
  where t.token_hash = p_token_hash and t.expires_at > now()
    and not exists (select 1 from private.mail_consents c
                    where c.token_hash = p_token_hash and c.token_expires_at > now());
$$;
revoke all on function public.mail_consent_info(text) from public, anon, authenticated;
grant execute on function public.mail_consent_info(text) to service_role;

-- Spends a token: p_confirm true confirms (the owner's members with the address stop waiting, and
-- the letters its forms held for it are queued again), false is "not me" (private.not_me: the
-- mailbox joins the suppression list). A "Not me" token alone (private.not_me_tokens) answers
-- false only (true: invalid). Answers {outcome: confirmed | declined | invalid, scope, email}.
create function public.answer_mail_consent(p_token_hash text, p_confirm boolean)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_row private.mail_consents;
  v_not_me private.not_me_tokens;
begin
  -- the row lock makes the token single use: a second call waits, then finds it gone
  select * into v_row from private.mail_consents
    where token_hash = p_token_hash and token_expires_at > now() for update;
  if not found then
    -- a "Not me" token alone (private.not_me_tokens): a sender confirmation mail's, or a consent
    -- mail's whose row went (its owner's or its commenter's account was deleted) or holds a later
    -- mail's token. It can only decline, once
    delete from private.not_me_tokens
      where token_hash = p_token_hash and expires_at > now() and not p_confirm
      returning * into v_not_me;
    if not found then
      return jsonb_build_object('outcome', 'invalid');
    end if;
    perform private.not_me(v_not_me.email, v_not_me.scope);
    return jsonb_build_object('outcome', 'declined', 'scope', v_not_me.scope, 'email', v_not_me.email);
  end if;
  -- the mail's token is spent: its "Not me" too
  delete from private.not_me_tokens where token_hash = p_token_hash;
  update private.mail_consents
    set token_hash = null, token_expires_at = null,
        confirmed_at = case when p_confirm then now() end
    where id = v_row.id;
  if not p_confirm then
    perform private.not_me(v_row.email, 'consent');
  elsif v_row.commenter_id is null and not v_row.for_notifications then
    update public.audience_members set awaiting_confirmation = false
      where user_id = v_row.owner_id and lower(email) = v_row.email and awaiting_confirmation;
    -- the letters the owner's forms would have sent it (reserve_trigger_letter waited); none
    -- when the address unsubscribed from the owner since it was asked: each would only be
    -- skipped as unsubscribed (a yes never opts an address back in, rev-mission D1)
    insert into private.jobs (kind, payload, dedupe_key)
      select 'letter.trigger', j.payload, j.dedupe_key || ':confirmed'
      from private.jobs j
      where j.kind = 'letter.trigger' and j.status = 'done' and j.finished_at > now() - interval '8 days'
        and j.payload ->> 'owner_id' = v_row.owner_id::text and j.result ->> 'awaiting' = v_row.email
        and j.dedupe_key not like '%:confirmed'
        and not private.letter_unsubscribed(v_row.owner_id, v_row.email)
      on conflict (dedupe_key) do nothing;
  end if;
  return jsonb_build_object('outcome', case when p_confirm then 'confirmed' else 'declined' end,
    'scope', case when v_row.for_notifications then 'notify'
                  when v_row.commenter_id is null then 'letters' else 'reply' end,
    'email', v_row.email);
end;
$$;
comment on function public.answer_mail_consent(text, boolean) is
  'Spends a mail confirmation token: confirms (true) or suppresses the mailbox (false, "not me"); a "Not me" token alone (a sender confirmation mail''s, or a consent mail''s whose row went or holds a later token: private.not_me_tokens) answers false only. Outcome invalid when unknown, spent or expired. Service role only (confirm-email).';
revoke all on function public.answer_mail_consent(text, boolean) from public, anon, authenticated;
grant execute on function public.answer_mail_consent(text, boolean) to service_role;

-- =============================================================================================
-- schemas/notifications.sql
-- =============================================================================================

-- The notification mails of blocks (mailTo for the owner, allowCreatorEmail for a commenter who
-- gets replies). They are jobs (jobs.sql) enqueued by triggers in the visitor's transaction: one
-- job per new message or response, grouped per block (owner) or per thread (commenter), so the
-- worker sends the first at once and folds a burst into one digest per window (setting
-- jobs.group_window_seconds, default 60). The worker prepares a whole batch in one call.
--
-- A block's mail_to is typed by its owner, so it gets the rule of the addresses a visitor types
-- (docs/security.md "Notification addresses"): it is mailed only when it is the owner's sign-in
-- address, one of their verified sender addresses, or an address that confirmed this owner's
-- notifications through the link mailed to it (mail-consent.sql, for_notifications). Saving
-- another address asks it once (ask_notification_consent); until it says yes its digests are
-- skipped. An unsubscribe from one owner digest stops all of that owner's digests to the address
-- (private.mail_optouts keeps the owner: deleting that block does not undo it).

-- Enqueues the notifications of a new message: notify.owner for the block's owner (mailTo), and
-- notify.reply for a commenter who asked for replies, which waits for a published reply (the owner is told of held messages: that is how they learn to approve).
create or replace function private.messages_enqueue_notifications()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_mail_to text;
  v_allow_email boolean;
  v_parent_creator uuid;
begin
  select b.owner_id, bp.mail_to, b.allow_creator_email into v_owner, v_mail_to, v_allow_email
    from public.blocks b left join public.block_private bp on bp.block_id = b.id
    where b.id = new.block_id;
  if tg_op = 'INSERT' and v_mail_to is not null and new.creator_id is distinct from v_owner then
    perform public.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'message_id', new.id),
      'notify.owner:message:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  if new.parent_id is not null and v_allow_email and new.status = 'published' then
    select m.creator_id into v_parent_creator
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = new.parent_id;
    if found and v_parent_creator is distinct from new.creator_id then
      perform public.enqueue_job('notify.reply',
        jsonb_build_object('block_id', new.block_id, 'parent_id', new.parent_id, 'message_id', new.id),
        'notify.reply:' || new.id, null, 'notify.reply:' || new.parent_id, 'mail');
    end if;
  end if;
  return null;
end;
$$;

-- A new response (form, ab vote, like, button click): the owner's digest when mailTo is set.
create function private.responses_enqueue_notifications()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from public.block_private bp join public.blocks b on b.id = bp.block_id
             where bp.block_id = new.block_id and bp.mail_to is not null
               and b.owner_id is distinct from new.creator_id) then
    perform public.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'response_id', new.id),
      'notify.owner:response:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  return null;
end;
$$;

-- What a notification mail needs, for the payloads of one (merged) job: the recipient, the
-- language, the block and the items, newest last (at most 50 with the total). Answers
-- {skip: reason} when nothing is to be sent: the setting was turned off, the address opted out
-- or is suppressed, the items are gone.
create function public.notification_context(p_kind text, p_payloads jsonb)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block_id uuid := (p_payloads -> 0 ->> 'block_id')::uuid;
  v_block public.blocks;
  v_to text;
  v_language text;
  v_scope text;
  v_message_ids uuid[];
  v_response_ids uuid[];
  v_items jsonb;
  v_total integer;
  v_parent jsonb;
  v_commenter uuid;
  v_owner_name text;
begin
  select * into v_block from public.blocks where id = v_block_id;
  if not found then
    return jsonb_build_object('skip', 'the block was deleted');
  end if;
  select array_agg(distinct (p ->> 'message_id')::uuid) filter (where p ? 'message_id'),
         array_agg(distinct (p ->> 'response_id')::uuid) filter (where p ? 'response_id')
    into v_message_ids, v_response_ids
    from jsonb_array_elements(p_payloads) p;
  select coalesce(nullif(name, ''), 'Owner'), language::text into v_owner_name, v_language
    from public.profiles where id = v_block.owner_id;

  if p_kind = 'notify.owner' then
    v_scope := 'owner';
    select mail_to into v_to from public.block_private where block_id = v_block_id;
    if v_to is null then
      return jsonb_build_object('skip', 'notifications were turned off');
    end if;
    if not private.notification_address_allowed(v_block.owner_id, v_to) then
      return jsonb_build_object('skip', 'the address has not confirmed notifications');
    end if;
  elsif p_kind = 'notify.reply' then
    v_scope := 'reply';
    if not v_block.allow_creator_email then
      return jsonb_build_object('skip', 'the block no longer asks for emails');
    end if;
    select mp.creator_email, m.creator_id,
           jsonb_build_object('id', m.id, 'content', m.content, 'creator_name', m.creator_name,
                              'created_at', m.created_at)
      into v_to, v_commenter, v_parent
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = (p_payloads -> 0 ->> 'parent_id')::uuid;
    if v_to is null then
      return jsonb_build_object('skip', 'the message or its email is gone');
    end if;
    -- double opt-in (mail-consent.sql): replies are mailed only when the address confirmed them
    -- for the comment's writer on this owner's blocks; replies before that are not mailed, then
    -- or later (the page shows them)
    if not private.mail_confirmed(v_to, v_block.owner_id, v_commenter) then
      return jsonb_build_object('skip', 'the address has not confirmed reply notifications');
    end if;
    v_language := v_block.language::text;
  else
    raise exception 'not a notification kind: %', p_kind using errcode = 'P0001';
  end if;

  -- an owner digest's unsubscribe counts for all of that owner's blocks, deleted ones too (one
  -- yes, one no: the opt-out keeps the owner); a reply one for the block's replies
  if (case when v_scope = 'owner'
           then exists (select 1 from private.mail_optouts o
                        where o.owner_id = v_block.owner_id and o.email = lower(v_to) and o.scope = 'owner')
           else exists (select 1 from private.mail_optouts o
                        where o.email = lower(v_to) and o.scope = 'reply' and o.block_id = v_block_id) end) then
    return jsonb_build_object('skip', 'the address unsubscribed');
  end if;
  if private.mailbox_suppressed(v_to) then
    return jsonb_build_object('skip', 'the address is suppressed (bounce or complaint)');
  end if;

  with items as (
    select 'message' as item, m.id, m.created_at,
           jsonb_build_object('item', 'message', 'id', m.id, 'content', m.content,
             'creator_name', m.creator_name, 'is_reply', m.parent_id is not null,
             'is_owner', m.creator_id = v_block.owner_id, 'created_at', m.created_at) as json
    from public.messages m where m.id = any(coalesce(v_message_ids, '{}')) and m.block_id = v_block_id
    union all
    select 'response', r.id, r.created_at,
           jsonb_build_object('item', 'response', 'id', r.id, 'kind', r.kind,
             'creator_name', r.creator_name, 'created_at', r.created_at,
             'answers', coalesce((
               select jsonb_agg(jsonb_build_object('title', a.value ->> 'title', 'value', a.value -> 'value')
                                order by (a.value ->> 'index')::integer nulls last)
               from jsonb_each(r.answers) a), '[]'::jsonb))
    from public.responses r where r.id = any(coalesce(v_response_ids, '{}')) and r.block_id = v_block_id
  )
  select coalesce(jsonb_agg(json order by created_at, id) filter (where rn <= 50), '[]'::jsonb), count(*)::integer
    into v_items, v_total
    from (select *, row_number() over (order by created_at desc, id desc) as rn from items) x;
  if v_total = 0 then
    return jsonb_build_object('skip', 'the messages or responses were deleted');
  end if;

  return jsonb_build_object(
    'to', v_to, 'scope', v_scope, 'language', coalesce(v_language, 'en'),
    'owner_id', v_block.owner_id, 'owner_name', v_owner_name,
    'block', jsonb_build_object('id', v_block.id, 'name', v_block.name, 'type', v_block.type,
                                'owner_id', v_block.owner_id, 'embeded_url', v_block.embeded_url),
    'parent', v_parent, 'items', v_items, 'total', v_total);
end;
$$;
revoke execute on function public.notification_context(text, jsonb) from public, anon, authenticated;

-- For each claimed notification job: the merged payloads and what the mail needs, or when to
-- run instead, or why nothing is sent. Answers [{id, defer_until} | {id, context}] in the order
-- of p_job_ids; a job that is not running any more is left out.
create function public.prepare_notification_jobs(p_job_ids bigint[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
  v_kind text;
  v_merged jsonb;
  v_out jsonb := '[]'::jsonb;
begin
  foreach v_id in array coalesce(p_job_ids, '{}') loop
    select kind into v_kind from private.jobs where id = v_id and status = 'running';
    continue when not found;
    v_merged := public.merge_job_group(v_id);
    if v_merged ->> 'defer_until' is not null then
      v_out := v_out || jsonb_build_object('id', v_id, 'defer_until', v_merged -> 'defer_until');
    else
      v_out := v_out || jsonb_build_object('id', v_id,
        'context', public.notification_context(v_kind, v_merged -> 'payloads'));
    end if;
  end loop;
  return v_out;
end;
$$;
revoke execute on function public.prepare_notification_jobs(bigint[]) from public, anon, authenticated;

create trigger messages_enqueue_notifications after insert on public.messages
  for each row execute function private.messages_enqueue_notifications();
create trigger responses_enqueue_notifications after insert on public.responses
  for each row execute function private.responses_enqueue_notifications();
create trigger messages_enqueue_approved_reply after update of status on public.messages
  for each row when (old.status = 'held' and new.status = 'published' and new.parent_id is not null)
  execute function private.messages_enqueue_notifications();

-- Saving a block's mail_to that may not be mailed yet asks it (once a day at most: the
-- confirm.mail job's dedupe key) in the owner's language. security definer: save_block runs as
-- the service role, the consent tables and the queue are the definer's.
create function private.ask_notification_consent(p_block public.blocks, p_email text)
returns text language plpgsql security definer set search_path = '' as $$
begin
  if p_email is null or private.notification_address_allowed(p_block.owner_id, p_email) then
    return 'allowed';
  end if;
  return private.ask_mail_consent(p_email, p_block.owner_id, null, p_block.id,
    (select p.language from public.profiles p where p.id = p_block.owner_id), true);
end;
$$;
revoke execute on function private.ask_notification_consent(public.blocks, text) from public;
grant execute on function private.ask_notification_consent(public.blocks, text) to service_role;

-- The state of a block's notification address, for the workspace: {email, state, mailed_at}
-- with state none (no address), allowed (own, verified sender or confirmed: nothing to show) or
-- waiting (a link was or will be mailed; notifications start once it is confirmed). An address
-- on the platform's suppression list reads as waiting: whether someone else's mailbox refused
-- the platform's mail is not the owner's to learn (docs/security.md). Owner only.
create function public.notification_address_status(p_block_id uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_to text;
begin
  select b.owner_id, bp.mail_to into v_owner, v_to
    from public.blocks b left join public.block_private bp on bp.block_id = b.id
    where b.id = p_block_id and b.owner_id = (select auth.uid());
  if v_owner is null then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_to is null then
    return jsonb_build_object('email', null, 'state', 'none');
  end if;
  if private.notification_address_allowed(v_owner, v_to) then
    return jsonb_build_object('email', v_to, 'state', 'allowed');
  end if;
  return jsonb_build_object('email', v_to, 'state', 'waiting',
    'mailed_at', (select c.mailed_at from private.mail_consents c
                  where c.email = lower(btrim(v_to)) and c.owner_id = v_owner
                    and c.commenter_id is null and c.for_notifications));
end;
$$;
revoke all on function public.notification_address_status(uuid) from public, anon;
grant execute on function public.notification_address_status(uuid) to authenticated;

-- "Send the link again" in the workspace: asks the block's waiting address again. Limited like
-- every confirmation mail (one per address and owner a day, one per address a day, the owner's
-- daily cap): answers {sent: false} when a link went in the last 24 hours or was asked today,
-- else {sent: true} (the queue sends it; the caps may still keep it back). Owner only.
create function public.resend_notification_confirmation(p_block_id uuid)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_to text;
  v_email text;
begin
  select b.* into v_block from public.blocks b
    where b.id = p_block_id and b.owner_id = (select auth.uid());
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  select mail_to into v_to from public.block_private where block_id = p_block_id;
  v_email := lower(btrim(v_to));
  if v_to is null or private.notification_address_allowed(v_block.owner_id, v_to) then
    return jsonb_build_object('sent', false);
  end if;
  if exists (select 1 from private.mail_consents c
             where c.email = v_email and c.owner_id = v_block.owner_id and c.commenter_id is null
               and c.for_notifications and c.mailed_at > now() - interval '24 hours')
     or private.consent_asked_today(v_email, v_block.owner_id, null, true) then
    return jsonb_build_object('sent', false);
  end if;
  return jsonb_build_object('sent', private.ask_notification_consent(v_block, v_to) = 'pending');
end;
$$;
revoke all on function public.resend_notification_confirmation(uuid) from public, anon;
grant execute on function public.resend_notification_confirmation(uuid) to authenticated;

-- =============================================================================================
-- schemas/plans.sql
-- =============================================================================================

-- Plans and payments (spec: account sections 3, 4, 5, 7 and 9; docs/plans.md tells the story).
--
-- * A plan row (public.payments, the plan history) is written only when the provider took the
--   money: a card payment through PortOne, a PayPal subscription, or a coupon.
-- * What a plan gives is applied to the profile by ONE function, private.apply_plan_limits: paid,
--   block_limit and response_monthly_limit follow the owner's active rows, and blocks beyond the
--   limit are deactivated, newest first (never deleted). Client roles cannot write those columns
--   (profiles.sql grants them nothing but profile fields; tests/plans.test.ts proves it).
-- * One active paid plan at a time (a partial unique index), one checkout in flight per owner.
-- * A checkout is recorded in private.payment_charges BEFORE the provider is asked for money, with
--   a `plan.reconcile` job in the same transaction: if the function stops after the provider took
--   the money, the job re-reads the payment and records the plan (idempotently).
--
-- Entry points are public functions executable by service_role only (the payment functions call
-- them after validating with the shared zod schemas and talking to the provider). Renewals,
-- changes, stops and expiry are in plan-renewals.sql; PayPal's syncs and refunds in plan-paypal.sql.

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  type public.payment_type not null,
  price numeric(10, 2) not null default 3 check (price >= 0),
  method public.payment_method,
  start_date date not null default current_date,
  end_date date,
  is_active boolean not null default true,
  -- {planName, blockLimit, responseMonthlyLimit}
  content jsonb not null default '{}'::jsonb check (jsonb_typeof(content) = 'object'),
  provider_payment_id text check (char_length(provider_payment_id) <= 200),
  created_at timestamptz not null default now(),
  auto_renew boolean not null default false,
  stopped_at timestamptz,
  renewal_failed_at timestamptz,
  next_content jsonb check (next_content is null or jsonb_typeof(next_content) = 'object'),
  next_price numeric(10, 2) check (next_price is null or next_price >= 0),
  updated_at timestamptz not null default now(),
  -- a changed plan already paid for (a card renewal is charged 3 days before its period): it
  -- becomes the row's plan on paid_next_from, its period's first day (private.start_paid_plans)
  paid_next_content jsonb check (paid_next_content is null or jsonb_typeof(paid_next_content) = 'object'),
  paid_next_from date,
  paid_next_price numeric(10, 2) check (paid_next_price is null or paid_next_price >= 0),
  renewal_retry_at timestamptz,
  check (end_date is null or end_date >= start_date),
  constraint payments_paid_next_check check (
    (paid_next_content is null) = (paid_next_from is null) and (paid_next_price is null) = (paid_next_from is null))
);
comment on table public.payments is
  'Plan history of a user (basic, custom, coupon, subscription). Owner reads; only the service role writes.';
comment on column public.payments.auto_renew is 'The plan renews at the provider (card schedule or PayPal subscription) until stopped.';
comment on column public.payments.stopped_at is 'When the owner stopped the renewals (the plan keeps running until end_date).';
comment on column public.payments.renewal_failed_at is 'When the last renewal payment failed (the plan then ends at end_date).';
comment on column public.payments.renewal_retry_at is 'PayPal plans whose renewal failed: when PayPal tries the payment again (the plan renews meanwhile).';
comment on column public.payments.next_content is 'A changed plan {planName, blockLimit, responseMonthlyLimit} that starts with the first period not charged yet (end_date + 1).';
comment on column public.payments.next_price is 'The price of next_content.';
comment on column public.payments.paid_next_content is 'A changed plan {planName, blockLimit, responseMonthlyLimit} charged already for the period starting paid_next_from; the row''s plan from that day.';
comment on column public.payments.paid_next_price is 'The price of paid_next_content.';
comment on column public.payments.paid_next_from is 'The first day of the period paid_next_content was charged for (the old end_date + 1).';
comment on column public.payments.end_date is 'Last day of the current period (inclusive): the plan ends the day after unless it renews.';
call private.clients_read('public.payments', 'Users can read their own payments',
  'user_id = (select auth.uid())');
create index payments_user_id_created_at_idx on public.payments (user_id, created_at desc);
create unique index payments_one_active_plan_idx on public.payments (user_id)
  where is_active and type in ('basic', 'custom', 'subscription');
create index payments_active_end_date_idx on public.payments (end_date) where is_active;
create index payments_paid_next_from_idx on public.payments (paid_next_from)
  where paid_next_from is not null;
create index payments_provider_payment_id_idx on public.payments (method, provider_payment_id)
  where provider_payment_id is not null;

create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (char_length(code) between 1 and 99),
  type public.payment_type not null default 'coupon' check (type in ('coupon', 'promote_coupon')),
  -- the plan it grants: {planName, blockLimit, responseMonthlyLimit}
  content jsonb not null default '{}'::jsonb check (jsonb_typeof(content) = 'object'),
  duration_days integer not null default 30 check (duration_days > 0),
  max_redemptions integer check (max_redemptions > 0),
  redemption_count integer not null default 0 check (redemption_count >= 0),
  valid_until timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.coupons is 'Coupon codes and the plan they grant. No client access: the use-coupon edge function redeems them.';
alter table public.coupons enable row level security;
revoke select, insert, update, delete, references, trigger, maintain on public.coupons from anon, authenticated;
create unique index coupons_code_lower_idx on public.coupons (lower(code));

create table public.coupon_redemptions (
  id uuid primary key default gen_random_uuid(),
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (coupon_id, user_id)
);
comment on table public.coupon_redemptions is 'Which user redeemed which coupon (once each). No client access.';
alter table public.coupon_redemptions enable row level security;
revoke select, insert, update, delete, references, trigger, maintain on public.coupon_redemptions from anon, authenticated;
create index coupon_redemptions_user_id_idx on public.coupon_redemptions (user_id);

-- Who redeemed a coupon, kept past the account (rev-break3 C1): coupon_redemptions goes with a
-- deleted account, so the same person signing in again as a new account could redeem every
-- uncapped coupon, the promote coupon too, again. A row per coupon and person: the sha256 of the
-- sign-in address in lower case (no link to the profile, nothing readable).
create table private.coupon_claims (
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  person text not null check (person ~ '^[0-9a-f]{64}$'),
  primary key (coupon_id, person)
);
comment on table private.coupon_claims is
  'The sha256 of the sign-in address of each person who redeemed a coupon; outlives the account (redeem_coupon).';
alter table private.coupon_claims enable row level security;
create index coupon_claims_person_idx on private.coupon_claims (person);

create table private.payment_charges (
  -- for PortOne this is the payment id we give PortOne, so asking twice cannot charge twice
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete cascade,
  kind text not null check (kind in ('first', 'renewal')),
  method public.payment_method not null,
  -- the PortOne billing key or the PayPal subscription id
  provider_ref text not null check (char_length(provider_ref) between 1 and 200),
  -- {type, blockLimit, responseMonthlyLimit}
  plan jsonb not null check (jsonb_typeof(plan) = 'object'),
  price numeric(10, 2) not null check (price > 0),
  amount numeric(12, 2) not null check (amount > 0),
  currency text not null check (currency in ('KRW', 'USD')),
  -- first: pending -> recorded | failed; renewal: unscheduled -> scheduled -> recorded | failed | revoked
  status text not null check (status in ('pending', 'recorded', 'failed', 'unscheduled', 'scheduled', 'revoked')),
  period_start date not null,
  period_end date not null check (period_end >= period_start),
  -- first card charge: the id of the next period's charge (decided up front so its schedule can be
  -- made before the plan is recorded)
  next_charge_id uuid,
  schedule_id text check (char_length(schedule_id) <= 200),
  provider_payment_id text check (char_length(provider_payment_id) <= 200),
  error text check (char_length(error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table private.payment_charges is
  'Requests for money (a plan''s first payment, a card renewal), written before the provider is asked; no client access.';
alter table private.payment_charges enable row level security;
-- a billing key or a subscription buys one plan, once
create unique index payment_charges_first_ref_idx on private.payment_charges (method, provider_ref)
  where kind = 'first';
-- one checkout in flight per owner: two parallel purchases cannot both charge
create unique index payment_charges_in_flight_idx on private.payment_charges (user_id)
  where kind = 'first' and status = 'pending';
create index payment_charges_payment_idx on private.payment_charges (payment_id, kind, period_start);

-- The spec's price of a plan {type, blockLimit, responseMonthlyLimit}: floor(blockLimit / 4) +
-- floor(responseMonthlyLimit / 1000) dollars, or null for a plan that cannot be bought (Basic is
-- 8 and 1000; counts are multiples of 4 and 1000 within 400 and 100000; at least $3).
-- supabase/functions/_shared/plans.ts computes the same (tests/plans.test.ts ties the two).
create function private.plan_price(p_plan jsonb)
returns numeric language plpgsql immutable set search_path = '' as $$
declare
  v_type text := p_plan ->> 'type';
  v_blocks integer := private.jsonb_int(p_plan, 'blockLimit');
  v_emails integer := private.jsonb_int(p_plan, 'responseMonthlyLimit');
  v_price numeric;
begin
  if v_type not in ('basic', 'custom') or v_blocks is null or v_emails is null
     or v_blocks < 0 or v_blocks > 400 or v_blocks % 4 <> 0
     or v_emails < 0 or v_emails > 100000 or v_emails % 1000 <> 0
     or (v_type = 'basic' and (v_blocks <> 8 or v_emails <> 1000)) then
    return null;
  end if;
  v_price := floor(v_blocks / 4.0) + floor(v_emails / 1000.0);
  return case when v_price >= 3 then v_price end;
end;
$$;
revoke execute on function private.plan_price(jsonb) from public;

-- The content a plan row keeps: {planName, blockLimit, responseMonthlyLimit}.
create function private.plan_content(p_plan jsonb)
returns jsonb language sql immutable set search_path = '' as $$
  select jsonb_build_object(
    'planName', case p_plan ->> 'type' when 'basic' then 'Basic' else 'Custom' end,
    'blockLimit', private.jsonb_int(p_plan, 'blockLimit'),
    'responseMonthlyLimit', private.jsonb_int(p_plan, 'responseMonthlyLimit'));
$$;
revoke execute on function private.plan_content(jsonb) from public;

-- The last day of a one-month period starting on p_start (23 Nov -> 22 Dec).
create function private.period_end(p_start date)
returns date language sql immutable set search_path = '' as $$
  select (p_start + interval '1 month')::date - 1;
$$;
revoke execute on function private.period_end(date) from public;

-- The one lock order of every function that writes an owner's plans: the owner's profile, then the
-- plan row (p_payment_id), then the charge (p_charge_id). Deleting the account locks the profile
-- first too (its cascade goes auth.users, profiles, then the plan rows and charges), and a plan
-- function that writes a row or the limits goes on to the profile (apply_plan_limits, a charge's
-- key on it), so one that locked its plan row first deadlocked with a deletion. Answers false when
-- the owner has no profile (the account was deleted, perhaps while this waited); callers read the
-- rows they locked afterwards, and find nothing then.
create function private.lock_plan(p_user_id uuid, p_payment_id uuid default null, p_charge_id uuid default null)
returns boolean language plpgsql set search_path = '' as $$
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    return false;
  end if;
  perform 1 from public.payments where id = p_payment_id and user_id = p_user_id for update;
  perform 1 from private.payment_charges where id = p_charge_id and user_id = p_user_id for update;
  return true;
end;
$$;
revoke execute on function private.lock_plan(uuid, uuid, uuid) from public;

-- Applies the owner's active plan rows to the profile: the ONE writer of paid, block_limit and
-- response_monthly_limit. Limits are Starter's (3 blocks, 100 emails) plus the largest addition
-- among the active rows (a coupon running beside a paid plan gives the larger of the two). Blocks
-- beyond the limit are deactivated, newest first, never deleted; room again reactivates them,
-- oldest first. security definer: it writes columns and rows the owner may not write.
create function private.apply_plan_limits(p_user_id uuid)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_paid boolean;
  v_blocks integer;
  v_emails integer;
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    return;
  end if;
  select count(*) > 0,
         3 + coalesce(max(greatest(coalesce(private.jsonb_int(content, 'blockLimit'), 0), 0)), 0),
         100 + coalesce(max(greatest(coalesce(private.jsonb_int(content, 'responseMonthlyLimit'), 0), 0)), 0)
    into v_paid, v_blocks, v_emails
    from public.payments
    where user_id = p_user_id and is_active;
  update public.profiles
    set paid = v_paid, block_limit = v_blocks, response_monthly_limit = v_emails
    where id = p_user_id
      and (paid, block_limit, response_monthly_limit) is distinct from (v_paid, v_blocks, v_emails);
  with ranked as (
    select id, row_number() over (order by created_at, id) as n
    from public.blocks
    where owner_id = p_user_id
  )
  update public.blocks b
    set deactivated = (r.n > v_blocks)
    from ranked r
    where b.id = r.id and b.deactivated is distinct from (r.n > v_blocks);
end;
$$;
revoke execute on function private.apply_plan_limits(uuid) from public;
grant execute on function private.apply_plan_limits(uuid) to service_role;

-- The owner's active paid plan (the spec's: active and basic, custom or subscription), if any.
create function private.active_plan(p_user_id uuid)
returns public.payments language sql stable set search_path = '' as $$
  select * from public.payments
  where user_id = p_user_id and is_active and type in ('basic', 'custom', 'subscription')
  limit 1;
$$;
revoke execute on function private.active_plan(uuid) from public;

-- Starts a checkout, or answers the one this billing key or subscription already started (a
-- double submit, a retry): the charge row with `existing`. Refuses a second plan and a second
-- checkout in flight. The `plan.reconcile` job written here finishes the checkout if its caller
-- stops half way (docs/plans.md, "What if recording fails").
create function public.start_plan_checkout(
  p_user_id uuid,
  p_method public.payment_method,
  p_provider_ref text,
  p_plan jsonb,
  p_price numeric)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_charge private.payment_charges;
  v_price numeric := private.plan_price(p_plan);
  v_start date := current_date;
begin
  if not private.lock_plan(p_user_id) then
    raise exception 'Sign in with Google or Apple first' using errcode = 'PT403';
  end if;
  if v_price is null then
    raise exception 'Invalid plan' using errcode = 'P0001';
  end if;
  if v_price is distinct from p_price then
    raise exception 'The price has changed; check the plan and try again' using errcode = 'P0001';
  end if;

  select * into v_charge from private.payment_charges
    where kind = 'first' and method = p_method and provider_ref = p_provider_ref;
  if found then
    if v_charge.user_id <> p_user_id then
      raise exception 'This payment belongs to another account' using errcode = 'PT403';
    end if;
    return to_jsonb(v_charge) || jsonb_build_object('existing', true);
  end if;
  -- a subscription being given back never starts a checkout: plan.paypal-orphan decided so under
  -- this lock (queue_orphan_refund) and may be cancelling it at PayPal now, or a check refused it
  -- (a second plan, not the plan ordered); a plan recorded from it would be cancelled and refunded
  if p_method = 'paypal'
     and exists (select 1 from public.paypal_refunds where subscription_id = p_provider_ref) then
    raise exception 'This subscription was cancelled; its payment is given back' using errcode = 'PT410';
  end if;

  if (private.active_plan(p_user_id)).id is not null then
    raise exception 'You already have an active plan' using errcode = 'PT409';
  end if;
  if exists (select 1 from private.payment_charges
             where user_id = p_user_id and kind = 'first' and status = 'pending') then
    raise exception 'A payment is already in progress; try again in a few minutes' using errcode = 'PT409';
  end if;

  insert into private.payment_charges (user_id, kind, method, provider_ref, plan, price, amount,
                                       currency, status, period_start, period_end, next_charge_id)
  values (p_user_id, 'first', p_method, p_provider_ref,
          jsonb_build_object('type', p_plan ->> 'type',
                             'blockLimit', private.jsonb_int(p_plan, 'blockLimit'),
                             'responseMonthlyLimit', private.jsonb_int(p_plan, 'responseMonthlyLimit')),
          v_price,
          case when p_method = 'iamport' then v_price * 1000 else v_price end,
          case when p_method = 'iamport' then 'KRW' else 'USD' end,
          'pending', v_start, private.period_end(v_start),
          case when p_method = 'iamport' then gen_random_uuid() end)
  returning * into v_charge;

  -- 34 attempts: about a day of the queue's backoff (5 s doubling, an hour at most) through a
  -- provider or database outage, where the default 8 gave up after ten minutes and left the
  -- checkout pending (every purchase of the owner refused) until a webhook settled it
  perform public.enqueue_job('plan.reconcile', jsonb_build_object('charge_id', v_charge.id),
                             'plan.reconcile:' || v_charge.id, now() + interval '2 minutes',
                             p_max_attempts => 34);
  -- the subscription's webhook came first (it usually does) and queued plan.paypal-orphan for a
  -- subscription with no checkout: it has one now, settled by its own check or plan.reconcile, so
  -- the job could only find it and stop; taken out while still waiting (one running, a check
  -- after its hour, goes on)
  if p_method = 'paypal' then
    delete from private.jobs
      where dedupe_key = 'plan.paypal-orphan:' || p_provider_ref and status = 'queued';
  end if;
  return to_jsonb(v_charge) || jsonb_build_object('existing', false);
end;
$$;
revoke execute on function public.start_plan_checkout(uuid, public.payment_method, text, jsonb, numeric) from public, anon, authenticated;

-- Records a paid checkout as the owner's plan (idempotent: a recorded one answers its plan row).
-- p_provider: {provider_payment_id, end_date?: PayPal's period end, paid_at?: PayPal's first
-- payment's time when taken already, schedule_id?: the card renewal's PortOne schedule}. For a
-- card plan it also writes the next period's charge
-- (private.next_card_charge, plan-renewals.sql; without a schedule id a job makes the schedule).
create function public.record_plan_checkout(p_charge_id uuid, p_provider jsonb default '{}'::jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_charge private.payment_charges;
  v_payment public.payments;
  v_end date;
begin
  -- the owner first, then the charge (private.lock_plan; a charge's owner never changes: read it
  -- unlocked)
  perform private.lock_plan(user_id, null, id) from private.payment_charges
    where id = p_charge_id and kind = 'first';
  select * into v_charge from private.payment_charges where id = p_charge_id and kind = 'first';
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  if v_charge.status = 'recorded' then
    select * into v_payment from public.payments where id = v_charge.payment_id;
    return to_jsonb(v_payment);
  end if;
  if v_charge.status <> 'pending' then
    raise exception 'Failed to payment' using errcode = 'PT402';
  end if;
  if (private.active_plan(v_charge.user_id)).id is not null then
    -- start_plan_checkout lets one checkout through at a time, so this means a plan was made by
    -- hand meanwhile: the charge stays pending, for an operator to refund (docs/plans.md)
    raise exception 'You already have an active plan' using errcode = 'PT409';
  end if;
  v_end := greatest(coalesce((p_provider ->> 'end_date')::date, v_charge.period_end), v_charge.period_start);

  insert into public.payments (user_id, type, price, method, start_date, end_date, is_active,
                               content, provider_payment_id, auto_renew)
  values (v_charge.user_id, (v_charge.plan ->> 'type')::public.payment_type, v_charge.price,
          v_charge.method, v_charge.period_start, v_end, true, private.plan_content(v_charge.plan),
          case when v_charge.method = 'paypal' then v_charge.provider_ref
               else left(p_provider ->> 'provider_payment_id', 200) end,
          true)
  returning * into v_payment;

  update private.payment_charges
    set status = 'recorded', payment_id = v_payment.id, period_end = v_end,
        provider_payment_id = left(p_provider ->> 'provider_payment_id', 200), error = null
    where id = v_charge.id;

  if v_charge.method = 'iamport' then
    perform private.next_card_charge(v_payment, v_charge.provider_ref, v_charge.next_charge_id,
                                     p_provider ->> 'schedule_id');
  end if;
  -- PayPal's first payment, taken already (its last_payment: p_provider.paid_at), paid this
  -- period: applied, so a later payment that moves no period is told apart from it
  -- (sync_paypal_plan gives that one back)
  if v_charge.method = 'paypal' and p_provider ->> 'paid_at' is not null then
    insert into private.paypal_payments (payment_id, paid_at)
      values (v_payment.id, (p_provider ->> 'paid_at')::timestamptz)
      on conflict (payment_id) do nothing;
  end if;

  perform private.apply_plan_limits(v_charge.user_id);
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_checkout(uuid, jsonb) from public, anon, authenticated;

-- A checkout the provider refused (declined card, a subscription that does not match): final.
create function public.fail_plan_checkout(p_charge_id uuid, p_error text)
returns void language sql security definer set search_path = '' as $$
  update private.payment_charges set status = 'failed', error = left(p_error, 500)
    where id = p_charge_id and kind = 'first' and status = 'pending';
$$;
revoke execute on function public.fail_plan_checkout(uuid, text) from public, anon, authenticated;

-- A charge with what the functions need to act on it (service role: the billing key is in it).
create function public.plan_charge(p_charge_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select to_jsonb(c) || jsonb_build_object('payment', to_jsonb(p))
  from private.payment_charges c
  left join public.payments p on p.id = c.payment_id
  where c.id = p_charge_id;
$$;
revoke execute on function public.plan_charge(uuid) from public, anon, authenticated;

-- The first charge a billing key or a PayPal subscription made (webhooks find their checkout).
create function public.plan_charge_by_ref(p_method public.payment_method, p_ref text)
returns jsonb language sql stable security definer set search_path = '' as $$
  select public.plan_charge(c.id)
  from private.payment_charges c
  where c.kind = 'first' and c.method = p_method and c.provider_ref = p_ref;
$$;
revoke execute on function public.plan_charge_by_ref(public.payment_method, text) from public, anon, authenticated;

-- A plan row with its first charge and the renewal charge of the period after it, if any.
create function public.plan_payment(p_payment_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'payment', to_jsonb(p),
    'first_charge', (select to_jsonb(c) from private.payment_charges c
                     where c.payment_id = p.id and c.kind = 'first'),
    'renewal_charge', (select to_jsonb(c) from private.payment_charges c
                       where c.payment_id = p.id and c.kind = 'renewal' and c.period_start = p.end_date + 1
                       order by c.created_at desc limit 1))
  from public.payments p
  where p.id = p_payment_id;
$$;
revoke execute on function public.plan_payment(uuid) from public, anon, authenticated;

-- Provider webhooks are applied once (plan-renewals.sql and the webhook functions):
-- Whether a provider event (PortOne webhook-id, PayPal event id) was applied already.
create function public.payment_event_seen(p_id text)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from private.provider_events where id = left(p_id, 200));
$$;
revoke execute on function public.payment_event_seen(text) from public, anon, authenticated;

-- Records an applied provider event; false when it was recorded already.
create function public.record_payment_event(p_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  insert into private.provider_events (id) values (left(p_id, 200)) on conflict (id) do nothing;
  return found;
end;
$$;
revoke execute on function public.record_payment_event(text) from public, anon, authenticated;

-- Redeems a coupon for the owner: the coupon's row is locked, so parallel redemptions of a capped
-- coupon (or one owner's double click) run one after the other; once per owner, before
-- valid_until, within max_redemptions. A promote_coupon is for owners who never had a plan (bought
-- or promoted; a free coupon does not count). The
-- coupon gives its plan for duration_days (beside a paid plan the larger limits apply).
create function public.redeem_coupon(p_user_id uuid, p_code text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_coupon public.coupons;
  v_payment public.payments;
  v_person text;
begin
  if not private.lock_plan(p_user_id) then
    raise exception 'Sign in with Google or Apple first' using errcode = 'PT403';
  end if;
  select pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(lower(u.email), 'UTF8')), 'hex')
    into v_person from auth.users as u where u.id = p_user_id and u.email is not null;
  select * into v_coupon from public.coupons where lower(code) = lower(btrim(p_code)) for update;
  if not found then
    raise exception 'No such coupon' using errcode = 'PT404';
  end if;
  if v_coupon.valid_until is not null and v_coupon.valid_until < now() then
    raise exception 'This coupon has expired' using errcode = 'PT410';
  end if;
  if exists (select 1 from public.coupon_redemptions where coupon_id = v_coupon.id and user_id = p_user_id)
     or exists (select 1 from private.coupon_claims where coupon_id = v_coupon.id and person = v_person) then
    raise exception 'You have already used this coupon' using errcode = 'PT409';
  end if;
  if v_coupon.max_redemptions is not null and v_coupon.redemption_count >= v_coupon.max_redemptions then
    raise exception 'This coupon has been used up' using errcode = 'PT409';
  end if;
  -- a free coupon is not a plan: redeemed before, it does not spend the welcome (rev-uncov3 D7)
  if v_coupon.type = 'promote_coupon'
     and (exists (select 1 from public.payments where user_id = p_user_id and type <> 'coupon')
          or exists (select 1 from private.coupon_claims as c join public.coupons as k on k.id = c.coupon_id
                     where c.person = v_person and k.type = 'promote_coupon')) then
    raise exception 'This coupon is for owners who have never had a plan' using errcode = 'PT403';
  end if;

  insert into public.payments (user_id, type, price, method, start_date, end_date, is_active, content)
  values (p_user_id, v_coupon.type, 0, null, current_date, current_date + v_coupon.duration_days - 1, true,
          jsonb_build_object(
            'planName', coalesce(v_coupon.content ->> 'planName', 'Coupon'),
            'blockLimit', greatest(coalesce(private.jsonb_int(v_coupon.content, 'blockLimit'), 0), 0),
            'responseMonthlyLimit', greatest(coalesce(private.jsonb_int(v_coupon.content, 'responseMonthlyLimit'), 0), 0),
            'coupon', v_coupon.code))
  returning * into v_payment;
  insert into public.coupon_redemptions (coupon_id, user_id, payment_id)
  values (v_coupon.id, p_user_id, v_payment.id);
  if v_person is not null then
    insert into private.coupon_claims (coupon_id, person) values (v_coupon.id, v_person)
      on conflict do nothing;
  end if;
  update public.coupons set redemption_count = redemption_count + 1 where id = v_coupon.id;
  perform private.apply_plan_limits(p_user_id);
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.redeem_coupon(uuid, text) from public, anon, authenticated;

create trigger payments_set_updated_at before update on public.payments
  for each row execute function private.set_updated_at();
create trigger payment_charges_set_updated_at before update on private.payment_charges
  for each row execute function private.set_updated_at();

-- =============================================================================================
-- schemas/plan-renewals.sql
-- =============================================================================================

-- A plan after its checkout: renewals (PortOne card schedules; PayPal subscriptions, whose state is
-- applied in plan-paypal.sql), failed renewals, the owner's changes and stops, the daily expiry
-- (pg_cron `plan-expiry`: plans past their end go inactive, renewing ones are checked with the
-- provider first, owners mailed before).

-- The plan a plan row's content describes ({type, blockLimit, responseMonthlyLimit}): the other way
-- round of private.plan_content (plans.sql), whose limits it keeps, for a renewal of what the row holds.
create function private.content_plan(p_content jsonb)
returns jsonb language sql immutable set search_path = '' as $$
  select (private.plan_content(p_content) - 'planName')
    || jsonb_build_object('type', case when p_content ->> 'planName' = 'Basic' then 'basic' else 'custom' end);
$$;
revoke execute on function private.content_plan(jsonb) from public;

-- The next period's charge of a card plan, at the plan the owner asked for (next_content), else
-- the one paid for already and not started (paid_next_content), else the current one: scheduled
-- when the provider already made its schedule (p_schedule_id: a checkout's first payment came
-- with it), else unscheduled with a job that schedules it. p_id: the id the checkout gave the
-- provider for it (next_charge_id), else a new one; a charge of that id already written stays as
-- it is.
create function private.next_card_charge(p_payment public.payments, p_billing_key text,
  p_id uuid default null, p_schedule_id text default null)
returns uuid language plpgsql set search_path = '' as $$
declare
  v_id uuid := coalesce(p_id, gen_random_uuid());
  v_plan jsonb := private.content_plan(
    coalesce(p_payment.next_content, p_payment.paid_next_content, p_payment.content));
  v_price numeric := coalesce(p_payment.next_price, p_payment.paid_next_price, p_payment.price);
begin
  insert into private.payment_charges (id, user_id, payment_id, kind, method, provider_ref, plan,
                                       price, amount, currency, status, period_start, period_end,
                                       schedule_id)
  values (v_id, p_payment.user_id, p_payment.id, 'renewal', 'iamport', p_billing_key, v_plan,
          v_price, v_price * 1000, 'KRW',
          case when p_schedule_id is null then 'unscheduled' else 'scheduled' end,
          p_payment.end_date + 1, private.period_end(p_payment.end_date + 1),
          left(p_schedule_id, 200))
  on conflict (id) do nothing;
  if p_schedule_id is null then
    perform public.enqueue_job('plan.schedule-renewal', jsonb_build_object('charge_id', v_id),
                               'plan.schedule-renewal:' || v_id);
  end if;
  return v_id;
end;
$$;
revoke execute on function private.next_card_charge(public.payments, text, uuid, text) from public;

-- A scheduled renewal the provider created (the schedule job's answer): true when the charge is
-- still the plan's next one to charge. Locks the owner, the plan row, then the charge
-- (private.lock_plan), as Stop and Change do, so it waits for one running: a charge they revoked
-- meanwhile (or one of a plan that stopped renewing, or whose account was deleted) keeps the
-- schedule id or is gone and answers false, and the job revokes that schedule at PortOne.
create function public.mark_charge_scheduled(p_charge_id uuid, p_schedule_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_charge private.payment_charges;
begin
  perform private.lock_plan(user_id, payment_id, id) from private.payment_charges
    where id = p_charge_id and kind = 'renewal';
  select * into v_charge from private.payment_charges where id = p_charge_id and kind = 'renewal';
  if not found then
    return false;
  end if;
  select * into v_payment from public.payments where id = v_charge.payment_id;
  if v_charge.status = 'unscheduled' and v_payment.is_active and v_payment.auto_renew then
    update private.payment_charges set status = 'scheduled', schedule_id = left(p_schedule_id, 200)
      where id = v_charge.id;
    return true;
  end if;
  if v_charge.status = 'scheduled' then
    return true;
  end if;
  update private.payment_charges
    set status = case when status = 'unscheduled' then 'revoked' else status end,
        schedule_id = coalesce(schedule_id, left(p_schedule_id, 200))
    where id = v_charge.id;
  return false;
end;
$$;
revoke execute on function public.mark_charge_scheduled(uuid, text) from public, anon, authenticated;

-- Revokes a card plan's renewal charges not charged yet (Stop, Change, a plan ending). One the
-- schedule job marked scheduled may have been scheduled after the caller revoked the billing key's
-- schedules at PortOne: plan.revoke-schedule revokes its schedule by id.
create function private.revoke_renewal_charges(p_payment_id uuid)
returns void language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  for v_id in
    with revoked as (
      update private.payment_charges set status = 'revoked'
        where payment_id = p_payment_id and kind = 'renewal' and status in ('unscheduled', 'scheduled')
        returning id, schedule_id
    )
    select id from revoked where schedule_id is not null
  loop
    perform public.enqueue_job('plan.revoke-schedule', jsonb_build_object('charge_id', v_id),
                               'plan.revoke-schedule:' || v_id);
  end loop;
end;
$$;
revoke execute on function private.revoke_renewal_charges(uuid) from public;

-- Queues the deletion of a card plan's PortOne billing key (`plan.delete-billing-key`, 100 attempts
-- with the queue's backoff) once the plan no longer renews, however that came: a Stop, a failed
-- renewal, the plan ended (end_plan, the daily expiry). The job deletes it once nothing is
-- scheduled on it (PortOne refuses while a schedule waits: a late one is revoked by
-- plan.revoke-schedule, then the job tries again), never while its plan renews or its checkout is
-- in flight, and takes a key deleted already as done. One job a key; nothing for PayPal.
create function private.delete_billing_key_later(p_payment_id uuid)
returns void language plpgsql set search_path = '' as $$
begin
  perform public.enqueue_job('plan.delete-billing-key', jsonb_build_object('billing_key', provider_ref),
                             'plan.delete-billing-key:' || provider_ref, null, null, null, 100)
    from private.payment_charges
    where payment_id = p_payment_id and kind = 'first' and method = 'iamport';
end;
$$;
revoke execute on function private.delete_billing_key_later(uuid) from public;

-- Paid next plans whose first day has come become their rows' plans (type, content, price), and
-- the limits follow. p_payment_id: that row only (a renewal just recorded), else every row due
-- (the daily expiry). Answers how many owners' plans started.
create function private.start_paid_plans(p_payment_id uuid default null)
returns integer language plpgsql set search_path = '' as $$
declare
  v_users uuid[];
  v_user uuid;
begin
  with started as (
    update public.payments
      set type = (private.content_plan(paid_next_content) ->> 'type')::public.payment_type,
          content = paid_next_content, price = paid_next_price,
          paid_next_content = null, paid_next_price = null, paid_next_from = null
      where paid_next_from <= current_date and is_active
        and (p_payment_id is null or id = p_payment_id)
      returning user_id
  )
  select array_agg(distinct user_id) into v_users from started;
  foreach v_user in array coalesce(v_users, '{}'::uuid[]) loop
    perform private.apply_plan_limits(v_user);
  end loop;
  return coalesce(cardinality(v_users), 0);
end;
$$;
revoke execute on function private.start_paid_plans(uuid) from public;

-- A card renewal the provider charged: the plan runs one more period, and the following period's
-- charge is written. A changed plan is charged 3 days before its period, so it is kept beside the
-- plan (paid_next_*) and starts on its period's first day (private.start_paid_plans: here when
-- that day has come, else the daily expiry); the same plan simply runs on. Idempotent per charge.
-- Locks the owner, the plan row, then the charge (private.lock_plan), as every plan function and
-- deleting the account take them, so none waits for another in a circle. A revoked charge (PortOne
-- ran a schedule revoked too late) is refused, PT409: its payment goes back (settleCardRenewal).
create function public.record_plan_renewal(p_charge_id uuid, p_provider_payment_id text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_charge private.payment_charges;
  v_payment public.payments;
  v_content jsonb;
  v_changed boolean;
begin
  -- a renewal charge's owner and plan row never change: read them unlocked, then lock
  perform private.lock_plan(user_id, payment_id, id) from private.payment_charges
    where id = p_charge_id and kind = 'renewal';
  select * into v_charge from private.payment_charges where id = p_charge_id and kind = 'renewal';
  select * into v_payment from public.payments where id = v_charge.payment_id;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  if v_charge.status = 'recorded' then
    return to_jsonb(v_payment);
  end if;
  if v_charge.status = 'revoked' then
    -- a Stop or Change revoked it before PortOne ran its schedule: it is given back, never recorded
    raise exception 'This renewal was revoked' using errcode = 'PT409';
  end if;
  update private.payment_charges
    set status = 'recorded', provider_payment_id = left(p_provider_payment_id, 200), error = null
    where id = v_charge.id;
  v_content := private.plan_content(v_charge.plan);
  v_changed := (v_payment.content, v_payment.price) is distinct from (v_content, v_charge.price);
  -- the money came in: the period is the owner's even if they stopped meanwhile
  update public.payments
    set end_date = greatest(end_date, v_charge.period_end),
        is_active = true,
        paid_next_content = case when v_changed then v_content end,
        paid_next_price = case when v_changed then v_charge.price end,
        paid_next_from = case when v_changed then v_charge.period_start end,
        next_content = null, next_price = null, renewal_failed_at = null
    where id = v_payment.id
    returning * into v_payment;
  if v_payment.auto_renew then
    perform private.next_card_charge(v_payment, v_charge.provider_ref);
  end if;
  perform private.start_paid_plans(v_payment.id);
  perform private.apply_plan_limits(v_payment.user_id);
  select * into v_payment from public.payments where id = v_payment.id;
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_renewal(uuid, text) from public, anon, authenticated;

-- A renewal payment that failed: the plan stops renewing and ends at its end date; the owner is
-- mailed at once, and a card plan's billing key is deleted (private.delete_billing_key_later).
-- Idempotent. A PayPal plan keeps renewing while PayPal retries the payment (its
-- subscription stays ACTIVE): its auto_renew follows the subscription's status (sync_paypal_plan),
-- so a Stop still cancels it at PayPal and a payment PayPal retries brings the plan on.
create function public.record_renewal_failed(p_payment_id uuid, p_charge_id uuid, p_error text)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  perform private.lock_plan(user_id, id, p_charge_id) from public.payments where id = p_payment_id;
  select * into v_payment from public.payments where id = p_payment_id;
  if not found or v_payment.renewal_failed_at is not null then
    return;
  end if;
  if p_charge_id is not null then
    update private.payment_charges set status = 'failed', error = left(p_error, 500)
      where id = p_charge_id and kind = 'renewal' and status in ('unscheduled', 'scheduled');
  end if;
  update public.payments
    set auto_renew = (method = 'paypal' and auto_renew), renewal_failed_at = now()
    where id = v_payment.id;
  -- a card plan no longer renews: its billing key is not needed (PayPal retries its own)
  perform private.delete_billing_key_later(v_payment.id);
  perform public.enqueue_job('plan.mail',
    jsonb_build_object('payment_id', v_payment.id, 'template', 'renewal_failed'),
    'plan.mail:renewal_failed:' || v_payment.id || ':' || v_payment.end_date);
end;
$$;
revoke execute on function public.record_renewal_failed(uuid, uuid, text) from public, anon, authenticated;

-- Ends a plan now (a renewal the provider never made): inactive, limits fall back, a card plan's
-- billing key deleted (private.delete_billing_key_later), a PayPal plan's subscription cancelled
-- (private.stop_paypal_later).
create function public.end_plan(p_payment_id uuid)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_user uuid;
begin
  perform private.lock_plan(user_id, id) from public.payments where id = p_payment_id;
  update public.payments set is_active = false, auto_renew = false
    where id = p_payment_id and is_active
    returning user_id into v_user;
  if v_user is not null then
    perform private.revoke_renewal_charges(p_payment_id);
    perform private.delete_billing_key_later(p_payment_id);
    perform private.stop_paypal_later(p_payment_id, now(), 'ended');
    perform private.apply_plan_limits(v_user);
  end if;
end;
$$;
revoke execute on function public.end_plan(uuid) from public, anon, authenticated;

-- The owner's plan with what the provider needs to stop or change it: {payment, billing_key,
-- renewal_charge}. Only the owner's active, renewing (for changes) plan of this method; a PayPal
-- one also once ended (its Stop cancels a subscription PayPal may still bill; a Change needs it
-- renewing, which an ended row never is).
create function public.plan_for_owner(p_user_id uuid, p_payment_id uuid, p_method public.payment_method)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_first private.payment_charges;
  v_renewal private.payment_charges;
begin
  select * into v_payment from public.payments
    where id = p_payment_id and user_id = p_user_id and (is_active or p_method = 'paypal')
      and type in ('basic', 'custom') and method = p_method;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  select * into v_first from private.payment_charges where payment_id = v_payment.id and kind = 'first';
  select * into v_renewal from private.payment_charges
    where payment_id = v_payment.id and kind = 'renewal' and status in ('unscheduled', 'scheduled')
    order by period_start desc limit 1;
  return jsonb_build_object(
    'payment', to_jsonb(v_payment),
    'billing_key', case when p_method = 'iamport' then v_first.provider_ref end,
    'subscription_id', case when p_method = 'paypal' then v_payment.provider_payment_id end,
    'renewal_charge', to_jsonb(v_renewal));
end;
$$;
revoke execute on function public.plan_for_owner(uuid, uuid, public.payment_method) from public, anon, authenticated;

-- The owner stopped the plan (the provider was told first): no more renewals, the plan runs to
-- its end date; a period paid already keeps its plan (paid_next_*, which starts on its day). A plan
-- whose end date has passed (its renewal never came) ends now, not at the next daily expiry. A card
-- plan's billing key: the Stop deletes it at PortOne at once (p_key_deleted); when PortOne refused
-- (a schedule made late, after the Stop's revoke, waits) or did not answer, it is deleted by
-- `plan.delete-billing-key` (private.delete_billing_key_later) once plan.revoke-schedule has
-- revoked that schedule. Idempotent.
create function public.record_plan_stop(p_user_id uuid, p_payment_id uuid,
  p_key_deleted boolean default false)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  perform private.lock_plan(p_user_id, p_payment_id);
  update public.payments
    set auto_renew = false, stopped_at = coalesce(stopped_at, now()), next_content = null, next_price = null,
        is_active = is_active and coalesce(end_date >= current_date, true)
    where id = p_payment_id and user_id = p_user_id
    returning * into v_payment;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  perform private.revoke_renewal_charges(p_payment_id);
  if not p_key_deleted then
    perform private.delete_billing_key_later(p_payment_id);
  end if;
  if not v_payment.is_active then
    perform private.apply_plan_limits(p_user_id);
  end if;
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_stop(uuid, uuid, boolean) from public, anon, authenticated;

-- The owner changed the plan of the next periods not paid yet (p_plan, priced p_price: from
-- end_date + 1, so after a period charged already, whose paid_next_* stay). For a card plan the
-- pending renewal charge is replaced (its schedule was revoked first) and a new one is scheduled
-- by the queue; for PayPal the change waits for the owner's approval on PayPal.
create function public.record_plan_change(p_user_id uuid, p_payment_id uuid, p_plan jsonb, p_price numeric)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_billing_key text;
  v_price numeric := private.plan_price(p_plan);
begin
  if v_price is null or v_price is distinct from p_price then
    raise exception 'The price has changed; check the plan and try again' using errcode = 'P0001';
  end if;
  perform private.lock_plan(p_user_id, p_payment_id);
  select * into v_payment from public.payments
    where id = p_payment_id and user_id = p_user_id and is_active;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  if not v_payment.auto_renew then
    raise exception 'This plan does not renew' using errcode = 'PT409';
  end if;
  update public.payments
    set next_content = private.plan_content(p_plan), next_price = v_price
    where id = v_payment.id
    returning * into v_payment;
  if v_payment.method = 'paypal' then
    insert into private.paypal_revisions (payment_id, price, content)
      values (v_payment.id, v_price, v_payment.next_content)
      on conflict (payment_id, price) do update set content = excluded.content, created_at = now();
  end if;
  if v_payment.method = 'iamport' then
    perform private.revoke_renewal_charges(v_payment.id);
    select provider_ref into v_billing_key from private.payment_charges
      where payment_id = v_payment.id and kind = 'first';
    perform private.next_card_charge(v_payment, v_billing_key);
  end if;
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_change(uuid, uuid, jsonb, numeric) from public, anon, authenticated;

-- Once a day: paid next plans whose first day has come start (private.start_paid_plans); plans
-- that do not renew and are past their end date become inactive (limits fall back, blocks
-- beyond the limit are deactivated, a card plan's billing key is deleted, a PayPal plan's
-- subscription cancelled); plans that renew and are past their end are checked with the provider
-- first (`plan.renewal-check`: a renewal may have been paid without
-- its webhook reaching us), and ended after a week without an answer; owners of plans that end
-- in PLAN_RULES.noticeDays (3) days without renewing are mailed. Answers what it did.
create function private.expire_plans()
returns jsonb language plpgsql set search_path = '' as $$
declare
  v_notices integer := 0;
  v_checks integer := 0;
  v_ended integer := 0;
  v_started integer;
  v_row record;
  v_users uuid[] := '{}';
  v_user uuid;
  v_owners uuid[] := '{}';
begin
  -- the owners whose plans start or end now are locked first, one after the other in one order,
  -- as every plan function takes them (private.lock_plan); a Stop past the end date ends its plan
  -- itself (record_plan_stop), and a plan that stops renewing otherwise meanwhile (PayPal
  -- cancelled it) ends tomorrow
  for v_user in
    select distinct user_id from public.payments
    where is_active and (paid_next_from <= current_date
                         or (end_date < current_date and (not auto_renew or end_date < current_date - 7)))
    order by user_id
  loop
    if private.lock_plan(v_user) then
      v_owners := v_owners || v_user;
    end if;
  end loop;
  v_started := private.start_paid_plans();

  for v_row in
    select id, end_date from public.payments
    where is_active and not auto_renew and renewal_failed_at is null
      and end_date = current_date + 3
  loop
    if public.enqueue_job('plan.mail', jsonb_build_object('payment_id', v_row.id, 'template', 'ending'),
                          'plan.mail:ending:' || v_row.id || ':' || v_row.end_date) is not null then
      v_notices := v_notices + 1;
    end if;
  end loop;

  for v_row in
    select id, end_date from public.payments
    where is_active and auto_renew and end_date < current_date and end_date >= current_date - 7
  loop
    if public.enqueue_job('plan.renewal-check', jsonb_build_object('payment_id', v_row.id),
                          'plan.renewal-check:' || v_row.id || ':' || v_row.end_date) is not null then
      v_checks := v_checks + 1;
    end if;
  end loop;

  -- an ended plan's renewal charges are revoked (a scheduled one's schedule too) and a card plan's
  -- billing key deleted, as end_plan does
  for v_row in
    update public.payments set is_active = false, auto_renew = false
    where is_active and end_date < current_date
      and (not auto_renew or end_date < current_date - 7) and user_id = any(v_owners)
    returning id, user_id
  loop
    perform private.revoke_renewal_charges(v_row.id);
    perform private.delete_billing_key_later(v_row.id);
    perform private.stop_paypal_later(v_row.id, now(), 'ended');
    v_users := v_users || v_row.user_id;
  end loop;
  select array_agg(distinct u) into v_users from unnest(v_users) u;
  foreach v_user in array coalesce(v_users, '{}'::uuid[]) loop
    perform private.apply_plan_limits(v_user);
    v_ended := v_ended + 1;
  end loop;

  return jsonb_build_object('started', v_started, 'notices', v_notices, 'checks', v_checks,
                            'owners_ended', v_ended);
end;
$$;
-- the cron job runs it as postgres; the service role runs public.expire_plans below (this one
-- writes tables and calls helpers the service role is not granted)
revoke execute on function private.expire_plans() from public;

-- The same for the service role (tests and operators run it through PostgREST).
create function public.expire_plans()
returns jsonb language sql security definer set search_path = '' as $$
  select private.expire_plans();
$$;
revoke execute on function public.expire_plans() from public, anon, authenticated;

-- What a plan mail needs: the plan row and its owner (address, name, language).
create function public.plan_mail_context(p_payment_ids uuid[])
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
    'payment', to_jsonb(p),
    'owner', jsonb_build_object('id', o.id, 'email', o.email, 'name', o.name, 'language', o.language))), '[]'::jsonb)
  from public.payments p
  join public.profiles o on o.id = p.user_id
  where p.id = any(p_payment_ids);
$$;
revoke execute on function public.plan_mail_context(uuid[]) from public, anon, authenticated;

-- =============================================================================================
-- schemas/plan-paypal.sql
-- =============================================================================================

-- PayPal plans after their checkout: what PayPal says of a subscription applied to its plan
-- (sync_paypal_plan: periods paid, failed cycles, revisions), and a subscription our side ended
-- cancelled and given back (stop_paypal_later), and the refunds of subscriptions cancelled
-- without a plan (public.paypal_refunds). Card renewals, stops, changes and the daily expiry are in
-- plan-renewals.sql.

-- PayPal subscriptions cancelled without a plan, whose payments the `plan.paypal-refund` job gives
-- back (supabase/functions/_shared/paypal-refund.ts; docs/plans.md, "PayPal's refund"): one row a
-- subscription, written with its job, kept after the job is purged, so the owner's Plan page can
-- say which payment could not be given back automatically (`failed`) and what to do. A deleted
-- account's rows still owed (queued, failed) stay with no owner (user_id null), for the job and the
-- operator, as does a refund its stop (plan.account-stop) could not make; the others go with it
-- (private.profiles_before_delete_stop_payments).
create table public.paypal_refunds (
  subscription_id text primary key check (char_length(subscription_id) between 1 and 200),
  user_id uuid references public.profiles (id) on delete set null,
  reason text not null check (char_length(reason) <= 500),
  -- queued -> refunded | none (nothing was taken, or it is a plan) | failed (PayPal refused the
  -- refund, or the job gave up): an operator who gives it back by hand sets `refunded`
  status text not null default 'queued' check (status in ('queued', 'refunded', 'none', 'failed')),
  error text check (char_length(error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.paypal_refunds is
  'PayPal subscriptions cancelled without a plan and the refund of their payments. Owner reads; only the service role writes.';
call private.clients_read('public.paypal_refunds', 'Users can read their own PayPal refunds',
  'user_id = (select auth.uid())');
create index paypal_refunds_user_id_idx on public.paypal_refunds (user_id, created_at desc);
create trigger paypal_refunds_set_updated_at before update on public.paypal_refunds
  for each row execute function private.set_updated_at();

-- Queues the refund of a subscription: its row and its job (first run in 2 minutes, after the
-- refund tried at once; up to 100 attempts with the queue's backoff) in one transaction; a second
-- call adds nothing.
create function public.queue_paypal_refund(p_subscription_id text, p_user_id uuid, p_reason text)
returns void language plpgsql security definer set search_path = '' as $$
begin
  insert into public.paypal_refunds (subscription_id, user_id, reason)
    values (p_subscription_id, p_user_id, left(p_reason, 500))
    on conflict (subscription_id) do nothing;
  perform public.enqueue_job('plan.paypal-refund',
    jsonb_build_object('subscription_id', p_subscription_id, 'reason', p_reason),
    'plan.paypal-refund:' || p_subscription_id, now() + interval '2 minutes', null, null, 100);
end;
$$;
revoke execute on function public.queue_paypal_refund(text, uuid, text) from public, anon, authenticated;

-- plan.paypal-orphan's decision to give back a subscription with no checkout and no plan, taken
-- under the owner's lock, which start_plan_checkout takes first (private.lock_plan): a checkout
-- the owner's check started meanwhile answers 'settling' (pending) or 'plan' (recorded, or a plan
-- row on the subscription) and nothing is queued; otherwise the refund is queued
-- (queue_paypal_refund, 'queued'), and from then on start_plan_checkout refuses a checkout of the
-- subscription: a check that comes while the job cancels it at PayPal records no plan that the
-- job then gives back. 'no account': the owner's profile is gone (its stop gives it back).
-- security definer: it locks the owner's profile and writes the refund row and its job, which the
-- service role's job does not own.
create function public.queue_orphan_refund(p_subscription_id text, p_user_id uuid, p_reason text)
returns text language plpgsql security definer set search_path = '' as $$
declare
  v_status text;
begin
  if not private.lock_plan(p_user_id) then
    return 'no account';
  end if;
  select status into v_status from private.payment_charges
    where kind = 'first' and method = 'paypal' and provider_ref = p_subscription_id;
  if v_status = 'pending' then
    return 'settling';
  end if;
  if v_status = 'recorded' or exists (select 1 from public.payments
                                        where method = 'paypal' and provider_payment_id = p_subscription_id) then
    return 'plan';
  end if;
  perform public.queue_paypal_refund(p_subscription_id, p_user_id, p_reason);
  return 'queued';
end;
$$;
revoke execute on function public.queue_orphan_refund(text, uuid, text) from public, anon, authenticated;

-- What the refund job found in the end. `failed` (PayPal refused the refund, or the job gives up)
-- also queues `plan.refund-alert`, the operator's mail, in the same transaction. p_reason: a refund
-- with no row of its own (a deleted account's, by its stop) gets one, with no owner.
create function public.finish_paypal_refund(p_subscription_id text, p_status text,
  p_error text default null, p_reason text default null)
returns void language plpgsql security definer set search_path = '' as $$
begin
  if p_reason is not null then
    insert into public.paypal_refunds (subscription_id, user_id, reason)
      values (p_subscription_id, null, left(p_reason, 500))
      on conflict (subscription_id) do nothing;
  end if;
  update public.paypal_refunds set status = p_status, error = left(p_error, 500)
    where subscription_id = p_subscription_id and status is distinct from p_status;
  if found and p_status = 'failed' then
    perform public.enqueue_job('plan.refund-alert',
      jsonb_build_object('subscription_id', p_subscription_id),
      'plan.refund-alert:' || p_subscription_id);
  end if;
end;
$$;
revoke execute on function public.finish_paypal_refund(text, text, text, text) from public, anon, authenticated;

-- Queues `plan.refund-alert`, the operator's mail of a payment a job could not give back, for what
-- has no paypal_refunds row of its own (a deleted account's card stop, a PayPal outstanding
-- balance): p_payload says what (the job's handler reads it); p_key: once per failure.
create function public.queue_refund_alert(p_payload jsonb, p_key text)
returns void language sql security definer set search_path = '' as $$
  select public.enqueue_job('plan.refund-alert', p_payload, 'plan.refund-alert:' || left(p_key, 300));
$$;
revoke execute on function public.queue_refund_alert(jsonb, text) from public, anon, authenticated;

-- Queues `plan.paypal-ended` for a PayPal plan our side ended (end_plan, the daily expiry) or a
-- payment PayPal took for a plan already ended (sync_paypal_plan): the subscription is cancelled at
-- PayPal if it still bills, and what PayPal took from p_since on is given back (it paid no period:
-- an ended row never comes back). One job per p_key (the end, or the payment's time), 100 attempts
-- with the queue's backoff; nothing for a card plan (delete_billing_key_later stops it). A payment's
-- job (p_billed: its amount) gives back that payment, found by amount and nearest time, as PayPal
-- may list it earlier than its last_payment.time (an e-check: when made, not when cleared).
create function private.stop_paypal_later(p_payment_id uuid, p_since timestamptz, p_key text,
                                          p_billed numeric default null)
returns void language plpgsql set search_path = '' as $$
begin
  perform public.enqueue_job('plan.paypal-ended',
    jsonb_build_object('subscription_id', provider_payment_id, 'payment_id', id, 'user_id', user_id,
                       'since', p_since)
      || case when p_billed is null then '{}'::jsonb else jsonb_build_object('billed', p_billed) end,
    'plan.paypal-ended:' || provider_payment_id || ':' || left(p_key, 100), null, null, null, 100)
    from public.payments
    where id = p_payment_id and method = 'paypal' and provider_payment_id is not null;
end;
$$;
revoke execute on function private.stop_paypal_later(uuid, timestamptz, text, numeric) from public;

-- The last PayPal payment applied to each PayPal plan (its time, as PayPal lists it): a payment
-- later than it is a new period's, one that is not (the cycle moved on unpaid: PayPal carries a
-- failed amount to the next cycle's outstanding balance while the subscription stays ACTIVE) never
-- moves the period. No client access.
create table private.paypal_payments (
  payment_id uuid primary key references public.payments (id) on delete cascade,
  paid_at timestamptz not null
);
comment on table private.paypal_payments is
  'When PayPal took the last payment applied to a PayPal plan (a later one pays a new period); no client access.';
alter table private.paypal_payments enable row level security;

-- What PayPal says about a subscription, applied to its plan. A payment later than the last one
-- applied (p_state.paid_at; without a record, after the row was written) pays a new period, to the
-- day before the next billing (a month when PayPal gives none: cancelled after that payment), the
-- owner's even if they stopped meanwhile (as a card renewal PortOne took before a Stop). The next
-- billing moving on without a payment adds nothing. ACTIVE at PayPal renews (auto_renew follows,
-- unless the owner stopped it), not active stops renewing; a failed renewal PayPal retries keeps
-- when it tries next (renewal_retry_at). What PayPal billed (p_state.billed, else the quantity)
-- decides the period's plan: the change asked (next_*) at that price, else the last change at it
-- (private.paypal_revisions), else the row's. A payment above the quantity but for the row's price
-- (auto_bill_outstanding: a cycle PayPal could not take billed with the next) pays the period at
-- the quantity; the rest paid no period and goes back (`plan.paypal-outstanding`), as does the
-- whole of a payment that moves no period (an outstanding balance collected on its own). A payment for a
-- row that ended (our side ended it: its subscription is being cancelled) revives nothing and goes
-- back (`plan.paypal-ended`). Idempotent.
create function public.sync_paypal_plan(p_subscription_id text, p_state jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_status text := p_state ->> 'status';
  v_next date := (p_state ->> 'next_billing_date')::date;
  v_quantity numeric := (p_state ->> 'quantity')::numeric;
  v_billed numeric := coalesce((p_state ->> 'billed')::numeric, v_quantity);
  v_outstanding numeric := 0;
  v_retry timestamptz := (p_state ->> 'retry_at')::timestamptz;
  v_paid timestamptz := (p_state ->> 'paid_at')::timestamptz;
  v_renews boolean;
  v_new boolean;
  v_end date;
  v_content jsonb;
  v_price numeric;
  v_take_next boolean := false;
  v_unpaid boolean;
begin
  select * into v_payment from public.payments
    where method = 'paypal' and provider_payment_id = p_subscription_id
    order by created_at desc limit 1;
  if not found or not private.lock_plan(v_payment.user_id, v_payment.id) then
    return null;
  end if;
  select * into v_payment from public.payments where id = v_payment.id;
  if not found then
    return null;
  end if;
  v_renews := v_status = 'ACTIVE' and v_payment.stopped_at is null;
  v_new := v_paid > coalesce((select paid_at from private.paypal_payments where payment_id = v_payment.id),
                             v_payment.created_at);
  v_end := case when v_status = 'ACTIVE' and v_next is not null then v_next - 1
                else private.period_end(v_payment.end_date + 1) end;
  -- more than a cycle of our quantity-priced plan (the quantity moves only with a revision PayPal
  -- approved; the row's own price is what it billed before one approved since): a cycle PayPal
  -- could not take, billed with this one (auto_bill_outstanding), never a change not approved;
  -- that part pays no period and goes back (never a legacy plan's)
  if v_payment.type in ('basic', 'custom') and v_billed > v_quantity
     and v_billed <> v_payment.price then
    v_outstanding := v_billed - v_quantity;
    v_billed := v_quantity;
  end if;
  -- a payment later than the last one applied that moves no period (PayPal's next billing where it
  -- was, the period to it paid already by an earlier payment): an outstanding balance PayPal
  -- collected on its own (its capture of a subscription's outstanding balance), which paid no
  -- period; it goes back whole (`plan.paypal-outstanding`). Not a first payment captured after the
  -- checkout (none applied before: the checkout gave its period)
  v_unpaid := v_new and v_payment.is_active and v_end <= v_payment.end_date
              and exists (select 1 from private.paypal_payments where payment_id = v_payment.id);
  if v_new and not v_payment.is_active then
    -- a payment for a plan that ended on our side (its cancel reached PayPal after PayPal billed,
    -- or an e-check cleared after the end): no period, the row stays ended (beside a newer plan it
    -- could not be active anyway), and the payment goes back (private.stop_paypal_later)
    perform private.stop_paypal_later(v_payment.id, v_paid, v_paid::text, v_billed + v_outstanding);
  elsif v_new and v_end > v_payment.end_date then
    -- a new period, of the plan PayPal billed (the row is locked above, so v_payment holds what
    -- the update sees)
    if v_outstanding > 0 then
      perform public.enqueue_job('plan.paypal-outstanding',
        jsonb_build_object('subscription_id', p_subscription_id, 'paid_at', v_paid,
                           'billed', v_billed + v_outstanding, 'amount', v_outstanding),
        'plan.paypal-outstanding:' || p_subscription_id || ':' || v_paid, null, null, null, 100);
    end if;
    if v_payment.next_content is not null and v_payment.next_price = v_billed then
      v_content := v_payment.next_content;
      v_price := v_billed;
      v_take_next := true;
    else
      select r.content, r.price into v_content, v_price from private.paypal_revisions r
        where r.payment_id = v_payment.id and r.price = v_billed;
      if not found then
        -- the row's price, or one no change of ours asked for: the row's plan, never taken from it
        v_content := v_payment.content;
        v_price := v_payment.price;
      end if;
    end if;
    update public.payments
      set end_date = v_end, is_active = true, auto_renew = v_renews, renewal_failed_at = null,
          type = case when v_content is distinct from content
                      then (private.content_plan(v_content) ->> 'type')::public.payment_type
                      else type end,
          content = v_content, price = v_price,
          next_content = case when v_take_next then null else next_content end,
          next_price = case when v_take_next then null else next_price end
      where id = v_payment.id
      returning * into v_payment;
  elsif v_renews and v_payment.is_active and not v_payment.auto_renew then
    -- PayPal still bills it (a failed renewal it retries, a plan back after one): it renews
    update public.payments set auto_renew = true where id = v_payment.id returning * into v_payment;
  elsif v_status in ('CANCELLED', 'SUSPENDED', 'EXPIRED') and v_payment.auto_renew then
    update public.payments set auto_renew = false where id = v_payment.id returning * into v_payment;
  end if;
  if v_unpaid then
    perform public.enqueue_job('plan.paypal-outstanding',
      jsonb_build_object('subscription_id', p_subscription_id, 'paid_at', v_paid,
                         'billed', v_billed + v_outstanding, 'amount', v_billed + v_outstanding),
      'plan.paypal-outstanding:' || p_subscription_id || ':' || v_paid, null, null, null, 100);
  end if;
  if v_paid is not null then
    insert into private.paypal_payments (payment_id, paid_at) values (v_payment.id, v_paid)
      on conflict (payment_id) do update set paid_at = greatest(private.paypal_payments.paid_at, excluded.paid_at);
  end if;
  if coalesce((p_state ->> 'payment_failed')::boolean, false) then
    perform public.record_renewal_failed(v_payment.id, null, 'PayPal could not take the payment');
  end if;
  -- a failed renewal PayPal retries: when it tries next (p_state.retry_at, for the Plan page)
  update public.payments
    set renewal_retry_at = case when renewal_failed_at is not null and auto_renew then v_retry end
    where id = v_payment.id
      and renewal_retry_at is distinct from
          (case when renewal_failed_at is not null and auto_renew then v_retry end);
  select * into v_payment from public.payments where id = v_payment.id;
  perform private.apply_plan_limits(v_payment.user_id);
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.sync_paypal_plan(text, jsonb) from public, anon, authenticated;

-- The plans of a PayPal subscription's revisions (a Change asks PayPal for quantity = price): PayPal
-- bills the quantity the owner approved last, which may be an earlier Change than the row's
-- next_content (approved, then changed again and not approved), so sync_paypal_plan finds the
-- plan of what PayPal billed here. One row a price (the last Change at that price).
create table private.paypal_revisions (
  payment_id uuid not null references public.payments (id) on delete cascade,
  price numeric(10, 2) not null check (price > 0),
  content jsonb not null check (jsonb_typeof(content) = 'object'),
  created_at timestamptz not null default now(),
  primary key (payment_id, price)
);
comment on table private.paypal_revisions is
  'The plan of each quantity (price) a PayPal plan was revised to, for the period PayPal bills it; no client access.';
alter table private.paypal_revisions enable row level security;

-- =============================================================================================
-- schemas/account-stops.sql
-- =============================================================================================

-- What deleting an account stops at the payment providers (docs/plans.md, "Deleting an
-- account"): the provider ids a deleted owner's billing keys and subscriptions leave behind, the
-- trigger on profiles that keeps them, and what the `plan.account-stop` job and the webhooks call.
-- The charges and plan rows it reads are plans.sql's; the job is in
-- supabase/functions/_shared/plan-jobs.ts.

-- What a deleted account still owes a stop at its providers (docs/plans.md, "Deleting an
-- account"): its charges and plan rows go with the profile, so the provider ids the
-- `plan.account-stop` job needs are kept here, one row a billing key or subscription. Card: the
-- key's schedules revoked, every charge id it may have paid (a checkout in flight, a renewal not
-- recorded) refunded if PortOne took it, the key deleted. PayPal: the subscription cancelled, and
-- what PayPal took for it given back (everything for a checkout that never became a plan; for a
-- plan, what it took after the deletion). No client access; no foreign key (the owner is gone).
create table private.account_stops (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  method public.payment_method not null,
  -- the PortOne billing key or the PayPal subscription id
  provider_ref text not null check (char_length(provider_ref) between 1 and 200),
  -- card: the payment ids PortOne may have charged for this account: our charge ids, and any
  -- other payment PortOne reports made with the billing key after the deletion (account_stop_again)
  charge_ids text[] not null default '{}',
  -- the ref paid for a recorded plan (its payments before deleted_at were the owner's)
  was_plan boolean not null default false,
  deleted_at timestamptz not null default now(),
  unique (method, provider_ref)
);
comment on table private.account_stops is
  'Provider ids of deleted accounts owed a stop (schedules, billing keys, subscriptions) and refunds of what was taken after; no client access.';
alter table private.account_stops enable row level security;
create index account_stops_charge_ids_idx on private.account_stops using gin (charge_ids);

-- Writes the stop of one billing key or subscription of a deleted account and queues its job (100
-- attempts with the queue's backoff, capped at an hour: about 90 hours of provider outage).
-- p_key names the job: a payment arriving later queues another run (account_stop_again).
create function private.queue_account_stop(p_user_id uuid, p_method public.payment_method,
  p_ref text, p_charge_ids text[], p_was_plan boolean, p_key text default 'deleted')
returns uuid language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  insert into private.account_stops (user_id, method, provider_ref, charge_ids, was_plan)
    values (p_user_id, p_method, p_ref, coalesce(p_charge_ids, '{}'), p_was_plan)
    on conflict (method, provider_ref) do update
      set charge_ids = coalesce((select array_agg(distinct c) from unnest(
                                   private.account_stops.charge_ids || excluded.charge_ids) c), '{}'),
          was_plan = private.account_stops.was_plan or excluded.was_plan
    returning id into v_id;
  perform public.enqueue_job('plan.account-stop', jsonb_build_object('stop_id', v_id),
                             'plan.account-stop:' || v_id || ':' || left(p_key, 200), null, null, null, 100);
  return v_id;
end;
$$;
revoke execute on function private.queue_account_stop(uuid, public.payment_method, text, text[], boolean, text) from public;

-- Deleting a profile (the account's deletion cascades here) writes the stops of every billing key
-- and subscription that may still charge: a checkout in flight, a plan still running (a legacy
-- PayPal one too, and a stopped one: its card key may be left after a late schedule, and a cancel or revoke of what
-- is gone already is a no-op), and every PayPal plan, ended or not (rev-money3 D1). A card plan's charge ids: its renewals not charged yet, and those a
-- Stop or Change revoked whose period has not ended (a schedule made late, or revoked by
-- plan.revoke-schedule only after the deletion, may still run). Runs before the cascade takes the
-- charges. PayPal refunds still owed stay (their owner set null), settled ones go.
create function private.profiles_before_delete_stop_payments()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_row record;
begin
  for v_row in
    select method, provider_ref, was_plan, ids from (
      select c.method, c.provider_ref, c.status = 'recorded' as was_plan, c.status, p.is_active,
             array_remove(array[case when c.status = 'pending' then c.id end,
                                 case when c.status = 'pending' then c.next_charge_id end]
                          || coalesce((select array_agg(r.id) from private.payment_charges r
                                       where r.payment_id = c.payment_id and r.kind = 'renewal'
                                         and (r.status in ('unscheduled', 'scheduled')
                                              or (r.status = 'revoked' and r.period_end >= current_date))),
                                      '{}'), null) as ids
      from private.payment_charges c
      left join public.payments p on p.id = c.payment_id
      where c.user_id = old.id and c.kind = 'first'
    ) k
    -- an ended plan too while a charge it revoked may still run
    -- (a PayPal plan however it ended: PayPal bills its subscription until it is cancelled, and a
    -- cancel of one cancelled already is a no-op)
    where k.status = 'pending'
       or (k.status = 'recorded' and (k.is_active or k.method = 'paypal' or cardinality(k.ids) > 0))
    union all
    -- a PayPal plan row without a checkout of ours (a legacy one) that PayPal may still bill,
    -- active or ended
    select p.method, p.provider_payment_id, true, '{}'::uuid[]
    from public.payments p
    where p.user_id = old.id and p.method = 'paypal' and p.provider_payment_id is not null
  loop
    perform private.queue_account_stop(old.id, v_row.method, v_row.provider_ref, v_row.ids::text[],
                                       v_row.was_plan);
  end loop;
  -- PayPal refunds settled go with the account; those still owed (queued, failed) stay, with no
  -- owner, for their job and the operator (public.paypal_refunds)
  delete from public.paypal_refunds where user_id = old.id and status in ('refunded', 'none');
  return old;
end;
$$;
create trigger profiles_before_delete_stop_payments before delete on public.profiles
  for each row execute function private.profiles_before_delete_stop_payments();

-- A stop for a subscription approved while its account was deleted (check-paypal-payment found
-- no profile): written only when the account is gone, so a live owner's subscription is never
-- stopped through it. Answers whether it was written.
create function public.stop_for_deleted_account(p_user_id uuid, p_method public.payment_method, p_ref text)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from public.profiles where id = p_user_id) then
    return false;
  end if;
  perform private.queue_account_stop(p_user_id, p_method, p_ref, '{}', false, 'checkout');
  return true;
end;
$$;
revoke execute on function public.stop_for_deleted_account(uuid, public.payment_method, text) from public, anon, authenticated;

-- A payment (a webhook, the reconcile job) for a charge id or a ref a deleted account owed a stop:
-- its job runs again (p_key: once per payment), which refunds it. A card payment found by its
-- billing key (PortOne's payment names it) whose id the stop does not hold yet (a schedule PortOne
-- ran after the deletion under an id the deleting transaction did not know) joins the stop's
-- payment ids, so the job refunds it too: never recorded, the account is gone. Answers the stop's
-- id, or null when it is no deleted account's.
create function public.account_stop_again(p_charge_id text, p_method public.payment_method,
  p_ref text, p_key text)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid;
begin
  select id into v_id from private.account_stops
    where (p_charge_id is not null and charge_ids @> array[p_charge_id])
       or (method = p_method and provider_ref = p_ref)
    order by (p_charge_id is not null and charge_ids @> array[p_charge_id]) desc
    limit 1;
  if v_id is not null then
    update private.account_stops set charge_ids = charge_ids || p_charge_id
      where id = v_id and method = 'iamport' and p_charge_id is not null
        and not charge_ids @> array[p_charge_id];
    perform public.enqueue_job('plan.account-stop', jsonb_build_object('stop_id', v_id),
                               'plan.account-stop:' || v_id || ':' || left(p_key, 200), null, null, null, 100);
  end if;
  return v_id;
end;
$$;
revoke execute on function public.account_stop_again(text, public.payment_method, text, text) from public, anon, authenticated;

-- A stop that gave up (its provider refused for good, or failed through the job's last attempt, or
-- a payment stayed pending 14 days): the operator is mailed by `plan.refund-alert`, the one mail
-- of a payment not given back. PayPal: the subscription's refund recorded `failed` with no owner
-- (finish_paypal_refund, which queues the alert); card: the alert queued for the stop (p_key: once
-- per failed job), with what PortOne answered.
create function public.account_stop_failed(p_id uuid, p_error text, p_reason text, p_key text)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_stop private.account_stops;
begin
  select * into v_stop from private.account_stops where id = p_id;
  if not found then
    return;
  end if;
  if v_stop.method = 'paypal' then
    perform public.finish_paypal_refund(v_stop.provider_ref, 'failed', p_error, p_reason);
  else
    perform public.queue_refund_alert(jsonb_build_object('stop_id', p_id, 'error', left(p_error, 500)),
                                      'stop:' || p_id || ':' || p_key);
  end if;
end;
$$;
revoke execute on function public.account_stop_failed(uuid, text, text, text) from public, anon, authenticated;

-- What the plan.account-stop job reads.
create function public.account_stop(p_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select to_jsonb(s) from private.account_stops s where s.id = p_id;
$$;
revoke execute on function public.account_stop(uuid) from public, anon, authenticated;

-- =============================================================================================
-- schemas/notion.sql
-- =============================================================================================

-- Notion integration: an owner connects a Notion workspace (OAuth; the token only in
-- private.integration_tokens), links a block to a data source (form, ab, button, comment, qna) or
-- a page (like), and every new response, comment or question of a linked block becomes a Notion
-- page through the jobs queue: a trigger enqueues a `notion` job in the visitor's transaction,
-- the jobs-worker's notion handler writes it. What went wrong is kept as integration notes the
-- owner reads in the workspace and on /profile/integration.

create table public.integrations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  provider text not null check (provider in ('notion', 'cafe24')),
  status public.integration_status not null default 'granted',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  workspace_name text check (char_length(workspace_name) <= 200),
  workspace_icon text check (char_length(workspace_icon) <= 500),
  status_reason text check (char_length(status_reason) <= 500),
  unique (user_id, provider)
);
comment on table public.integrations is
  'Connected outside services of a user (Notion, Cafe24) and whether access is granted; tokens are in private.integration_tokens.';
comment on column public.integrations.status_reason is
  'Why the status is not_granted (Notion refused the token: the owner removed the integration in Notion).';
call private.clients_read('public.integrations', 'Users can read their own integrations',
  'user_id = (select auth.uid())');

create table private.integration_tokens (
  integration_id uuid primary key references public.integrations (id) on delete cascade,
  access_token text not null,
  refresh_token text,
  token_data jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now()
);
comment on table private.integration_tokens is
  'OAuth tokens of integrations. Schema private: not exposed by PostgREST, no grants to anon or authenticated.';
alter table private.integration_tokens enable row level security;
grant select, insert, update, delete on private.integration_tokens to service_role;

-- What the owner's Notion connection listed to choose from: every data source and page
-- search-notion-objects answered, with the workspace it listed them in. A block is linked only to
-- one of them (save_block_private): a workspace tab still holding the list of a connection replaced
-- since (removed and another workspace connected, or connected again to another workspace) cannot
-- link a block to a database the current token cannot reach. The database cannot ask Notion what
-- a token reaches; what the connection listed is what it knows (docs/data-model.md, Notion).
-- Ids are matched as private.notion_id writes them (object_id); listed_id keeps the id as Notion
-- answered it, the spelling a block is linked with. The rows go with the integration; connecting
-- again (a new token, whose pages may be fewer) drops them all (save_notion_connection).
create table private.notion_listed (
  integration_id uuid not null references public.integrations (id) on delete cascade,
  object_id text not null check (char_length(object_id) <= 100),
  object text not null check (object in ('data_source', 'page')),
  workspace_id text not null check (char_length(workspace_id) <= 100),
  listed_at timestamptz not null default now(),
  listed_id text check (char_length(listed_id) <= 100),
  primary key (integration_id, object_id)
);
comment on table private.notion_listed is
  'The data sources and pages each Notion connection listed (search-notion-objects): what a block may be linked to.';
alter table private.notion_listed enable row level security;
revoke all on private.notion_listed from public, anon, authenticated;
grant select, insert, update, delete on private.notion_listed to service_role;

-- A Notion id as kept: Notion takes an id with or without its dashes, in either case.
create function private.notion_id(p_id text)
returns text language sql immutable set search_path = '' as $$
  select replace(lower(btrim(p_id)), '-', '');
$$;
revoke execute on function private.notion_id(text) from public;
grant execute on function private.notion_id(text) to service_role;

-- The id `p_object_id` as the owner's current connection listed it as a `p_object` (data_source |
-- page) in the workspace its token is for (Notion's spelling), or null when it did not list it.
-- A block is linked with this spelling, so the dashboard finds its link among the listed objects
-- and Notion gets the id it answered.
create function private.notion_listed_id(p_user_id uuid, p_object_id text, p_object text)
returns text language sql stable set search_path = '' as $$
  select coalesce(l.listed_id, btrim(p_object_id))
    from public.integrations i
      join private.integration_tokens t on t.integration_id = i.id
      join private.notion_listed l on l.integration_id = i.id
    where i.user_id = p_user_id and i.provider = 'notion'
      and l.object_id = private.notion_id(p_object_id) and l.object = p_object
      and l.workspace_id = coalesce(t.token_data ->> 'workspace_id', '');
$$;
revoke execute on function private.notion_listed_id(uuid, text, text) from public;
grant execute on function private.notion_listed_id(uuid, text, text) to service_role;

-- Keeps what a search listed ([{id, object}]) for the connection `p_integration_id`, when it is
-- still the owner's connection to workspace `p_workspace_id` (a search that ran while the
-- connection was replaced keeps nothing). Answers how many were kept.
create function public.keep_notion_listed(p_integration_id uuid, p_workspace_id text, p_objects jsonb)
returns integer language sql security definer set search_path = '' as $$
  with kept as (
    insert into private.notion_listed (integration_id, object_id, listed_id, object, workspace_id)
      select distinct on (private.notion_id(o ->> 'id'))
             p_integration_id, private.notion_id(o ->> 'id'), left(btrim(o ->> 'id'), 100),
             o ->> 'object', p_workspace_id
      from jsonb_array_elements(coalesce(p_objects, '[]'::jsonb)) o
      where o ->> 'object' in ('data_source', 'page') and coalesce(o ->> 'id', '') <> ''
        and exists (select 1 from private.integration_tokens t
                    where t.integration_id = p_integration_id
                      and t.token_data ->> 'workspace_id' = p_workspace_id)
    on conflict (integration_id, object_id) do update
      set object = excluded.object, listed_id = excluded.listed_id,
          workspace_id = excluded.workspace_id, listed_at = now()
    returning 1
  )
  select count(*)::integer from kept;
$$;
revoke execute on function public.keep_notion_listed(uuid, text, jsonb) from public, anon, authenticated;
grant execute on function public.keep_notion_listed(uuid, text, jsonb) to service_role;

-- OAuth states are spent once (Notion and Cafe24; functions/_shared/oauth-state.ts).
-- The nonce of every OAuth state a connection used, until the state would have expired anyway:
-- a state that leaked after use (browser history, a log) cannot carry another code in.
create table private.oauth_states (
  nonce text primary key check (char_length(nonce) between 8 and 64),
  expires_at timestamptz not null
);
comment on table private.oauth_states is 'Nonces of the OAuth states already used (purged once expired).';
alter table private.oauth_states enable row level security;

-- True the first time a state's nonce is spent, false after (and for an expired one).
create function public.spend_oauth_state(p_nonce text, p_expires_at timestamptz)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  delete from private.oauth_states where expires_at < now();
  if p_expires_at < now() then
    return false;
  end if;
  insert into private.oauth_states (nonce, expires_at) values (p_nonce, p_expires_at)
    on conflict (nonce) do nothing;
  return found;
end;
$$;

revoke all on function public.spend_oauth_state(text, timestamptz) from public, anon, authenticated;
grant execute on function public.spend_oauth_state(text, timestamptz) to service_role;

create table public.integration_notes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- null for a note about the connection itself (unauthorized)
  block_id uuid references public.blocks (id) on delete cascade,
  provider text not null default 'notion' check (provider in ('notion', 'cafe24')),
  -- column_type: a column cannot take the value mapped to it (the page was written without it)
  -- target_missing: the data source or page is gone or no longer shared (the block was unlinked)
  -- unauthorized: Notion refused the token (the integration is not granted any more)
  -- write_failed: a response could not be written after every retry
  -- write_uncertain: after every retry it is not known whether a response was written (Notion
  -- did not answer an attempt that may have written it: a lost answer, a 5xx)
  -- cafe24_unauthorized: the mall refused our tokens; cafe24_loader_failed: the loader could not be
  -- installed or removed after every retry; cafe24_taken_over: the mall refused our tokens and
  -- another account then connected it (detail.mall_id) (schemas/cafe24.sql)
  code text not null check (code in ('column_type', 'target_missing', 'unauthorized', 'write_failed',
                                     'write_uncertain', 'cafe24_unauthorized', 'cafe24_loader_failed',
                                     'cafe24_taken_over')),
  -- the column's name for column_type ('' otherwise)
  property text not null default '' check (char_length(property) <= 200),
  detail jsonb not null default '{}'::jsonb check (jsonb_typeof(detail) = 'object'),
  count integer not null default 1 check (count >= 1),
  first_at timestamptz not null default now(),
  last_at timestamptz not null default now(),
  unique nulls not distinct (user_id, block_id, code, property)
);
comment on table public.integration_notes is
  'What an integration could not do, for the owner to read (and dismiss): a column that cannot take a value, a target gone, access revoked, a write that failed. Written by the jobs worker and the integration functions only.';
alter table public.integration_notes enable row level security;
revoke select, insert, update, delete, references, trigger, maintain on public.integration_notes from anon;
revoke insert, update, references, trigger on public.integration_notes from authenticated;
create index integration_notes_user_id_idx on public.integration_notes (user_id);
create index integration_notes_block_id_idx on public.integration_notes (block_id);

create policy "Owners can read their integration notes" on public.integration_notes
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Owners can dismiss their integration notes" on public.integration_notes
  for delete to authenticated using (user_id = (select auth.uid()));

-- A block linked to another target starts with a clean slate: the old target's notes go.
create function private.block_private_notion_target_changed()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.notion_database is distinct from old.notion_database or new.notion_page is distinct from old.notion_page then
    delete from public.integration_notes
      where block_id = new.block_id
        and code in ('column_type', 'target_missing', 'write_failed', 'write_uncertain');
  end if;
  return null;
end;
$$;

-- The last page a like block's jobs wrote under its Notion page (kept by finish_jobs from a done
-- job's result {page_id, under}). A job's first attempt keeps it in its payload (`anchor`,
-- prepare_notion_jobs): Notion lists a page's children in the order they were added, so a retry
-- that looks for the page an uncertain attempt may have written lists them from that page on,
-- one call for the pages added since, instead of every child page from the first (100 calls for
-- 10,000 likes). One row per block, written once per page written.
create table private.notion_last_pages (
  block_id uuid primary key references public.blocks (id) on delete cascade,
  -- the Notion page it was written under (a block linked to another page starts again)
  parent_id text not null check (char_length(parent_id) <= 100),
  page_id text not null check (char_length(page_id) <= 100),
  written_at timestamptz not null default now()
);
comment on table private.notion_last_pages is
  'The last page each like block''s Notion jobs wrote under its page: where a retry''s lookup of a page that may have been written starts listing the children.';
alter table private.notion_last_pages enable row level security;
revoke all on private.notion_last_pages from public, anon, authenticated;

-- A done `notion` job that wrote (or found) a page under a page: it is the block's last page.
-- Called by finish_jobs (jobs.sql).
create function private.keep_notion_page(p_job private.jobs, p_result jsonb)
returns void language sql set search_path = '' as $$
  insert into private.notion_last_pages (block_id, parent_id, page_id)
    select b.id, p_result ->> 'under', p_result ->> 'page_id'
    from public.blocks b
    where b.id = (p_job.payload ->> 'block_id')::uuid
      and coalesce(p_result ->> 'under', '') <> '' and coalesce(p_result ->> 'page_id', '') <> ''
  on conflict (block_id) do update
    set parent_id = excluded.parent_id, page_id = excluded.page_id, written_at = now();
$$;
revoke execute on function private.keep_notion_page(private.jobs, jsonb) from public;

-- A new response (form, ab vote, like, button click) or message (comment, question, reply) of a
-- block linked to Notion, whose owner has connected Notion: one `notion` job. The owner's jobs
-- share a group, so they run one at a time (Notion allows an integration about three requests a
-- second) and a 429 delays them all. 40 attempts with the queue's backoff (capped at an hour)
-- ride out an outage of more than a day; a job parked while access is revoked does not count
-- attempts and runs when the owner connects again.
create function private.enqueue_notion_write()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_target text;
begin
  select b.owner_id, case when b.type = 'like' then bp.notion_page else bp.notion_database end
    into v_owner, v_target
    from public.blocks b join public.block_private bp on bp.block_id = b.id
    where b.id = new.block_id;
  if coalesce(v_target, '') = '' then
    return null;
  end if;
  if not exists (select 1 from public.integrations where user_id = v_owner and provider = 'notion') then
    return null;
  end if;
  perform public.enqueue_job('notion',
    jsonb_build_object('block_id', new.block_id,
                       case when tg_table_name = 'messages' then 'message_id' else 'response_id' end, new.id),
    'notion:' || tg_table_name || ':' || new.id, null, 'notion:' || v_owner, null, 40);
  return null;
end;
$$;

-- The owner's Notion connection with its token (null when not connected).
create function public.notion_connection(p_user_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object('id', i.id, 'status', i.status, 'workspace_name', i.workspace_name,
                            'workspace_id', t.token_data ->> 'workspace_id', 'access_token', t.access_token)
  from public.integrations i join private.integration_tokens t on t.integration_id = i.id
  where i.user_id = p_user_id and i.provider = 'notion';
$$;
revoke execute on function public.notion_connection(uuid) from public, anon, authenticated;

-- Stores a new token (connect or reconnect): granted again, the access note gone, the jobs
-- parked while access was revoked released, and what another workspace listed forgotten.
create function public.save_notion_connection(p_user_id uuid, p_access_token text, p_token_data jsonb,
                                              p_workspace_name text, p_workspace_icon text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_integration public.integrations;
begin
  if coalesce(p_access_token, '') = '' then
    raise exception 'access token required' using errcode = 'P0001';
  end if;
  insert into public.integrations (user_id, provider, status, workspace_name, workspace_icon, status_reason)
    values (p_user_id, 'notion', 'granted', left(p_workspace_name, 200), left(p_workspace_icon, 500), null)
    on conflict (user_id, provider) do update
      set status = 'granted', workspace_name = excluded.workspace_name,
          workspace_icon = excluded.workspace_icon, status_reason = null
    returning * into v_integration;
  insert into private.integration_tokens (integration_id, access_token, refresh_token, token_data, updated_at)
    values (v_integration.id, p_access_token, null, coalesce(p_token_data, '{}'::jsonb), now())
    on conflict (integration_id) do update
      set access_token = excluded.access_token, token_data = excluded.token_data, updated_at = now();
  -- a new token (another workspace, or the same one with other pages shared): what the previous
  -- one listed may not be reachable any more; the section lists again before choosing
  delete from private.notion_listed where integration_id = v_integration.id;
  delete from public.integration_notes where user_id = p_user_id and code = 'unauthorized';
  update private.jobs set run_at = now(), updated_at = now()
    where kind = 'notion' and group_key = 'notion:' || p_user_id and status = 'queued' and run_at > now();
  return jsonb_build_object('id', v_integration.id, 'status', v_integration.status,
                            'workspace_name', v_integration.workspace_name);
end;
$$;
revoke execute on function public.save_notion_connection(uuid, text, jsonb, text, text) from public, anon, authenticated;

-- Disconnects: answers the token (to revoke at Notion), unlinks every block of the owner, drops
-- the notes and settles the owner's queued notion jobs (nothing to write them to any more).
create function public.remove_notion_connection(p_user_id uuid)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_token text;
  v_unlinked integer;
  v_settled integer;
begin
  select t.access_token into v_token
    from public.integrations i join private.integration_tokens t on t.integration_id = i.id
    where i.user_id = p_user_id and i.provider = 'notion';
  delete from public.integrations where user_id = p_user_id and provider = 'notion';
  update public.block_private bp set notion_database = null, notion_page = null
    from public.blocks b
    where b.id = bp.block_id and b.owner_id = p_user_id
      and (bp.notion_database is not null or bp.notion_page is not null);
  get diagnostics v_unlinked = row_count;
  delete from public.integration_notes where user_id = p_user_id and provider = 'notion';
  update private.jobs
    set status = 'done', finished_at = now(), updated_at = now(), locked_until = null,
        result = jsonb_build_object('skipped', 'Notion was disconnected')
    where kind = 'notion' and group_key = 'notion:' || p_user_id and status = 'queued';
  get diagnostics v_settled = row_count;
  return jsonb_build_object('access_token', v_token, 'unlinked', v_unlinked, 'settled', v_settled);
end;
$$;
revoke execute on function public.remove_notion_connection(uuid) from public, anon, authenticated;

-- One more of an integration's problems for the owner to read (integration_notes): counted, with
-- the time and detail of the latest (the Notion worker's batch of notes: record_notion_notes).
create function private.note_integration(p_user_id uuid, p_block_id uuid, p_provider text,
  p_code text, p_detail jsonb)
returns void language sql set search_path = '' as $$
  insert into public.integration_notes (user_id, block_id, provider, code, property, detail)
    values (p_user_id, p_block_id, p_provider, p_code, '', p_detail)
    on conflict (user_id, block_id, code, property) do update
      set count = public.integration_notes.count + 1, last_at = now(), detail = excluded.detail;
$$;
revoke execute on function private.note_integration(uuid, uuid, text, text, jsonb) from public;

-- Notion refused the token (401): not granted, with a note for the owner.
create function public.mark_notion_not_granted(p_user_id uuid, p_reason text)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update public.integrations set status = 'not_granted', status_reason = left(p_reason, 500)
    where user_id = p_user_id and provider = 'notion' and status = 'granted';
  if found then
    perform private.note_integration(p_user_id, null, 'notion', 'unauthorized',
                                     jsonb_build_object('reason', left(p_reason, 500)));
  end if;
end;
$$;
revoke execute on function public.mark_notion_not_granted(uuid, text) from public, anon, authenticated;

-- The block's data source or page is gone (404): unlink it (when still the same target) and say so.
create function public.unlink_notion_target(p_block_id uuid, p_target_id text, p_reason text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_unlinked boolean := false;
begin
  select owner_id into v_owner from public.blocks where id = p_block_id;
  if not found then
    return false;
  end if;
  update public.block_private
    set notion_database = case when notion_database = p_target_id then null else notion_database end,
        notion_page = case when notion_page = p_target_id then null else notion_page end
    where block_id = p_block_id and (notion_database = p_target_id or notion_page = p_target_id);
  v_unlinked := found;
  if v_unlinked then
    perform private.note_integration(v_owner, p_block_id, 'notion', 'target_missing',
      jsonb_build_object('target_id', left(p_target_id, 100), 'reason', left(p_reason, 500)));
  end if;
  return v_unlinked;
end;
$$;
revoke execute on function public.unlink_notion_target(uuid, text, text) from public, anon, authenticated;

-- Records notes: [{user_id, block_id, code, property, detail}], counted when seen again.
create function public.record_notion_notes(p_notes jsonb)
returns void language sql security definer set search_path = '' as $$
  insert into public.integration_notes (user_id, block_id, code, property, detail)
  select (n ->> 'user_id')::uuid, (n ->> 'block_id')::uuid, n ->> 'code', left(coalesce(n ->> 'property', ''), 200),
         coalesce(n -> 'detail', '{}'::jsonb)
  from jsonb_array_elements(coalesce(p_notes, '[]'::jsonb)) n
  where exists (select 1 from public.blocks b where b.id = (n ->> 'block_id')::uuid and b.owner_id = (n ->> 'user_id')::uuid)
  on conflict (user_id, block_id, code, property) do update
    set count = public.integration_notes.count + excluded.count, last_at = now(), detail = excluded.detail;
$$;
revoke execute on function public.record_notion_notes(jsonb) from public, anon, authenticated;

-- Notion asked to wait (429 Retry-After): the owner's queued notion jobs wait that long too.
create function public.delay_notion_jobs(p_user_id uuid, p_until timestamptz)
returns integer language sql security definer set search_path = '' as $$
  with moved as (
    update private.jobs set run_at = p_until, updated_at = now()
      where kind = 'notion' and group_key = 'notion:' || p_user_id and status = 'queued' and run_at < p_until
      returning 1
  )
  select count(*)::integer from moved;
$$;
revoke execute on function public.delay_notion_jobs(uuid, timestamp with time zone) from public, anon, authenticated;

-- What the worker needs to write each claimed notion job: the owner's token, the target, the
-- title column's choice, the block and the item (a response with its answers in question order,
-- or a message), `anchor` (a like's: the block's last page under the target when the job first
-- ran, private.notion_last_pages, kept in the job's payload at its first attempt: a retry's
-- lookup lists the children from it) and `maybe_written` (the previous attempt got no answer to
-- a write that may have been carried out: its error starts 'uncertain:'). Answers per job {id,
-- context} or {id, skip} (nothing to write any more) or {id, defer_until} (access revoked:
-- parked until the owner connects again).
create function public.prepare_notion_jobs(p_job_ids bigint[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_block public.blocks;
  v_private public.block_private;
  v_integration public.integrations;
  v_token text;
  v_target text;
  v_item jsonb;
  v_out jsonb := '[]'::jsonb;
begin
  for v_job in select * from private.jobs where id = any(p_job_ids) and status = 'running' order by id loop
    select * into v_block from public.blocks where id = (v_job.payload ->> 'block_id')::uuid;
    if not found then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'the block was deleted');
      continue;
    end if;
    select * into v_private from public.block_private where block_id = v_block.id;
    v_target := case when v_block.type = 'like' then v_private.notion_page else v_private.notion_database end;
    if coalesce(v_target, '') = '' then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'the block is no longer linked to Notion');
      continue;
    end if;
    select * into v_integration from public.integrations where user_id = v_block.owner_id and provider = 'notion';
    if not found then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'Notion was disconnected');
      continue;
    end if;
    if v_integration.status = 'not_granted' then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'defer_until', now() + interval '1 day');
      continue;
    end if;
    select access_token into v_token from private.integration_tokens where integration_id = v_integration.id;
    -- a like's first attempt: the page its write will come after (one job per owner runs at a
    -- time, so every kept page was written before this job's). Kept once: a deferred first
    -- attempt (429, access revoked) runs again as the first, with the same anchor
    if v_block.type = 'like' and v_job.attempts = 1 and not v_job.payload ? 'anchor' then
      v_job.payload := v_job.payload || jsonb_build_object('anchor',
        (select to_jsonb(l.page_id) from private.notion_last_pages l
         where l.block_id = v_block.id and l.parent_id = v_target));
      update private.jobs set payload = v_job.payload where id = v_job.id;
    end if;

    if v_job.payload ? 'response_id' then
      select jsonb_build_object(
               'kind', 'response', 'id', r.id, 'response_kind', r.kind, 'creator_id', r.creator_id,
               'creator_name', r.creator_name, 'created_at', r.created_at, 'timezone', r.timezone,
               'answers', coalesce((
                 select jsonb_agg(jsonb_build_object(
                          'question_id', a.key,
                          'title', coalesce(case when not q.deleted then q.title end, a.value ->> 'title', ''),
                          'type', a.value ->> 'type', 'value', a.value -> 'value')
                        order by coalesce(q.index, (a.value ->> 'index')::integer), a.key)
                 from jsonb_each(r.answers) a
                   left join public.questions q on q.id::text = a.key and q.block_id = r.block_id), '[]'::jsonb))
        into v_item
        from public.responses r
        where r.id = (v_job.payload ->> 'response_id')::uuid and r.block_id = v_block.id;
    else
      select jsonb_build_object(
               'kind', 'message', 'id', m.id, 'content', m.content, 'creator_id', m.creator_id,
               'creator_name', m.creator_name, 'created_at', m.created_at, 'parent_id', m.parent_id,
               'is_owner', m.creator_id = v_block.owner_id,
               'parent_content', (select left(p.content, 200) from public.messages p where p.id = m.parent_id))
        into v_item
        from public.messages m
        where m.id = (v_job.payload ->> 'message_id')::uuid and m.block_id = v_block.id;
    end if;
    if v_item is null then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'the response or message was deleted');
      continue;
    end if;

    v_out := v_out || jsonb_build_object('id', v_job.id, 'context', jsonb_build_object(
      'user_id', v_block.owner_id,
      'access_token', v_token,
      'target', jsonb_build_object('kind', case when v_block.type = 'like' then 'page' else 'data_source' end,
                                   'id', v_target),
      'title_mode', coalesce(v_private.notion_database_title, 'response_id'),
      'block', jsonb_build_object('id', v_block.id, 'name', v_block.name, 'type', v_block.type,
                                  'language', v_block.language),
      'item', v_item,
      'anchor', v_job.payload -> 'anchor',
      'maybe_written', coalesce(v_job.last_error, '') like 'uncertain:%'));
    v_item := null;
  end loop;
  return v_out;
end;
$$;
revoke execute on function public.prepare_notion_jobs(bigint[]) from public, anon, authenticated;

create trigger integrations_set_updated_at before update on public.integrations
  for each row execute function private.set_updated_at();
create trigger block_private_notion_target_changed after update of notion_database, notion_page
  on public.block_private for each row execute function private.block_private_notion_target_changed();
create trigger responses_enqueue_notion after insert on public.responses
  for each row execute function private.enqueue_notion_write();
create trigger messages_enqueue_notion after insert on public.messages
  for each row execute function private.enqueue_notion_write();

-- =============================================================================================
-- schemas/cafe24.sql
-- =============================================================================================

-- Cafe24 shops (issue 18, docs/cafe24.md): an owner connects a Cafe24 mall with Cafe24's OAuth
-- (the tokens only in private.integration_tokens), places blocks on the mall's screens (product
-- pages, the main page), and our loader is installed in the mall as a script tag through Cafe24's
-- Admin API by the jobs queue; it comes off when the owner disconnects or the plan ends.
--   public.cafe24_shops        the connected mall and the state of our script tag in it
--   public.cafe24_placements   which block shows on which screen (per product or not)
--   jobs cafe24.sync           make the mall's script tags match what should be there
--   jobs cafe24.refresh        keep the refresh token alive (it lasts two weeks)
--   public.get_cafe24_embed    what the loader shows on the mall's pages (cacheable GET)
-- Integrations are a paid feature: connecting and placing need a paid plan, the loader shows
-- nothing for an owner without one, and the tag is removed when the plan ends.

-- ---------------------------------------------------------------------------------------------
-- tables
-- ---------------------------------------------------------------------------------------------

create table public.cafe24_shops (
  -- the loader's ?shop=: names the shop without naming the mall or the owner
  id uuid primary key default gen_random_uuid(),
  integration_id uuid not null unique references public.integrations (id) on delete cascade,
  user_id uuid not null unique references public.profiles (id) on delete cascade,
  -- one owner per mall: the loader shows one owner's blocks
  mall_id text not null unique check (mall_id ~ '^[a-z0-9]{4,16}$'),
  shop_no integer not null default 1 check (shop_no between 1 and 1000),
  scopes text[] not null default '{}',
  -- the owner disconnected: the tag comes off, then the row (and the tokens) go
  removing boolean not null default false,
  -- our script tag in the mall as last synced (null: none)
  script_no text check (char_length(script_no) <= 40),
  script_locations text[] not null default '{}',
  loader_synced_at timestamptz,
  sync_requested_at timestamptz,
  loader_error text check (char_length(loader_error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.cafe24_shops is
  'A connected Cafe24 mall (one per owner, one owner per mall) and the state of our loader''s script tag in it. Tokens are in private.integration_tokens. Written by the cafe24 functions and the jobs worker only.';

create trigger cafe24_shops_set_updated_at before update on public.cafe24_shops
  for each row execute function private.set_updated_at();

alter table public.cafe24_shops enable row level security;
create policy "Owners can read their Cafe24 shop" on public.cafe24_shops
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.cafe24_shops from anon, authenticated;
grant select on public.cafe24_shops to authenticated;

create table public.cafe24_placements (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  block_id uuid not null references public.blocks (id) on delete cascade,
  -- the mall's screen: product_detail (each product page) or main (the home page)
  location text not null check (location in ('product_detail', 'main')),
  -- comment, qna and like on product pages: a thread per product (page key cafe24:product:<no>)
  per_product boolean not null default false,
  -- where on the page (a CSS selector the block goes after); '' for the loader's default place
  selector text not null default '' check (char_length(selector) <= 200),
  position smallint not null default 0 check (position between 0 and 99),
  created_at timestamptz not null default now(),
  unique (block_id, location)
);
comment on table public.cafe24_placements is
  'Which of the owner''s blocks the Cafe24 loader shows on which screen of the mall. Written through save-cafe24-placements only.';
create index cafe24_placements_user_id_idx on public.cafe24_placements (user_id, location, position);

alter table public.cafe24_placements enable row level security;
create policy "Owners can read their Cafe24 placements" on public.cafe24_placements
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.cafe24_placements from anon, authenticated;
grant select on public.cafe24_placements to authenticated;

-- ---------------------------------------------------------------------------------------------
-- the sync job: asked for whenever what should be in the mall may have changed
-- ---------------------------------------------------------------------------------------------

-- One cafe24.sync job at a time per owner (the group), and at most one waiting: a change while
-- one runs queues the next, which reads the state as it is then.
create function private.request_cafe24_sync(p_user_id uuid)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update public.cafe24_shops set sync_requested_at = now() where user_id = p_user_id;
  if not found then
    return;
  end if;
  if not exists (select 1 from private.jobs
                 where group_key = 'cafe24:' || p_user_id and kind = 'cafe24.sync' and status = 'queued') then
    perform public.enqueue_job('cafe24.sync', jsonb_build_object('user_id', p_user_id), null, null,
                               'cafe24:' || p_user_id, null, 20);
  end if;
end;
$$;

-- The next keep-alive of the refresh token: a day after it was issued (13 days to spare), one
-- waiting job per owner.
create function private.schedule_cafe24_refresh(p_user_id uuid, p_run_at timestamptz)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update private.jobs set run_at = p_run_at, updated_at = now()
    where group_key = 'cafe24:' || p_user_id and kind = 'cafe24.refresh' and status = 'queued';
  if not found then
    perform public.enqueue_job('cafe24.refresh', jsonb_build_object('user_id', p_user_id), null, p_run_at,
                               'cafe24:' || p_user_id, null, 20);
  end if;
end;
$$;

-- the plan ended (or started again): the loader comes off (or goes back on)
create function private.profiles_paid_changed()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  perform private.request_cafe24_sync(new.id);
  return null;
end;
$$;

create trigger profiles_paid_changed after update of paid on public.profiles
  for each row when (old.paid is distinct from new.paid)
  execute function private.profiles_paid_changed();

-- a placement gone with its block: the tag may need fewer screens
create function private.cafe24_placements_deleted()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_user uuid;
begin
  for v_user in select distinct user_id from old_rows loop
    perform private.request_cafe24_sync(v_user);
  end loop;
  return null;
end;
$$;

create trigger cafe24_placements_deleted after delete on public.cafe24_placements
  referencing old table as old_rows for each statement
  execute function private.cafe24_placements_deleted();

revoke all on function private.request_cafe24_sync(uuid) from public;
revoke all on function private.schedule_cafe24_refresh(uuid, timestamptz) from public;

-- ---------------------------------------------------------------------------------------------
-- service-role functions (the cafe24 edge functions and the jobs worker)
-- ---------------------------------------------------------------------------------------------

-- Stores a new connection (or a reconnection of the same mall): granted, tokens kept, the
-- loader synced, the keep-alive scheduled. The caller has just completed Cafe24's sign-in for the
-- mall (set-cafe24 exchanged the mall's code), so they control it. A mall another owner holds:
--   - whose connection is not granted (the mall refused that owner's tokens: the app was deleted
--     there, or its refresh token ran out) is handed over: the other owner loses it (their shop
--     row and tokens go, their loader read serves nothing, a cafe24_taken_over note says why) and
--     the caller connects it;
--   - whose connection is granted is refused: answers {other_account: true} without raising, so
--     the sync it queues for the holder commits. That sync asks the mall with the holder's
--     tokens; if the app was deleted there it turns the holder not granted, and the caller's next
--     try takes the mall. A live connection is never taken.
create function public.save_cafe24_connection(p_user_id uuid, p_mall_id text, p_shop_no integer,
                                              p_scopes text[], p_access_token text, p_refresh_token text,
                                              p_token_data jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_integration public.integrations;
  v_shop public.cafe24_shops;
  v_holder public.cafe24_shops;
  v_holder_status public.integration_status;
begin
  if coalesce(p_access_token, '') = '' or coalesce(p_refresh_token, '') = '' then
    raise exception 'tokens required' using errcode = 'P0001';
  end if;
  -- the holder's row locked: a sync marking it not granted (or a reconnection) waits for this
  select s.* into v_holder from public.cafe24_shops s
    where s.mall_id = p_mall_id and s.user_id <> p_user_id for update;
  if found then
    select i.status into v_holder_status from public.integrations i
      where i.id = v_holder.integration_id for update;
    if v_holder_status is distinct from 'not_granted' or v_holder.removing then
      perform private.request_cafe24_sync(v_holder.user_id);
      return jsonb_build_object('other_account', true);
    end if;
    -- the mall refused the holder's tokens: the holder loses the mall (the shop and tokens go
    -- with the integration; their placements stay theirs for another shop)
    delete from public.integration_notes
      where user_id = v_holder.user_id and provider = 'cafe24';
    delete from public.integrations where id = v_holder.integration_id;
    perform private.skip_cafe24_jobs(v_holder.user_id, 'The Cafe24 shop was connected by another account');
    perform private.note_integration(v_holder.user_id, null, 'cafe24', 'cafe24_taken_over',
                                     jsonb_build_object('mall_id', p_mall_id));
  end if;
  -- another mall of the same owner: the old one is being replaced; its tag must come off first
  if exists (select 1 from public.cafe24_shops where user_id = p_user_id and mall_id <> p_mall_id) then
    raise exception 'Disconnect your other Cafe24 shop first' using errcode = 'P0409';
  end if;
  insert into public.integrations (user_id, provider, status, workspace_name, status_reason)
    values (p_user_id, 'cafe24', 'granted', p_mall_id, null)
    on conflict (user_id, provider) do update
      set status = 'granted', workspace_name = excluded.workspace_name, status_reason = null
    returning * into v_integration;
  insert into public.cafe24_shops (integration_id, user_id, mall_id, shop_no, scopes, removing)
    values (v_integration.id, p_user_id, p_mall_id, coalesce(p_shop_no, 1), coalesce(p_scopes, '{}'), false)
    on conflict (user_id) do update
      set scopes = excluded.scopes, shop_no = excluded.shop_no, removing = false, loader_error = null
    returning * into v_shop;
  insert into private.integration_tokens (integration_id, access_token, refresh_token, token_data, updated_at)
    values (v_integration.id, p_access_token, p_refresh_token, coalesce(p_token_data, '{}'::jsonb), now())
    on conflict (integration_id) do update
      set access_token = excluded.access_token, refresh_token = excluded.refresh_token,
          token_data = excluded.token_data, updated_at = now();
  delete from public.integration_notes
    where user_id = p_user_id and provider = 'cafe24' and code in ('cafe24_unauthorized', 'cafe24_taken_over');
  perform private.request_cafe24_sync(p_user_id);
  perform private.schedule_cafe24_refresh(p_user_id, now() + interval '1 day');
  return jsonb_build_object('id', v_integration.id, 'shop_id', v_shop.id, 'mall_id', v_shop.mall_id,
                            'status', v_integration.status);
end;
$$;

-- What the worker needs for a shop: the mall, the tokens, whether the loader should be there and
-- where (null when the owner has no shop any more).
create function public.cafe24_shop_context(p_user_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'shop_id', s.id, 'user_id', s.user_id, 'mall_id', s.mall_id, 'shop_no', s.shop_no,
    'removing', s.removing, 'script_no', s.script_no, 'status', i.status,
    'paid', coalesce(p.paid, false),
    'access_token', t.access_token, 'refresh_token', t.refresh_token,
    'expires_at', t.token_data ->> 'expires_at',
    'refresh_token_expires_at', t.token_data ->> 'refresh_token_expires_at',
    'locations', coalesce((
      select jsonb_agg(distinct pl.location order by pl.location)
      from public.cafe24_placements pl join public.blocks b on b.id = pl.block_id
      where pl.user_id = s.user_id), '[]'::jsonb))
  from public.cafe24_shops s
    join public.integrations i on i.id = s.integration_id
    left join private.integration_tokens t on t.integration_id = i.id
    left join public.profiles p on p.id = s.user_id
  where s.user_id = p_user_id;
$$;

-- New tokens from a refresh (the old refresh token is spent at Cafe24): kept at once, and the
-- next keep-alive scheduled.
create function public.save_cafe24_tokens(p_user_id uuid, p_access_token text, p_refresh_token text,
                                          p_token_data jsonb)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update private.integration_tokens t
    set access_token = p_access_token, refresh_token = p_refresh_token,
        token_data = coalesce(p_token_data, '{}'::jsonb), updated_at = now()
    from public.integrations i
    where i.id = t.integration_id and i.user_id = p_user_id and i.provider = 'cafe24';
  perform private.schedule_cafe24_refresh(p_user_id, now() + interval '1 day');
end;
$$;

-- A refresh is about to spend the refresh token: marked on the tokens (save_cafe24_tokens clears
-- it with the new pair). A refresh that finds the mark of one before it follows a refresh whose
-- answer never came (lost on the way, or its worker died): that one may have spent the refresh
-- token this one sends, so a refusal now may be our own doing, not the mall's
-- (`refresh_lost`, mark_cafe24_not_granted).
create function public.mark_cafe24_refreshing(p_user_id uuid)
returns void language sql security definer set search_path = '' as $$
  update private.integration_tokens t
    set token_data = t.token_data || case when t.token_data ? 'refreshing_since'
                                          then jsonb_build_object('refresh_lost', true)
                                          else jsonb_build_object('refreshing_since', now()) end,
        updated_at = now()
    from public.integrations i
    where i.id = t.integration_id and i.user_id = p_user_id and i.provider = 'cafe24';
$$;

-- The owner's queued Cafe24 jobs end unrun, saying why.
create function private.skip_cafe24_jobs(p_user_id uuid, p_reason text)
returns void language sql set search_path = '' as $$
  update private.jobs
    set status = 'done', finished_at = now(), updated_at = now(), locked_until = null,
        result = jsonb_build_object('skipped', p_reason)
    where group_key = 'cafe24:' || p_user_id and status = 'queued';
$$;
revoke execute on function private.skip_cafe24_jobs(uuid, text) from public;

-- A disconnect is finished: the connection goes with its notes (the shop and its tokens with
-- it), and what was queued for the mall is not run. Answers {removed: true}.
create function private.finish_cafe24_removal(p_shop public.cafe24_shops)
returns jsonb language plpgsql set search_path = '' as $$
begin
  delete from public.integration_notes where user_id = p_shop.user_id and provider = 'cafe24';
  delete from public.integrations where id = p_shop.integration_id;
  perform private.skip_cafe24_jobs(p_shop.user_id, 'Cafe24 was disconnected');
  return jsonb_build_object('removed', true);
end;
$$;
revoke execute on function private.finish_cafe24_removal(public.cafe24_shops) from public;

-- What the sync did: the tag now in the mall (null: none) on these screens, or why it failed.
-- A disconnect is finished once nothing of ours is left: the shop, tokens and notes go.
create function public.record_cafe24_sync(p_user_id uuid, p_script_no text, p_locations text[], p_error text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_shop public.cafe24_shops;
begin
  update public.cafe24_shops
    set script_no = case when p_error is null then p_script_no else script_no end,
        script_locations = case when p_error is null then coalesce(p_locations, '{}') else script_locations end,
        loader_synced_at = case when p_error is null then now() else loader_synced_at end,
        loader_error = left(p_error, 500)
    where user_id = p_user_id
    returning * into v_shop;
  if not found then
    return jsonb_build_object('gone', true);
  end if;
  if p_error is not null then
    perform private.note_integration(p_user_id, null, 'cafe24', 'cafe24_loader_failed',
                                     jsonb_build_object('reason', left(p_error, 500)));
  else
    delete from public.integration_notes
      where user_id = p_user_id and provider = 'cafe24' and code = 'cafe24_loader_failed';
  end if;
  if v_shop.removing and v_shop.script_no is null and p_error is null then
    return private.finish_cafe24_removal(v_shop);
  end if;
  return jsonb_build_object('removed', false);
end;
$$;

-- The mall refused our tokens (the operator deleted the app, or the refresh token ran out): not
-- granted, with a note. A shop being disconnected needs nothing more from the mall (deleting
-- the app removes its script tags), so it goes. A refusal after a refresh whose answer never came
-- (mark_cafe24_refreshing's `refresh_lost`: the retry's refresh token was the one it spent) may
-- be our own doing, not the mall's: the connection stays granted, so
-- its blocks are still served and no other account is handed the mall (save_cafe24_connection),
-- and the owner is asked to connect again (rev-fixes2 D4).

create function public.mark_cafe24_not_granted(p_user_id uuid, p_reason text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_shop public.cafe24_shops;
begin
  select * into v_shop from public.cafe24_shops where user_id = p_user_id;
  if not found then
    return jsonb_build_object('gone', true);
  end if;
  if v_shop.removing then
    return private.finish_cafe24_removal(v_shop);
  end if;
  if not exists (select 1 from private.integration_tokens t
                 where t.integration_id = v_shop.integration_id and t.token_data ? 'refresh_lost') then
    update public.integrations set status = 'not_granted', status_reason = left(p_reason, 500)
      where id = v_shop.integration_id;
  end if;
  perform private.note_integration(p_user_id, null, 'cafe24', 'cafe24_unauthorized',
                                   jsonb_build_object('reason', left(p_reason, 500)));
  -- nothing can reach the mall until the owner connects again (which syncs)
  perform private.skip_cafe24_jobs(p_user_id, 'Cafe24 refused our access');
  return jsonb_build_object('removed', false);
end;
$$;

-- The owner disconnects: the loader stops showing at once (get_cafe24_embed) and comes off the
-- mall through the queue, which then deletes the shop and its tokens. Answers whether there was
-- a shop.
create function public.remove_cafe24_connection(p_user_id uuid)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  update public.cafe24_shops set removing = true where user_id = p_user_id;
  if not found then
    -- a connection without a shop row (should not be): nothing to take off the mall
    delete from public.integrations where user_id = p_user_id and provider = 'cafe24';
    return false;
  end if;
  delete from public.cafe24_placements where user_id = p_user_id;
  perform private.request_cafe24_sync(p_user_id);
  return true;
end;
$$;

-- The owner's placements, replaced as a whole: [{block_id, location, per_product, selector,
-- position}] (checked by the function with the dashboard's zod schema first). Own reaction
-- blocks only; a thread per product only for comment, qna and like on product pages.
create function public.save_cafe24_placements(p_user_id uuid, p_placements jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_item jsonb;
  v_block public.blocks;
begin
  if not exists (select 1 from public.cafe24_shops where user_id = p_user_id and not removing) then
    raise exception 'Connect a Cafe24 shop first' using errcode = 'PT404';
  end if;
  if jsonb_typeof(p_placements) <> 'array' or jsonb_array_length(p_placements) > 20 then
    raise exception 'At most 20 placements' using errcode = 'P0001';
  end if;
  delete from public.cafe24_placements where user_id = p_user_id;
  for v_item in select * from jsonb_array_elements(p_placements) loop
    select * into v_block from public.blocks
      where id = (v_item ->> 'block_id')::uuid and owner_id = p_user_id;
    if not found then
      raise exception 'block doesn''t exists' using errcode = 'PT404';
    end if;
    if v_block.type not in ('comment', 'qna', 'like', 'button', 'ab', 'form') then
      raise exception 'Not supported block' using errcode = 'P0001';
    end if;
    insert into public.cafe24_placements (user_id, block_id, location, per_product, selector, position)
      values (p_user_id, v_block.id, v_item ->> 'location',
              coalesce((v_item ->> 'per_product')::boolean, false)
                and v_item ->> 'location' = 'product_detail' and v_block.type in ('comment', 'qna', 'like'),
              coalesce(v_item ->> 'selector', ''), coalesce((v_item ->> 'position')::smallint, 0))
      on conflict (block_id, location) do update
        set per_product = excluded.per_product, selector = excluded.selector, position = excluded.position;
  end loop;
  perform private.request_cafe24_sync(p_user_id);
  return coalesce((select jsonb_agg(to_jsonb(p) order by p.location, p.position, p.created_at)
                   from public.cafe24_placements p where p.user_id = p_user_id), '[]'::jsonb);
end;
$$;

revoke all on function public.save_cafe24_connection(uuid, text, integer, text[], text, text, jsonb) from public, anon, authenticated;
revoke all on function public.cafe24_shop_context(uuid) from public, anon, authenticated;
revoke all on function public.save_cafe24_tokens(uuid, text, text, jsonb) from public, anon, authenticated;
revoke all on function public.mark_cafe24_refreshing(uuid) from public, anon, authenticated;
revoke all on function public.record_cafe24_sync(uuid, text, text[], text) from public, anon, authenticated;
revoke all on function public.mark_cafe24_not_granted(uuid, text) from public, anon, authenticated;
revoke all on function public.remove_cafe24_connection(uuid) from public, anon, authenticated;
revoke all on function public.save_cafe24_placements(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.save_cafe24_connection(uuid, text, integer, text[], text, text, jsonb) to service_role;
grant execute on function public.cafe24_shop_context(uuid) to service_role;
grant execute on function public.save_cafe24_tokens(uuid, text, text, jsonb) to service_role;
grant execute on function public.mark_cafe24_refreshing(uuid) to service_role;
grant execute on function public.record_cafe24_sync(uuid, text, text[], text) to service_role;
grant execute on function public.mark_cafe24_not_granted(uuid, text) to service_role;
grant execute on function public.remove_cafe24_connection(uuid) to service_role;
grant execute on function public.save_cafe24_placements(uuid, jsonb) to service_role;

-- ---------------------------------------------------------------------------------------------
-- the loader's read (anon, cacheable)
-- ---------------------------------------------------------------------------------------------

-- What the loader in the mall shows: the owner and, per screen, the blocks in order. Empty when
-- the shop is being disconnected, the owner has no paid plan (so a tag that could not be
-- removed yet shows nothing), or the mall refused the owner's tokens (not granted: we can no
-- longer change or remove the tag, and whoever runs the mall now may hand it to another owner;
-- connecting again serves them again). Reads no auth.uid(): the same answer for every visitor, so a CDN
-- may keep it a minute.
-- security definer: anon cannot read shops, placements or blocks (owners only); only what the
-- loader needs comes out.
create function public.get_cafe24_embed(p_shop uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_result jsonb;
begin
  select jsonb_build_object(
    'owner_id', s.user_id,
    'placements', coalesce((
      select jsonb_agg(jsonb_build_object('block_id', b.id, 'type', b.type, 'location', pl.location,
                                          'per_product', pl.per_product, 'selector', pl.selector)
                       order by pl.location, pl.position, pl.created_at)
      from public.cafe24_placements pl join public.blocks b on b.id = pl.block_id
      where pl.user_id = s.user_id and not b.deactivated), '[]'::jsonb))
    into v_result
    from public.cafe24_shops s join public.profiles p on p.id = s.user_id
      join public.integrations i on i.id = s.integration_id
    where s.id = p_shop and not s.removing and p.paid and i.status = 'granted';
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=60, stale-while-revalidate=300"}]', true);
  return coalesce(v_result, jsonb_build_object('owner_id', null, 'placements', '[]'::jsonb));
end;
$$;

comment on function public.get_cafe24_embed(uuid) is
  'The Cafe24 loader''s read (cacheable GET, Cache-Control public max-age=60): {owner_id, placements: [{block_id, type, location, per_product, selector}]} of a connected (granted) shop whose owner has a paid plan; no placements otherwise.';
revoke all on function public.get_cafe24_embed(uuid) from public;
grant execute on function public.get_cafe24_embed(uuid) to anon, authenticated, service_role;

-- =============================================================================================
-- schemas/webhooks.sql
-- =============================================================================================

-- Outgoing webhooks (issue 18, "beyond the spec"; docs/webhooks.md): an owner adds an endpoint for
-- one block or for all their blocks and gets each new response, comment (or question, reply) and
-- unsubscribe as a signed POST (Standard Webhooks: webhook-id, webhook-timestamp,
-- webhook-signature). The event is written in the transaction that causes it (a delivery row and
-- a `webhook` job per endpoint), delivered by the jobs worker through the SSRF guard, retried on a
-- schedule, and kept as a delivery log the owner reads. Paid, like the integrations: endpoints are
-- saved with a paid plan, and nothing is sent for an owner without one.
--   public.webhook_endpoints     the owner's endpoints (the secret is not here)
--   private.webhook_secrets      the signing secrets (shown once by the functions that make them)
--   public.webhook_deliveries    every event sent or to send, with its last answer

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- null: every block of the owner
  block_id uuid references public.blocks (id) on delete cascade,
  url text not null check (char_length(url) <= 500 and url ~ '^https://'),
  events text[] not null check (cardinality(events) >= 1 and cardinality(events) <= 3
    and events <@ array['response.created', 'message.created', 'unsubscribe.created']),
  description text not null default '' check (char_length(description) <= 100),
  enabled boolean not null default true,
  -- the secret's first characters, so the owner can tell which secret they hold
  secret_hint text not null default '' check (char_length(secret_hint) <= 20),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.webhook_endpoints is
  'An owner''s webhook endpoints (one block, or every block when block_id is null). Written through save-webhook-endpoint; the owner may delete. The signing secret is in private.webhook_secrets.';
create index webhook_endpoints_user_id_idx on public.webhook_endpoints (user_id) where enabled;
create index webhook_endpoints_block_id_idx on public.webhook_endpoints (block_id);

create trigger webhook_endpoints_set_updated_at before update on public.webhook_endpoints
  for each row execute function private.set_updated_at();

alter table public.webhook_endpoints enable row level security;
create policy "Owners can read their webhook endpoints" on public.webhook_endpoints
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Owners can delete their webhook endpoints" on public.webhook_endpoints
  for delete to authenticated using (user_id = (select auth.uid()));
revoke all on public.webhook_endpoints from anon, authenticated;
grant select, delete on public.webhook_endpoints to authenticated;

create table private.webhook_secrets (
  endpoint_id uuid primary key references public.webhook_endpoints (id) on delete cascade,
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]{20,}={0,2}$'),
  -- after a rotation the old secret signs too for a day, so a receiver can switch over
  previous_secret text,
  previous_until timestamptz
);
comment on table private.webhook_secrets is
  'Signing secrets of webhook endpoints (Standard Webhooks whsec_...). Schema private: no client role can read them.';
alter table private.webhook_secrets enable row level security;

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  event_type text not null check (event_type in ('response.created', 'message.created',
                                                 'unsubscribe.created', 'webhook.test')),
  -- the body as sent: {type, timestamp, data}
  payload jsonb not null check (jsonb_typeof(payload) = 'object'),
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  response_status integer,
  last_error text check (char_length(last_error) <= 500),
  created_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  delivered_at timestamptz
);
comment on table public.webhook_deliveries is
  'Each event for a webhook endpoint: its body, and the last attempt''s answer (the delivery log). Its id is the webhook-id the receiver deduplicates by. Written by the triggers and the jobs worker.';
create index webhook_deliveries_endpoint_id_idx on public.webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_user_id_idx on public.webhook_deliveries (user_id);

alter table public.webhook_deliveries enable row level security;
create policy "Owners can read their webhook deliveries" on public.webhook_deliveries
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;

-- ---------------------------------------------------------------------------------------------
-- events: a delivery and a job per endpoint, in the transaction of the write
-- ---------------------------------------------------------------------------------------------

-- One delivery (and one `webhook` job) for each enabled endpoint of the owner that wants this
-- event for this block. An owner without endpoints costs one index probe.
create function private.enqueue_webhooks(p_owner uuid, p_block_id uuid, p_type text, p_data jsonb)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_endpoint public.webhook_endpoints;
  v_delivery uuid;
begin
  for v_endpoint in
    select * from public.webhook_endpoints e
    where e.user_id = p_owner and e.enabled and p_type = any(e.events)
      and (e.block_id is null or e.block_id = p_block_id)
  loop
    insert into public.webhook_deliveries (endpoint_id, user_id, event_type, payload)
      values (v_endpoint.id, p_owner, p_type,
              jsonb_build_object('type', p_type,
                                 'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                 'data', p_data))
      returning id into v_delivery;
    perform public.enqueue_job('webhook', jsonb_build_object('delivery_id', v_delivery),
                               'webhook:' || v_delivery, null, null, null, 8);
  end loop;
end;
$$;

create function private.block_webhook_json(p_block public.blocks)
returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object('id', p_block.id, 'name', p_block.name, 'type', p_block.type);
$$;

-- A response (once counted: on insert, or when the owner approves a held one) or a message of a
-- block whose owner has an enabled endpoint: response.created or message.created, with the block.
create function private.enqueue_created_webhooks()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_event text;
  v_row jsonb;
begin
  select * into v_block from public.blocks where id = new.block_id;
  if not exists (select 1 from public.webhook_endpoints where user_id = v_block.owner_id and enabled) then
    return null;
  end if;
  if tg_table_name = 'responses' then
    v_event := 'response';
    v_row := jsonb_build_object(
      'id', new.id, 'kind', new.kind, 'creator_id', new.creator_id, 'creator_name', new.creator_name,
      'page_key', new.page_key, 'created_at', new.created_at,
      'answers', coalesce((
        select jsonb_agg(jsonb_build_object('question_id', a.key, 'title', a.value ->> 'title',
                                            'type', a.value ->> 'type', 'value', a.value -> 'value')
                         order by (a.value ->> 'index')::integer, a.key)
        from jsonb_each(new.answers) a), '[]'::jsonb));
  else
    v_event := 'message';
    v_row := jsonb_build_object(
      'id', new.id, 'parent_id', new.parent_id, 'content', new.content, 'creator_id', new.creator_id,
      'creator_name', new.creator_name, 'status', new.status, 'page_key', new.page_key,
      'is_owner', new.creator_id = v_block.owner_id, 'created_at', new.created_at);
  end if;
  perform private.enqueue_webhooks(v_block.owner_id, v_block.id, v_event || '.created',
    jsonb_build_object('block', private.block_webhook_json(v_block), v_event, v_row));
  return null;
end;
$$;

create function private.unsubscribes_enqueue_webhooks()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
begin
  if not exists (select 1 from public.webhook_endpoints where user_id = new.user_id and enabled) then
    return null;
  end if;
  select * into v_block from public.blocks where id = new.block_id;
  perform private.enqueue_webhooks(new.user_id, new.block_id, 'unsubscribe.created', jsonb_build_object(
    'block', case when v_block.id is null then null else private.block_webhook_json(v_block) end,
    'unsubscribe', jsonb_build_object('email', new.email, 'created_at', new.created_at)));
  return null;
end;
$$;

-- a response held by escalation (issue 17) goes out when the owner approves it
create trigger responses_enqueue_webhooks after insert on public.responses
  for each row when (not new.held) execute function private.enqueue_created_webhooks();
create trigger responses_approved_enqueue_webhooks after update of held on public.responses
  for each row when (old.held and not new.held) execute function private.enqueue_created_webhooks();
create trigger messages_enqueue_webhooks after insert on public.messages
  for each row execute function private.enqueue_created_webhooks();
create trigger unsubscribes_enqueue_webhooks after insert on public.unsubscribes
  for each row execute function private.unsubscribes_enqueue_webhooks();

revoke all on function private.enqueue_webhooks(uuid, uuid, text, jsonb) from public;
revoke all on function private.block_webhook_json(public.blocks) from public;

-- ---------------------------------------------------------------------------------------------
-- service-role functions (the webhook functions and the jobs worker)
-- ---------------------------------------------------------------------------------------------

-- Creates or changes an endpoint of the owner (checked by the function with the dashboard's zod
-- schema first). A new endpoint gets p_secret; a change keeps its secret. At most 10 per owner.
-- Errors: block doesn't exists (PT404), Webhook endpoint doesn't exists (PT404), Too many
-- webhook endpoints (P0001).
create function public.save_webhook_endpoint(p_user_id uuid, p_endpoint jsonb, p_secret text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid := (p_endpoint ->> 'id')::uuid;
  v_block uuid := (p_endpoint ->> 'block_id')::uuid;
  v_row public.webhook_endpoints;
begin
  if v_block is not null and not exists (
    select 1 from public.blocks where id = v_block and owner_id = p_user_id) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_id is null then
    perform 1 from public.profiles where id = p_user_id for update;
    if (select count(*) from public.webhook_endpoints where user_id = p_user_id) >= 10 then
      raise exception 'Too many webhook endpoints' using errcode = 'P0001';
    end if;
    insert into public.webhook_endpoints (user_id, block_id, url, events, description, enabled, secret_hint)
      values (p_user_id, v_block, p_endpoint ->> 'url',
              array(select jsonb_array_elements_text(p_endpoint -> 'events')),
              coalesce(p_endpoint ->> 'description', ''), coalesce((p_endpoint ->> 'enabled')::boolean, true),
              left(p_secret, 12))
      returning * into v_row;
    insert into private.webhook_secrets (endpoint_id, secret) values (v_row.id, p_secret);
  else
    update public.webhook_endpoints
      set block_id = v_block, url = p_endpoint ->> 'url',
          events = array(select jsonb_array_elements_text(p_endpoint -> 'events')),
          description = coalesce(p_endpoint ->> 'description', ''),
          enabled = coalesce((p_endpoint ->> 'enabled')::boolean, true)
      where id = v_id and user_id = p_user_id
      returning * into v_row;
    if not found then
      raise exception 'Webhook endpoint doesn''t exists' using errcode = 'PT404';
    end if;
  end if;
  return to_jsonb(v_row);
end;
$$;

-- A new secret for an endpoint of the owner; the old one keeps signing beside it for a day.
create function public.rotate_webhook_secret(p_user_id uuid, p_endpoint_id uuid, p_secret text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_row public.webhook_endpoints;
begin
  update public.webhook_endpoints set secret_hint = left(p_secret, 12)
    where id = p_endpoint_id and user_id = p_user_id
    returning * into v_row;
  if not found then
    raise exception 'Webhook endpoint doesn''t exists' using errcode = 'PT404';
  end if;
  update private.webhook_secrets
    set previous_secret = secret, previous_until = now() + interval '1 day', secret = p_secret
    where endpoint_id = p_endpoint_id;
  return to_jsonb(v_row);
end;
$$;

-- A test event for an endpoint of the owner: a delivery the function sends at once.
create function public.create_test_webhook(p_user_id uuid, p_endpoint_id uuid)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_endpoint public.webhook_endpoints;
  v_delivery uuid;
begin
  select * into v_endpoint from public.webhook_endpoints where id = p_endpoint_id and user_id = p_user_id;
  if not found then
    raise exception 'Webhook endpoint doesn''t exists' using errcode = 'PT404';
  end if;
  insert into public.webhook_deliveries (endpoint_id, user_id, event_type, payload)
    values (p_endpoint_id, p_user_id, 'webhook.test',
            jsonb_build_object('type', 'webhook.test',
                               'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'data', jsonb_build_object('endpoint_id', p_endpoint_id,
                                                          'message', 'A test event from Reaction Blocks')))
    returning id into v_delivery;
  return v_delivery;
end;
$$;

-- What a delivery needs: its body, the endpoint's URL and secrets, and whether it should still go
-- (endpoint enabled, owner paid). Answers [{delivery_id, event_type, payload, attempts, url,
-- secrets, skip}] for the given deliveries.
create function public.webhook_delivery_context(p_delivery_ids uuid[])
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
    'delivery_id', d.id, 'event_type', d.event_type, 'payload', d.payload, 'attempts', d.attempts,
    'url', e.url,
    'secrets', array_remove(array[s.secret,
                                  case when s.previous_until > now() then s.previous_secret end], null),
    'skip', case when e.id is null then 'the endpoint was deleted'
                 when not e.enabled and d.event_type <> 'webhook.test' then 'the endpoint is turned off'
                 when not coalesce(p.paid, false) then 'no paid plan'
                 when d.status = 'delivered' then 'already delivered' end)), '[]'::jsonb)
  from public.webhook_deliveries d
    left join public.webhook_endpoints e on e.id = d.endpoint_id
    left join private.webhook_secrets s on s.endpoint_id = e.id
    left join public.profiles p on p.id = d.user_id
  where d.id = any(p_delivery_ids);
$$;

-- The outcome of attempts: [{delivery_id, ok, status, error, final}] (final: no retry follows).
create function public.record_webhook_attempts(p_results jsonb)
returns void language sql security definer set search_path = '' as $$
  update public.webhook_deliveries d
    set attempts = d.attempts + 1, last_attempt_at = now(),
        response_status = (r ->> 'status')::integer,
        last_error = left(r ->> 'error', 500),
        status = case when (r ->> 'ok')::boolean then 'delivered'
                      when (r ->> 'final')::boolean then 'failed' else 'pending' end,
        delivered_at = case when (r ->> 'ok')::boolean then now() else d.delivered_at end
  from jsonb_array_elements(coalesce(p_results, '[]'::jsonb)) r
  where d.id = (r ->> 'delivery_id')::uuid;
$$;

revoke all on function public.save_webhook_endpoint(uuid, jsonb, text) from public, anon, authenticated;
revoke all on function public.rotate_webhook_secret(uuid, uuid, text) from public, anon, authenticated;
revoke all on function public.create_test_webhook(uuid, uuid) from public, anon, authenticated;
revoke all on function public.webhook_delivery_context(uuid[]) from public, anon, authenticated;
revoke all on function public.record_webhook_attempts(jsonb) from public, anon, authenticated;
grant execute on function public.save_webhook_endpoint(uuid, jsonb, text) to service_role;
grant execute on function public.rotate_webhook_secret(uuid, uuid, text) to service_role;
grant execute on function public.create_test_webhook(uuid, uuid) to service_role;
grant execute on function public.webhook_delivery_context(uuid[]) to service_role;
grant execute on function public.record_webhook_attempts(jsonb) to service_role;

-- =============================================================================================
-- schemas/save-block.sql
-- =============================================================================================

-- The workspace's save path: one call saves a block's settings, its private settings and, for
-- form and ab blocks, the complete question and ending lists, all in one transaction.
--
-- public.save_block is executable by the service role only. The save-block edge function calls
-- it after validating the body with the same zod schema the dashboard uses (ZSaveBlock in
-- supabase/functions/_shared/schemas.ts), passing the verified caller as p_owner_id. Client roles
-- cannot call it, so nothing reaches the tables by this route without that validation.
--
-- It runs as the caller (the service role, which bypasses RLS), so every rule RLS would have
-- given is checked here explicitly: the block belongs to p_owner_id, every id in the lists is
-- this block's or new, a question's letter trigger is one of the owner's letter blocks, a
-- condition names a question of this block. Triggers that only guard client roles (option
-- counts, the default-ending flag) do not fire for the service role, so the statements below
-- never write response_count or is_default from the payload. The question-count trigger does
-- fire: 'Too many questions (at most N)'.
--
-- Paid-only features (spec: workspace section 6) are refused for owners without a paid plan
-- with 'Paid plan required (<field>)' when the save would turn them on or change them; values
-- that stay as stored (say, from an earlier paid period) and switching a feature back off are
-- allowed. See docs/data-model.md, "Saving a block".

-- The block as the workspace reads it: the row, its private settings, the not-deleted questions
-- with their not-deleted options, the endings with their conditions (the shape of
-- get_block_view, plus the owner-only fields).
create function private.block_editor_json(p_block_id uuid)
returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'block', (select to_jsonb(b) from public.blocks b where b.id = p_block_id),
    'private', (select to_jsonb(p) from public.block_private p where p.block_id = p_block_id),
    'questions', coalesce((
      select jsonb_agg(
               to_jsonb(q) || jsonb_build_object('options', coalesce((
                 select jsonb_agg(to_jsonb(o) order by o.index, o.created_at)
                 from public.options o where o.question_id = q.id and not o.deleted), '[]'::jsonb))
               order by q.index, q.created_at)
      from public.questions q where q.block_id = p_block_id and not q.deleted), '[]'::jsonb),
    'endings', coalesce((
      select jsonb_agg(
               to_jsonb(e) || jsonb_build_object('conditions', coalesce((
                 select jsonb_agg(to_jsonb(c) order by c.index, c.created_at)
                 from public.ending_conditions c where c.ending_id = e.id), '[]'::jsonb))
               order by e.index, e.created_at)
      from public.endings e where e.block_id = p_block_id), '[]'::jsonb));
$$;
revoke execute on function private.block_editor_json(uuid) from public;
grant execute on function private.block_editor_json(uuid) to service_role;

-- A settings object of the save: an object of the given keys only.
create function private.check_setting_keys(p_settings jsonb, p_allowed text[])
returns void language plpgsql set search_path = '' as $$
declare
  v_key text;
begin
  if jsonb_typeof(p_settings) is distinct from 'object' then
    raise exception 'Invalid settings' using errcode = 'P0001';
  end if;
  select k into v_key from jsonb_object_keys(p_settings) k where k <> all (p_allowed) limit 1;
  if v_key is not null then
    raise exception 'Not a block setting (%)', v_key using errcode = 'P0001';
  end if;
end;
$$;
revoke execute on function private.check_setting_keys(jsonb, text[]) from public;
grant execute on function private.check_setting_keys(jsonb, text[]) to service_role;

-- A setting the save gives is one of p_values, or the save fails with p_message.
create function private.check_setting_value(p_settings jsonb, p_key text, p_values text[],
  p_message text)
returns void language plpgsql set search_path = '' as $$
begin
  if p_settings ? p_key and not (p_settings ->> p_key = any (p_values)) then
    raise exception '%', p_message using errcode = 'P0001';
  end if;
end;
$$;
revoke execute on function private.check_setting_value(jsonb, text, text[], text) from public;
grant execute on function private.check_setting_value(jsonb, text, text[], text) to service_role;

-- Writes the settings p_columns of p_table's row whose p_key is p_id, from p_new (the row as the
-- save made it): those columns only, so what other writes changed meanwhile (counters) stays.
create function private.update_settings(p_table regclass, p_key text, p_id uuid, p_new jsonb, p_columns text[])
returns void language plpgsql set search_path = '' as $$
begin
  execute format('update %1$s set (%2$s) = (select %3$s from jsonb_populate_record(null::%1$s, $1) n) where %4$I = $2',
                 p_table, (select string_agg(format('%I', c), ', ') from unnest(p_columns) c),
                 (select string_agg(format('n.%I', c), ', ') from unnest(p_columns) c), p_key)
    using p_new, p_id;
end;
$$;
revoke execute on function private.update_settings(regclass, text, uuid, jsonb, text[]) from public;
grant execute on function private.update_settings(regclass, text, uuid, jsonb, text[]) to service_role;

-- The ids of the p_key lists of a list's items (a question's options, an ending's conditions),
-- checked as payload_ids checks a list's own.
create function private.payload_child_ids(p_items jsonb, p_key text, p_what text)
returns uuid[] language sql immutable set search_path = '' as $$
  select private.payload_ids(coalesce((
    select jsonb_agg(c) from jsonb_array_elements(p_items) i,
      jsonb_array_elements(coalesce(i -> p_key, '[]'::jsonb)) c), '[]'::jsonb), p_what);
$$;
revoke execute on function private.payload_child_ids(jsonb, text, text) from public;
grant execute on function private.payload_child_ids(jsonb, text, text) to service_role;

-- Ids of a save's list that name rows of p_table are this block's (the others are new), or the
-- save fails with p_message.
create function private.check_block_ids(p_table regclass, p_ids uuid[], p_block_id uuid, p_message text)
returns void language plpgsql stable set search_path = '' as $$
declare
  v_other boolean;
begin
  execute format('select exists (select 1 from %s t where t.id = any ($1) and t.block_id <> $2)', p_table)
    into v_other using p_ids, p_block_id;
  if v_other then
    raise exception '%', p_message using errcode = 'P0001';
  end if;
end;
$$;
revoke execute on function private.check_block_ids(regclass, uuid[], uuid, text) from public;
grant execute on function private.check_block_ids(regclass, uuid[], uuid, text) to service_role;

create or replace function private.save_block_settings(p_block public.blocks, p_settings jsonb,
  p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  -- the settings an owner may change: never counters, owner, type, deactivated or the preview's
  -- mode / ending_mode
  v_allowed constant text[] := array[
    'name', 'theme', 'custom_color', 'custom_label_color', 'custom_label_name', 'embeded_url',
    'welcome_message', 'placeholder', 'submit_button_text', 'language', 'block_anonymous',
    'allow_reaction', 'allow_reply', 'admin_only_reply', 'show_count', 'show_profile', 'owner_name',
    'owner_photo_url', 'qna_subject', 'align', 'button_text', 'url_to_open', 'open_graph',
    'allow_creator_email', 'hold_messages', 'honeypot', 'captcha'];
  v_old public.blocks := p_block;
  v_new public.blocks;
begin
  perform private.check_setting_keys(p_settings, v_allowed);
  perform private.check_setting_value(p_settings, 'theme',
    enum_range(null::public.block_theme)::text[], 'Invalid theme');
  perform private.check_setting_value(p_settings, 'align',
    enum_range(null::public.block_align)::text[], 'Invalid align');
  perform private.check_setting_value(p_settings, 'language',
    enum_range(null::public.language_code)::text[], 'Language must be en or ko');
  perform private.check_setting_value(p_settings, 'hold_messages',
    array['off', 'all', 'first_time', 'links'], 'Invalid hold_messages');

  -- keys present replace the stored value, absent keys keep it
  v_new := jsonb_populate_record(v_old, p_settings);

  if not p_paid then
    -- style customizing
    perform private.require_paid('theme', v_new.theme = 'custom' and v_old.theme <> 'custom');
    perform private.require_paid('custom_color',
      v_new.custom_color is distinct from v_old.custom_color and v_new.custom_color is not null);
    perform private.require_paid('custom_label_color',
      v_new.custom_label_color is distinct from v_old.custom_label_color
      and v_new.custom_label_color is not null);
    -- open graph customizing (an empty override is no override)
    perform private.require_paid('open_graph',
      v_new.open_graph is distinct from v_old.open_graph
      and coalesce(v_new.open_graph ->> 'title', '') || coalesce(v_new.open_graph ->> 'description', '')
          || coalesce(v_new.open_graph ->> 'image_url', '') <> '');
    -- the creator email option
    perform private.require_paid('allow_creator_email',
      v_new.allow_creator_email and not v_old.allow_creator_email);
    -- comment toggles: blocking anonymous visitors, likes and replies off, the count
    perform private.require_paid('block_anonymous',
      v_old.type = 'comment' and v_new.block_anonymous and not v_old.block_anonymous);
    perform private.require_paid('allow_reaction',
      v_old.type = 'comment' and not v_new.allow_reaction and v_old.allow_reaction);
    perform private.require_paid('allow_reply',
      v_old.type = 'comment' and not v_new.allow_reply and v_old.allow_reply);
    perform private.require_paid('show_count',
      v_old.type in ('comment', 'qna') and v_new.show_count and not v_old.show_count);
    -- like button position
    perform private.require_paid('align',
      v_old.type = 'like' and v_new.align <> 'center' and v_new.align is distinct from v_old.align);
    -- visitor trust: holding messages for approval, the honeypot, the captcha
    perform private.require_paid('hold_messages',
      v_new.hold_messages <> 'off' and v_new.hold_messages is distinct from v_old.hold_messages);
    perform private.require_paid('honeypot', v_new.honeypot and not v_old.honeypot);
    perform private.require_paid('captcha', v_new.captcha and not v_old.captcha);
  end if;

  perform private.update_settings('public.blocks', 'id', v_old.id, to_jsonb(v_new), v_allowed);
end;
$$;
revoke execute on function private.save_block_settings(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_settings(public.blocks, jsonb, boolean) to service_role;

create function private.save_block_private(p_block public.blocks, p_private jsonb, p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  v_allowed constant text[] := array['mail_to', 'notion_database', 'notion_page', 'notion_database_title'];
  v_old public.block_private;
  v_new public.block_private;
  v_connected boolean := true;
  v_unlisted boolean := false;
begin
  perform private.check_setting_keys(p_private, v_allowed);

  -- A link goes to the owner's connected Notion: a workspace open in another tab may still offer
  -- a database of a connection removed meanwhile (remove_notion_connection unlinks every block).
  -- The connection's row is locked for share before the block's row, in the order the removal
  -- takes them: a removal under way waits for this save and then unlinks it too, and a save
  -- after the removal finds no connection.
  if coalesce(p_private ->> 'notion_database', '') <> ''
     or coalesce(p_private ->> 'notion_page', '') <> '' then
    perform 1 from public.integrations
      where user_id = p_block.owner_id and provider = 'notion' for share;
    v_connected := found;
  end if;

  -- the row is created with the block; a missing one (older data) is created here
  insert into public.block_private (block_id, owner_id) values (p_block.id, p_block.owner_id)
    on conflict (block_id) do nothing;
  select * into v_old from public.block_private where block_id = p_block.id for update;
  v_new := jsonb_populate_record(v_old, p_private);
  v_new.mail_to := nullif(btrim(v_new.mail_to), '');

  -- checked when it changes: an address saved under the older rule (private.is_valid_email, before
  -- 2026-11-29) does not stop the block's other settings from saving
  if v_new.mail_to is distinct from v_old.mail_to and v_new.mail_to is not null
     and not private.is_valid_email(v_new.mail_to) then
    raise exception 'Invalid email address.' using errcode = 'P0001';
  end if;
  -- a new address that is not the owner's own is asked first (notifications.sql): its digests
  -- are skipped until it confirms
  if v_new.mail_to is distinct from v_old.mail_to then
    perform private.ask_notification_consent(p_block, v_new.mail_to);
  end if;

  -- Notion integration
  if not p_paid then
    perform private.require_paid('notion_database',
      nullif(v_new.notion_database, '') is distinct from nullif(v_old.notion_database, '')
      and coalesce(v_new.notion_database, '') <> '');
    perform private.require_paid('notion_page',
      nullif(v_new.notion_page, '') is distinct from nullif(v_old.notion_page, '')
      and coalesce(v_new.notion_page, '') <> '');
    perform private.require_paid('notion_database_title',
      v_new.notion_database_title is distinct from v_old.notion_database_title
      and v_new.notion_database_title <> 'response_id');
  end if;
  if not v_connected then
    raise exception 'Notion is not connected: connect it again, then choose' using errcode = 'P0001';
  end if;
  -- a new target is one the current connection listed (notion.sql, private.notion_listed): a tab
  -- still holding the list of a connection replaced since (connected again) is refused, and
  -- reads the list again. The link is kept as Notion spelled the id (private.notion_listed_id).
  if nullif(v_new.notion_database, '') is distinct from nullif(v_old.notion_database, '')
     and coalesce(v_new.notion_database, '') <> '' then
    v_new.notion_database := private.notion_listed_id(p_block.owner_id, v_new.notion_database, 'data_source');
    v_unlisted := v_new.notion_database is null;
  end if;
  if nullif(v_new.notion_page, '') is distinct from nullif(v_old.notion_page, '')
     and coalesce(v_new.notion_page, '') <> '' then
    v_new.notion_page := private.notion_listed_id(p_block.owner_id, v_new.notion_page, 'page');
    v_unlisted := v_unlisted or v_new.notion_page is null;
  end if;
  if v_unlisted then
    raise exception 'This Notion database or page is not in the connected workspace: choose again'
      using errcode = 'P0001';
  end if;

  perform private.update_settings('public.block_private', 'block_id', p_block.id, to_jsonb(v_new), v_allowed);
end;
$$;
revoke execute on function private.save_block_private(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_private(public.blocks, jsonb, boolean) to service_role;

create function private.save_block_questions(p_block public.blocks, p_questions jsonb, p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  v_ids uuid[] := private.payload_ids(p_questions, 'question');
  v_option_ids uuid[];
  v_item jsonb;
  v_option jsonb;
  v_old public.questions;
  v_row public.questions;
  v_old_option public.options;
  v_option_row public.options;
  v_live_options bigint;
  v_letter_types constant public.block_type[] := array['notion_letter', 'typedream_letter', 'brunch_letter'];
begin
  -- the block's type after the list is read (declare): a bad list answers with its own fault
  if p_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_block_ids('public.questions', v_ids, p_block.id, 'Not valid question');
  -- option ids: unique across the payload, and each one new or already this question's
  v_option_ids := private.payload_child_ids(p_questions, 'options', 'option');
  if exists (
    select 1 from jsonb_array_elements(p_questions) q,
      jsonb_array_elements(coalesce(q -> 'options', '[]'::jsonb)) o
      join public.options s on s.id = (o ->> 'id')::uuid
    where s.question_id <> (q ->> 'id')::uuid) then
    raise exception 'Invalid option' using errcode = 'P0001';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_questions) q
    where not (q ->> 'type' = any (enum_range(null::public.question_type)::text[]))) then
    raise exception 'Not valid type' using errcode = 'P0001';
  end if;

  -- Soft deletes first, so the question-count trigger sees the room they free. A question
  -- missing from the list is deleted as well (soft: responses keep naming it).
  update public.questions q set deleted = true
    where q.block_id = p_block.id and not q.deleted
      and (not (q.id = any (v_ids)) or exists (
        select 1 from jsonb_array_elements(p_questions) e
        where (e ->> 'id')::uuid = q.id and coalesce((e ->> 'deleted')::boolean, false)));

  for v_item in
    select e from jsonb_array_elements(p_questions) e
    order by coalesce((e ->> 'deleted')::boolean, false) desc, (e ->> 'index')::integer
  loop
    v_old := null;
    select * into v_old from public.questions where id = (v_item ->> 'id')::uuid;
    v_row := jsonb_populate_record(null::public.questions, v_item);
    v_row.block_id := p_block.id;
    -- a soft delete is final
    v_row.deleted := coalesce(v_row.deleted, false) or coalesce(v_old.deleted, false);

    if v_old.id is null and v_row.deleted then
      -- created and deleted before it was ever saved: nothing to keep
      continue;
    end if;

    if not v_row.deleted then
      -- capture of respondent email or name
      perform private.require_paid('as_visitor_info',
        not p_paid and v_row.as_visitor_info is not null
        and v_row.as_visitor_info is distinct from v_old.as_visitor_info);
      -- a letter the form sends by itself: paid, from a mail question (letter-triggers.sql)
      if v_row.trigger_letter_block is not null
         and v_row.trigger_letter_block is distinct from v_old.trigger_letter_block then
        perform private.require_paid('trigger_letter_block', not p_paid);
        if v_row.type <> 'mail' then
          raise exception 'Not valid letter block' using errcode = 'P0001';
        end if;
      end if;
      if v_row.trigger_letter_block is not null
         and v_row.trigger_letter_block is distinct from v_old.trigger_letter_block
         and not exists (
           select 1 from public.blocks l
           where l.id = v_row.trigger_letter_block and l.owner_id = p_block.owner_id
             and l.type = any (v_letter_types)) then
        raise exception 'Not valid letter block' using errcode = 'P0001';
      end if;
    end if;

    if v_old.id is null then
      insert into public.questions (id, block_id, type, title, required, index, placeholder,
                                    allow_multi_select, as_visitor_info, trigger_letter_block,
                                    content, image_src, deleted)
        values (v_row.id, p_block.id, v_row.type, v_row.title, v_row.required, v_row.index,
                v_row.placeholder, v_row.allow_multi_select, v_row.as_visitor_info,
                v_row.trigger_letter_block, v_row.content, v_row.image_src, false);
    else
      update public.questions set
        type = v_row.type, title = v_row.title, required = v_row.required, index = v_row.index,
        placeholder = v_row.placeholder, allow_multi_select = v_row.allow_multi_select,
        as_visitor_info = v_row.as_visitor_info, trigger_letter_block = v_row.trigger_letter_block,
        content = v_row.content, image_src = v_row.image_src, deleted = v_row.deleted
      where id = v_row.id;
    end if;

    if v_row.type not in ('poll', 'ab') then
      -- spec: options of questions that are not poll or ab are removed on save
      delete from public.options where question_id = v_row.id;
      continue;
    end if;

    -- options: the complete list of this question; missing ones are soft deleted
    update public.options o set deleted = true
      where o.question_id = v_row.id and not o.deleted
        and not exists (
          select 1 from jsonb_array_elements(coalesce(v_item -> 'options', '[]'::jsonb)) e
          where (e ->> 'id')::uuid = o.id and not coalesce((e ->> 'deleted')::boolean, false));
    for v_option in select e from jsonb_array_elements(coalesce(v_item -> 'options', '[]'::jsonb)) e
    loop
      v_old_option := null;
      select * into v_old_option from public.options where id = (v_option ->> 'id')::uuid;
      v_option_row := jsonb_populate_record(null::public.options, v_option);
      v_option_row.deleted := coalesce(v_option_row.deleted, false) or coalesce(v_old_option.deleted, false);
      if v_old_option.id is null then
        if not v_option_row.deleted then
          -- a new option starts with no responses whatever the payload says
          insert into public.options (id, question_id, block_id, value, index, deleted)
            values (v_option_row.id, v_row.id, p_block.id, v_option_row.value, v_option_row.index, false);
        end if;
      else
        update public.options set value = v_option_row.value, index = v_option_row.index,
                                  deleted = v_option_row.deleted
          where id = v_option_row.id;
      end if;
    end loop;

    if v_row.type in ('ab', 'poll') and not v_row.deleted then
      select count(*) into v_live_options from public.options where question_id = v_row.id and not deleted;
      if v_row.type = 'ab' and v_live_options <> 2 then
        raise exception 'An A/B question has exactly two options' using errcode = 'P0001';
      elsif v_row.type = 'poll' and v_live_options = 0 then
        raise exception 'A poll question has at least one option' using errcode = 'P0001';
      end if;
    end if;
  end loop;
end;
$$;
revoke execute on function private.save_block_questions(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_questions(public.blocks, jsonb, boolean) to service_role;

create function private.save_block_endings(p_block public.blocks, p_endings jsonb, p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  v_ids uuid[] := private.payload_ids(p_endings, 'ending');
  v_condition_ids uuid[];
  v_default public.endings;
  v_item jsonb;
  v_condition jsonb;
  v_old public.endings;
  v_row public.endings;
  v_cond public.ending_conditions;
  v_question public.questions;
begin
  if p_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_block_ids('public.endings', v_ids, p_block.id, 'Not valid ending');
  v_condition_ids := private.payload_child_ids(p_endings, 'conditions', 'condition');
  perform private.check_block_ids('public.ending_conditions', v_condition_ids, p_block.id, 'Not valid condition');

  -- the default ending stays, and stays the default; no other ending becomes one
  select * into v_default from public.endings where block_id = p_block.id and is_default;
  if v_default.id is not null and not (v_default.id = any (v_ids)) then
    raise exception 'The default ending cannot be deleted' using errcode = 'P0001';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_endings) e
    where coalesce((e ->> 'is_default')::boolean, false)
          is distinct from coalesce((e ->> 'id')::uuid = v_default.id, false)) then
    raise exception 'The default ending cannot be changed' using errcode = 'P0001';
  end if;

  -- multiple endings: an owner without a paid plan adds no custom ending (ones kept from a paid
  -- period may still be edited or deleted)
  perform private.require_paid('endings', not p_paid and exists (
    select 1 from jsonb_array_elements(p_endings) e
    where not exists (select 1 from public.endings s where s.id = (e ->> 'id')::uuid)));

  delete from public.endings e
    where e.block_id = p_block.id and not e.is_default and not (e.id = any (v_ids));
  -- conditions are replaced as a whole
  delete from public.ending_conditions where block_id = p_block.id;

  for v_item in select e from jsonb_array_elements(p_endings) e order by (e ->> 'index')::integer
  loop
    v_old := null;
    select * into v_old from public.endings where id = (v_item ->> 'id')::uuid;
    v_row := jsonb_populate_record(null::public.endings, v_item);
    if v_row.open_link_type not in ('submit', 'button') then
      raise exception 'Not valid type' using errcode = 'P0001';
    end if;
    -- opening a link on submission
    perform private.require_paid('open_url',
      not p_paid and coalesce(v_row.open_url, '') <> '' and v_row.open_link_type = 'submit'
      and (v_old.open_url is distinct from v_row.open_url
           or v_old.open_link_type is distinct from v_row.open_link_type));

    if v_old.id is null then
      insert into public.endings (id, block_id, is_default, index, title, closing_text, open_url,
                                  open_link_type, open_url_text, resubmit_text, block_submit_another)
        values (v_row.id, p_block.id, false, v_row.index, v_row.title, v_row.closing_text,
                v_row.open_url, v_row.open_link_type, v_row.open_url_text, v_row.resubmit_text,
                v_row.block_submit_another);
    else
      update public.endings set
        index = v_row.index, title = v_row.title, closing_text = v_row.closing_text,
        open_url = v_row.open_url, open_link_type = v_row.open_link_type,
        open_url_text = v_row.open_url_text, resubmit_text = v_row.resubmit_text,
        block_submit_another = v_row.block_submit_another
      where id = v_row.id;
    end if;

    for v_condition in select c from jsonb_array_elements(coalesce(v_item -> 'conditions', '[]'::jsonb)) c
    loop
      if not (v_condition ->> 'type' = any (enum_range(null::public.condition_type)::text[])) then
        raise exception 'Not valid type' using errcode = 'P0001';
      end if;
      v_cond := jsonb_populate_record(null::public.ending_conditions, v_condition);
      v_question := null;
      select * into v_question from public.questions
        where id = v_cond.question_id and block_id = p_block.id;
      if v_question.id is null then
        raise exception 'Not valid question' using errcode = 'P0001';
      end if;
      if v_question.deleted then
        raise exception 'A condition refers to a deleted question' using errcode = 'P0001';
      end if;
      if v_cond.type in ('equal', 'include') and coalesce(v_cond.value, '') = '' then
        raise exception 'Please complete the condition' using errcode = 'P0001';
      end if;
      insert into public.ending_conditions (id, ending_id, block_id, index, question_id, type, value)
        values (v_cond.id, v_row.id, p_block.id, v_cond.index, v_cond.question_id, v_cond.type,
                v_cond.value);
    end loop;
  end loop;
end;
$$;
revoke execute on function private.save_block_endings(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_endings(public.blocks, jsonb, boolean) to service_role;

create function public.save_block(p_owner_id uuid, p_block_id uuid, p_payload jsonb)
returns jsonb language plpgsql set search_path = '' as $$
declare
  v_block public.blocks;
  v_paid boolean;
  v_settings jsonb := nullif(p_payload -> 'settings', 'null'::jsonb);
  v_private jsonb := nullif(p_payload -> 'privateSettings', 'null'::jsonb);
  v_questions jsonb := nullif(p_payload -> 'questions', 'null'::jsonb);
  v_endings jsonb := nullif(p_payload -> 'endings', 'null'::jsonb);
begin
  -- The block row is locked for the whole save: concurrent saves of one block run one after
  -- the other, each seeing the other's complete result.
  select * into v_block from public.blocks
    where id = p_block_id and owner_id = p_owner_id
    for update;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if jsonb_typeof(p_payload) is distinct from 'object'
     or (coalesce(v_settings, '{}'::jsonb) = '{}'::jsonb
         and coalesce(v_private, '{}'::jsonb) = '{}'::jsonb
         and v_questions is null and v_endings is null) then
    raise exception 'nothing to update' using errcode = 'P0001';
  end if;
  select coalesce(p.paid, false) into v_paid from public.profiles p where p.id = p_owner_id;
  v_paid := coalesce(v_paid, false);

  if coalesce(v_settings, '{}'::jsonb) <> '{}'::jsonb then
    perform private.save_block_settings(v_block, v_settings, v_paid);
  end if;
  if coalesce(v_private, '{}'::jsonb) <> '{}'::jsonb then
    perform private.save_block_private(v_block, v_private, v_paid);
  end if;
  -- questions before endings: conditions may name questions created by this save
  if v_questions is not null then
    perform private.save_block_questions(v_block, v_questions, v_paid);
  end if;
  if v_endings is not null then
    perform private.save_block_endings(v_block, v_endings, v_paid);
  end if;

  return private.block_editor_json(p_block_id);
end;
$$;
comment on function public.save_block(uuid, uuid, jsonb) is
  'Saves a block from the workspace in one transaction (settings, private settings, complete question and ending lists). Service role only: the save-block edge function validates the payload first. Errors: block doesn''t exists, nothing to update, Not valid type, Too many questions (at most N), Paid plan required (field), and the messages in docs/data-model.md.';
revoke execute on function public.save_block(uuid, uuid, jsonb) from public, anon, authenticated;

-- =============================================================================================
-- schemas/block-view.sql
-- =============================================================================================

-- What an embedded block reads (issue 13: reads a CDN can cache).
--   get_block_public(p_block_id)  the same answer for every caller: the block's public settings
--                                 and counts, questions and endings, the pinned and first five
--                                 published threads. STABLE, so PostgREST answers it on GET, with
--                                 a Cache-Control header that lets a shared cache (a CDN) keep it a
--                                 short time and serve it stale while it revalidates.
--   get_block_me(p_block_id, p_message_ids, p_since)
--                                 the caller's own state: block like, A/B vote, reports, which of
--                                 the messages on screen they like, and the messages they may see
--                                 that the public page lacks (their own, held or too new for the
--                                 cached page; for the owner, the held and hidden ones). Called by
--                                 the elements only when the visitor already has a session.
--   get_block_view                both in one statement (older embeds, the SDK's ab vote recovery)
--   list_messages                 the next page of threads
--   get_block_counts              the public counts of up to 100 blocks (an index page)
--   get_block_card                the fields a link preview (Open Graph tags of /block) needs
-- Held and hidden messages are never served to others.

-- A message as visitors see it (never the creator email, which is in message_private), with its
-- exact counts (private.live_message_json, as every message this file serves).
create function private.message_json(p_message public.messages, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select private.live_message_json(to_jsonb(p_message)) || jsonb_build_object(
    'liked', p_uid is not null and exists (
      select 1 from public.message_likes l where l.message_id = p_message.id and l.user_id = p_uid));
$$;
revoke execute on function private.message_json(public.messages, uuid) from public;

-- A top-level message with its replies, oldest reply first.
create function private.thread_json(p_message public.messages, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select private.message_json(p_message, p_uid) || jsonb_build_object('replies', coalesce((
    select jsonb_agg(private.message_json(r, p_uid) order by r.created_at, r.id)
    from public.messages r where r.parent_id = p_message.id), '[]'::jsonb));
$$;
revoke execute on function private.thread_json(public.messages, uuid) from public;

-- Top-level messages of a block created before p_before, newest first, with replies.
create function private.threads_json(p_block_id uuid, p_before timestamptz, p_limit integer, p_uid uuid,
                                     p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(private.thread_json(m, p_uid) order by m.created_at desc, m.id desc), '[]'::jsonb)
  from (
    select * from public.messages
    where block_id = p_block_id and page_key = p_page_key and parent_id is null
      and created_at < coalesce(p_before, 'infinity'::timestamptz)
    order by created_at desc, id desc
    limit greatest(1, least(coalesce(p_limit, 5), 50))
  ) m;
$$;
revoke execute on function private.threads_json(uuid, timestamp with time zone, integer, uuid, text) from public;

-- A message the caller may see: published, their own held one, or anything for the owner. (The
-- list queries write the same test out: a function with SET search_path is never inlined.)
create function private.message_visible(p_message public.messages, p_uid uuid, p_owner boolean)
returns boolean language sql immutable set search_path = '' as $$
  select p_owner or p_message.status = 'published'
      or (p_message.status = 'held' and p_message.creator_id = p_uid);
$$;
revoke execute on function private.message_visible(public.messages, uuid, boolean) from public;

-- A message for a visitor's change (edit, like, reply, report): on a published block and
-- visible to the caller, else 'message doesn''t exists'.
create function private.visible_message(p_message_id uuid, p_uid uuid, p_lock boolean default false)
returns public.messages language plpgsql set search_path = '' as $$
declare
  v_message public.messages;
  v_owner uuid;
begin
  if p_lock then
    select m.* into v_message from public.messages m where m.id = p_message_id for update;
  else
    select m.* into v_message from public.messages m where m.id = p_message_id;
  end if;
  select owner_id into v_owner from public.blocks where id = v_message.block_id and not deactivated;
  if v_message.id is null or v_owner is null
     or not private.message_visible(v_message, p_uid, v_owner = p_uid) then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  return v_message;
end;
$$;
revoke execute on function private.visible_message(uuid, uuid, boolean) from public;

-- A top-level message with the replies the caller may see, oldest reply first.
create function private.visible_thread_json(p_message public.messages, p_uid uuid, p_owner boolean)
returns jsonb language sql stable set search_path = '' as $$
  select private.message_json(p_message, p_uid) || jsonb_build_object('replies', coalesce((
    select jsonb_agg(private.message_json(r, p_uid) order by r.created_at, r.id)
    from public.messages r
    where r.parent_id = p_message.id
      and (p_owner or r.status = 'published' or (r.status = 'held' and r.creator_id = p_uid))), '[]'::jsonb));
$$;
revoke execute on function private.visible_thread_json(public.messages, uuid, boolean) from public;

-- Top-level messages of a block created before p_before, newest first, pinned ones excluded
-- (get_block_view sends them first), each with its replies: those the caller may see.
create function private.visible_threads_json(p_block_id uuid, p_before timestamptz, p_limit integer, p_uid uuid,
                                             p_owner boolean, p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(private.visible_thread_json(m, p_uid, p_owner) order by m.created_at desc, m.id desc), '[]'::jsonb)
  from (
    select * from public.messages m
    where m.block_id = p_block_id and m.page_key = p_page_key and m.parent_id is null and m.pinned_at is null
      and (p_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
      and m.created_at < coalesce(p_before, 'infinity'::timestamptz)
    order by m.created_at desc, m.id desc
    limit greatest(1, least(coalesce(p_limit, 5), 50))
  ) m;
$$;
revoke execute on function private.visible_threads_json(uuid, timestamp with time zone, integer, uuid, boolean, text) from public;

-- Older top-level messages (before p_before, newest first, not pinned) with their replies: the
-- ones the caller may see. security definer: as get_block_view.
create function public.list_messages(p_block_id uuid, p_before timestamptz default null, p_limit integer default 5,
                                     p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_page text := private.check_page_key(v_block, p_page_key);
begin
  -- the fast path of get_block_view: nothing held, hidden or pinned on the block
  if not exists (select 1 from public.messages
                 where block_id = p_block_id and (status <> 'published' or pinned_at is not null)) then
    return private.threads_json(p_block_id, p_before, p_limit, v_uid, v_page);
  end if;
  return private.visible_threads_json(p_block_id, p_before, p_limit, v_uid,
                                      v_uid is not null and v_uid = v_block.owner_id, v_page);
end;
$$;
comment on function public.list_messages(uuid, timestamptz, integer, text) is
  'Top-level messages the caller may see created before p_before (default now), newest first, pinned ones excluded, at most p_limit (1..50, default 5), each with replies; of one page''s thread with p_page_key.';
revoke execute on function public.list_messages(uuid, timestamp with time zone, integer, text) from public;

-- The option ids of the caller's A/B vote on an ab block (by the unique index on
-- (block_id, creator_id)), or null.
create function private.ab_vote_json(p_block_id uuid, p_type public.block_type, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select case when p_type = 'ab' and p_uid is not null then (
    select jsonb_agg(o.id order by o.id)
    from public.responses r
    cross join lateral jsonb_each(r.answers) a(question_id, answer)
    cross join lateral jsonb_array_elements_text(
      case when jsonb_typeof(a.answer -> 'option_ids') = 'array' then a.answer -> 'option_ids'
           else '[]'::jsonb end) o(id)
    where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = p_uid) end;
$$;
revoke execute on function private.ab_vote_json(uuid, public.block_type, uuid) from public;

-- {"vote_held": true} when the caller's A/B vote is held by escalation (issue 17: kept, counted
-- once the owner approves it; the element says so), else {} (the answer's shape is unchanged for
-- every other vote).
create function private.ab_vote_held(p_block_id uuid, p_type public.block_type, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select case when p_type = 'ab' and p_uid is not null and exists (
      select 1 from public.responses r
      where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = p_uid and r.held)
    then '{"vote_held": true}'::jsonb else '{}'::jsonb end;
$$;
revoke execute on function private.ab_vote_held(uuid, public.block_type, uuid) from public;

-- The public settings of a block: what the elements show a visitor. Never tags, the unread
-- count, timestamps, the trust settings or the operator's overrides. Counts are the row's plus
-- the deltas not folded yet (counters.sql).
create or replace function private.public_block_json(p_block public.blocks)
returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', p_block.id, 'owner_id', p_block.owner_id, 'type', p_block.type, 'name', p_block.name,
    'theme', p_block.theme, 'custom_color', p_block.custom_color,
    'custom_label_color', p_block.custom_label_color, 'custom_label_name', p_block.custom_label_name,
    'welcome_message', p_block.welcome_message, 'placeholder', p_block.placeholder,
    'submit_button_text', p_block.submit_button_text, 'language', p_block.language,
    'block_anonymous', p_block.block_anonymous, 'allow_reaction', p_block.allow_reaction,
    'allow_reply', p_block.allow_reply, 'admin_only_reply', p_block.admin_only_reply,
    'show_count', p_block.show_count, 'show_profile', p_block.show_profile,
    'owner_name', p_block.owner_name, 'owner_photo_url', p_block.owner_photo_url,
    'qna_subject', p_block.qna_subject, 'response_count', c.response_count,
    'like_count', c.like_count, 'align', p_block.align, 'button_text', p_block.button_text,
    'url_to_open', p_block.url_to_open, 'open_graph', p_block.open_graph,
    'allow_creator_email', p_block.allow_creator_email, 'deactivated', p_block.deactivated,
    -- the oldest transaction still running when this was read (the calling query's snapshot):
    -- a live change from one before it is in this view already (realtime.sql)
    'read_xmin', pg_snapshot_xmin(pg_current_snapshot())::text::bigint,
    -- every block may escalate to the platform's captcha (issue 17); a paid block asks for it
    -- at a visitor's own limit too
    'captcha', case when p_block.captcha
                      or coalesce((private.setting('limits.escalation', 'true'::jsonb) #>> '{}')::boolean, true)
                    then private.captcha_config() end)
  from private.with_live_counts(p_block) c;
$$;
revoke execute on function private.public_block_json(public.blocks) from public;

-- The block view of an active block, or null when there is none: public settings, form content,
-- the pinned (at most 10) and the five newest other top-level messages the caller may see with
-- their replies. p_public: the answer for everyone (published messages only, no `liked`, no `me`;
-- p_uid must be null). Otherwise `liked` on each message and `me` (liked: the block like;
-- liked_message_ids: among the messages returned; reported_message_ids; vote).
-- One statement: the visibility test is written out (a function with SET search_path is never
-- inlined) and the caller's likes are probed by primary key for the returned messages only.
create function private.block_view_json(p_block_id uuid, p_uid uuid, p_public boolean, p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  with blk as (
    select b.* from public.blocks b where b.id = p_block_id and not b.deactivated
  ),
  viewer as (
    select p_uid is not null and p_uid = blk.owner_id as owner,
           blk.type in ('comment', 'qna') as threads
    from blk
  ),
  top as (
    (select m.* from public.messages m, viewer v
     where v.threads and m.block_id = p_block_id and m.page_key = p_page_key
       and m.pinned_at is not null and m.parent_id is null
       and (v.owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
     order by m.pinned_at desc limit 10)
    union all
    (select m.* from public.messages m, viewer v
     where v.threads and m.block_id = p_block_id and m.page_key = p_page_key
       and m.parent_id is null and m.pinned_at is null
       and (v.owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
     order by m.created_at desc, m.id desc limit 5)
  ),
  rep as (
    select r.* from top t join public.messages r on r.parent_id = t.id, viewer v
    where v.owner or r.status = 'published' or (r.status = 'held' and r.creator_id = p_uid)
  ),
  liked as (
    select l.message_id from public.message_likes l
    where p_uid is not null and l.user_id = p_uid
      and l.message_id in (select id from top union all select id from rep)
  )
  select jsonb_build_object(
    'block', private.public_block_json(blk) || private.page_counts_json(blk, p_page_key),
    'questions', case when blk.type in ('form', 'ab') then coalesce((
      select jsonb_agg(
               (to_jsonb(q) - 'trigger_letter_block') || jsonb_build_object('options', coalesce((
                 -- the count with the changes not folded yet (counters.sql)
                 select jsonb_agg(to_jsonb(o) || jsonb_build_object('response_count', greatest(o.response_count
                          + coalesce((select sum(d.delta) from private.option_count_deltas d
                                      where d.option_id = o.id), 0), 0))
                        order by o.index, o.created_at)
                 from public.options o where o.question_id = q.id and not o.deleted), '[]'::jsonb))
               order by q.index, q.created_at)
      from public.questions q where q.block_id = p_block_id and not q.deleted), '[]'::jsonb)
      else '[]'::jsonb end,
    'endings', case when blk.type in ('form', 'ab') then coalesce((
      select jsonb_agg(
               to_jsonb(e) || jsonb_build_object('conditions', coalesce((
                 select jsonb_agg(to_jsonb(c) order by c.index, c.created_at)
                 from public.ending_conditions c where c.ending_id = e.id), '[]'::jsonb))
               order by e.index, e.created_at)
      from public.endings e where e.block_id = p_block_id), '[]'::jsonb)
      else '[]'::jsonb end,
    'messages', coalesce((
      select jsonb_agg(
               private.live_message_json(to_jsonb(t))
               || case when p_public then '{}'::jsonb
                       else jsonb_build_object('liked', exists (select 1 from liked where message_id = t.id)) end
               || jsonb_build_object('replies', coalesce((
                    select jsonb_agg(
                             private.live_message_json(to_jsonb(r))
                             || case when p_public then '{}'::jsonb
                                     else jsonb_build_object('liked', exists (select 1 from liked where message_id = r.id)) end
                             order by r.created_at, r.id)
                    from rep r where r.parent_id = t.id), '[]'::jsonb))
               order by t.pinned_at desc nulls last, t.created_at desc, t.id desc)
      from top t), '[]'::jsonb)
  )
  || case when p_public then '{}'::jsonb else jsonb_build_object('me', jsonb_build_object(
    'liked', p_uid is not null and exists (
      select 1 from public.responses r
      where r.block_id = p_block_id and r.page_key = p_page_key and r.kind = 'like' and r.creator_id = p_uid),
    'liked_message_ids', coalesce((select jsonb_agg(message_id) from liked), '[]'::jsonb),
    'reported_message_ids', case when p_uid is not null and blk.type in ('comment', 'qna') then coalesce((
      select jsonb_agg(r.message_id) from public.message_reports r
      where r.user_id = p_uid and r.block_id = p_block_id), '[]'::jsonb) else '[]'::jsonb end,
    'vote', private.ab_vote_json(blk.id, blk.type, p_uid))
    || private.ab_vote_held(blk.id, blk.type, p_uid)) end
  from blk;
$$;
revoke execute on function private.block_view_json(uuid, uuid, boolean, text) from public;

-- Everything a viewer needs to render a block in one call, with the caller's own state.
-- security definer: reads the caller's own likes and reports and the block's content without
-- evaluating RLS per row; it returns public columns only.
create function public.get_block_view(p_block_id uuid, p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks := private.visible_block(p_block_id);
  v_view jsonb := private.block_view_json(p_block_id, auth.uid(), false, private.check_page_key(v_block, p_page_key));
begin
  -- the caller's own answer (it is STABLE, so also a GET): never kept by a shared cache
  perform set_config('response.headers', '[{"Cache-Control": "private, no-store"}]', true);
  return v_view;
end;
$$;
comment on function public.get_block_view(uuid, text) is
  'The block''s public settings, questions with options, endings with conditions, the pinned and the first 5 threads the caller may see (of one page with p_page_key), and the caller''s own state (me: liked, liked_message_ids among the returned messages, reported_message_ids, vote, and vote_held: true when that vote is held by escalation). Elements read get_block_public (GET, cacheable) and get_block_me instead. Errors: block doesn''t exists, Not valid page key.';
revoke execute on function public.get_block_view(uuid, text) from public;

-- The public part of the block view: the same answer for every caller (no auth.uid() anywhere),
-- so a shared cache may keep it. STABLE: PostgREST answers it on GET (read-only transaction).
-- security definer: the block's content is read without RLS; only published messages and the
-- public columns come out.
create function public.get_block_public(p_block_id uuid, p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks := private.visible_block(p_block_id);
  v_view jsonb := private.block_view_json(p_block_id, null, true, private.check_page_key(v_block, p_page_key));
begin
  -- a CDN or proxy may keep it 10 s and serve it stale for 60 s more while it fetches it again;
  -- the browser keeps it 10 s too (the visitor's own new messages come with get_block_me). One
  -- page's thread is one URL (p_page_key is a query parameter), so one cache entry.
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=10, stale-while-revalidate=60"}]', true);
  return v_view;
end;
$$;
comment on function public.get_block_public(uuid, text) is
  'The public part of the block view, the same for every caller (cacheable GET, Cache-Control public max-age=10 stale-while-revalidate=60): block settings and counts, questions and endings, the pinned and first 5 published threads; with p_page_key (comment, qna, like) one page''s threads and counts. Errors: block doesn''t exists, Not valid page key.';
revoke execute on function public.get_block_public(uuid, text) from public;

-- The caller's own part of the block view, for the messages on screen. p_message_ids: the ids of
-- the messages shown (top-level and replies, at most 500 are looked at); p_since: the creation
-- time of the oldest top-level message of the public page when it was full (null: the page shows
-- all). Answers me (liked, liked_message_ids among p_message_ids and the messages returned here,
-- reported_message_ids, vote) and the messages the caller may see that the public page lacks:
-- `messages`, top-level threads not published or the caller's own, created since p_since (or
-- pinned), at most 20; `replies`, replies to the given messages, not published or the caller's
-- own, at most 200. For a visitor: their own messages (held ones, or ones newer than a cached
-- page); for the owner: also everyone's held and hidden ones. Also `block` (the public settings
-- with the counts as they are now) and, for ab blocks, `questions` with the current option counts:
-- the public copy may be cached, and a visitor's own vote or like must not show beside older counts.
-- security definer: as get_block_view.
create function public.get_block_me(p_block_id uuid, p_message_ids uuid[] default '{}', p_since timestamptz default null,
                                    p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_page text := private.check_page_key(v_block, p_page_key);
  v_owner boolean := v_uid is not null and v_uid = v_block.owner_id;
  v_ids uuid[] := coalesce(p_message_ids[1:500], '{}');
  v_result jsonb;
  -- the counts as they are now: the public copy may be cached, and the caller's own like, vote or
  -- message must not show beside counts from before it
  v_fresh jsonb := jsonb_build_object('block', private.public_block_json(v_block) || private.page_counts_json(v_block, v_page))
    || case when v_block.type = 'ab'
            then jsonb_build_object('questions', private.block_view_json(p_block_id, null, true, '') -> 'questions')
            else '{}'::jsonb end;
begin
  -- the caller's own answer (a GET too, being STABLE): never kept by a shared cache
  perform set_config('response.headers', '[{"Cache-Control": "private, no-store"}]', true);
  if v_uid is null then
    return v_fresh || jsonb_build_object('me', jsonb_build_object('liked', false, 'liked_message_ids', '[]'::jsonb,
      'reported_message_ids', '[]'::jsonb, 'vote', null), 'messages', '[]'::jsonb, 'replies', '[]'::jsonb);
  end if;
  with extra_top as (
    select m.* from public.messages m
    where v_block.type in ('comment', 'qna') and m.block_id = p_block_id and m.page_key = v_page
      and m.parent_id is null
      and (m.creator_id = v_uid or (v_owner and m.status <> 'published'))
      and (v_owner or m.status = 'published' or m.status = 'held')
      and (p_since is null or m.created_at >= p_since or m.pinned_at is not null)
      and m.id <> all (v_ids)
    order by m.created_at desc, m.id desc limit 20
  ),
  extra_top_replies as (
    select r.* from extra_top t join public.messages r on r.parent_id = t.id
    where v_owner or r.status = 'published' or (r.status = 'held' and r.creator_id = v_uid)
  ),
  extra_replies as (
    select r.* from public.messages r
    where v_block.type in ('comment', 'qna') and r.parent_id = any (v_ids) and r.block_id = p_block_id
      and (r.creator_id = v_uid or (v_owner and r.status <> 'published'))
      and (v_owner or r.status = 'published' or r.status = 'held')
      and r.id <> all (v_ids)
    order by r.created_at, r.id limit 200
  ),
  liked as (
    select l.message_id from public.message_likes l
    where l.user_id = v_uid
      and l.message_id in (select unnest(v_ids) union all select id from extra_top
                           union all select id from extra_top_replies union all select id from extra_replies)
  )
  select jsonb_build_object(
    'me', jsonb_build_object(
      'liked', exists (
        select 1 from public.responses r
        where r.block_id = p_block_id and r.page_key = v_page and r.kind = 'like' and r.creator_id = v_uid),
      'liked_message_ids', coalesce((select jsonb_agg(message_id) from liked), '[]'::jsonb),
      'reported_message_ids', case when v_block.type in ('comment', 'qna') then coalesce((
        select jsonb_agg(r.message_id) from public.message_reports r
        where r.user_id = v_uid and r.block_id = p_block_id), '[]'::jsonb) else '[]'::jsonb end,
      'vote', private.ab_vote_json(p_block_id, v_block.type, v_uid))
      || private.ab_vote_held(p_block_id, v_block.type, v_uid),
    'messages', coalesce((
      select jsonb_agg(
               private.live_message_json(to_jsonb(t)) || jsonb_build_object(
                 'liked', exists (select 1 from liked where message_id = t.id),
                 'replies', coalesce((
                   select jsonb_agg(private.live_message_json(to_jsonb(r)) || jsonb_build_object(
                            'liked', exists (select 1 from liked where message_id = r.id))
                            order by r.created_at, r.id)
                   from extra_top_replies r where r.parent_id = t.id), '[]'::jsonb))
               order by t.created_at desc, t.id desc)
      from extra_top t), '[]'::jsonb),
    'replies', coalesce((
      select jsonb_agg(private.live_message_json(to_jsonb(r)) || jsonb_build_object(
               'liked', exists (select 1 from liked where message_id = r.id))
               order by r.created_at, r.id)
      from extra_replies r), '[]'::jsonb))
    into v_result;
  return v_fresh || v_result;
end;
$$;
comment on function public.get_block_me(uuid, uuid[], timestamptz, text) is
  'The caller''s own part of the block view for the messages on screen (p_message_ids, at most 500; p_since: oldest top-level of a full public page; p_page_key: the page''s thread): block (current counts), questions (ab: current option counts), me (liked, liked_message_ids, reported_message_ids, vote, vote_held: true when that vote is held by escalation), messages (own or, for the owner, unpublished threads since p_since, at most 20) and replies (own or unpublished replies to the given messages, at most 200). Errors: block doesn''t exists, Not valid page key.';
revoke execute on function public.get_block_me(uuid, uuid[], timestamp with time zone, text) from public;

-- Counts for many pages in one request (issue 18, "beyond the spec").
--
-- A blog's index page shows "12 comments" under every post: one cacheable GET for up to 100
-- blocks instead of one get_block_public per post.
--   GET /rest/v1/rpc/get_block_counts?p_block_ids={id,id,...}
-- answers, in the order asked, one entry per active visitor block (comment, qna, like, button,
-- ab, form): {id, type, comments, likes, responses}, the counts get_block_public already shows
-- (comments: messages and replies of a comment or Q&A block; likes: a like block's likes;
-- responses: a form's, A/B's or button's responses), null where a count does not apply to the
-- type. A missing, deactivated or letter block is left out, so the answer says nothing about it
-- (not even that the id exists). Like get_block_public it reads no auth.uid() and sets
-- Cache-Control public, so a shared cache may give the same bytes to every caller.
-- security definer: anon cannot read blocks (RLS: owners only); only public counts come out.
create function public.get_block_counts(p_block_ids uuid[])
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_result jsonb;
begin
  if cardinality(p_block_ids) > 100 then
    raise exception 'At most 100 blocks at once' using errcode = '22023';
  end if;
  with asked as (
    -- the first place of each id: a repeated id is answered once
    select id, min(n) as n
    from unnest(coalesce(p_block_ids, '{}')) with ordinality u(id, n)
    where id is not null
    group by id
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', b.id,
           'type', b.type,
           'comments', case when b.type in ('comment', 'qna') then c.response_count end,
           'likes', case when b.type = 'like' then c.like_count end,
           'responses', case when b.type in ('button', 'ab', 'form') then c.response_count end)
           order by a.n), '[]'::jsonb)
    into v_result
    from asked a
    join public.blocks b on b.id = a.id
    cross join lateral private.with_live_counts(b) c
    where not b.deactivated
      and b.type in ('comment', 'qna', 'like', 'button', 'ab', 'form');
  -- the same bytes for every caller: a CDN or proxy may keep it 10 s and serve it stale for 60 s
  -- more while it fetches it again, as get_block_public
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=10, stale-while-revalidate=60"}]', true);
  return v_result;
end;
$$;

comment on function public.get_block_counts(uuid[]) is
  'The public counts of up to 100 blocks in one cacheable GET (Cache-Control public max-age=10 stale-while-revalidate=60), in the order asked: [{id, type, comments, likes, responses}], null where a count does not apply to the type. Missing, deactivated and letter blocks are left out. Error: At most 100 blocks at once.';

revoke all on function public.get_block_counts(uuid[]) from public;
grant execute on function public.get_block_counts(uuid[]) to anon, authenticated, service_role;

-- The public card of a block: the fields a link preview (Open Graph tags of /block) needs.
-- public.blocks is readable by its owner only (trust.sql), so crawlers' previews read this
-- instead: one published block by id and owner, nothing else (no tags,
-- counts or settings beyond the preview's). `title` is what the page heads itself with: a
-- letter's title (as get_letter_view gives it: the page shows the letter), else the block's name.
-- STABLE, so PostgREST answers it on GET and a shared cache may keep it for a minute.
create function public.get_block_card(p_owner_id uuid, p_block_id uuid)
returns table (
  id uuid,
  owner_id uuid,
  type text,
  name text,
  language text,
  open_graph jsonb,
  title text
) language sql stable security definer set search_path = '' as $$
  select
    b.id,
    b.owner_id,
    b.type::text,
    b.name,
    b.language::text,
    b.open_graph,
    case when b.type in ('notion_letter', 'typedream_letter', 'brunch_letter')
         then coalesce(nullif(p.mail_title, ''), b.name)
         else b.name end
  from public.blocks b
  left join public.block_private p on p.block_id = b.id
  where b.id = p_block_id
    and b.owner_id = p_owner_id
    and not b.deactivated
    and set_config(
      'response.headers',
      '[{"Cache-Control": "public, max-age=60, stale-while-revalidate=300"}]',
      true
    ) is not null;
$$;
comment on function public.get_block_card(uuid, uuid) is
  'The link preview fields of one published block (Open Graph); cacheable GET.';
revoke execute on function public.get_block_card(uuid, uuid) from public;

-- =============================================================================================
-- schemas/results.sql
-- =============================================================================================

-- The summary above a block's results (form, ab, like, button): totals, responses over time, and
-- per question the share of each option (poll, ab), count/mean/median (number) or the latest
-- answers (text). Computed here in one call, so the dashboard never loads every row to draw it:
-- a form with 100 000 responses costs a few scans of its rows in the database (docs/benchmarks.md,
-- "Results summary") and a few kilobytes over the wire.

-- The owner's summary of a block's responses (see the header); counts include the deltas not
-- folded yet. Responses held by escalation are left out of every figure and counted in
-- totals.held.
create or replace function public.block_results_summary(p_block_id uuid,
  p_timezone text default 'UTC')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_tz text := coalesce(nullif(p_timezone, ''), 'UTC');
  v_now timestamp;
  v_totals jsonb;
  v_first timestamptz;
  v_unit text;
  v_start timestamp;
  v_timeline jsonb;
  v_questions jsonb := '[]'::jsonb;
  v_q record;
  v_list jsonb := '[]'::jsonb;
  v_cols text[] := '{}';
  v_n integer;
  v_i integer;
  v_answer text;
  v_value text;
  v_row jsonb;
  v_item jsonb;
  v_options jsonb;
  v_latest jsonb;
begin
  select * into v_block from public.blocks where id = p_block_id and owner_id = (select auth.uid());
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  v_block := private.with_live_counts(v_block);
  if char_length(v_tz) > 64 then
    raise exception 'Invalid timezone' using errcode = 'P0001';
  end if;
  begin
    v_now := now() at time zone v_tz;
  exception when others then
    raise exception 'Invalid timezone' using errcode = 'P0001';
  end;

  -- the first response, from the (block_id, created_at) index: it decides the bucket size
  select created_at into v_first from public.responses
    where block_id = p_block_id and not held order by created_at limit 1;

  -- scan 1: responses over time, in the owner's time zone (days for two months, weeks for a
  -- year, then months; at most 120 buckets), and the totals from the same rows
  if v_first is null then
    v_unit := 'day';
    v_timeline := '[]'::jsonb;
    v_totals := jsonb_build_object('responses', 0, 'last_7_days', 0,
                                   'first_at', null, 'last_at', null);
  else
    v_unit := case when v_now - (v_first at time zone v_tz) <= interval '62 days' then 'day'
                   when v_now - (v_first at time zone v_tz) <= interval '371 days' then 'week'
                   else 'month' end;
    v_start := greatest(date_trunc(v_unit, v_first at time zone v_tz),
                        date_trunc(v_unit, v_now) - ('119 ' || v_unit)::interval);
    with counts as (
      select date_trunc(v_unit, created_at at time zone v_tz) as t, count(*) as n,
             count(*) filter (where created_at > now() - interval '7 days') as recent,
             max(created_at) as last_at
      from public.responses
      where block_id = p_block_id and not held
      group by 1
    ), buckets as (
      select t from generate_series(v_start, date_trunc(v_unit, v_now), ('1 ' || v_unit)::interval) t
    )
    select (select coalesce(jsonb_agg(jsonb_build_object('t', to_char(b.t, 'YYYY-MM-DD'), 'n', coalesce(c.n, 0))
                                      order by b.t), '[]'::jsonb)
              from buckets b left join counts c on c.t = b.t),
           jsonb_build_object('responses', (select coalesce(sum(n), 0) from counts),
                              'last_7_days', (select coalesce(sum(recent), 0) from counts),
                              'first_at', v_first,
                              'last_at', (select max(last_at) from counts))
      into v_timeline, v_totals;
  end if;

  -- scan 2 (form and ab): one pass over the rows computes every question's figures, with one
  -- aggregate per question and per option (built here from the current questions)
  if v_block.type in ('form', 'ab') and v_first is not null then
    for v_q in
      select q.id, q.index, q.title, q.type, q.allow_multi_select,
             (select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'value', o.value, 'deleted', o.deleted)
                                        order by o.deleted, o.index), '[]'::jsonb)
                from public.options o where o.question_id = q.id) as options
      from public.questions q
      where q.block_id = p_block_id and not q.deleted and q.type not in ('description', 'image')
      order by q.index
    loop
      v_list := v_list || jsonb_build_object('id', v_q.id, 'index', v_q.index, 'title', v_q.title,
        'type', v_q.type, 'multi', v_q.allow_multi_select, 'options', v_q.options);
      v_n := jsonb_array_length(v_list) - 1;
      v_answer := format('r.answers -> %L', v_q.id);
      v_cols := v_cols || format('count(*) filter (where r.answers ? %L) as a%s', v_q.id, v_n);
      if v_q.type = 'number' then
        v_value := format('case when %1$s ->> ''value'' ~ ''^[-+]?[0-9]{1,18}$'' then (%1$s ->> ''value'')::numeric end', v_answer);
        v_cols := v_cols
          || format('count(%s) as n%s', v_value, v_n)
          || format('round(avg(%s), 2) as mean%s', v_value, v_n)
          || format('percentile_cont(0.5) within group (order by %s) as median%s', v_value, v_n)
          || format('min(%s) as min%s', v_value, v_n)
          || format('max(%s) as max%s', v_value, v_n);
      elsif v_q.type in ('poll', 'ab') then
        for v_i in 0 .. jsonb_array_length(v_q.options) - 1 loop
          v_cols := v_cols || format('count(*) filter (where %s -> ''option_ids'' ? %L) as o%s_%s',
                                     v_answer, v_q.options -> v_i ->> 'id', v_n, v_i);
        end loop;
      end if;
    end loop;

    if cardinality(v_cols) > 0 then
      execute format('select to_jsonb(t) from (select %s from public.responses r where r.block_id = $1 and not r.held) t',
                     array_to_string(v_cols, ', '))
        into v_row using p_block_id;
    end if;

    for v_n in 0 .. jsonb_array_length(v_list) - 1 loop
      v_item := v_list -> v_n;
      v_item := v_item || jsonb_build_object('answered', coalesce((v_row ->> ('a' || v_n))::integer, 0));
      if v_item ->> 'type' = 'number' then
        v_item := v_item || jsonb_build_object('number', jsonb_build_object(
          'count', (v_row ->> ('n' || v_n))::integer, 'mean', v_row -> ('mean' || v_n),
          'median', v_row -> ('median' || v_n), 'min', v_row -> ('min' || v_n), 'max', v_row -> ('max' || v_n)));
      end if;
      if v_item ->> 'type' in ('poll', 'ab') then
        -- deleted options stay listed only while some responses chose them
        select coalesce(jsonb_agg(o.value || jsonb_build_object('count', o.count) order by o.i), '[]'::jsonb)
          into v_options
          from (select e.value, e.i, coalesce((v_row ->> format('o%s_%s', v_n, e.i - 1))::integer, 0) as count
                from jsonb_array_elements(v_item -> 'options') with ordinality e(value, i)) o
          where not (o.value ->> 'deleted')::boolean or o.count > 0;
        v_item := v_item || jsonb_build_object('options', v_options);
      else
        v_item := v_item - 'options';
      end if;
      if v_item ->> 'type' in ('short_text', 'long_text', 'mail', 'phone') then
        -- the latest answers: the (block_id, created_at) index read newest first, stopping at 5
        select coalesce(jsonb_agg(jsonb_build_object('value', l.value, 'created_at', l.created_at)
                                  order by l.created_at desc), '[]'::jsonb)
          into v_latest
          from (select r.answers -> (v_item ->> 'id') ->> 'value' as value, r.created_at
                from public.responses r
                where r.block_id = p_block_id and not r.held and r.answers ? (v_item ->> 'id')
                order by r.created_at desc
                limit 5) l;
        v_item := v_item || jsonb_build_object('latest', v_latest);
      end if;
      v_questions := v_questions || v_item;
    end loop;
  end if;

  return jsonb_build_object(
    'block', jsonb_build_object('id', v_block.id, 'type', v_block.type,
                                'response_count', v_block.response_count, 'like_count', v_block.like_count),
    'timezone', v_tz,
    -- held by escalation (issue 17): kept apart until the owner approves them
    'totals', v_totals || jsonb_build_object('held', (select count(*) from public.responses r
                                                       where r.block_id = p_block_id and r.held)),
    'timeline', jsonb_build_object('unit', v_unit, 'points', v_timeline),
    'questions', v_questions);
end;
$$;
comment on function public.block_results_summary(uuid, text) is
  'The owner''s summary of a block''s responses: totals, responses over time (day/week/month buckets in p_timezone), and per question option counts, number figures or the 5 latest answers. Owner only (else "block doesn''t exists").';
revoke execute on function public.block_results_summary(uuid, text) from public, anon;

-- =============================================================================================
-- schemas/realtime.sql
-- =============================================================================================

-- Live updates by block topic: Realtime Broadcast from the database. Triggers on public.messages
-- write each change once and announce it once, with realtime.send, on a topic per block.
--
-- The viewers' topic is PUBLIC (issue 19): Realtime joins a public topic without asking the
-- database, where a private one costs one policy check per join (hosted Realtime caches the answer
-- for that socket only: docs/scaling.md "Realtime"). Anyone holding the anon key may also send on a
-- public topic, so what travels there is only a hint naming a change, never the change itself: the
-- viewer reads the change with get_block_change, a cacheable GET (the same URL for every viewer, so
-- a CDN makes one database call per change whatever the number of viewers). A forged hint names
-- nothing (null, cached like the rest) or a change of this block from the last minute, which the
-- viewers already have (they skip ids they read) or which is in the list they read already (a
-- change's id ends with its transaction, the view's block carries the oldest one still running
-- when it was read, read_xmin: break9 C2, C3).
--
-- Topics:
--   block:<block id>        PUBLIC. Event hint {id}: a change of the block's published messages,
--                           read with get_block_change(block, id) for a minute. A message of a
--                           page's thread (page_key, issue 18) is announced on
--                           block:<block id>:page:<key> instead. A change is
--     change  {type: 'INSERT' | 'UPDATE', row}   a published message appeared or changed; row is
--                                                the public message row (as get_block_view serves
--                                                it: no email, which lives in message_private);
--                                                an UPDATE with published: true is one that became
--                                                published (approved, shown again): counted now
--             {type: 'DELETE', row: {id, parent_id}}  a published message was deleted
--             {type: 'REMOVE', row: {id, parent_id}}  a published message was held or hidden by
--                                                the owner (it leaves the list and the block's
--                                                message count: only published ones count)
--     counts  {id, like_count, likes} / {id, reply_count, replies}: a published message's like or
--             reply count moved; likes/replies is the delta, like_count/reply_count the value
--             after it (so a client that already applied its own like sets, never adds twice):
--             the row's plus the deltas the write sees (messages.sql), so a write open at the same
--             moment is not in this one's value; {id, like_count, reply_count} (no delta): the
--             counts restated by the fold (fold-counters, every 5 s) of a message whose writes
--             went beside its row, so the value heard last is the true one within a fold
--   block:<block id>:owner  PRIVATE, the block's owner only (the dashboard's moderation view).
--     change  {type: 'INSERT' | 'UPDATE' | 'DELETE', id}: which message changed, in any state.
-- Held and hidden messages are never a change of block:<id>; only the owner may join the owner
-- topic; no client may send on it (no INSERT policy). public.messages is not in publication
-- supabase_realtime (nobody subscribes to its postgres_changes).
--
-- Runs unchanged on hosted Supabase, whose realtime schema has realtime.messages (RLS on),
-- realtime.send and realtime.topic(); keep Realtime's "Allow public access" on (the block topics
-- are public channels). The local stack gets stand-ins with the same surface from
-- supabase/local/bootstrap.sql (local only).

-- ---------------------------------------------------------------------------------------------
-- the changes viewers read
-- ---------------------------------------------------------------------------------------------

create table private.block_changes (
  id uuid primary key default gen_random_uuid(),
  -- no foreign key: a block's deletion deletes its messages, whose trigger writes here last
  block_id uuid not null,
  event text not null check (event in ('change', 'counts')),
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index block_changes_created_at_idx on private.block_changes (created_at);
comment on table private.block_changes is
  'Changes of published messages that viewers of a block read after a hint on its public Realtime topic (get_block_change); readable for a minute, purged after ten (schedule block-changes-purge). No client role can read it.';
alter table private.block_changes enable row level security;
revoke all on private.block_changes from public, anon, authenticated;

-- A change for the block's viewers: kept for get_block_change, announced on the public topic
-- (a page's thread, issue 18: on its own topic block:<id>:page:<key>).
create function private.send_block_change(p_block_id uuid, p_event text, p_payload jsonb,
                                          p_page_key text default '')
returns void language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  -- the id carries the moment of the change in its first 48 bits (milliseconds since 1970, as a
  -- UUIDv7 does: one message's changes in order) and its transaction in its last 48 (its xid). A
  -- view says the oldest transaction still running when it was read (its block's read_xmin):
  -- every transaction before that one had ended, so what it wrote is in the view, and an element
  -- ignores a change from it; a hint replayed by anyone on the public topic then brings back
  -- nothing deleted, hidden or outdated, while a change written before the view was read but
  -- committed after it (a moment alone would drop it) is applied
  insert into private.block_changes (id, block_id, event, payload)
    values (encode(overlay(overlay(uuid_send(gen_random_uuid())
                                   placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
                                   from 1 for 6)
                           placing substring(int8send(pg_current_xact_id()::text::bigint) from 3)
                           from 11 for 6), 'hex')::uuid,
            p_block_id, p_event, p_payload)
    returning id into v_id;
  -- the payload's top-level id is the change's, so hosted realtime.send adds none of its own
  perform realtime.send(jsonb_build_object('id', v_id), 'hint',
                        'block:' || p_block_id::text
                          || case when coalesce(p_page_key, '') <> '' then ':page:' || p_page_key else '' end,
                        false);
end;
$$;
revoke execute on function private.send_block_change(uuid, text, jsonb, text) from public;

-- security definer: anon and visitors cannot read private.block_changes or public.blocks.
create function public.get_block_change(p_block_id uuid, p_id uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_change jsonb;
begin
  select jsonb_build_object('event', c.event, 'payload', c.payload) into v_change
    from private.block_changes c
   where c.id = p_id and c.block_id = p_block_id
     and c.created_at > now() - interval '1 minute'
     and private.block_is_published(p_block_id);
  -- the same answer for every caller, found or not: a shared cache keeps it, so neither a hint to
  -- thousands of viewers nor a forged one reaches the database more than once a minute per URL
  perform set_config('response.headers', '[{"Cache-Control": "public, max-age=60"}]', true);
  return v_change;
end;
$$;
comment on function public.get_block_change(uuid, uuid) is
  'A change of a published block''s messages named by a hint on its public Realtime topic, for a minute after it happened: {event: change | counts, payload}, or null (unknown, older, another block''s, or the block is deactivated). The same for every caller (cacheable GET, Cache-Control public max-age=60).';
revoke all on function public.get_block_change(uuid, uuid) from public;
grant execute on function public.get_block_change(uuid, uuid) to anon, authenticated, service_role;

-- Run by pg_cron block-changes-purge (a hand-written migration schedules it).
create function private.purge_block_changes()
returns void language sql set search_path = '' as $$
  delete from private.block_changes where created_at < now() - interval '10 minutes';
$$;
revoke execute on function private.purge_block_changes() from public;

-- ---------------------------------------------------------------------------------------------
-- who may read a private topic: the owner topic only
-- ---------------------------------------------------------------------------------------------

-- security definer: anon and visitors cannot read public.blocks (trust.sql); reachable
-- from policies only (client roles have no usage on schema private).
create function private.block_topic_readable(p_topic text)
returns boolean language plpgsql stable security definer set search_path = '' as $$
declare
  v_match text[];
begin
  v_match := regexp_match(coalesce(p_topic, ''),
    '^block:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):owner$');
  return v_match is not null and private.is_block_owner(v_match[1]::uuid);
end;
$$;
revoke execute on function private.block_topic_readable(text) from public;
grant execute on function private.block_topic_readable(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- one change per write, announced once
-- ---------------------------------------------------------------------------------------------

-- security definer: realtime.send inserts into realtime.messages, which client roles may not
-- write (no INSERT policy); the owner of this function (postgres) bypasses its RLS.
create function private.messages_broadcast()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_block uuid := case when tg_op = 'DELETE' then old.block_id else new.block_id end;
  v_id uuid := case when tg_op = 'DELETE' then old.id else new.id end;
  -- a page's thread has a topic of its own (one thread per page, issue 18)
  v_page text := case when tg_op = 'DELETE' then old.page_key else new.page_key end;
  v_was boolean := tg_op <> 'INSERT' and old.status = 'published';
  v_is boolean := tg_op <> 'DELETE' and new.status = 'published';
begin
  -- a count moved (a like, a reply): private.send_message_counts announces it (from
  -- private.bump_message_counts, which may leave the row as it is), never the row. The fold of
  -- counters.sql announces the counts of a published message it folded, as they are now: a write
  -- beside the row announced the counts it could see, without the writes open beside it (two likes
  -- at once both said 1), and this is the value heard last (break8 F2).
  if tg_op = 'UPDATE'
     and (to_jsonb(new) - 'like_count' - 'reply_count') = (to_jsonb(old) - 'like_count' - 'reply_count') then
    if new.status = 'published' and current_setting('counters.folding', true) = 'on' then
      perform private.send_message_counts(new.id, 0, 0);
    end if;
    return null;
  end if;

  -- the owner's moderation list: which message changed
  perform realtime.send(jsonb_build_object('type', tg_op, 'id', v_id), 'change',
                        'block:' || v_block::text || ':owner', true);

  if v_is then
    -- published: it became published (approved, shown again): the block counts it from now
    perform private.send_block_change(v_block, 'change',
      jsonb_build_object('type', tg_op, 'row', private.live_message_json(to_jsonb(new)))
        || case when tg_op = 'UPDATE' and not v_was then '{"published": true}'::jsonb else '{}'::jsonb end,
      v_page);
  elsif v_was then
    perform private.send_block_change(v_block, 'change',
      jsonb_build_object('type', case when tg_op = 'DELETE' then 'DELETE' else 'REMOVE' end,
                         'row', jsonb_build_object('id', v_id, 'parent_id', old.parent_id)), v_page);
  end if;
  return null;
end;
$$;
revoke execute on function private.messages_broadcast() from public;

-- A published message's like or reply count moved (private.bump_message_counts): one `counts`
-- per count that moved, with the value after it: the row's plus the deltas this write sees (its
-- own and those committed before it). Neither moved (0, 0: the fold): one `counts` with both values.
create function private.send_message_counts(p_message_id uuid, p_likes integer, p_replies integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_message public.messages;
  v_live jsonb;
begin
  select m.* into v_message from public.messages m where m.id = p_message_id and m.status = 'published';
  if not found then
    return;
  end if;
  v_live := private.live_message_json(to_jsonb(v_message));
  if p_likes <> 0 then
    perform private.send_block_change(v_message.block_id, 'counts',
      jsonb_build_object('id', p_message_id, 'like_count', v_live -> 'like_count', 'likes', p_likes),
      v_message.page_key);
  end if;
  if p_replies <> 0 then
    perform private.send_block_change(v_message.block_id, 'counts',
      jsonb_build_object('id', p_message_id, 'reply_count', v_live -> 'reply_count', 'replies', p_replies),
      v_message.page_key);
  end if;
  if p_likes = 0 and p_replies = 0 then
    perform private.send_block_change(v_message.block_id, 'counts',
      jsonb_build_object('id', p_message_id, 'like_count', v_live -> 'like_count',
                         'reply_count', v_live -> 'reply_count'),
      v_message.page_key);
  end if;
end;
$$;
revoke execute on function private.send_message_counts(uuid, integer, integer) from public;

create trigger messages_broadcast after insert or update or delete on public.messages
  for each row execute function private.messages_broadcast();

create policy "Owners of a block receive its owner topic" on realtime.messages
  for select to anon, authenticated
  using (realtime.messages.extension = 'broadcast'
         and (select private.block_topic_readable((select realtime.topic()))));

reset check_function_bodies;

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

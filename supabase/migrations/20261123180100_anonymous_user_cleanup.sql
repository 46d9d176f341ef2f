-- Anonymous visitors pile up: the SDK signs a visitor up anonymously on the first write (a
-- comment, a like, a response), one auth user per browser, and nothing removes them. On hosted
-- Supabase each is a row in auth.users (plus its sessions and refresh tokens) and counts as a
-- monthly active user while it refreshes its token. What a visitor wrote does not depend on the
-- user row (messages, likes and responses keep the visitor's id and name without a foreign key),
-- so an identity idle for 30 days is deleted: its browser's session then ends, and the next write
-- there signs up a fresh anonymous visitor (who can no longer edit or unlike what the old one did).
-- Regular users (Google, Apple, or an anonymous user who linked one) are never touched.
--
-- A user who deletes their account still takes their visitor content along
-- (private.handle_deleted_user, 20261121000600); the purge says so for its own transaction only
-- (rb.keep_visitor_content), and no client role can delete auth users or reach that setting.
create or replace function private.handle_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

create function private.purge_idle_anonymous_users(
  p_idle interval default interval '30 days',
  p_limit integer default 10000
)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
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

revoke all on function private.purge_idle_anonymous_users(interval, integer) from public;

comment on function private.purge_idle_anonymous_users(interval, integer) is
  'Deletes anonymous auth users created and last active (session refresh) more than p_idle ago, at most p_limit per call; their messages, likes and responses stay. Daily by pg_cron.';

-- daily, in batches of 10,000 (a backlog clears over a few days without one long transaction)
select cron.schedule(
  'anonymous-users-purge',
  '43 3 * * *',
  $$ select private.purge_idle_anonymous_users(); $$
);

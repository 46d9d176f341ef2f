-- Fix forward for two holes the RLS tests found.
-- 1. The block-limit trigger ran before the RLS check, so a stranger inserting a block with
--    someone else's owner_id learned whether that user was at their plan limit (and briefly
--    locked their profile row). The trigger now refuses such rows first, as RLS would.
-- 2. TRUNCATE ignores RLS. PostgREST cannot send it, but no client role should hold it.

create or replace function private.blocks_before_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

revoke truncate on all tables in schema public from anon, authenticated;
alter default privileges in schema public revoke truncate on tables from anon, authenticated;

-- Fix forward:
-- 1. PostgREST upserts (insert ... on conflict do update set <every column sent>) need update
--    rights on every column in the payload, keys included. Column grants on form content,
--    block_private, audience members and letter templates refused them. Owners now may send
--    every column; RLS still pins rows to the caller, and triggers keep what clients must not
--    change (counters, the default-ending flag) at their stored value instead of failing.
-- 2. Deleting an auth user also removes what they wrote as a visitor on other owners' blocks
--    (messages, responses, likes, audience entries), so account deletion removes all their data.

-- ---------------------------------------------------------------------------------------------
-- 1. grants and guards
-- ---------------------------------------------------------------------------------------------

grant update (id, block_id, created_at) on public.questions to authenticated;

grant insert (response_count, created_at) on public.options to authenticated;
grant update (id, question_id, block_id, response_count, created_at) on public.options to authenticated;

grant update (id, block_id, is_default, created_at) on public.endings to authenticated;

grant update (id, ending_id, block_id, created_at) on public.ending_conditions to authenticated;

grant insert (block_id, owner_id, mail_to, notion_database, notion_page, notion_database_title, mail_from,
              mail_name, mail_html, template_mode, brunch_profile_page, publish_mode)
  on public.block_private to authenticated;
grant update (block_id, owner_id) on public.block_private to authenticated;
create policy "Owners can add private settings to their blocks" on public.block_private
  for insert to authenticated with check (owner_id = (select auth.uid()));

grant insert (id, created_at, last_updated, sent_count, delivered_count, opened_count, bounced_count,
              rejected_count, complaint_count) on public.audience_members to authenticated;
grant update (id, user_id, creator_id, created_at, history, first_event, sent_count, delivered_count,
              opened_count, bounced_count, rejected_count, complaint_count)
  on public.audience_members to authenticated;

grant update (id, block_id, user_id, created_at, updated_at) on public.letter_templates to authenticated;

-- An upsert of the existing default ending proposes is_default = true; the unique index still
-- allows one default per block and the delete policy still protects it.
drop policy "Owners can add custom endings to their blocks" on public.endings;
create policy "Owners can add endings to their blocks" on public.endings
  for insert to authenticated with check (exists (
    select 1 from public.blocks b where b.id = endings.block_id and b.owner_id = (select auth.uid())));

create function private.options_keep_counts()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- clients only; inline because client roles have no usage on schema private
  if current_user in ('anon', 'authenticated') then
    new.response_count := case when tg_op = 'INSERT' then 0 else old.response_count end;
  end if;
  return new;
end;
$$;

create trigger options_keep_counts before insert or update on public.options
  for each row execute function private.options_keep_counts();

create function private.endings_keep_default()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- clients only; inline because client roles have no usage on schema private
  if current_user in ('anon', 'authenticated') then
    new.is_default := old.is_default;
  end if;
  return new;
end;
$$;

create trigger endings_keep_default before update on public.endings
  for each row execute function private.endings_keep_default();

create function private.audience_members_keep_counts()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- clients only; inline because client roles have no usage on schema private
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      new.sent_count := 0; new.delivered_count := 0; new.opened_count := 0;
      new.bounced_count := 0; new.rejected_count := 0; new.complaint_count := 0;
    else
      new.sent_count := old.sent_count; new.delivered_count := old.delivered_count;
      new.opened_count := old.opened_count; new.bounced_count := old.bounced_count;
      new.rejected_count := old.rejected_count; new.complaint_count := old.complaint_count;
    end if;
  end if;
  return new;
end;
$$;

create trigger audience_members_keep_counts before insert or update on public.audience_members
  for each row execute function private.audience_members_keep_counts();

-- ---------------------------------------------------------------------------------------------
-- 2. a deleted user's visitor content goes with them
-- ---------------------------------------------------------------------------------------------

-- security definer: runs inside the auth server's delete, which has no rights on public tables.
-- Row triggers on these tables keep the other owners' counters right.
create function private.handle_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.message_likes where user_id = old.id;
  delete from public.messages where creator_id = old.id;
  delete from public.responses where creator_id = old.id;
  delete from public.audience_members where creator_id = old.id;
  return old;
end;
$$;

create trigger on_auth_user_deleted before delete on auth.users
  for each row execute function private.handle_deleted_user();

-- Fix forward: block content and settings are written through the save-block edge function only.
--
-- save-block validates the body with ZSaveBlock (the schema the dashboard uses) and calls
-- public.save_block with the service role, which also refuses paid-only features for owners
-- without a paid plan. Owners still held the core schema's table rights, so the same changes
-- could be sent straight to PostgREST without either check: a free owner could set
-- theme = 'custom' or an Open Graph override, add endings, capture respondents' emails, and
-- write values the schema refuses. This migration takes those rights away.
--
-- What owners may still write directly, and why it is safe without the edge function:
--   blocks: delete their block (nothing to validate; the triggers keep block_count right and
--           content, responses and messages cascade), update `tags` (checked below with the
--           dashboard schema's rule) and reset `new_response_count` to 0 (blocks_guard_update).
-- Everything else about a block goes through:
--   create_block   (now security definer: clients may no longer insert into blocks),
--   duplicate_block (already security definer),
--   save_block     (service role, behind save-block).
-- The insert triggers that create block_private, the default ending and the ab question were
-- already security definer, so creating a block still gives the same rows.
--
-- The write policies these grants served are dropped rather than kept: with RLS enabled and no
-- policy, a write is refused even if a later migration grants the table again by mistake.
-- Select policies are unchanged. The triggers that keep option counts and the default-ending
-- flag for client writes (20261121000600) stay as a second line; no client write reaches them.

-- ---------------------------------------------------------------------------------------------
-- blocks: delete, tags, and the new-response reset
-- ---------------------------------------------------------------------------------------------

-- A table-level revoke also revokes the column grants of 20261121000100 (insert and update of
-- every settings column, name, mode and ending_mode).
revoke insert, update on public.blocks from anon, authenticated;
-- anon owns nothing, so it never deletes a block (RLS already refused it)
revoke delete on public.blocks from anon;
grant update (tags, new_response_count) on public.blocks to authenticated;

drop policy "Users can create their own blocks" on public.blocks;

-- Tags are written directly (the block list's tag dialog), so the database holds them to the
-- dashboard's rule (ZUpdateBlockTagsInput): at most 50 labels, each 1..50 characters with no
-- leading or trailing whitespace (the characters JavaScript's trim() strips, as in
-- private.trim_whitespace, inlined: the check runs as the client role, which may not use schema
-- private by name). Not valid: rows written before are not re-checked, every later write is.
create function private.block_tags_are_valid(p_tags text[])
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(bool_and(
           t is not null and char_length(t) between 1 and 50
           and t !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'),
         true)
  from unnest(p_tags) t;
$$;

comment on function private.block_tags_are_valid(text[]) is
  'Every tag is 1..50 characters without leading or trailing whitespace (blocks.tags check).';

alter table public.blocks
  add constraint blocks_tags_are_labels check (private.block_tags_are_valid(tags)) not valid;

-- create_block as in 20261121000400_block_functions.sql, now security definer.
-- security definer: clients no longer hold insert on public.blocks (the settings columns are
-- written by save_block only). The owner is the caller (auth.uid()), checked below; the blocks
-- triggers still refuse a row for anyone else, enforce the block limit and add the defaults.
create or replace function public.create_block(p_block_type text)
returns public.blocks
language plpgsql
security definer
set search_path = ''
as $$
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
  insert into public.blocks (owner_id, type, language, owner_name, owner_photo_url)
    values (v_uid, p_block_type::public.block_type, v_profile.language,
            nullif(v_profile.name, ''), v_profile.photo_url)
    returning * into v_block;
  return v_block;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- block_private, questions, options, endings, ending_conditions: save_block only
-- ---------------------------------------------------------------------------------------------

-- Table-level revokes, which take the column grants of 20261121000100 and 20261121000600 with
-- them.
revoke insert, update, delete on public.block_private, public.questions, public.options,
  public.endings, public.ending_conditions from anon, authenticated;

drop policy "Owners can add private settings to their blocks" on public.block_private;
drop policy "Owners can update their blocks' private settings" on public.block_private;

drop policy "Owners can add questions to their blocks" on public.questions;
drop policy "Owners can update questions of their blocks" on public.questions;
drop policy "Owners can delete questions of their blocks" on public.questions;

drop policy "Owners can add options to their blocks" on public.options;
drop policy "Owners can update options of their blocks" on public.options;
drop policy "Owners can delete options of their blocks" on public.options;

drop policy "Owners can add endings to their blocks" on public.endings;
drop policy "Owners can update endings of their blocks" on public.endings;
drop policy "Owners can delete custom endings of their blocks" on public.endings;

drop policy "Owners can add ending conditions to their blocks" on public.ending_conditions;
drop policy "Owners can update ending conditions of their blocks" on public.ending_conditions;
drop policy "Owners can delete ending conditions of their blocks" on public.ending_conditions;

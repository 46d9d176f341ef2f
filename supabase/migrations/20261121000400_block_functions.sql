-- Owner RPCs for blocks: create_block and duplicate_block. Deleting a block is a plain DELETE
-- through RLS; the blocks triggers keep block_count right for all three.

-- Creates a block of the given type for the caller. Runs as the caller (RLS applies); the
-- blocks triggers enforce the block limit, count it, and add the default ending / ab question.
create function public.create_block(p_block_type text)
returns public.blocks
language plpgsql
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

comment on function public.create_block(text) is
  'Creates a block of a type (comment, qna, like, button, ab, form, notion_letter, typedream_letter, brunch_letter). Errors: Invalid block, Block limit reached!';

-- Copies a block of the caller: settings, private settings, questions and options (option
-- counts reset), endings and their conditions; name + ' Copy', created now, counters reset.
-- security definer: the copy of the default ending may not be inserted by clients; ownership
-- is checked explicitly below.
create function public.duplicate_block(p_block_id uuid)
returns public.blocks
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_src public.blocks;
  v_new public.blocks;
  v_question public.questions;
  v_ending public.endings;
  v_question_map jsonb := '{}'::jsonb;
  v_ending_map jsonb := '{}'::jsonb;
  v_id uuid;
begin
  select * into v_src from public.blocks where id = p_block_id and owner_id = v_uid;
  if v_uid is null or not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;

  v_new := v_src;
  v_new.id := gen_random_uuid();
  v_new.name := left(v_src.name, 195) || ' Copy';
  -- the insert trigger resets counters, created_at and deactivated and checks the limit
  perform set_config('private.skip_block_defaults', 'on', true);
  insert into public.blocks select (v_new).* returning * into v_new;
  perform set_config('private.skip_block_defaults', 'off', true);

  update public.block_private d
    set mail_to = s.mail_to, notion_database = s.notion_database, notion_page = s.notion_page,
        notion_database_title = s.notion_database_title, mail_from = s.mail_from,
        mail_name = s.mail_name, mail_html = s.mail_html, template_mode = s.template_mode,
        brunch_profile_page = s.brunch_profile_page, publish_mode = s.publish_mode
    from public.block_private s
    where s.block_id = v_src.id and d.block_id = v_new.id;

  for v_question in
    select * from public.questions where block_id = v_src.id and not deleted order by index, created_at
  loop
    v_id := gen_random_uuid();
    v_question_map := v_question_map || jsonb_build_object(v_question.id::text, v_id);
    v_question.id := v_id;
    v_question.block_id := v_new.id;
    v_question.created_at := now();
    insert into public.questions select (v_question).*;
  end loop;

  insert into public.options (question_id, block_id, value, index)
    select (v_question_map ->> o.question_id::text)::uuid, v_new.id, o.value, o.index
    from public.options o
    where o.block_id = v_src.id and not o.deleted and v_question_map ? o.question_id::text;

  for v_ending in select * from public.endings where block_id = v_src.id order by index, created_at
  loop
    v_id := gen_random_uuid();
    v_ending_map := v_ending_map || jsonb_build_object(v_ending.id::text, v_id);
    v_ending.id := v_id;
    v_ending.block_id := v_new.id;
    v_ending.created_at := now();
    insert into public.endings select (v_ending).*;
  end loop;

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
  'Copies one of the caller''s blocks (name + '' Copy'', counters reset). Errors: block doesn''t exists, Block limit reached!';

revoke execute on function public.create_block(text), public.duplicate_block(uuid) from public, anon;
grant execute on function public.create_block(text), public.duplicate_block(uuid) to authenticated, service_role;

-- Visitor RPCs: what an embedded block reads and writes, each in one round trip.
--
-- They are security definer because visitors have no write rights on the reaction tables at
-- all: every write goes through these functions, which check the block's settings, validate the
-- input with the spec's messages, and keep counters in the same transaction. They run with an
-- empty search_path and read the caller from auth.uid() / auth.jwt() only.
--
-- Error codes (PostgREST turns them into HTTP statuses): P0001 invalid input (400),
-- PT401 not signed in, PT403 not allowed, PT404 not found, PT429 monthly quota reached.

-- ---------------------------------------------------------------------------------------------
-- helpers (schema private: not callable by clients)
-- ---------------------------------------------------------------------------------------------

-- A message as visitors see it (never the creator email, which is in message_private).
create function private.message_json(p_message public.messages, p_uid uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select to_jsonb(p_message) || jsonb_build_object(
    'liked', p_uid is not null and exists (
      select 1 from public.message_likes l where l.message_id = p_message.id and l.user_id = p_uid));
$$;

-- A top-level message with its replies, oldest reply first.
create function private.thread_json(p_message public.messages, p_uid uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.message_json(p_message, p_uid) || jsonb_build_object('replies', coalesce((
    select jsonb_agg(private.message_json(r, p_uid) order by r.created_at, r.id)
    from public.messages r where r.parent_id = p_message.id), '[]'::jsonb));
$$;

-- Top-level messages of a block created before p_before, newest first, with replies.
create function private.threads_json(p_block_id uuid, p_before timestamptz, p_limit integer, p_uid uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(private.thread_json(m, p_uid) order by m.created_at desc, m.id desc), '[]'::jsonb)
  from (
    select * from public.messages
    where block_id = p_block_id and parent_id is null
      and created_at < coalesce(p_before, 'infinity'::timestamptz)
    order by created_at desc, id desc
    limit greatest(1, least(coalesce(p_limit, 5), 50))
  ) m;
$$;

create function private.is_anonymous_caller()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false);
$$;

create function private.require_uid()
returns uuid
language plpgsql
stable
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception 'Please sign in' using errcode = 'PT401';
  end if;
  return v_uid;
end;
$$;

-- A published block; raises 'block doesn't exists' when missing or deactivated.
create function private.visible_block(p_block_id uuid)
returns public.blocks
language plpgsql
stable
set search_path = ''
as $$
declare
  v_block public.blocks;
begin
  select * into v_block from public.blocks where id = p_block_id and not deactivated;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  return v_block;
end;
$$;

create function private.check_visitor_fields(p_creator_name text, p_color text,
                                              p_photo_url text default null, p_home_url text default null,
                                              p_timezone text default null)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if char_length(p_creator_name) > 100 then
    raise exception 'Too long name' using errcode = 'P0001';
  end if;
  if char_length(p_color) > 32 then
    raise exception 'Invalid color' using errcode = 'P0001';
  end if;
  if char_length(p_photo_url) > 500 or char_length(p_home_url) > 500 then
    raise exception 'Too long URL' using errcode = 'P0001';
  end if;
  if char_length(p_timezone) > 64 then
    raise exception 'Invalid timezone' using errcode = 'P0001';
  end if;
end;
$$;

create function private.is_valid_email(p_email text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_email ~* '^[A-Z0-9._%+''-]+@[A-Z0-9.-]+\.[A-Z]{2,}$';
$$;

-- Records a visitor's reaction in the owner's audience (one member per visitor, last 20 events).
-- An email is attached only when no other member of the owner has it.
create function private.record_audience_event(p_block public.blocks, p_uid uuid, p_name text,
                                               p_photo_url text, p_color text, p_email text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_event jsonb := jsonb_build_object('id', p_block.id, 'type', p_block.type, 'created_at', now());
  v_email text := nullif(btrim(p_email), '');
begin
  if p_uid = p_block.owner_id then
    return;
  end if;
  if v_email is not null and (char_length(v_email) > 100 or not private.is_valid_email(v_email)
      or exists (select 1 from public.audience_members
                 where user_id = p_block.owner_id and email = v_email and creator_id is distinct from p_uid)) then
    v_email := null;
  end if;
  insert into public.audience_members as a
      (user_id, creator_id, creator_name, creator_photo_url, color, email, history, first_event)
    values (p_block.owner_id, p_uid, coalesce(left(p_name, 100), ''), left(p_photo_url, 500),
            left(p_color, 32), v_email, jsonb_build_array(v_event), v_event)
    on conflict (user_id, creator_id) do update
      set history = (case when jsonb_array_length(a.history) >= 20 then a.history - 0 else a.history end)
                    || excluded.history,
          creator_name = case when excluded.creator_name <> '' then excluded.creator_name else a.creator_name end,
          creator_photo_url = coalesce(excluded.creator_photo_url, a.creator_photo_url),
          color = coalesce(excluded.color, a.color),
          email = coalesce(a.email, excluded.email);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- reads
-- ---------------------------------------------------------------------------------------------

-- Everything a viewer needs to render a block in one call.
-- security definer: reads the caller's own likes and the block's content without evaluating
-- RLS per row; it returns public columns only.
create function public.get_block_view(p_block_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_questions jsonb := '[]'::jsonb;
  v_endings jsonb := '[]'::jsonb;
  v_messages jsonb := '[]'::jsonb;
begin
  if v_block.type in ('form', 'ab') then
    select coalesce(jsonb_agg(
             (to_jsonb(q) - 'trigger_letter_block') || jsonb_build_object('options', coalesce((
               select jsonb_agg(to_jsonb(o) order by o.index, o.created_at)
               from public.options o where o.question_id = q.id and not o.deleted), '[]'::jsonb))
             order by q.index, q.created_at), '[]'::jsonb)
      into v_questions
      from public.questions q where q.block_id = p_block_id and not q.deleted;
    select coalesce(jsonb_agg(
             to_jsonb(e) || jsonb_build_object('conditions', coalesce((
               select jsonb_agg(to_jsonb(c) order by c.index, c.created_at)
               from public.ending_conditions c where c.ending_id = e.id), '[]'::jsonb))
             order by e.index, e.created_at), '[]'::jsonb)
      into v_endings
      from public.endings e where e.block_id = p_block_id;
  elsif v_block.type in ('comment', 'qna') then
    v_messages := private.threads_json(p_block_id, null, 5, v_uid);
  end if;

  return jsonb_build_object(
    'block', to_jsonb(v_block),
    'questions', v_questions,
    'endings', v_endings,
    'messages', v_messages,
    'me', jsonb_build_object(
      'liked', v_uid is not null and exists (
        select 1 from public.responses r
        where r.block_id = p_block_id and r.kind = 'like' and r.creator_id = v_uid),
      'liked_message_ids', coalesce((
        select jsonb_agg(l.message_id)
        from public.message_likes l join public.messages m on m.id = l.message_id
        where l.user_id = v_uid and m.block_id = p_block_id), '[]'::jsonb)));
end;
$$;

comment on function public.get_block_view(uuid) is
  'Block, questions with options, endings with conditions, first 5 threads and the caller''s likes. Error: block doesn''t exists.';

-- Older top-level messages (before p_before, newest first) with their replies.
-- security definer: as get_block_view.
create function public.list_messages(p_block_id uuid, p_before timestamptz default null, p_limit integer default 5)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.visible_block(p_block_id);
  return private.threads_json(p_block_id, p_before, p_limit, auth.uid());
end;
$$;

comment on function public.list_messages(uuid, timestamptz, integer) is
  'Top-level messages created before p_before (default now), newest first, at most p_limit (1..50, default 5), each with replies.';

-- ---------------------------------------------------------------------------------------------
-- messages
-- ---------------------------------------------------------------------------------------------

create function private.check_message_content(p_content text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_content is null or btrim(p_content) = '' then
    raise exception 'Message cannot be empty' using errcode = 'P0001';
  end if;
  if char_length(p_content) > 500 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  return p_content;
end;
$$;

-- Posts a comment, question or reply. security definer: see the header.
create function public.post_message(
  p_block_id uuid,
  p_parent_id uuid default null,
  p_content text default null,
  p_creator_name text default null,
  p_color text default null,
  p_creator_photo_url text default null,
  p_home_url text default null,
  p_creator_email text default null,
  p_timezone text default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_parent public.messages;
  v_message public.messages;
  v_email text := nullif(btrim(p_creator_email), '');
begin
  if v_block.type not in ('comment', 'qna') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  if v_block.block_anonymous and private.is_anonymous_caller() then
    raise exception 'Please sign in to leave a message.' using errcode = 'PT403';
  end if;
  perform private.check_message_content(p_content);
  perform private.check_visitor_fields(p_creator_name, p_color, p_creator_photo_url, p_home_url, p_timezone);

  if p_parent_id is not null then
    select * into v_parent from public.messages where id = p_parent_id and block_id = p_block_id;
    if not found then
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
  end if;

  -- a resubmission of the same content by the same author within 3000 ms is ignored
  perform pg_advisory_xact_lock(hashtextextended(v_uid::text || p_block_id::text, 0));
  select * into v_message from public.messages
    where block_id = p_block_id and creator_id = v_uid and parent_id is not distinct from p_parent_id
      and content = p_content and created_at > clock_timestamp() - interval '3000 milliseconds'
    order by created_at desc limit 1;
  if found then
    return private.thread_json(v_message, v_uid);
  end if;

  insert into public.messages (block_id, parent_id, creator_id, creator_name, creator_photo_url, color,
                               home_url, content, timezone, created_at)
    values (p_block_id, p_parent_id, v_uid, coalesce(btrim(p_creator_name), ''), p_creator_photo_url,
            p_color, p_home_url, p_content, p_timezone, clock_timestamp())
    returning * into v_message;

  -- the notification email is kept only for top-level messages of blocks that ask for it
  if p_parent_id is null and v_block.allow_creator_email and v_email is not null
     and char_length(v_email) <= 50 and private.is_valid_email(v_email) then
    insert into public.message_private (message_id, block_id, creator_email)
      values (v_message.id, p_block_id, v_email);
  else
    v_email := null;
  end if;

  perform private.record_audience_event(v_block, v_uid, p_creator_name, p_creator_photo_url, p_color, v_email);
  return private.thread_json(v_message, v_uid);
end;
$$;

comment on function public.post_message(uuid, uuid, text, text, text, text, text, text, text) is
  'Posts a message or a one-level reply. Errors: Please sign in to leave a message., Message cannot be empty, Too long message, Replies are turned off, Only the owner can reply, block doesn''t exists.';

-- Loads a message for a change and checks its block is published.
create function private.message_for_update(p_message_id uuid)
returns public.messages
language plpgsql
set search_path = ''
as $$
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

-- Author edits their message. security definer: see the header.
create function public.edit_message(p_message_id uuid, p_content text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.message_for_update(p_message_id);
begin
  if v_message.creator_id <> v_uid then
    raise exception 'Only the author can edit this message' using errcode = 'PT403';
  end if;
  perform private.check_message_content(p_content);
  update public.messages set content = p_content, is_edited = true
    where id = p_message_id returning * into v_message;
  return private.message_json(v_message, v_uid);
end;
$$;

-- Author or block owner deletes a message (with its replies). security definer: see the header.
create function public.delete_message(p_message_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.message_for_update(p_message_id);
begin
  if v_message.creator_id <> v_uid
     and not exists (select 1 from public.blocks where id = v_message.block_id and owner_id = v_uid) then
    raise exception 'Only the author or the block owner can delete this message' using errcode = 'PT403';
  end if;
  delete from public.messages where id = p_message_id;
  return jsonb_build_object('id', p_message_id, 'deleted', true);
end;
$$;

-- Likes or unlikes a message for the caller; p_liked sets the state instead of toggling.
-- security definer: see the header.
create function public.toggle_message_like(p_message_id uuid, p_liked boolean default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages;
  v_liked boolean;
begin
  select m.* into v_message from public.messages m
    join public.blocks b on b.id = m.block_id and not b.deactivated
    where m.id = p_message_id;
  if not found then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  if not (select allow_reaction from public.blocks where id = v_message.block_id) then
    raise exception 'Reactions are turned off' using errcode = 'PT403';
  end if;

  if p_liked is null or p_liked then
    insert into public.message_likes (message_id, user_id) values (p_message_id, v_uid)
      on conflict do nothing;
    v_liked := found or p_liked is not null;
  end if;
  if p_liked = false or not v_liked then
    delete from public.message_likes where message_id = p_message_id and user_id = v_uid;
    v_liked := false;
  end if;

  return jsonb_build_object('liked', v_liked,
    'like_count', (select like_count from public.messages where id = p_message_id));
end;
$$;

-- Block owner resolves or reopens a top-level message. security definer: see the header.
create function public.set_message_resolved(p_message_id uuid, p_resolved boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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

-- ---------------------------------------------------------------------------------------------
-- like, button, form and ab
-- ---------------------------------------------------------------------------------------------

-- One like per visitor and like block; p_liked sets the state instead of toggling.
-- like_count is kept by the responses triggers. security definer: see the header.
create function public.toggle_block_like(p_block_id uuid, p_creator_name text default null,
                                         p_color text default null, p_liked boolean default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_liked boolean;
begin
  if v_block.type <> 'like' then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color);

  if p_liked is null or p_liked then
    insert into public.responses (block_id, kind, creator_id, creator_name, color, is_like)
      values (p_block_id, 'like', v_uid, p_creator_name, p_color, true)
      on conflict (block_id, creator_id) where kind = 'like' do nothing;
    v_liked := found;
    if v_liked then
      perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
    end if;
    v_liked := v_liked or p_liked is not null;
  end if;
  if p_liked = false or not v_liked then
    delete from public.responses where block_id = p_block_id and kind = 'like' and creator_id = v_uid;
    v_liked := false;
  end if;

  return jsonb_build_object('liked', v_liked,
    'like_count', (select like_count from public.blocks where id = p_block_id));
end;
$$;

-- Records a click on a button block. security definer: see the header.
create function public.record_button_click(p_block_id uuid, p_creator_name text default null,
                                           p_color text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
begin
  if v_block.type <> 'button' then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color);
  insert into public.responses (block_id, kind, creator_id, creator_name, color)
    values (p_block_id, 'button', v_uid, p_creator_name, p_color);
  perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
  return jsonb_build_object('response_count', (select response_count from public.blocks where id = p_block_id));
end;
$$;

-- Submits a form or ab response. p_answers maps question id to the answer: a string for text
-- questions, an option id or an array of option ids for poll and ab (an object {"value": ...}
-- is accepted too). Validates with the spec's rules, counts the owner's monthly quota, stores
-- the response and increments the chosen options' counts in one transaction.
-- security definer: see the header.
create function public.submit_response(p_block_id uuid, p_answers jsonb, p_creator_name text default null,
                                       p_color text default null, p_timezone text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
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
  v_month date := (date_trunc('month', now()))::date;
  v_options jsonb;
begin
  if v_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
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
    v_text := nullif(btrim(v_raw #>> '{}'), '');
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

  -- the owner's monthly quota; a new calendar month starts from zero
  update public.profiles
    set response_monthly_count = case when response_month < v_month then 1 else response_monthly_count + 1 end,
        response_month = v_month
    where id = v_block.owner_id
      and (response_month < v_month or response_monthly_count < response_monthly_limit);
  if not found then
    raise exception 'Monthly response limit reached' using errcode = 'PT429';
  end if;

  insert into public.responses (block_id, kind, creator_id, creator_name, color, timezone, answers)
    values (p_block_id, v_block.type::text::public.response_kind, v_uid,
            coalesce(v_name, p_creator_name), p_color, p_timezone, v_answers)
    on conflict (block_id, creator_id) where kind = 'ab' do nothing
    returning id into v_response_id;
  if v_response_id is null then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;

  with bumped as (
    update public.options set response_count = response_count + 1
      where id = any (v_all_option_ids) and block_id = p_block_id
      returning id, response_count
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'response_count', response_count)), '[]'::jsonb)
    into v_options from bumped;

  perform private.record_audience_event(v_block, v_uid, coalesce(v_name, p_creator_name), null, p_color, v_email);

  return jsonb_build_object(
    'id', v_response_id,
    'response_count', (select response_count from public.blocks where id = p_block_id),
    'options', v_options);
end;
$$;

comment on function public.submit_response(uuid, jsonb, text, text, text) is
  'Submits a form or ab response. Errors: Required, Too long message, Invalid email address., Invalid phone number, Not a number, Choose one option, Invalid option, Already voted, Monthly response limit reached, block doesn''t exists.';

-- ---------------------------------------------------------------------------------------------
-- execute rights: reads for everyone, writes for signed-in (including anonymous) users
-- ---------------------------------------------------------------------------------------------

revoke execute on function
  public.get_block_view(uuid),
  public.list_messages(uuid, timestamptz, integer),
  public.post_message(uuid, uuid, text, text, text, text, text, text, text),
  public.edit_message(uuid, text),
  public.delete_message(uuid),
  public.toggle_message_like(uuid, boolean),
  public.set_message_resolved(uuid, boolean),
  public.toggle_block_like(uuid, text, text, boolean),
  public.record_button_click(uuid, text, text),
  public.submit_response(uuid, jsonb, text, text, text)
from public, anon;

grant execute on function
  public.get_block_view(uuid),
  public.list_messages(uuid, timestamptz, integer)
to anon, authenticated, service_role;

grant execute on function
  public.post_message(uuid, uuid, text, text, text, text, text, text, text),
  public.edit_message(uuid, text),
  public.delete_message(uuid),
  public.toggle_message_like(uuid, boolean),
  public.set_message_resolved(uuid, boolean),
  public.toggle_block_like(uuid, text, text, boolean),
  public.record_button_click(uuid, text, text),
  public.submit_response(uuid, jsonb, text, text, text)
to authenticated, service_role;

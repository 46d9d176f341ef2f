-- Whitespace-only text counts as empty, as it does in the SDK and the shared zod schemas.
--
-- btrim() strips only the space character, so a message of "\n\t" or a required answer of a
-- non-breaking space passed the server's "Message cannot be empty" and "Required" checks while
-- the elements refuse them (JavaScript's trim() strips every Unicode space and line
-- terminator). A hostile visitor calling the RPCs directly could post blank messages and skip
-- required questions (supabase/tests/hostile-visitor.test.ts). Fix forward:
-- private.trim_whitespace() strips exactly what String.prototype.trim strips, and both checks
-- use it. Text answers are stored trimmed the same way (they were trimmed of spaces before).

-- The characters of JavaScript's String.prototype.trim: tab, line tab, form feed, LF, CR,
-- space, NBSP, U+1680, U+2000..U+200A, line and paragraph separators, U+202F, U+205F, U+3000
-- and the BOM.
create function private.trim_whitespace(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select regexp_replace(
    p_text,
    '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g');
$$;

comment on function private.trim_whitespace(text) is
  'p_text without leading and trailing whitespace, as JavaScript''s String.prototype.trim().';

create or replace function private.check_message_content(p_content text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
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

-- submit_response as in 20261121000500_visitor_functions.sql; only the trim of text answers
-- changed (security definer: see there).
create or replace function public.submit_response(p_block_id uuid, p_answers jsonb, p_creator_name text default null,
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

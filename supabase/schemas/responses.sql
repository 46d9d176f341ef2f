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

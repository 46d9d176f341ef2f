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

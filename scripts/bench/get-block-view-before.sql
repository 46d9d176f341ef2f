-- get_block_view as it was before the one-statement view (issue 13), kept for
-- `npm run bench:cache` ("Cacheable reads": the block view on a big block, before and now). Its
-- last migration, 20261123170100_visitor_rpcs_with_limits.sql, went when the migrations were
-- squashed into the baseline; this is its body unchanged but for the name: a temporary function
-- of the bench's own session (pg_temp), never part of the schema. It calls private functions
-- that still exist (visible_block, threads_json, visible_thread_json, public_block_json): if one
-- changes its signature, the bench fails when it calls it, not silently.
create function pg_temp.get_block_view_before(p_block_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_owner boolean := v_uid is not null and v_uid = v_block.owner_id;
  v_questions jsonb := '[]'::jsonb;
  v_endings jsonb := '[]'::jsonb;
  v_messages jsonb := '[]'::jsonb;
  v_vote jsonb;
  v_reported jsonb := '[]'::jsonb;
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
    -- Most blocks have nothing held, hidden or pinned: then the plain list of before (one probe
    -- of a partial index that is empty for them says so). Otherwise the pinned threads first (at
    -- most 10) and the five newest others the caller may see, in one statement; the visibility
    -- test is written out (a function with SET search_path is never inlined).
    if not exists (select 1 from public.messages
                   where block_id = p_block_id and (status <> 'published' or pinned_at is not null)) then
      -- '': the block's own page (one thread per page came later, with a page key argument)
      v_messages := private.threads_json(p_block_id, null, 5, v_uid, '');
    else
      select coalesce(jsonb_agg(private.visible_thread_json(m, v_uid, v_owner)
                                order by m.pinned_at desc nulls last, m.created_at desc, m.id desc), '[]'::jsonb)
        into v_messages
        from ((select * from public.messages m
               where m.block_id = p_block_id and m.pinned_at is not null and m.parent_id is null
                 and (v_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = v_uid))
               order by m.pinned_at desc limit 10)
              union all
              (select * from public.messages m
               where m.block_id = p_block_id and m.parent_id is null and m.pinned_at is null
                 and (v_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = v_uid))
               order by m.created_at desc, m.id desc limit 5)) m;
    end if;
    if v_uid is not null then
      select coalesce(jsonb_agg(r.message_id), '[]'::jsonb) into v_reported
        from public.message_reports r where r.user_id = v_uid and r.block_id = p_block_id;
    end if;
  end if;

  -- the caller's ab response (at most one), by the unique index on (block_id, creator_id)
  if v_block.type = 'ab' and v_uid is not null then
    select coalesce(jsonb_agg(o.id order by o.id), '[]'::jsonb)
      into v_vote
      from public.responses r
      cross join lateral jsonb_each(r.answers) a(question_id, answer)
      cross join lateral jsonb_array_elements_text(
        case when jsonb_typeof(a.answer -> 'option_ids') = 'array' then a.answer -> 'option_ids'
             else '[]'::jsonb end) o(id)
      where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = v_uid;
    if v_vote = '[]'::jsonb then
      v_vote := null;
    end if;
  end if;

  return jsonb_build_object(
    'block', private.public_block_json(v_block),
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
        where l.user_id = v_uid and m.block_id = p_block_id), '[]'::jsonb),
      'reported_message_ids', v_reported,
      'vote', v_vote));
end;
$$;

-- get_block_view tells a visitor their own A/B vote.
--
-- An A/B block takes one vote per visitor (responses_one_ab_vote_per_visitor_idx), but the view
-- did not say whether the caller had voted: after a reload the element showed the two buttons
-- again and a click answered "Already voted". `me.vote` is now the option ids the caller chose
-- (an array, from their ab response), or null: not an ab block, no session, or no vote yet.
-- Everything else is as in 20261121000500_visitor_functions.sql (security definer: see there).

create or replace function public.get_block_view(p_block_id uuid)
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
  v_vote jsonb;
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
        where l.user_id = v_uid and m.block_id = p_block_id), '[]'::jsonb),
      'vote', v_vote));
end;
$$;

comment on function public.get_block_view(uuid) is
  'Block, questions with options, endings with conditions, first 5 threads and the caller''s own state (me: liked, liked_message_ids, vote = option ids of their A/B vote or null). Error: block doesn''t exists.';

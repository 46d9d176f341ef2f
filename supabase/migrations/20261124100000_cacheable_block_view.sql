-- Reads a CDN can cache (issue 13).
--
-- The block view splits in two:
--   get_block_public(p_block_id)  the same answer for every caller: the block's public settings
--                                 and counts, questions and endings, the pinned and first five
--                                 published threads. STABLE, so PostgREST answers it on GET, with
--                                 a Cache-Control header that lets a shared cache (a CDN) keep it a
--                                 short time and serve it stale while it revalidates.
--   get_block_me(p_block_id, p_message_ids, p_since)
--                                 the caller's own state: block like, A/B vote, reports, which of
--                                 the messages on screen they like, and the messages they may see
--                                 that the public page lacks (their own, held or too new for the
--                                 cached page; for the owner, the held and hidden ones). Called by
--                                 the elements only when the visitor already has a session.
-- get_block_view stays (older embeds, the SDK's ab vote recovery) and answers as before, built
-- in one statement; its liked list now covers only the messages it returns (a visitor with
-- hundreds of likes on a big block no longer scans all of them).
--
-- Counters: likes, replies and responses update counters on messages, blocks and options in the
-- visitor's transaction. No indexed column changes, so the updates can be HOT if the page has
-- room: a fillfactor below 100 leaves that room on pages written from now on.

alter table public.messages set (fillfactor = 85);
alter table public.blocks set (fillfactor = 70);
alter table public.options set (fillfactor = 80);

-- ---------------------------------------------------------------------------------------------
-- the view in one statement
-- ---------------------------------------------------------------------------------------------

-- The option ids of the caller's A/B vote on an ab block (by the unique index on
-- (block_id, creator_id)), or null.
create function private.ab_vote_json(p_block_id uuid, p_type public.block_type, p_uid uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case when p_type = 'ab' and p_uid is not null then (
    select jsonb_agg(o.id order by o.id)
    from public.responses r
    cross join lateral jsonb_each(r.answers) a(question_id, answer)
    cross join lateral jsonb_array_elements_text(
      case when jsonb_typeof(a.answer -> 'option_ids') = 'array' then a.answer -> 'option_ids'
           else '[]'::jsonb end) o(id)
    where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = p_uid) end;
$$;

-- The block view of an active block, or null when there is none: public settings, form content,
-- the pinned (at most 10) and the five newest other top-level messages the caller may see with
-- their replies. p_public: the answer for everyone (published messages only, no `liked`, no `me`;
-- p_uid must be null). Otherwise `liked` on each message and `me` (liked: the block like;
-- liked_message_ids: among the messages returned; reported_message_ids; vote).
-- One statement: the visibility test is written out (a function with SET search_path is never
-- inlined) and the caller's likes are probed by primary key for the returned messages only.
create function private.block_view_json(p_block_id uuid, p_uid uuid, p_public boolean)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with blk as (
    select b.* from public.blocks b where b.id = p_block_id and not b.deactivated
  ),
  viewer as (
    select p_uid is not null and p_uid = blk.owner_id as owner,
           blk.type in ('comment', 'qna') as threads
    from blk
  ),
  top as (
    (select m.* from public.messages m, viewer v
     where v.threads and m.block_id = p_block_id and m.pinned_at is not null and m.parent_id is null
       and (v.owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
     order by m.pinned_at desc limit 10)
    union all
    (select m.* from public.messages m, viewer v
     where v.threads and m.block_id = p_block_id and m.parent_id is null and m.pinned_at is null
       and (v.owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
     order by m.created_at desc, m.id desc limit 5)
  ),
  rep as (
    select r.* from top t join public.messages r on r.parent_id = t.id, viewer v
    where v.owner or r.status = 'published' or (r.status = 'held' and r.creator_id = p_uid)
  ),
  liked as (
    select l.message_id from public.message_likes l
    where p_uid is not null and l.user_id = p_uid
      and l.message_id in (select id from top union all select id from rep)
  )
  select jsonb_build_object(
    'block', private.public_block_json(blk),
    'questions', case when blk.type in ('form', 'ab') then coalesce((
      select jsonb_agg(
               (to_jsonb(q) - 'trigger_letter_block') || jsonb_build_object('options', coalesce((
                 select jsonb_agg(to_jsonb(o) order by o.index, o.created_at)
                 from public.options o where o.question_id = q.id and not o.deleted), '[]'::jsonb))
               order by q.index, q.created_at)
      from public.questions q where q.block_id = p_block_id and not q.deleted), '[]'::jsonb)
      else '[]'::jsonb end,
    'endings', case when blk.type in ('form', 'ab') then coalesce((
      select jsonb_agg(
               to_jsonb(e) || jsonb_build_object('conditions', coalesce((
                 select jsonb_agg(to_jsonb(c) order by c.index, c.created_at)
                 from public.ending_conditions c where c.ending_id = e.id), '[]'::jsonb))
               order by e.index, e.created_at)
      from public.endings e where e.block_id = p_block_id), '[]'::jsonb)
      else '[]'::jsonb end,
    'messages', coalesce((
      select jsonb_agg(
               to_jsonb(t)
               || case when p_public then '{}'::jsonb
                       else jsonb_build_object('liked', exists (select 1 from liked where message_id = t.id)) end
               || jsonb_build_object('replies', coalesce((
                    select jsonb_agg(
                             to_jsonb(r)
                             || case when p_public then '{}'::jsonb
                                     else jsonb_build_object('liked', exists (select 1 from liked where message_id = r.id)) end
                             order by r.created_at, r.id)
                    from rep r where r.parent_id = t.id), '[]'::jsonb))
               order by t.pinned_at desc nulls last, t.created_at desc, t.id desc)
      from top t), '[]'::jsonb)
  )
  || case when p_public then '{}'::jsonb else jsonb_build_object('me', jsonb_build_object(
    'liked', p_uid is not null and exists (
      select 1 from public.responses r
      where r.block_id = p_block_id and r.kind = 'like' and r.creator_id = p_uid),
    'liked_message_ids', coalesce((select jsonb_agg(message_id) from liked), '[]'::jsonb),
    'reported_message_ids', case when p_uid is not null and blk.type in ('comment', 'qna') then coalesce((
      select jsonb_agg(r.message_id) from public.message_reports r
      where r.user_id = p_uid and r.block_id = p_block_id), '[]'::jsonb) else '[]'::jsonb end,
    'vote', private.ab_vote_json(blk.id, blk.type, p_uid))) end
  from blk;
$$;


-- ---------------------------------------------------------------------------------------------
-- public reads
-- ---------------------------------------------------------------------------------------------

-- Everything a viewer needs to render a block in one call, with the caller's own state.
-- security definer: reads the caller's own likes and reports and the block's content without
-- evaluating RLS per row; it returns public columns only.
create or replace function public.get_block_view(p_block_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_view jsonb := private.block_view_json(p_block_id, auth.uid(), false);
begin
  if v_view is null then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  -- the caller's own answer (it is STABLE, so also a GET): never kept by a shared cache
  perform set_config('response.headers', '[{"Cache-Control": "private, no-store"}]', true);
  return v_view;
end;
$$;

comment on function public.get_block_view(uuid) is
  'The block''s public settings, questions with options, endings with conditions, the pinned and the first 5 threads the caller may see, and the caller''s own state (me: liked, liked_message_ids among the returned messages, reported_message_ids, vote). Elements read get_block_public (GET, cacheable) and get_block_me instead. Error: block doesn''t exists.';

-- The public part of the block view: the same answer for every caller (no auth.uid() anywhere),
-- so a shared cache may keep it. STABLE: PostgREST answers it on GET (read-only transaction).
-- security definer: the block's content is read without RLS; only published messages and the
-- public columns come out.
create function public.get_block_public(p_block_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_view jsonb := private.block_view_json(p_block_id, null, true);
begin
  if v_view is null then
    -- a missing block may be created soon (an embed pasted before the block is saved): no cache
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  -- a CDN or proxy may keep it 10 s and serve it stale for 60 s more while it fetches it again;
  -- the browser keeps it 10 s too (the visitor's own new messages come with get_block_me)
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=10, stale-while-revalidate=60"}]', true);
  return v_view;
end;
$$;

comment on function public.get_block_public(uuid) is
  'The public part of the block view, the same for every caller (cacheable GET, Cache-Control public max-age=10 stale-while-revalidate=60): block settings and counts, questions and endings, the pinned and first 5 published threads. Error: block doesn''t exists.';

-- The caller's own part of the block view, for the messages on screen. p_message_ids: the ids of
-- the messages shown (top-level and replies, at most 500 are looked at); p_since: the creation
-- time of the oldest top-level message of the public page when it was full (null: the page shows
-- all). Answers me (liked, liked_message_ids among p_message_ids and the messages returned here,
-- reported_message_ids, vote) and the messages the caller may see that the public page lacks:
-- `messages`, top-level threads not published or the caller's own, created since p_since (or
-- pinned), at most 20; `replies`, replies to the given messages, not published or the caller's
-- own, at most 200. For a visitor: their own messages (held ones, or ones newer than a cached
-- page); for the owner: also everyone's held and hidden ones. Also `block` (the public settings
-- with the counts as they are now) and, for ab blocks, `questions` with the current option counts:
-- the public copy may be cached, and a visitor's own vote or like must not show beside older counts.
-- security definer: as get_block_view.
create function public.get_block_me(p_block_id uuid, p_message_ids uuid[] default '{}',
                                    p_since timestamptz default null)
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
  v_ids uuid[] := coalesce(p_message_ids[1:500], '{}');
  v_result jsonb;
  -- the counts as they are now: the public copy may be cached, and the caller's own like, vote or
  -- message must not show beside counts from before it
  v_fresh jsonb := jsonb_build_object('block', private.public_block_json(v_block))
    || case when v_block.type = 'ab'
            then jsonb_build_object('questions', private.block_view_json(p_block_id, null, true) -> 'questions')
            else '{}'::jsonb end;
begin
  -- the caller's own answer (a GET too, being STABLE): never kept by a shared cache
  perform set_config('response.headers', '[{"Cache-Control": "private, no-store"}]', true);
  if v_uid is null then
    return v_fresh || jsonb_build_object('me', jsonb_build_object('liked', false, 'liked_message_ids', '[]'::jsonb,
      'reported_message_ids', '[]'::jsonb, 'vote', null), 'messages', '[]'::jsonb, 'replies', '[]'::jsonb);
  end if;
  with extra_top as (
    select m.* from public.messages m
    where v_block.type in ('comment', 'qna') and m.block_id = p_block_id and m.parent_id is null
      and (m.creator_id = v_uid or (v_owner and m.status <> 'published'))
      and (v_owner or m.status = 'published' or m.status = 'held')
      and (p_since is null or m.created_at >= p_since or m.pinned_at is not null)
      and m.id <> all (v_ids)
    order by m.created_at desc, m.id desc limit 20
  ),
  extra_top_replies as (
    select r.* from extra_top t join public.messages r on r.parent_id = t.id
    where v_owner or r.status = 'published' or (r.status = 'held' and r.creator_id = v_uid)
  ),
  extra_replies as (
    select r.* from public.messages r
    where v_block.type in ('comment', 'qna') and r.parent_id = any (v_ids) and r.block_id = p_block_id
      and (r.creator_id = v_uid or (v_owner and r.status <> 'published'))
      and (v_owner or r.status = 'published' or r.status = 'held')
      and r.id <> all (v_ids)
    order by r.created_at, r.id limit 200
  ),
  liked as (
    select l.message_id from public.message_likes l
    where l.user_id = v_uid
      and l.message_id in (select unnest(v_ids) union all select id from extra_top
                           union all select id from extra_top_replies union all select id from extra_replies)
  )
  select jsonb_build_object(
    'me', jsonb_build_object(
      'liked', exists (
        select 1 from public.responses r
        where r.block_id = p_block_id and r.kind = 'like' and r.creator_id = v_uid),
      'liked_message_ids', coalesce((select jsonb_agg(message_id) from liked), '[]'::jsonb),
      'reported_message_ids', case when v_block.type in ('comment', 'qna') then coalesce((
        select jsonb_agg(r.message_id) from public.message_reports r
        where r.user_id = v_uid and r.block_id = p_block_id), '[]'::jsonb) else '[]'::jsonb end,
      'vote', private.ab_vote_json(p_block_id, v_block.type, v_uid)),
    'messages', coalesce((
      select jsonb_agg(
               to_jsonb(t) || jsonb_build_object(
                 'liked', exists (select 1 from liked where message_id = t.id),
                 'replies', coalesce((
                   select jsonb_agg(to_jsonb(r) || jsonb_build_object(
                            'liked', exists (select 1 from liked where message_id = r.id))
                            order by r.created_at, r.id)
                   from extra_top_replies r where r.parent_id = t.id), '[]'::jsonb))
               order by t.created_at desc, t.id desc)
      from extra_top t), '[]'::jsonb),
    'replies', coalesce((
      select jsonb_agg(to_jsonb(r) || jsonb_build_object(
               'liked', exists (select 1 from liked where message_id = r.id))
               order by r.created_at, r.id)
      from extra_replies r), '[]'::jsonb))
    into v_result;
  return v_fresh || v_result;
end;
$$;

comment on function public.get_block_me(uuid, uuid[], timestamptz) is
  'The caller''s own part of the block view for the messages on screen (p_message_ids, at most 500; p_since: oldest top-level of a full public page): block (current counts), questions (ab: current option counts), me (liked, liked_message_ids, reported_message_ids, vote), messages (own or, for the owner, unpublished threads since p_since, at most 20) and replies (own or unpublished replies to the given messages, at most 200). Error: block doesn''t exists.';

revoke all on function public.get_block_public(uuid) from public;
grant execute on function public.get_block_public(uuid) to anon, authenticated, service_role;
revoke all on function public.get_block_me(uuid, uuid[], timestamptz) from public;
grant execute on function public.get_block_me(uuid, uuid[], timestamptz) to anon, authenticated, service_role;
revoke all on function private.block_view_json(uuid, uuid, boolean) from public;
revoke all on function private.ab_vote_json(uuid, public.block_type, uuid) from public;

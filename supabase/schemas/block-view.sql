-- What an embedded block reads (issue 13: reads a CDN can cache).
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
--   get_block_view                both in one statement (older embeds, the SDK's ab vote recovery)
--   list_messages                 the next page of threads
--   get_block_counts              the public counts of up to 100 blocks (an index page)
--   get_block_card                the fields a link preview (Open Graph tags of /block) needs
-- Held and hidden messages are never served to others.

-- A message as visitors see it (never the creator email, which is in message_private), with its
-- exact counts (private.live_message_json, as every message this file serves).
create function private.message_json(p_message public.messages, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select private.live_message_json(to_jsonb(p_message)) || jsonb_build_object(
    'liked', p_uid is not null and exists (
      select 1 from public.message_likes l where l.message_id = p_message.id and l.user_id = p_uid));
$$;
revoke execute on function private.message_json(public.messages, uuid) from public;

-- A top-level message with its replies, oldest reply first.
create function private.thread_json(p_message public.messages, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select private.message_json(p_message, p_uid) || jsonb_build_object('replies', coalesce((
    select jsonb_agg(private.message_json(r, p_uid) order by r.created_at, r.id)
    from public.messages r where r.parent_id = p_message.id), '[]'::jsonb));
$$;
revoke execute on function private.thread_json(public.messages, uuid) from public;

-- Top-level messages of a block created before p_before, newest first, with replies.
create function private.threads_json(p_block_id uuid, p_before timestamptz, p_limit integer, p_uid uuid,
                                     p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(private.thread_json(m, p_uid) order by m.created_at desc, m.id desc), '[]'::jsonb)
  from (
    select * from public.messages
    where block_id = p_block_id and page_key = p_page_key and parent_id is null
      and created_at < coalesce(p_before, 'infinity'::timestamptz)
    order by created_at desc, id desc
    limit greatest(1, least(coalesce(p_limit, 5), 50))
  ) m;
$$;
revoke execute on function private.threads_json(uuid, timestamp with time zone, integer, uuid, text) from public;

-- A message the caller may see: published, their own held one, or anything for the owner. (The
-- list queries write the same test out: a function with SET search_path is never inlined.)
create function private.message_visible(p_message public.messages, p_uid uuid, p_owner boolean)
returns boolean language sql immutable set search_path = '' as $$
  select p_owner or p_message.status = 'published'
      or (p_message.status = 'held' and p_message.creator_id = p_uid);
$$;
revoke execute on function private.message_visible(public.messages, uuid, boolean) from public;

-- A message for a visitor's change (edit, like, reply, report): on a published block and
-- visible to the caller, else 'message doesn''t exists'.
create function private.visible_message(p_message_id uuid, p_uid uuid, p_lock boolean default false)
returns public.messages language plpgsql set search_path = '' as $$
declare
  v_message public.messages;
  v_owner uuid;
begin
  if p_lock then
    select m.* into v_message from public.messages m where m.id = p_message_id for update;
  else
    select m.* into v_message from public.messages m where m.id = p_message_id;
  end if;
  select owner_id into v_owner from public.blocks where id = v_message.block_id and not deactivated;
  if v_message.id is null or v_owner is null
     or not private.message_visible(v_message, p_uid, v_owner = p_uid) then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  return v_message;
end;
$$;
revoke execute on function private.visible_message(uuid, uuid, boolean) from public;

-- A top-level message with the replies the caller may see, oldest reply first.
create function private.visible_thread_json(p_message public.messages, p_uid uuid, p_owner boolean)
returns jsonb language sql stable set search_path = '' as $$
  select private.message_json(p_message, p_uid) || jsonb_build_object('replies', coalesce((
    select jsonb_agg(private.message_json(r, p_uid) order by r.created_at, r.id)
    from public.messages r
    where r.parent_id = p_message.id
      and (p_owner or r.status = 'published' or (r.status = 'held' and r.creator_id = p_uid))), '[]'::jsonb));
$$;
revoke execute on function private.visible_thread_json(public.messages, uuid, boolean) from public;

-- Top-level messages of a block created before p_before, newest first, pinned ones excluded
-- (get_block_view sends them first), each with its replies: those the caller may see.
create function private.visible_threads_json(p_block_id uuid, p_before timestamptz, p_limit integer, p_uid uuid,
                                             p_owner boolean, p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(private.visible_thread_json(m, p_uid, p_owner) order by m.created_at desc, m.id desc), '[]'::jsonb)
  from (
    select * from public.messages m
    where m.block_id = p_block_id and m.page_key = p_page_key and m.parent_id is null and m.pinned_at is null
      and (p_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
      and m.created_at < coalesce(p_before, 'infinity'::timestamptz)
    order by m.created_at desc, m.id desc
    limit greatest(1, least(coalesce(p_limit, 5), 50))
  ) m;
$$;
revoke execute on function private.visible_threads_json(uuid, timestamp with time zone, integer, uuid, boolean, text) from public;

-- Older top-level messages (before p_before, newest first, not pinned) with their replies: the
-- ones the caller may see. security definer: as get_block_view.
create function public.list_messages(p_block_id uuid, p_before timestamptz default null, p_limit integer default 5,
                                     p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_page text := private.check_page_key(v_block, p_page_key);
begin
  -- the fast path of get_block_view: nothing held, hidden or pinned on the block
  if not exists (select 1 from public.messages
                 where block_id = p_block_id and (status <> 'published' or pinned_at is not null)) then
    return private.threads_json(p_block_id, p_before, p_limit, v_uid, v_page);
  end if;
  return private.visible_threads_json(p_block_id, p_before, p_limit, v_uid,
                                      v_uid is not null and v_uid = v_block.owner_id, v_page);
end;
$$;
comment on function public.list_messages(uuid, timestamptz, integer, text) is
  'Top-level messages the caller may see created before p_before (default now), newest first, pinned ones excluded, at most p_limit (1..50, default 5), each with replies; of one page''s thread with p_page_key.';
revoke execute on function public.list_messages(uuid, timestamp with time zone, integer, text) from public;

-- The option ids of the caller's A/B vote on an ab block (by the unique index on
-- (block_id, creator_id)), or null.
create function private.ab_vote_json(p_block_id uuid, p_type public.block_type, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select case when p_type = 'ab' and p_uid is not null then (
    select jsonb_agg(o.id order by o.id)
    from public.responses r
    cross join lateral jsonb_each(r.answers) a(question_id, answer)
    cross join lateral jsonb_array_elements_text(
      case when jsonb_typeof(a.answer -> 'option_ids') = 'array' then a.answer -> 'option_ids'
           else '[]'::jsonb end) o(id)
    where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = p_uid) end;
$$;
revoke execute on function private.ab_vote_json(uuid, public.block_type, uuid) from public;

-- {"vote_held": true} when the caller's A/B vote is held by escalation (issue 17: kept, counted
-- once the owner approves it; the element says so), else {} (the answer's shape is unchanged for
-- every other vote).
create function private.ab_vote_held(p_block_id uuid, p_type public.block_type, p_uid uuid)
returns jsonb language sql stable set search_path = '' as $$
  select case when p_type = 'ab' and p_uid is not null and exists (
      select 1 from public.responses r
      where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = p_uid and r.held)
    then '{"vote_held": true}'::jsonb else '{}'::jsonb end;
$$;
revoke execute on function private.ab_vote_held(uuid, public.block_type, uuid) from public;

-- The public settings of a block: what the elements show a visitor. Never tags, the unread
-- count, timestamps, the trust settings or the operator's overrides. Counts are the row's plus
-- the deltas not folded yet (counters.sql).
create or replace function private.public_block_json(p_block public.blocks)
returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', p_block.id, 'owner_id', p_block.owner_id, 'type', p_block.type, 'name', p_block.name,
    'theme', p_block.theme, 'custom_color', p_block.custom_color,
    'custom_label_color', p_block.custom_label_color, 'custom_label_name', p_block.custom_label_name,
    'welcome_message', p_block.welcome_message, 'placeholder', p_block.placeholder,
    'submit_button_text', p_block.submit_button_text, 'language', p_block.language,
    'block_anonymous', p_block.block_anonymous, 'allow_reaction', p_block.allow_reaction,
    'allow_reply', p_block.allow_reply, 'admin_only_reply', p_block.admin_only_reply,
    'show_count', p_block.show_count, 'show_profile', p_block.show_profile,
    'owner_name', p_block.owner_name, 'owner_photo_url', p_block.owner_photo_url,
    'qna_subject', p_block.qna_subject, 'response_count', c.response_count,
    'like_count', c.like_count, 'align', p_block.align, 'button_text', p_block.button_text,
    'url_to_open', p_block.url_to_open, 'open_graph', p_block.open_graph,
    'allow_creator_email', p_block.allow_creator_email, 'deactivated', p_block.deactivated,
    -- the oldest transaction still running when this was read (the calling query's snapshot):
    -- a live change from one before it is in this view already (realtime.sql)
    'read_xmin', pg_snapshot_xmin(pg_current_snapshot())::text::bigint,
    -- every block may escalate to the platform's captcha (issue 17); a paid block asks for it
    -- at a visitor's own limit too
    'captcha', case when p_block.captcha
                      or coalesce((private.setting('limits.escalation', 'true'::jsonb) #>> '{}')::boolean, true)
                    then private.captcha_config() end)
  from private.with_live_counts(p_block) c;
$$;
revoke execute on function private.public_block_json(public.blocks) from public;

-- The block view of an active block, or null when there is none: public settings, form content,
-- the pinned (at most 10) and the five newest other top-level messages the caller may see with
-- their replies. p_public: the answer for everyone (published messages only, no `liked`, no `me`;
-- p_uid must be null). Otherwise `liked` on each message and `me` (liked: the block like;
-- liked_message_ids: among the messages returned; reported_message_ids; vote).
-- One statement: the visibility test is written out (a function with SET search_path is never
-- inlined) and the caller's likes are probed by primary key for the returned messages only.
create function private.block_view_json(p_block_id uuid, p_uid uuid, p_public boolean, p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
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
     where v.threads and m.block_id = p_block_id and m.page_key = p_page_key
       and m.pinned_at is not null and m.parent_id is null
       and (v.owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
     order by m.pinned_at desc limit 10)
    union all
    (select m.* from public.messages m, viewer v
     where v.threads and m.block_id = p_block_id and m.page_key = p_page_key
       and m.parent_id is null and m.pinned_at is null
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
    'block', private.public_block_json(blk) || private.page_counts_json(blk, p_page_key),
    'questions', case when blk.type in ('form', 'ab') then coalesce((
      select jsonb_agg(
               (to_jsonb(q) - 'trigger_letter_block') || jsonb_build_object('options', coalesce((
                 -- the count with the changes not folded yet (counters.sql)
                 select jsonb_agg(to_jsonb(o) || jsonb_build_object('response_count', greatest(o.response_count
                          + coalesce((select sum(d.delta) from private.option_count_deltas d
                                      where d.option_id = o.id), 0), 0))
                        order by o.index, o.created_at)
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
               private.live_message_json(to_jsonb(t))
               || case when p_public then '{}'::jsonb
                       else jsonb_build_object('liked', exists (select 1 from liked where message_id = t.id)) end
               || jsonb_build_object('replies', coalesce((
                    select jsonb_agg(
                             private.live_message_json(to_jsonb(r))
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
      where r.block_id = p_block_id and r.page_key = p_page_key and r.kind = 'like' and r.creator_id = p_uid),
    'liked_message_ids', coalesce((select jsonb_agg(message_id) from liked), '[]'::jsonb),
    'reported_message_ids', case when p_uid is not null and blk.type in ('comment', 'qna') then coalesce((
      select jsonb_agg(r.message_id) from public.message_reports r
      where r.user_id = p_uid and r.block_id = p_block_id), '[]'::jsonb) else '[]'::jsonb end,
    'vote', private.ab_vote_json(blk.id, blk.type, p_uid))
    || private.ab_vote_held(blk.id, blk.type, p_uid)) end
  from blk;
$$;
revoke execute on function private.block_view_json(uuid, uuid, boolean, text) from public;

-- Everything a viewer needs to render a block in one call, with the caller's own state.
-- security definer: reads the caller's own likes and reports and the block's content without
-- evaluating RLS per row; it returns public columns only.
create function public.get_block_view(p_block_id uuid, p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks := private.visible_block(p_block_id);
  v_view jsonb := private.block_view_json(p_block_id, auth.uid(), false, private.check_page_key(v_block, p_page_key));
begin
  -- the caller's own answer (it is STABLE, so also a GET): never kept by a shared cache
  perform set_config('response.headers', '[{"Cache-Control": "private, no-store"}]', true);
  return v_view;
end;
$$;
comment on function public.get_block_view(uuid, text) is
  'The block''s public settings, questions with options, endings with conditions, the pinned and the first 5 threads the caller may see (of one page with p_page_key), and the caller''s own state (me: liked, liked_message_ids among the returned messages, reported_message_ids, vote, and vote_held: true when that vote is held by escalation). Elements read get_block_public (GET, cacheable) and get_block_me instead. Errors: block doesn''t exists, Not valid page key.';
revoke execute on function public.get_block_view(uuid, text) from public;

-- The public part of the block view: the same answer for every caller (no auth.uid() anywhere),
-- so a shared cache may keep it. STABLE: PostgREST answers it on GET (read-only transaction).
-- security definer: the block's content is read without RLS; only published messages and the
-- public columns come out.
create function public.get_block_public(p_block_id uuid, p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks := private.visible_block(p_block_id);
  v_view jsonb := private.block_view_json(p_block_id, null, true, private.check_page_key(v_block, p_page_key));
begin
  -- a CDN or proxy may keep it 10 s and serve it stale for 60 s more while it fetches it again;
  -- the browser keeps it 10 s too (the visitor's own new messages come with get_block_me). One
  -- page's thread is one URL (p_page_key is a query parameter), so one cache entry.
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=10, stale-while-revalidate=60"}]', true);
  return v_view;
end;
$$;
comment on function public.get_block_public(uuid, text) is
  'The public part of the block view, the same for every caller (cacheable GET, Cache-Control public max-age=10 stale-while-revalidate=60): block settings and counts, questions and endings, the pinned and first 5 published threads; with p_page_key (comment, qna, like) one page''s threads and counts. Errors: block doesn''t exists, Not valid page key.';
revoke execute on function public.get_block_public(uuid, text) from public;

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
create function public.get_block_me(p_block_id uuid, p_message_ids uuid[] default '{}', p_since timestamptz default null,
                                    p_page_key text default '')
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_page text := private.check_page_key(v_block, p_page_key);
  v_owner boolean := v_uid is not null and v_uid = v_block.owner_id;
  v_ids uuid[] := coalesce(p_message_ids[1:500], '{}');
  v_result jsonb;
  -- the counts as they are now: the public copy may be cached, and the caller's own like, vote or
  -- message must not show beside counts from before it
  v_fresh jsonb := jsonb_build_object('block', private.public_block_json(v_block) || private.page_counts_json(v_block, v_page))
    || case when v_block.type = 'ab'
            then jsonb_build_object('questions', private.block_view_json(p_block_id, null, true, '') -> 'questions')
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
    where v_block.type in ('comment', 'qna') and m.block_id = p_block_id and m.page_key = v_page
      and m.parent_id is null
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
        where r.block_id = p_block_id and r.page_key = v_page and r.kind = 'like' and r.creator_id = v_uid),
      'liked_message_ids', coalesce((select jsonb_agg(message_id) from liked), '[]'::jsonb),
      'reported_message_ids', case when v_block.type in ('comment', 'qna') then coalesce((
        select jsonb_agg(r.message_id) from public.message_reports r
        where r.user_id = v_uid and r.block_id = p_block_id), '[]'::jsonb) else '[]'::jsonb end,
      'vote', private.ab_vote_json(p_block_id, v_block.type, v_uid))
      || private.ab_vote_held(p_block_id, v_block.type, v_uid),
    'messages', coalesce((
      select jsonb_agg(
               private.live_message_json(to_jsonb(t)) || jsonb_build_object(
                 'liked', exists (select 1 from liked where message_id = t.id),
                 'replies', coalesce((
                   select jsonb_agg(private.live_message_json(to_jsonb(r)) || jsonb_build_object(
                            'liked', exists (select 1 from liked where message_id = r.id))
                            order by r.created_at, r.id)
                   from extra_top_replies r where r.parent_id = t.id), '[]'::jsonb))
               order by t.created_at desc, t.id desc)
      from extra_top t), '[]'::jsonb),
    'replies', coalesce((
      select jsonb_agg(private.live_message_json(to_jsonb(r)) || jsonb_build_object(
               'liked', exists (select 1 from liked where message_id = r.id))
               order by r.created_at, r.id)
      from extra_replies r), '[]'::jsonb))
    into v_result;
  return v_fresh || v_result;
end;
$$;
comment on function public.get_block_me(uuid, uuid[], timestamptz, text) is
  'The caller''s own part of the block view for the messages on screen (p_message_ids, at most 500; p_since: oldest top-level of a full public page; p_page_key: the page''s thread): block (current counts), questions (ab: current option counts), me (liked, liked_message_ids, reported_message_ids, vote, vote_held: true when that vote is held by escalation), messages (own or, for the owner, unpublished threads since p_since, at most 20) and replies (own or unpublished replies to the given messages, at most 200). Errors: block doesn''t exists, Not valid page key.';
revoke execute on function public.get_block_me(uuid, uuid[], timestamp with time zone, text) from public;

-- Counts for many pages in one request (issue 18, "beyond the spec").
--
-- A blog's index page shows "12 comments" under every post: one cacheable GET for up to 100
-- blocks instead of one get_block_public per post.
--   GET /rest/v1/rpc/get_block_counts?p_block_ids={id,id,...}
-- answers, in the order asked, one entry per active visitor block (comment, qna, like, button,
-- ab, form): {id, type, comments, likes, responses}, the counts get_block_public already shows
-- (comments: messages and replies of a comment or Q&A block; likes: a like block's likes;
-- responses: a form's, A/B's or button's responses), null where a count does not apply to the
-- type. A missing, deactivated or letter block is left out, so the answer says nothing about it
-- (not even that the id exists). Like get_block_public it reads no auth.uid() and sets
-- Cache-Control public, so a shared cache may give the same bytes to every caller.
-- security definer: anon cannot read blocks (RLS: owners only); only public counts come out.
create function public.get_block_counts(p_block_ids uuid[])
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_result jsonb;
begin
  if cardinality(p_block_ids) > 100 then
    raise exception 'At most 100 blocks at once' using errcode = '22023';
  end if;
  with asked as (
    -- the first place of each id: a repeated id is answered once
    select id, min(n) as n
    from unnest(coalesce(p_block_ids, '{}')) with ordinality u(id, n)
    where id is not null
    group by id
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', b.id,
           'type', b.type,
           'comments', case when b.type in ('comment', 'qna') then c.response_count end,
           'likes', case when b.type = 'like' then c.like_count end,
           'responses', case when b.type in ('button', 'ab', 'form') then c.response_count end)
           order by a.n), '[]'::jsonb)
    into v_result
    from asked a
    join public.blocks b on b.id = a.id
    cross join lateral private.with_live_counts(b) c
    where not b.deactivated
      and b.type in ('comment', 'qna', 'like', 'button', 'ab', 'form');
  -- the same bytes for every caller: a CDN or proxy may keep it 10 s and serve it stale for 60 s
  -- more while it fetches it again, as get_block_public
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=10, stale-while-revalidate=60"}]', true);
  return v_result;
end;
$$;

comment on function public.get_block_counts(uuid[]) is
  'The public counts of up to 100 blocks in one cacheable GET (Cache-Control public max-age=10 stale-while-revalidate=60), in the order asked: [{id, type, comments, likes, responses}], null where a count does not apply to the type. Missing, deactivated and letter blocks are left out. Error: At most 100 blocks at once.';

revoke all on function public.get_block_counts(uuid[]) from public;
grant execute on function public.get_block_counts(uuid[]) to anon, authenticated, service_role;

-- The public card of a block: the fields a link preview (Open Graph tags of /block) needs.
-- public.blocks is readable by its owner only (trust.sql), so crawlers' previews read this
-- instead: one published block by id and owner, nothing else (no tags,
-- counts or settings beyond the preview's). `title` is what the page heads itself with: a
-- letter's title (as get_letter_view gives it: the page shows the letter), else the block's name.
-- STABLE, so PostgREST answers it on GET and a shared cache may keep it for a minute.
create function public.get_block_card(p_owner_id uuid, p_block_id uuid)
returns table (
  id uuid,
  owner_id uuid,
  type text,
  name text,
  language text,
  open_graph jsonb,
  title text
) language sql stable security definer set search_path = '' as $$
  select
    b.id,
    b.owner_id,
    b.type::text,
    b.name,
    b.language::text,
    b.open_graph,
    case when b.type in ('notion_letter', 'typedream_letter', 'brunch_letter')
         then coalesce(nullif(p.mail_title, ''), b.name)
         else b.name end
  from public.blocks b
  left join public.block_private p on p.block_id = b.id
  where b.id = p_block_id
    and b.owner_id = p_owner_id
    and not b.deactivated
    and set_config(
      'response.headers',
      '[{"Cache-Control": "public, max-age=60, stale-while-revalidate=300"}]',
      true
    ) is not null;
$$;
comment on function public.get_block_card(uuid, uuid) is
  'The link preview fields of one published block (Open Graph); cacheable GET.';
revoke execute on function public.get_block_card(uuid, uuid) from public;

-- Live updates by block topic: Realtime Broadcast from the database. Triggers on public.messages
-- write each change once and announce it once, with realtime.send, on a topic per block.
--
-- The viewers' topic is PUBLIC (issue 19): Realtime joins a public topic without asking the
-- database, where a private one costs one policy check per join (hosted Realtime caches the answer
-- for that socket only: docs/scaling.md "Realtime"). Anyone holding the anon key may also send on a
-- public topic, so what travels there is only a hint naming a change, never the change itself: the
-- viewer reads the change with get_block_change, a cacheable GET (the same URL for every viewer, so
-- a CDN makes one database call per change whatever the number of viewers). A forged hint names
-- nothing (null, cached like the rest) or a change of this block from the last minute, which the
-- viewers already have (they skip ids they read) or which is in the list they read already (a
-- change's id ends with its transaction, the view's block carries the oldest one still running
-- when it was read, read_xmin: break9 C2, C3).
--
-- Topics:
--   block:<block id>        PUBLIC. Event hint {id}: a change of the block's published messages,
--                           read with get_block_change(block, id) for a minute. A message of a
--                           page's thread (page_key, issue 18) is announced on
--                           block:<block id>:page:<key> instead. A change is
--     change  {type: 'INSERT' | 'UPDATE', row}   a published message appeared or changed; row is
--                                                the public message row (as get_block_view serves
--                                                it: no email, which lives in message_private);
--                                                an UPDATE with published: true is one that became
--                                                published (approved, shown again): counted now
--             {type: 'DELETE', row: {id, parent_id}}  a published message was deleted
--             {type: 'REMOVE', row: {id, parent_id}}  a published message was held or hidden by
--                                                the owner (it leaves the list and the block's
--                                                message count: only published ones count)
--     counts  {id, like_count, likes} / {id, reply_count, replies}: a published message's like or
--             reply count moved; likes/replies is the delta, like_count/reply_count the value
--             after it (so a client that already applied its own like sets, never adds twice):
--             the row's plus the deltas the write sees (messages.sql), so a write open at the same
--             moment is not in this one's value; {id, like_count, reply_count} (no delta): the
--             counts restated by the fold (fold-counters, every 5 s) of a message whose writes
--             went beside its row, so the value heard last is the true one within a fold
--   block:<block id>:owner  PRIVATE, the block's owner only (the dashboard's moderation view).
--     change  {type: 'INSERT' | 'UPDATE' | 'DELETE', id}: which message changed, in any state.
-- Held and hidden messages are never a change of block:<id>; only the owner may join the owner
-- topic; no client may send on it (no INSERT policy). public.messages is not in publication
-- supabase_realtime (nobody subscribes to its postgres_changes).
--
-- Runs unchanged on hosted Supabase, whose realtime schema has realtime.messages (RLS on),
-- realtime.send and realtime.topic(); keep Realtime's "Allow public access" on (the block topics
-- are public channels). The local stack gets stand-ins with the same surface from
-- supabase/local/bootstrap.sql (local only).

-- ---------------------------------------------------------------------------------------------
-- the changes viewers read
-- ---------------------------------------------------------------------------------------------

create table private.block_changes (
  id uuid primary key default gen_random_uuid(),
  -- no foreign key: a block's deletion deletes its messages, whose trigger writes here last
  block_id uuid not null,
  event text not null check (event in ('change', 'counts')),
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index block_changes_created_at_idx on private.block_changes (created_at);
comment on table private.block_changes is
  'Changes of published messages that viewers of a block read after a hint on its public Realtime topic (get_block_change); readable for a minute, purged after ten (schedule block-changes-purge). No client role can read it.';
alter table private.block_changes enable row level security;
revoke all on private.block_changes from public, anon, authenticated;

-- A change for the block's viewers: kept for get_block_change, announced on the public topic
-- (a page's thread, issue 18: on its own topic block:<id>:page:<key>).
create function private.send_block_change(p_block_id uuid, p_event text, p_payload jsonb,
                                          p_page_key text default '')
returns void language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  -- the id carries the moment of the change in its first 48 bits (milliseconds since 1970, as a
  -- UUIDv7 does: one message's changes in order) and its transaction in its last 48 (its xid). A
  -- view says the oldest transaction still running when it was read (its block's read_xmin):
  -- every transaction before that one had ended, so what it wrote is in the view, and an element
  -- ignores a change from it; a hint replayed by anyone on the public topic then brings back
  -- nothing deleted, hidden or outdated, while a change written before the view was read but
  -- committed after it (a moment alone would drop it) is applied
  insert into private.block_changes (id, block_id, event, payload)
    values (encode(overlay(overlay(uuid_send(gen_random_uuid())
                                   placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
                                   from 1 for 6)
                           placing substring(int8send(pg_current_xact_id()::text::bigint) from 3)
                           from 11 for 6), 'hex')::uuid,
            p_block_id, p_event, p_payload)
    returning id into v_id;
  -- the payload's top-level id is the change's, so hosted realtime.send adds none of its own
  perform realtime.send(jsonb_build_object('id', v_id), 'hint',
                        'block:' || p_block_id::text
                          || case when coalesce(p_page_key, '') <> '' then ':page:' || p_page_key else '' end,
                        false);
end;
$$;
revoke execute on function private.send_block_change(uuid, text, jsonb, text) from public;

-- security definer: anon and visitors cannot read private.block_changes or public.blocks.
create function public.get_block_change(p_block_id uuid, p_id uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_change jsonb;
begin
  select jsonb_build_object('event', c.event, 'payload', c.payload) into v_change
    from private.block_changes c
   where c.id = p_id and c.block_id = p_block_id
     and c.created_at > now() - interval '1 minute'
     and private.block_is_published(p_block_id);
  -- the same answer for every caller, found or not: a shared cache keeps it, so neither a hint to
  -- thousands of viewers nor a forged one reaches the database more than once a minute per URL
  perform set_config('response.headers', '[{"Cache-Control": "public, max-age=60"}]', true);
  return v_change;
end;
$$;
comment on function public.get_block_change(uuid, uuid) is
  'A change of a published block''s messages named by a hint on its public Realtime topic, for a minute after it happened: {event: change | counts, payload}, or null (unknown, older, another block''s, or the block is deactivated). The same for every caller (cacheable GET, Cache-Control public max-age=60).';
revoke all on function public.get_block_change(uuid, uuid) from public;
grant execute on function public.get_block_change(uuid, uuid) to anon, authenticated, service_role;

-- Run by pg_cron block-changes-purge (a hand-written migration schedules it).
create function private.purge_block_changes()
returns void language sql set search_path = '' as $$
  delete from private.block_changes where created_at < now() - interval '10 minutes';
$$;
revoke execute on function private.purge_block_changes() from public;

-- ---------------------------------------------------------------------------------------------
-- who may read a private topic: the owner topic only
-- ---------------------------------------------------------------------------------------------

-- security definer: anon and visitors cannot read public.blocks (trust.sql); reachable
-- from policies only (client roles have no usage on schema private).
create function private.block_topic_readable(p_topic text)
returns boolean language plpgsql stable security definer set search_path = '' as $$
declare
  v_match text[];
begin
  v_match := regexp_match(coalesce(p_topic, ''),
    '^block:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):owner$');
  return v_match is not null and private.is_block_owner(v_match[1]::uuid);
end;
$$;
revoke execute on function private.block_topic_readable(text) from public;
grant execute on function private.block_topic_readable(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- one change per write, announced once
-- ---------------------------------------------------------------------------------------------

-- security definer: realtime.send inserts into realtime.messages, which client roles may not
-- write (no INSERT policy); the owner of this function (postgres) bypasses its RLS.
create function private.messages_broadcast()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_block uuid := case when tg_op = 'DELETE' then old.block_id else new.block_id end;
  v_id uuid := case when tg_op = 'DELETE' then old.id else new.id end;
  -- a page's thread has a topic of its own (one thread per page, issue 18)
  v_page text := case when tg_op = 'DELETE' then old.page_key else new.page_key end;
  v_was boolean := tg_op <> 'INSERT' and old.status = 'published';
  v_is boolean := tg_op <> 'DELETE' and new.status = 'published';
begin
  -- a count moved (a like, a reply): private.send_message_counts announces it (from
  -- private.bump_message_counts, which may leave the row as it is), never the row. The fold of
  -- counters.sql announces the counts of a published message it folded, as they are now: a write
  -- beside the row announced the counts it could see, without the writes open beside it (two likes
  -- at once both said 1), and this is the value heard last (break8 F2).
  if tg_op = 'UPDATE'
     and (to_jsonb(new) - 'like_count' - 'reply_count') = (to_jsonb(old) - 'like_count' - 'reply_count') then
    if new.status = 'published' and current_setting('counters.folding', true) = 'on' then
      perform private.send_message_counts(new.id, 0, 0);
    end if;
    return null;
  end if;

  -- the owner's moderation list: which message changed
  perform realtime.send(jsonb_build_object('type', tg_op, 'id', v_id), 'change',
                        'block:' || v_block::text || ':owner', true);

  if v_is then
    -- published: it became published (approved, shown again): the block counts it from now
    perform private.send_block_change(v_block, 'change',
      jsonb_build_object('type', tg_op, 'row', private.live_message_json(to_jsonb(new)))
        || case when tg_op = 'UPDATE' and not v_was then '{"published": true}'::jsonb else '{}'::jsonb end,
      v_page);
  elsif v_was then
    perform private.send_block_change(v_block, 'change',
      jsonb_build_object('type', case when tg_op = 'DELETE' then 'DELETE' else 'REMOVE' end,
                         'row', jsonb_build_object('id', v_id, 'parent_id', old.parent_id)), v_page);
  end if;
  return null;
end;
$$;
revoke execute on function private.messages_broadcast() from public;

-- A published message's like or reply count moved (private.bump_message_counts): one `counts`
-- per count that moved, with the value after it: the row's plus the deltas this write sees (its
-- own and those committed before it). Neither moved (0, 0: the fold): one `counts` with both values.
create function private.send_message_counts(p_message_id uuid, p_likes integer, p_replies integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_message public.messages;
  v_live jsonb;
begin
  select m.* into v_message from public.messages m where m.id = p_message_id and m.status = 'published';
  if not found then
    return;
  end if;
  v_live := private.live_message_json(to_jsonb(v_message));
  if p_likes <> 0 then
    perform private.send_block_change(v_message.block_id, 'counts',
      jsonb_build_object('id', p_message_id, 'like_count', v_live -> 'like_count', 'likes', p_likes),
      v_message.page_key);
  end if;
  if p_replies <> 0 then
    perform private.send_block_change(v_message.block_id, 'counts',
      jsonb_build_object('id', p_message_id, 'reply_count', v_live -> 'reply_count', 'replies', p_replies),
      v_message.page_key);
  end if;
  if p_likes = 0 and p_replies = 0 then
    perform private.send_block_change(v_message.block_id, 'counts',
      jsonb_build_object('id', p_message_id, 'like_count', v_live -> 'like_count',
                         'reply_count', v_live -> 'reply_count'),
      v_message.page_key);
  end if;
end;
$$;
revoke execute on function private.send_message_counts(uuid, integer, integer) from public;

create trigger messages_broadcast after insert or update or delete on public.messages
  for each row execute function private.messages_broadcast();

create policy "Owners of a block receive its owner topic" on realtime.messages
  for select to anon, authenticated
  using (realtime.messages.extension = 'broadcast'
         and (select private.block_topic_readable((select realtime.topic()))));

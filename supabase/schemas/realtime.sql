-- Live updates by block topic (issue 13): Realtime Broadcast from the database. Triggers on
-- public.messages send each change once, with realtime.send, to a private topic per block;
-- Realtime authorises a viewer once, when it joins, by the SELECT policy on realtime.messages
-- below, and fans the message out.
--
-- Topics (private channels; the client joins with config.private = true):
--   block:<block id>        viewers of a published block (and its owner). Events:
--     change  {type: 'INSERT' | 'UPDATE', row}   a published message appeared or changed; row is
--                                                the public message row (as get_block_view serves
--                                                it: no email, which lives in message_private)
--             {type: 'DELETE', row: {id, parent_id}}  a published message was deleted
--             {type: 'REMOVE', row: {id, parent_id}}  a published message was held or hidden by
--                                                the owner (it leaves the list; the block's
--                                                message count does not move)
--     counts  {id, like_count, likes} / {id, reply_count, replies}: a published message's like or
--             reply count moved; likes/replies is the delta, like_count/reply_count the value
--             after it (so a client that already applied its own like sets, never adds twice)
--   block:<block id>:owner  the block's owner only (the dashboard's moderation view). Event
--     change  {type: 'INSERT' | 'UPDATE' | 'DELETE', id}: which message changed, in any state.
-- Held and hidden messages never reach block:<id>; nobody may join a topic of a block they may
-- not read; no client may send on these topics (no INSERT policy). public.messages is not in
-- publication supabase_realtime (nobody subscribes to its postgres_changes).
--
-- Runs unchanged on hosted Supabase, whose realtime schema has realtime.messages (RLS on),
-- realtime.send and realtime.topic(). The local stack gets stand-ins with the same surface from
-- supabase/local/bootstrap.sql (local only).

-- security definer: anon and visitors cannot read public.blocks (trust.sql); reachable
-- from policies only (client roles have no usage on schema private).
create function private.block_topic_readable(p_topic text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_match text[];
  v_block uuid;
begin
  v_match := regexp_match(coalesce(p_topic, ''),
    '^block:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(:owner)?$');
  if v_match is null then
    return false;
  end if;
  v_block := v_match[1]::uuid;
  if v_match[2] is not null then
    return private.is_block_owner(v_block);
  end if;
  return private.block_is_published(v_block) or private.is_block_owner(v_block);
end;
$$;
revoke execute on function private.block_topic_readable(text) from public;
grant execute on function private.block_topic_readable(text) to anon, authenticated, service_role;

-- security definer: realtime.send inserts into realtime.messages, which client roles may not
-- write (no INSERT policy); the owner of this function (postgres) bypasses its RLS.
create function private.messages_broadcast()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_block uuid := case when tg_op = 'DELETE' then old.block_id else new.block_id end;
  v_id uuid := case when tg_op = 'DELETE' then old.id else new.id end;
  v_topic text := 'block:' || v_block::text;
  v_was boolean := tg_op <> 'INSERT' and old.status = 'published';
  v_is boolean := tg_op <> 'DELETE' and new.status = 'published';
  v_counts_only boolean := false;
begin
  if tg_op = 'UPDATE' then
    v_counts_only := (to_jsonb(new) - 'like_count' - 'reply_count')
                   = (to_jsonb(old) - 'like_count' - 'reply_count');
  end if;

  -- the owner's moderation list: which message changed (not its counts)
  if not v_counts_only then
    perform realtime.send(jsonb_build_object('type', tg_op, 'id', v_id), 'change',
                          v_topic || ':owner', true);
  end if;

  if v_counts_only then
    if v_was and v_is then
      if new.like_count <> old.like_count then
        perform realtime.send(jsonb_build_object('id', v_id, 'like_count', new.like_count,
                                                 'likes', new.like_count - old.like_count),
                              'counts', v_topic, true);
      end if;
      if new.reply_count <> old.reply_count then
        perform realtime.send(jsonb_build_object('id', v_id, 'reply_count', new.reply_count,
                                                 'replies', new.reply_count - old.reply_count),
                              'counts', v_topic, true);
      end if;
    end if;
  elsif v_is then
    perform realtime.send(jsonb_build_object('type', tg_op, 'row', to_jsonb(new)), 'change',
                          v_topic, true);
  elsif v_was then
    perform realtime.send(
      jsonb_build_object('type', case when tg_op = 'DELETE' then 'DELETE' else 'REMOVE' end,
                         'row', jsonb_build_object('id', v_id, 'parent_id', old.parent_id)),
      'change', v_topic, true);
  end if;
  return null;
end;
$$;
revoke execute on function private.messages_broadcast() from public;

create trigger messages_broadcast after insert or update or delete on public.messages
  for each row execute function private.messages_broadcast();

create policy "Viewers of a block receive its topic" on realtime.messages
  for select to anon, authenticated
  using (realtime.messages.extension = 'broadcast'
         and (select private.block_topic_readable((select realtime.topic()))));

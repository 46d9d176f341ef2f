-- Moderation: visitors report messages, owners read their blocks' reports, approve, hide, pin
-- or delete messages, and block writers from a block.

create table public.message_reports (
  message_id uuid not null,
  block_id uuid not null,
  user_id uuid not null,
  reason text check (char_length(reason) <= 200),
  created_at timestamptz not null default now(),
  primary key (message_id, user_id),
  foreign key (message_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.message_reports is
  'A visitor''s report of a message (once per visitor and message), for the block owner. Written by report_message.';
call private.clients_read('public.message_reports', 'Owners read their blocks'' reports and visitors their own',
  'user_id = (select auth.uid()) or private.is_block_owner(block_id)');
create index message_reports_block_id_idx on public.message_reports (block_id, created_at desc);
create index message_reports_user_id_idx on public.message_reports (user_id, block_id);

create table public.blocked_writers (
  block_id uuid not null references public.blocks (id) on delete cascade,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (block_id, user_id)
);
comment on table public.blocked_writers is
  'Visitors the block owner blocked: every later write of theirs to the block is refused. Written by block_writer.';
call private.clients_read('public.blocked_writers', 'Owners read the writers they blocked',
  'private.is_block_owner(block_id)');
create index blocked_writers_user_id_idx on public.blocked_writers (user_id);

-- A visitor reports a message to the block owner, once (a second report changes nothing).
-- security definer: see the header.
create function public.report_message(p_message_id uuid, p_reason text default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid);
  v_block public.blocks := private.visible_block(v_message.block_id);
  v_reason text := nullif(private.trim_whitespace(p_reason), '');
begin
  if v_message.creator_id = v_uid then
    raise exception 'You cannot report your own message' using errcode = 'P0001';
  end if;
  if char_length(v_reason) > 200 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  perform private.check_writer(v_block, v_uid);
  if not exists (select 1 from public.message_reports where message_id = p_message_id and user_id = v_uid) then
    perform private.check_rate_limit(v_block, v_uid, 'report');
    insert into public.message_reports (message_id, block_id, user_id, reason)
      values (p_message_id, v_message.block_id, v_uid, v_reason)
      on conflict do nothing;
  end if;
  return jsonb_build_object('id', p_message_id, 'reported', true);
end;
$$;
comment on function public.report_message(uuid, text) is
  'Reports a message to the block owner (once per visitor; again changes nothing). Errors: You cannot report your own message, Too long message (reason > 200), message doesn''t exists, 429.';
revoke execute on function public.report_message(uuid, text) from public, anon;

-- Every message and reply of one of the caller's blocks, newest first, with its state, the
-- writer (signed in or anonymous, blocked or not, the email they left), the reports and the
-- parent of a reply. Filters: all, held, hidden, pinned, resolved, reported; p_search matches
-- the text or the writer's name. Page with the created_at of the last one.
-- security definer: reads auth.users (anonymous or not) for the owner's block only, checked
-- first.
create function public.moderation_messages(p_block_id uuid, p_filter text default 'all',
                                           p_search text default null, p_before timestamptz default null,
                                           p_limit integer default 50)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_pattern text;
begin
  if not exists (select 1 from public.blocks where id = p_block_id and owner_id = v_uid) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if coalesce(p_filter, 'all') not in ('all', 'held', 'hidden', 'pinned', 'resolved', 'reported') then
    raise exception 'Not a filter' using errcode = 'P0001';
  end if;
  if char_length(p_search) > 200 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  v_pattern := '%' || replace(replace(replace(nullif(private.trim_whitespace(p_search), ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';

  return coalesce((
    select jsonb_agg(private.live_message_json(to_jsonb(m)) || jsonb_build_object(
             'writer_anonymous', coalesce(u.is_anonymous, true),
             'writer_blocked', exists (select 1 from public.blocked_writers w
                                       where w.block_id = m.block_id and w.user_id = m.creator_id),
             'creator_email', (select mp.creator_email from public.message_private mp where mp.message_id = m.id),
             'report_count', (select count(*) from public.message_reports r where r.message_id = m.id),
             -- why a held message is held: a spent shared budget (escalation, issue 17) or the
             -- block's hold setting
             'held_by', case when m.status = 'held' then
                          case when exists (select 1 from private.escalated_messages e where e.message_id = m.id)
                               then 'escalation' else 'setting' end end,
             'reports', coalesce((select jsonb_agg(jsonb_build_object('reason', r.reason, 'created_at', r.created_at)
                                                   order by r.created_at desc)
                                  from public.message_reports r where r.message_id = m.id), '[]'::jsonb),
             'parent', (select jsonb_build_object('id', p.id, 'creator_name', p.creator_name,
                                                  'content', left(p.content, 140), 'status', p.status)
                        from public.messages p where p.id = m.parent_id))
           order by m.created_at desc, m.id desc)
    from (
      select * from public.messages m
      where m.block_id = p_block_id
        and m.created_at < coalesce(p_before, 'infinity'::timestamptz)
        and case coalesce(p_filter, 'all')
              when 'held' then m.status = 'held'
              when 'hidden' then m.status = 'hidden'
              when 'pinned' then m.pinned_at is not null
              when 'resolved' then m.resolved
              when 'reported' then exists (select 1 from public.message_reports r where r.message_id = m.id)
              else true end
        and (v_pattern is null or m.content ilike v_pattern or m.creator_name ilike v_pattern)
      order by m.created_at desc, m.id desc
      limit greatest(1, least(coalesce(p_limit, 50), 100))
    ) m
    left join auth.users u on u.id = m.creator_id), '[]'::jsonb);
end;
$$;
comment on function public.moderation_messages(uuid, text, text, timestamptz, integer) is
  'The owner''s moderation list of a block: every message and reply, newest first, with state, writer, reports and parent. Filters all, held, hidden, pinned, resolved, reported; search in text and names. Errors: block doesn''t exists, Not a filter.';
revoke execute on function public.moderation_messages(uuid, text, text, timestamp with time zone, integer) from public, anon;

-- Approve, hide, unhide, delete, pin, unpin, resolve or unresolve messages of the caller's
-- blocks, several at once (at most 200). All or nothing: one message that is not the caller's
-- refuses the whole call. security definer: clients have no write rights on messages.
create function public.moderate_messages(p_message_ids uuid[], p_action text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_ids uuid[];
  v_count integer;
  v_mine integer;
  v_result jsonb;
begin
  if p_action is null or p_action not in ('approve', 'hide', 'unhide', 'delete', 'pin', 'unpin', 'resolve', 'unresolve') then
    raise exception 'Not a moderation action' using errcode = 'P0001';
  end if;
  select coalesce(array_agg(distinct i), '{}') into v_ids from unnest(p_message_ids) i where i is not null;
  if cardinality(v_ids) = 0 then
    raise exception 'No messages chosen' using errcode = 'P0001';
  end if;
  if cardinality(v_ids) > 200 then
    raise exception 'Too many messages at once (at most 200)' using errcode = 'P0001';
  end if;
  select count(*), count(*) filter (where b.owner_id = v_uid) into v_count, v_mine
    from public.messages m join public.blocks b on b.id = m.block_id
    where m.id = any (v_ids);
  if v_count <> cardinality(v_ids) then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  if v_mine <> v_count then
    raise exception 'Only the block owner can moderate messages' using errcode = 'PT403';
  end if;
  if p_action in ('pin', 'resolve', 'unresolve')
     and exists (select 1 from public.messages where id = any (v_ids) and parent_id is not null) then
    raise exception '%', case when p_action = 'pin' then 'Only top-level messages can be pinned'
                              else 'Only top-level messages can be resolved' end using errcode = 'P0001';
  end if;

  if p_action = 'delete' then
    delete from public.messages where id = any (v_ids);
    return jsonb_build_object('deleted', to_jsonb(v_ids));
  end if;
  with changed as (
    update public.messages m set
      status = case p_action when 'approve' then case when m.status = 'held' then 'published' else m.status end
                             when 'hide' then 'hidden'
                             when 'unhide' then case when m.status = 'hidden' then 'published' else m.status end
                             else m.status end,
      pinned_at = case p_action when 'pin' then coalesce(m.pinned_at, clock_timestamp())
                                when 'unpin' then null else m.pinned_at end,
      resolved = case p_action when 'resolve' then true when 'unresolve' then false else m.resolved end
    where m.id = any (v_ids)
    returning m.*
  )
  select coalesce(jsonb_agg(to_jsonb(c) order by c.created_at desc), '[]'::jsonb) into v_result from changed c;
  return jsonb_build_object('messages', v_result);
end;
$$;
comment on function public.moderate_messages(uuid[], text) is
  'The block owner approves, hides, unhides, deletes, pins, unpins, resolves or unresolves messages (at most 200, all of the caller''s blocks). Errors: Not a moderation action, Only the block owner can moderate messages, Only top-level messages can be pinned/resolved, message doesn''t exists.';
revoke execute on function public.moderate_messages(uuid[], text) from public, anon;

-- The block owner blocks (or unblocks) a writer: their later writes to the block are refused;
-- p_hide_messages also hides what they wrote there. security definer: clients have no write
-- rights on blocked_writers and messages.
create function public.block_writer(p_block_id uuid, p_user_id uuid, p_blocked boolean default true,
                                    p_hide_messages boolean default false)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_hidden integer := 0;
begin
  if not exists (select 1 from public.blocks where id = p_block_id and owner_id = v_uid) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if p_user_id is null or p_user_id = v_uid then
    raise exception 'You cannot block yourself' using errcode = 'P0001';
  end if;
  if coalesce(p_blocked, true) then
    insert into public.blocked_writers (block_id, user_id) values (p_block_id, p_user_id)
      on conflict do nothing;
    if p_hide_messages then
      update public.messages set status = 'hidden'
        where block_id = p_block_id and creator_id = p_user_id and status <> 'hidden';
      get diagnostics v_hidden = row_count;
    end if;
  else
    delete from public.blocked_writers where block_id = p_block_id and user_id = p_user_id;
  end if;
  return jsonb_build_object('user_id', p_user_id, 'blocked', coalesce(p_blocked, true), 'hidden', v_hidden);
end;
$$;
comment on function public.block_writer(uuid, uuid, boolean, boolean) is
  'The block owner blocks or unblocks a writer (and may hide their messages). Errors: block doesn''t exists, You cannot block yourself.';
revoke execute on function public.block_writer(uuid, uuid, boolean, boolean) from public, anon;

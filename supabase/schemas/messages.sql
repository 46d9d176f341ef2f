-- Comment and Q&A messages (one level of replies), the commenter's private notification e-mail,
-- per-user message likes, and the visitor RPCs that write them (security definer, as in
-- responses.sql: visitors have no write rights on these tables). Counters are kept by triggers
-- with relative updates, so they stay right under concurrency and when the owner deletes rows.

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  parent_id uuid,
  creator_id uuid not null,
  creator_name text not null default '' check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  home_url text check (char_length(home_url) <= 500),
  content text not null check (char_length(btrim(content)) > 0 and char_length(content) <= 500),
  is_edited boolean not null default false,
  resolved boolean not null default false,
  like_count integer not null default 0 check (like_count >= 0),
  reply_count integer not null default 0 check (reply_count >= 0),
  timezone text check (char_length(timezone) <= 64),
  created_at timestamptz not null default now(),
  -- visitor trust (issue 9)
  status text not null default 'published' check (status in ('published', 'held', 'hidden')),
  pinned_at timestamptz,
  imitates_owner boolean not null default false,
  -- one thread per page (issue 18, docs/cafe24.md): '' is the block's own thread
  page_key text not null default '' check (page_key = '' or page_key ~ '^[A-Za-z0-9._:/~-]{1,100}$'),
  unique (id, block_id),
  foreign key (parent_id, block_id) references public.messages (id, block_id) on delete cascade,
  constraint messages_pins_top_level_only check (pinned_at is null or parent_id is null)
)
-- like and reply counts update in place (when no other write holds the row: counters above) and
-- stay HOT (heap-only tuples)
with (fillfactor = 85);
comment on table public.messages is
  'Comment and Q&A messages; parent_id makes a reply (one level only). Published ones are public with the block; held and hidden ones are not served to others. No email here.';
comment on column public.messages.status is
  'published (everyone), held (waiting for the owner''s approval: the writer and the owner), hidden (the owner only).';
comment on column public.messages.pinned_at is 'Pinned to the top by the owner (top-level messages), or null.';
comment on column public.messages.page_key is
  'The page whose thread this message belongs to ('''' for the block''s own thread); a reply has its parent''s.';
comment on column public.messages.imitates_owner is
  'The writer''s name reads like the owner''s label or name (set by post_message for anyone but the owner); the elements mark it.';
alter table public.messages enable row level security;
revoke insert, update, delete on public.messages from anon, authenticated;

-- ---- one thread per page (issue 18, docs/cafe24.md) ----

-- The caller's page key, checked: '' or the key format, and only on block types with threads or
-- likes. Errors: Not valid page key.
create function private.check_page_key(p_block public.blocks, p_page_key text)
returns text language plpgsql immutable set search_path = '' as $$
declare
  v_key text := coalesce(p_page_key, '');
begin
  if v_key = '' then
    return '';
  end if;
  if v_key !~ '^[A-Za-z0-9._:/~-]{1,100}$' or p_block.type not in ('comment', 'qna', 'like') then
    raise exception 'Not valid page key' using errcode = 'P0001';
  end if;
  return v_key;
end;
$$;

-- A page's counts, to lay over the block's totals ({} for the block's own thread).
create function private.page_counts_json(p_block public.blocks, p_page_key text)
returns jsonb language sql stable set search_path = '' as $$
  select case when coalesce(p_page_key, '') = '' then '{}'::jsonb
    when p_block.type in ('comment', 'qna') then jsonb_build_object(
      'page_key', p_page_key, 'like_count', 0,
      'response_count', (select count(*) from public.messages m
                         where m.block_id = p_block.id and m.page_key = p_page_key
                           and m.status = 'published'))
    else jsonb_build_object(
      'page_key', p_page_key,
      'like_count', (select count(*) from public.responses r
                     where r.block_id = p_block.id and r.page_key = p_page_key and r.kind = 'like'),
      'response_count', (select count(*) from public.responses r
                         where r.block_id = p_block.id and r.page_key = p_page_key and r.kind = 'like'))
  end;
$$;

revoke all on function private.check_page_key(public.blocks, text) from public;
revoke all on function private.page_counts_json(public.blocks, text) from public;
-- threads of one page, newest first; a page's message count
create index messages_block_id_page_top_level_idx on public.messages (block_id, page_key, created_at desc)
  where parent_id is null;
create index messages_block_id_page_key_idx on public.messages (block_id, page_key) where page_key <> '';
create index messages_parent_id_created_at_idx on public.messages (parent_id, created_at);
create index messages_creator_id_idx on public.messages (creator_id);
-- The messages the read paths must treat apart (held, hidden, pinned): an entry only for those,
-- so a block without any answers "none" from an empty range (get_block_view's fast path).
create index messages_block_id_special_idx on public.messages (block_id, created_at desc)
  where status <> 'published' or pinned_at is not null;
create index messages_block_id_pinned_idx on public.messages (block_id, pinned_at desc)
  where pinned_at is not null;

create policy "Anyone can read published messages of published blocks" on public.messages
  for select to anon using (status = 'published' and private.block_is_published(block_id));

create policy "Users can read published messages, their own held ones and all of their blocks'" on public.messages
  for select to authenticated using (
    ((status = 'published' or (status = 'held' and creator_id = (select auth.uid())))
       and private.block_is_published(block_id))
    or private.is_block_owner(block_id));

create table public.message_private (
  message_id uuid primary key,
  block_id uuid not null,
  creator_email text not null check (char_length(creator_email) <= 50),
  foreign key (message_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.message_private is
  'Notification email a commenter left with a top-level message; readable by the block owner and the author only.';
call private.clients_read('public.message_private', 'Block owners and authors can read commenter emails',
  'exists (select 1 from public.blocks b
          where b.id = message_private.block_id and b.owner_id = (select auth.uid()))
  or exists (select 1 from public.messages m
             where m.id = message_private.message_id and m.creator_id = (select auth.uid()))');
create index message_private_block_id_idx on public.message_private (block_id);

create table public.message_likes (
  message_id uuid not null references public.messages (id) on delete cascade,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (message_id, user_id)
);
comment on table public.message_likes is 'One like per user and message; messages.like_count (with private.message_count_deltas) follows it.';
call private.clients_read('public.message_likes', 'Users can read their own message likes',
  'user_id = (select auth.uid())');
create index message_likes_user_id_idx on public.message_likes (user_id);

-- A message's like and reply counts, as a block's counters (counters.sql): on the message's row
-- when no other write holds it, else on a delta row of a shard no other write holds, folded back
-- by pg_cron fold-counters. A like of a popular comment never waits for another visitor's open
-- like or reply of it (breaker break6: it queued behind each, the row updated in place).
create table private.message_count_deltas (
  message_id uuid not null references public.messages (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  like_count integer not null default 0,
  reply_count integer not null default 0,
  primary key (message_id, shard)
) with (fillfactor = 70);
alter table private.message_count_deltas enable row level security;
comment on table private.message_count_deltas is
  'Changes to a message''s like_count and reply_count made while another write held the message row (one row per message and writer shard); folded into public.messages by pg_cron fold-counters. A message''s counts are the row''s plus these (private.live_message_json). No client role can read it.';

-- Adds to a message's like and reply counts: on the row when no other write holds it or is taking
-- it (its turn, one write at a time, as bump_block_counts'), and the change keeps the counts
-- non-negative; else on a delta row of a free shard. Then announces the counts to the block's
-- viewers (realtime.sql). A message being deleted (its replies' deletes cascading here) gets
-- neither.
create function private.bump_message_counts(p_message_id uuid, p_likes integer, p_replies integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_on_row boolean := false;
begin
  if pg_try_advisory_xact_lock(hashtext('message_count_row:' || p_message_id), 0) then
    update public.messages
      set like_count = like_count + p_likes, reply_count = reply_count + p_replies
      where id = (select id from public.messages where id = p_message_id for no key update skip locked)
        and like_count + p_likes >= 0 and reply_count + p_replies >= 0;
    v_on_row := found;
  end if;
  if not v_on_row then
    insert into private.message_count_deltas as d (message_id, shard, like_count, reply_count)
      select m.id, private.free_shard('message_count_deltas:' || m.id, pg_backend_pid() % 32, 32),
             p_likes, p_replies
      from public.messages m where m.id = p_message_id
      on conflict (message_id, shard) do update
        set like_count = d.like_count + excluded.like_count, reply_count = d.reply_count + excluded.reply_count;
  end if;
  perform private.send_message_counts(p_message_id, p_likes, p_replies);
end;
$$;
revoke execute on function private.bump_message_counts(uuid, integer, integer) from public;

-- A message as visitors and the owner read it (to_jsonb of its row) with its exact counts: the
-- row's plus the deltas not folded yet (one probe of an index that is empty for a message nobody
-- is liking or answering at the moment). Every reader of the counts goes through it: the block
-- view, list_messages, get_block_me, the write RPCs' answers, moderation_messages, live changes.
create function private.live_message_json(p_message jsonb)
returns jsonb language sql stable set search_path = '' as $$
  select case when count(*) = 0 then p_message
    else p_message || jsonb_build_object(
      'like_count', greatest((p_message ->> 'like_count')::integer + sum(d.like_count), 0),
      'reply_count', greatest((p_message ->> 'reply_count')::integer + sum(d.reply_count), 0)) end
  from private.message_count_deltas d where d.message_id = (p_message ->> 'id')::uuid;
$$;
revoke execute on function private.live_message_json(jsonb) from public;

-- one level of replies; a reply has no resolved state
create or replace function private.messages_before_insert()
returns trigger language plpgsql set search_path = '' as $$
declare
  v_parent public.messages;
begin
  if new.parent_id is not null then
    select * into v_parent from public.messages where id = new.parent_id;
    if v_parent.parent_id is not null then
      raise exception 'Replies nest one level only' using errcode = 'P0001';
    end if;
    new.resolved := false;
    new.page_key := coalesce(v_parent.page_key, '');
  end if;
  return new;
end;
$$;

-- The block's response_count and new_response_count and the parent's reply_count count the
-- published messages only (break8 F5): a held one counts when the owner approves it, never if it
-- is rejected (deleted or hidden); one held again (an edit) or hidden stops counting, and counts
-- again when published. Readers see as many as are counted, and a reply waiting for approval is no
-- `counts` change of the public topic.
create function private.count_published_message(p_message public.messages, p_delta integer)
returns void language plpgsql set search_path = '' as $$
begin
  perform private.bump_block_counts(p_message.block_id, p_delta, p_delta, 0);
  if p_message.parent_id is not null then
    perform private.bump_message_counts(p_message.parent_id, 0, p_delta);
  end if;
end;
$$;
revoke execute on function private.count_published_message(public.messages, integer) from public;

-- A message counts out as it leaves published (deleted, held, hidden) and in as it becomes
-- published (inserted so, approved, shown again): the triggers messages_after_insert,
-- messages_after_delete and messages_after_status (published <-> held or hidden: approve, hide,
-- unhide, an edit held again).
create function private.messages_count_published()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_op <> 'INSERT' and old.status = 'published' then
    perform private.count_published_message(old, -1);
  end if;
  if tg_op <> 'DELETE' and new.status = 'published' then
    perform private.count_published_message(new, 1);
  end if;
  return null;
end;
$$;
revoke execute on function private.messages_count_published() from public;

create function private.message_likes_after_change()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform private.bump_message_counts(new.message_id, 1, 0);
    return new;
  end if;
  perform private.bump_message_counts(old.message_id, -1, 0);
  return old;
end;
$$;

create or replace function private.check_message_content(p_content text)
returns text language plpgsql immutable set search_path = '' as $$
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
revoke execute on function private.check_message_content(text) from public;

-- A visitor's short fields (a comment's, a form's, a like's): the contracts' rules
-- (VISITOR_COLOR_RE, BIDI_CONTROL_RE; visitor-checks.sql; contracts.test.ts runs both on the same
-- cases). Each refusal says invalid_input in its detail, which the elements say in the block's
-- language. No exception block: a visitor write costs no subtransaction here.
create function private.check_visitor_fields(p_creator_name text, p_color text,
                                              p_photo_url text default null, p_home_url text default null,
                                              p_timezone text default null)
returns void language plpgsql immutable set search_path = '' as $$
begin
  if char_length(p_creator_name) > 100 then
    raise exception 'Too long name' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  -- a bidi embedding, override or isolate would let a name read as another's ('\u202eOwner')
  if private.has_bidi_control(p_creator_name) then
    raise exception 'Invalid name' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  -- a colour as the elements draw an avatar with (#rgb or #rrggbb; the SDK sends #rrggbb), or
  -- none ('' or null): only its length was checked, and 'red;}' was stored as given
  if nullif(p_color, '') is not null and not private.is_visitor_color(p_color) then
    raise exception 'Invalid color' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  if char_length(p_photo_url) > 500 or char_length(p_home_url) > 500 then
    raise exception 'Too long URL' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  if char_length(p_timezone) > 64 then
    raise exception 'Invalid timezone' using errcode = 'P0001', detail = 'invalid_input';
  end if;
  -- The zone's name is not checked against Postgres's zone table: it is the visitor's browser's
  -- word (Intl), shown to the owner as text and never computed with, and a browser can name a
  -- zone this server's tzdata is too old to know, or 'Etc/Unknown' (Chrome, no system zone):
  -- refusing it refused that visitor's every write (and its check cost a subtransaction a write).
end;
$$;
revoke execute on function private.check_visitor_fields(text, text, text, text, text) from public;

-- Loads a message for a change and checks its block is published.
create function private.message_for_update(p_message_id uuid)
returns public.messages language plpgsql set search_path = '' as $$
declare
  v_message public.messages;
begin
  select m.* into v_message from public.messages m
    join public.blocks b on b.id = m.block_id and not b.deactivated
    where m.id = p_message_id
    for update of m;
  if not found then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  return v_message;
end;
$$;
revoke execute on function private.message_for_update(uuid) from public;

-- Posts a comment, question or reply. security definer: see the header.
create function public.post_message(p_block_id uuid, p_parent_id uuid default null, p_content text default null,
                                    p_creator_name text default null, p_color text default null,
                                    p_creator_photo_url text default null, p_home_url text default null,
                                    p_creator_email text default null, p_timezone text default null,
                                    p_honeypot text default null, p_page_key text default '')
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id, v_uid, '{comment,qna}');
  v_page text := private.check_page_key(v_block, p_page_key);
  v_parent public.messages;
  v_message public.messages;
  v_email text := nullif(btrim(p_creator_email), '');
  v_name text := coalesce(btrim(p_creator_name), '');
  v_held boolean;
  v_refusal text;
  v_refusal_detail text;
  v_refusal_hint text;
begin
  if v_block.block_anonymous and private.is_anonymous_caller() then
    raise exception 'Please sign in to leave a message.' using errcode = 'PT403';
  end if;
  -- the other trust checks, written out where they are cheap (the blocked writer: visible_block)
  if v_block.honeypot then
    perform private.check_honeypot(v_block, p_honeypot);
  end if;
  perform private.check_message_content(p_content);
  perform private.check_visitor_fields(p_creator_name, p_color, p_creator_photo_url, p_home_url, p_timezone);
  if nullif(p_creator_photo_url, '') is not null or nullif(p_home_url, '') is not null then
    perform private.check_visitor_urls(p_creator_photo_url, p_home_url);
  end if;

  if p_parent_id is not null then
    select * into v_parent from public.messages where id = p_parent_id and block_id = p_block_id;
    if not found or not private.message_visible(v_parent, v_uid, v_uid = v_block.owner_id) then
      raise exception 'message doesn''t exists' using errcode = 'PT404';
    end if;
    if v_parent.parent_id is not null then
      raise exception 'Replies nest one level only' using errcode = 'P0001';
    end if;
    if not v_block.allow_reply then
      raise exception 'Replies are turned off' using errcode = 'PT403';
    end if;
    if v_block.admin_only_reply and v_uid <> v_block.owner_id then
      raise exception 'Only the owner can reply' using errcode = 'PT403';
    end if;
    -- a reply is on its parent's page (the trigger says so too)
    v_page := v_parent.page_key;
  end if;

  -- a resubmission of the same content by the same author within 3000 ms is ignored (before
  -- the limits: a double click spends one token)
  perform pg_advisory_xact_lock(hashtextextended(v_uid::text || p_block_id::text, 0));
  select * into v_message from public.messages
    where block_id = p_block_id and creator_id = v_uid and parent_id is not distinct from p_parent_id
      and page_key = v_page
      and content = p_content and created_at > clock_timestamp() - interval '3000 milliseconds'
    order by created_at desc limit 1;
  if found then
    return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id);
  end if;

  -- true when a spent shared budget holds the message for the owner (escalation, trust.sql)
  begin
    v_held := private.check_rate_limit(v_block, v_uid, 'message');
  exception when sqlstate 'PGRST' then
    -- Refused, with the address's share spent: its burst is held all the same. The refusal
    -- rolled back what the check took (its tokens; a hold made there too), so the hold is made
    -- here, after it, and the 429 is answered without an error, which would roll the hold back
    -- (PostgREST commits and answers the status and headers set: the same body and Retry-After).
    get stacked diagnostics v_refusal = message_text, v_refusal_detail = pg_exception_detail,
                            v_refusal_hint = pg_exception_hint;
    if v_refusal_hint is distinct from 'hold_address_burst' then
      raise;
    end if;
    perform private.hold_address_burst(v_block, private.address_key(private.client_address()), clock_timestamp());
    perform set_config('response.status', '429', true),
            set_config('response.headers', jsonb_build_array(v_refusal_detail::jsonb -> 'headers')::text, true);
    return v_refusal::jsonb;
  end;

  insert into public.messages (block_id, parent_id, creator_id, creator_name, creator_photo_url, color,
                               home_url, content, timezone, created_at, status, imitates_owner, page_key)
    values (p_block_id, p_parent_id, v_uid, v_name, nullif(p_creator_photo_url, ''),
            p_color, nullif(p_home_url, ''), p_content, p_timezone, clock_timestamp(),
            case when v_held then 'held'
                 when v_block.hold_messages = 'off' then 'published'
                 else private.hold_status(v_block, v_uid, p_content) end,
            v_uid <> v_block.owner_id and private.imitates_owner(v_block, v_name), v_page)
    returning * into v_message;
  if v_held then
    insert into private.escalated_messages (message_id) values (v_message.id);
  end if;

  -- the notification email is kept only for top-level messages of blocks that ask for it
  if p_parent_id is null and v_block.allow_creator_email and v_email is not null
     and char_length(v_email) <= 50 and private.is_valid_email(v_email) then
    insert into public.message_private (message_id, block_id, creator_email)
      values (v_message.id, p_block_id, v_email);
  else
    v_email := null;
  end if;

  perform private.record_audience_event(v_block, v_uid, p_creator_name, nullif(p_creator_photo_url, ''), p_color, v_email);
  -- replies are mailed only to an address that confirmed it wants them, for this writer on this
  -- owner's blocks (mail-consent.sql). Unless it is that, the writer is told the same whatever the
  -- address's state (new, asked today, suppressed, confirmed for someone else, over a cap):
  -- 'pending', so the answer says nothing about an address that is not theirs.
  if v_email is not null
     and private.ask_mail_consent(v_email, v_block.owner_id, v_uid, p_block_id,
                                  private.request_locale(v_block.language)) <> 'confirmed' then
    return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id)
           || jsonb_build_object('email_confirmation', 'pending');
  end if;
  return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id);
end;
$$;
comment on function public.post_message(uuid, uuid, text, text, text, text, text, text, text, text, text) is
  'Posts a message or a one-level reply (held for approval when the block says so), in the thread of p_page_key (a reply: its parent''s). Errors: Please sign in to leave a message., Message cannot be empty, Too long message, Invalid avatar URL, Invalid home URL, Replies are turned off, Only the owner can reply, The owner of this block has blocked you from writing here., This was not sent: it looked automated., a 429 that says what is refused and for how long (docs/data-model.md), Not valid page key, block doesn''t exists. Held for approval when a shared budget is spent and the writer has no track record here.';
revoke execute on function public.post_message(uuid, uuid, text, text, text, text, text, text, text, text, text) from public, anon;

-- Author edits their message (a message waiting for approval too). Under the block's hold
-- setting an edit may be held again. security definer: see the header.
create or replace function public.edit_message(p_message_id uuid, p_content text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid, true);
  v_block public.blocks := private.visible_block(v_message.block_id);
begin
  if v_message.creator_id <> v_uid then
    raise exception 'Only the author can edit this message' using errcode = 'PT403';
  end if;
  perform private.check_writer(v_block, v_uid);
  perform private.check_message_content(p_content);
  perform private.check_rate_limit(v_block, v_uid, 'edit');
  update public.messages
    set content = p_content, is_edited = true,
        status = case when status = 'held' then 'held' else private.hold_status(v_block, v_uid, p_content) end
    where id = p_message_id returning * into v_message;
  return private.message_json(v_message, v_uid);
end;
$$;
revoke execute on function public.edit_message(uuid, text) from public, anon;

-- Author or block owner deletes a message (with its replies). security definer: see the header.
create or replace function public.delete_message(p_message_id uuid)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid, true);
begin
  if v_message.creator_id <> v_uid
     and not exists (select 1 from public.blocks where id = v_message.block_id and owner_id = v_uid) then
    raise exception 'Only the author or the block owner can delete this message' using errcode = 'PT403';
  end if;
  delete from public.messages where id = p_message_id;
  return jsonb_build_object('id', p_message_id, 'deleted', true);
end;
$$;
revoke execute on function public.delete_message(uuid) from public, anon;

-- Likes or unlikes a message for the caller; p_liked sets the state instead of toggling. Only a
-- call that changes the state spends a token. security definer: see the header.
create or replace function public.toggle_message_like(p_message_id uuid,
  p_liked boolean default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid);
  v_block public.blocks := private.visible_block(v_message.block_id);
  v_has boolean;
  v_want boolean;
begin
  if not v_block.allow_reaction then
    raise exception 'Reactions are turned off' using errcode = 'PT403';
  end if;
  perform private.check_writer(v_block, v_uid);
  v_has := exists (select 1 from public.message_likes where message_id = p_message_id and user_id = v_uid);
  v_want := coalesce(p_liked, not v_has);
  if v_want <> v_has then
    perform private.check_rate_limit(v_block, v_uid, 'like');
    if v_want then
      insert into public.message_likes (message_id, user_id) values (p_message_id, v_uid)
        on conflict do nothing;
    else
      delete from public.message_likes where message_id = p_message_id and user_id = v_uid;
    end if;
  end if;

  return jsonb_build_object('liked', v_want,
    'like_count', (select private.live_message_json(to_jsonb(m)) -> 'like_count'
                   from public.messages m where m.id = p_message_id));
end;
$$;
revoke execute on function public.toggle_message_like(uuid, boolean) from public, anon;

-- Block owner resolves or reopens a top-level message. security definer: see the header.
create function public.set_message_resolved(p_message_id uuid, p_resolved boolean)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.message_for_update(p_message_id);
begin
  if not exists (select 1 from public.blocks where id = v_message.block_id and owner_id = v_uid) then
    raise exception 'Only the block owner can resolve messages' using errcode = 'PT403';
  end if;
  if v_message.parent_id is not null then
    raise exception 'Only top-level messages can be resolved' using errcode = 'P0001';
  end if;
  update public.messages set resolved = coalesce(p_resolved, false)
    where id = p_message_id returning * into v_message;
  return private.message_json(v_message, v_uid);
end;
$$;
revoke execute on function public.set_message_resolved(uuid, boolean) from public, anon;

create trigger messages_before_insert before insert on public.messages
  for each row execute function private.messages_before_insert();
create trigger messages_after_insert after insert on public.messages
  for each row execute function private.messages_count_published();
create trigger messages_after_delete after delete on public.messages
  for each row execute function private.messages_count_published();
create trigger messages_after_status after update of status on public.messages
  for each row when ((old.status = 'published') <> (new.status = 'published'))
  execute function private.messages_count_published();
create trigger message_likes_after_change after insert or delete on public.message_likes
  for each row execute function private.message_likes_after_change();

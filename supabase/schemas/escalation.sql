-- Escalation (issue 17): what a spent shared budget does instead of refusing everyone
-- (private.check_rate_limit in trust.sql, private.take_address_quota in quota.sql): who writes on
-- (a track record), and the burst of an address held for the owner.

-- Messages held by escalation (issue 17), not by the block's hold setting: the owner's moderation
-- list says so (moderation_messages held_by). A table of its own, not a column of messages, so the
-- visitors' message JSON (to_jsonb of the row) does not grow.
create table private.escalated_messages (
  message_id uuid primary key references public.messages (id) on delete cascade,
  created_at timestamptz not null default now()
);
comment on table private.escalated_messages is
  'Messages a spent shared budget held for the owner (post_message, private.hold_address_burst); read by moderation_messages.';
alter table private.escalated_messages enable row level security;

-- A visitor with a track record on a block keeps writing when its shared budgets are spent:
-- one with history there that the owner could see, a published message or a counted response
-- on the block older than `limits.track_record_hours` (24). An account's age is none: visitors
-- sign in with Google or Apple, where new accounts are cheap, and an anonymous visitor who
-- confirms an email keeps the age of their anonymous sign-up (breaker reviews: 20 signed-in
-- accounts a minute old counted a free owner's 100 monthly responses in 2 s; when a day's age
-- was asked, 20 accounts a day old counted them in 5 s and published 180 comments in 15 s, none
-- held). A storm's accounts have no history on the block, anonymous or not.
create function private.has_track_record(p_block_id uuid, p_uid uuid)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from public.messages m
                 where m.creator_id = p_uid and m.block_id = p_block_id and m.status = 'published'
                   and m.created_at < now() - make_interval(hours => h.hours))
      or exists (select 1 from public.responses r
                 where r.creator_id = p_uid and r.block_id = p_block_id and not r.held
                   and r.created_at < now() - make_interval(hours => h.hours))
  from (select coalesce((private.setting('limits.track_record_hours', '24'::jsonb) #>> '{}')::integer, 24) as hours) h;
$$;
revoke execute on function private.has_track_record(uuid, uuid) from public;

-- An address whose burst was held (private.hold_address_burst), and when: for
-- `limits.burst_hold_minutes` after it, its fresh writers' messages are held as they come
-- (private.address_hold_applies), even when the share has a token again. Committed with the hold,
-- so a write that starts after the hold reads it.
create table private.address_holds (
  block_id uuid not null references public.blocks (id) on delete cascade,
  address uuid not null,
  held_at timestamptz not null,
  primary key (block_id, address)
);
comment on table private.address_holds is
  'When an address''s burst on a block was last held (private.hold_address_burst); its fresh writers are held while it is recent (private.address_hold_applies).';
alter table private.address_holds enable row level security;

-- The lock that orders an address's publishing messages and the holds of its burst on a block: a
-- message about to be published takes it shared (private.address_hold_applies), a hold takes it
-- exclusive and so waits for every message of the address that is still being written. Without
-- it a hold's snapshot missed a message not yet committed, which was then published after the
-- hold (storm.test at load 17: 5 of the storm's messages were published).
create function private.lock_address_holds(p_block_id uuid, p_address uuid, p_exclusive boolean)
returns void language plpgsql set search_path = '' as $$
begin
  if p_exclusive then
    perform pg_advisory_xact_lock(hashtext('address_holds:' || p_block_id), hashtext(p_address::text));
  else
    perform pg_advisory_xact_lock_shared(hashtext('address_holds:' || p_block_id), hashtext(p_address::text));
  end if;
end;
$$;
revoke execute on function private.lock_address_holds(uuid, uuid, boolean) from public;

-- When an address has used its share of a block: the published messages its writers without a
-- track record posted there in the last `limits.burst_hold_minutes` (10) are held for the owner
-- (a writer is the address's while their bucket row says they last wrote from it), and the hold
-- is noted (private.address_holds), so the address's fresh writers are held as they come for as
-- long. They looked like anyone's one by one; together they are the burst. The address's lock
-- first (exclusive: the messages of the address still being written commit first, and this
-- hold's update, a later statement, sees them), then one hold of a block at a time (a
-- transaction lock): two holds at once could lock the same messages in different orders (the
-- writers' bucket rows, which the update walks, move with every write) and deadlock; the next
-- one sees what the first held. A write refused after its hold still commits the hold
-- (public.post_message).
create function private.hold_address_burst(p_block public.blocks, p_address uuid, p_now timestamptz)
returns void language sql set search_path = '' as $$
  select private.lock_address_holds(p_block.id, p_address, true);
  select pg_advisory_xact_lock(hashtext('hold_address_burst'), hashtext(p_block.id::text));
  with held as (
  update public.messages m set status = 'held'
    where m.block_id = p_block.id and m.status = 'published' and m.creator_id <> p_block.owner_id
      and m.created_at > p_now - make_interval(mins =>
            coalesce((private.setting('limits.burst_hold_minutes', '10'::jsonb) #>> '{}')::integer, 10))
      and m.creator_id in (select r.subject from private.rate_limits r
                           where r.block_id = p_block.id and r.action = 'message' and r.address = p_address)
      and not private.has_track_record(p_block.id, m.creator_id)
    returning m.id
  )
  insert into private.escalated_messages (message_id) select id from held on conflict do nothing;
  insert into private.address_holds as h (block_id, address, held_at) values (p_block.id, p_address, p_now)
    on conflict (block_id, address) do update set held_at = greatest(h.held_at, excluded.held_at);
$$;
revoke execute on function private.hold_address_burst(public.blocks, uuid, timestamp with time zone) from public;

-- A message of the address about to be published (private.check_rate_limit): true when it is
-- held instead, because the address's burst was held in the last `limits.burst_hold_minutes` and
-- the writer has no track record. Takes the address's lock shared first, so a hold that starts
-- now waits for this message, and this message sees a hold that committed before it.
create function private.address_hold_applies(p_block public.blocks, p_uid uuid, p_address uuid)
returns boolean language plpgsql set search_path = '' as $$
begin
  perform private.lock_address_holds(p_block.id, p_address, false);
  return exists (select 1 from private.address_holds h
                 where h.block_id = p_block.id and h.address = p_address
                   and h.held_at > clock_timestamp() - make_interval(mins =>
                         coalesce((private.setting('limits.burst_hold_minutes', '10'::jsonb) #>> '{}')::integer, 10)))
     and not private.has_track_record(p_block.id, p_uid);
end;
$$;
revoke execute on function private.address_hold_applies(public.blocks, uuid, uuid) from public;

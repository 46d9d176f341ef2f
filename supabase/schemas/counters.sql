-- No hot rows on the visitor's path (issues 13 and 19). Block counters, option counts, audience
-- group counts and a message's like and reply counts (messages.sql) stay on their rows and go to
-- a delta row of the writer when another write holds the row, folded back by pg_cron
-- `fold-counters`. A writer picks its shard with private.free_shard: one no other open
-- transaction holds, so two writers never queue on one shard row (the owner's monthly response
-- count, in 32 shards, uses it too: quota.sql). Computed fields (member_count, live_*_count), the
-- block view and every message read (private.live_message_json) read row plus deltas.

create table private.block_count_deltas (
  block_id uuid not null references public.blocks (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  response_count integer not null default 0,
  new_response_count integer not null default 0,
  like_count integer not null default 0,
  primary key (block_id, shard)
) with (fillfactor = 70);
comment on table private.block_count_deltas is
  'Changes to a block''s counters made while another write held the block row (one row per block and writer session mod 32); folded into public.blocks by pg_cron fold-counters. A block''s counts are the row plus these (private.with_live_counts). No client role can read it.';
alter table private.block_count_deltas enable row level security;

create table private.option_count_deltas (
  option_id uuid not null references public.options (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  delta integer not null default 0,
  primary key (option_id, shard)
) with (fillfactor = 70);
comment on table private.option_count_deltas is
  'Changes to an option''s response_count made while another write held the option row (one row per option and writer shard); folded into public.options by pg_cron fold-counters. An option''s count is the row''s plus these. No client role can read it.';
alter table private.option_count_deltas enable row level security;

-- No foreign key to the group: its check locked the group row (FOR KEY SHARE), which a rename
-- holds (its key changes) while its cascade takes each member; a move or delete of a member in
-- another tab holds that member, then its -1 for the group waited here for the rename: the two
-- deadlocked (breaker break6, finding 6). A group's deltas go with it at the next fold.
create table private.audience_group_deltas (
  group_id uuid not null,
  shard smallint not null check (shard between 0 and 31),
  delta integer not null default 0,
  primary key (group_id, shard)
) with (fillfactor = 70);
comment on table private.audience_group_deltas is
  'Changes to an audience group''s count made while another write held the group row; folded into public.audience_groups by pg_cron fold-counters, which also drops those of a deleted group (no foreign key, so a member''s move never waits for a rename of its group). A group''s count is the row''s plus these (public.member_count). No client role can read it.';
alter table private.audience_group_deltas enable row level security;

-- The shard a writer uses among p_n shard rows of one thing (p_key: a block's rate-limit bucket,
-- its delta rows, an owner's count shards): the first from p_start on that no other open
-- transaction holds, each tried with a transaction-level advisory lock that is never waited for
-- (so the row lock taken next is never waited for either: every writer of these rows holds the
-- shard's advisory lock first). When all are held (more writers at once than shards), p_start,
-- whose row is then waited for as before. Two writers that hash or whose sessions fall on the same
-- shard no longer queue on it (issue 19: 20 sessions on 32 shards met on one a third of the time).
create function private.free_shard(p_key text, p_start integer, p_n integer)
returns integer language plpgsql set search_path = '' as $$
declare
  v_key integer := hashtext(p_key);
  v_shard integer;
begin
  for v_i in 0 .. p_n - 1 loop
    v_shard := (p_start + v_i) % p_n;
    if pg_try_advisory_xact_lock(v_key, v_shard) then
      return v_shard;
    end if;
  end loop;
  return p_start % p_n;
end;
$$;
revoke execute on function private.free_shard(text, integer, integer) from public;

-- Adds to a block's counters: on the row when no other write holds it, else on a delta row of a
-- shard no other write holds (never waits for another visitor's write). One visitor write at a
-- time may take the row (a transaction lock tried, never waited for): SKIP LOCKED alone did not
-- keep two from waiting on each other, since a locker that finds the row updated by an open write
-- waits for it while holding the row's tuple lock, which that write may then want (a deadlock
-- under a like storm on one block, storm.test).
create function private.bump_block_counts(p_block_id uuid, p_responses integer, p_new integer, p_likes integer)
returns void language plpgsql set search_path = '' as $$
begin
  if not pg_try_advisory_xact_lock(hashtext('block_count_row:' || p_block_id), 0) then
    perform private.bump_block_deltas(p_block_id, p_responses, p_new, p_likes);
    return;
  end if;
  update public.blocks
    set response_count = greatest(response_count + p_responses, 0),
        new_response_count = greatest(new_response_count + p_new, 0),
        like_count = greatest(like_count + p_likes, 0)
    where id = (select id from public.blocks where id = p_block_id for no key update skip locked)
      -- a decrement the row cannot take (the increments it undoes are still deltas) is a delta
      and response_count + p_responses >= 0 and like_count + p_likes >= 0;
  if found then
    return;
  end if;
  -- busy, short of a decrement, or gone (the block's delete cascading here)
  perform private.bump_block_deltas(p_block_id, p_responses, p_new, p_likes);
end;
$$;
revoke execute on function private.bump_block_counts(uuid, integer, integer, integer) from public;

-- Adds to a block's counters on a delta row of a shard no other write holds (bump_block_counts).
create function private.bump_block_deltas(p_block_id uuid, p_responses integer, p_new integer, p_likes integer)
returns void language plpgsql set search_path = '' as $$
begin
  insert into private.block_count_deltas as d (block_id, shard, response_count, new_response_count, like_count)
    select b.id, private.free_shard('block_count_deltas:' || p_block_id, pg_backend_pid() % 32, 32),
           p_responses, p_new, p_likes
    from public.blocks b where b.id = p_block_id
    on conflict (block_id, shard) do update
      set response_count = d.response_count + excluded.response_count,
          new_response_count = d.new_response_count + excluded.new_response_count,
          like_count = d.like_count + excluded.like_count;
end;
$$;
revoke execute on function private.bump_block_deltas(uuid, integer, integer, integer) from public;

-- The block with its exact counters: the row's plus the deltas not folded yet (one probe of an
-- index that is empty for a block nobody is writing to at the moment).
create function private.with_live_counts(p_block public.blocks)
returns public.blocks language plpgsql stable set search_path = '' as $$
declare
  v_block public.blocks := p_block;
begin
  if p_block.id is null then
    return p_block;
  end if;
  select greatest(p_block.response_count + coalesce(sum(d.response_count), 0), 0),
         greatest(p_block.new_response_count + coalesce(sum(d.new_response_count), 0), 0),
         greatest(p_block.like_count + coalesce(sum(d.like_count), 0), 0)
    into v_block.response_count, v_block.new_response_count, v_block.like_count
    from private.block_count_deltas d where d.block_id = p_block.id;
  return v_block;
end;
$$;
revoke execute on function private.with_live_counts(public.blocks) from public;

-- Adds p_delta to the response counts of options of a block (a submit's chosen options, or a
-- deleted response's): each on its row when no other write holds it, else on a delta row of a
-- shard no other write of this block's options holds (one shard for all of this write's options).
-- A decrement the row cannot take (the increments it undoes are still deltas) is a delta too.
create function private.bump_option_counts(p_block_id uuid, p_option_ids uuid[], p_delta integer)
returns void language plpgsql set search_path = '' as $$
declare
  v_done uuid[] := '{}';
begin
  if coalesce(cardinality(p_option_ids), 0) = 0 or p_delta = 0 then
    return;
  end if;
  -- one write at a time takes a block's option rows, as bump_block_counts' row; the others: deltas
  if pg_try_advisory_xact_lock(hashtext('option_count_rows:' || p_block_id), 0) then
    with free as (
      select o.id from public.options o
      where o.id = any (p_option_ids) and o.block_id = p_block_id
      order by o.id
      for no key update skip locked
    ), bumped as (
      update public.options o set response_count = o.response_count + p_delta
        from free f where o.id = f.id and o.response_count + p_delta >= 0
        returning o.id
    )
    select coalesce(array_agg(id), '{}') into v_done from bumped;
  end if;
  if cardinality(v_done) = cardinality(p_option_ids) then
    return;
  end if;
  insert into private.option_count_deltas as d (option_id, shard, delta)
    select o.id, s.shard, p_delta
    from public.options o,
         (select private.free_shard('option_count_deltas:' || p_block_id, pg_backend_pid() % 32, 32) as shard) s
    where o.id = any (p_option_ids) and o.block_id = p_block_id and not (o.id = any (v_done))
    order by o.id
    on conflict (option_id, shard) do update set delta = d.delta + excluded.delta;
end;
$$;
revoke execute on function private.bump_option_counts(uuid, uuid[], integer) from public;

-- Options' exact response counts, [{id, response_count}]: the row's plus the deltas not folded yet.
create function private.option_counts(p_option_ids uuid[])
returns jsonb language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'response_count',
           greatest(o.response_count + coalesce((select sum(d.delta) from private.option_count_deltas d
                                                 where d.option_id = o.id), 0), 0))
           order by o.index, o.created_at), '[]'::jsonb)
  from public.options o where o.id = any (p_option_ids);
$$;
revoke execute on function private.option_counts(uuid[]) from public;

-- "Reset new responses" (the owner sets new_response_count to 0, nothing else) resets the
-- deltas too: one delta row more, on a shard no other write holds, takes away what the others
-- hold (their sum), so the reset never waits for a visitor's open write of a delta row (it
-- updated each of them, and a visitor's like queued behind the owner who waited for another
-- visitor: breaker break6). A counter update moves response_count with it, so it never fires
-- this; nor does the fold, which says so in a transaction-local setting.
create function private.blocks_reset_new_deltas()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if current_setting('counters.folding', true) = 'on' then
    return null;
  end if;
  perform private.bump_block_deltas(new.id, 0, -sum(d.new_response_count)::integer, 0)
    from private.block_count_deltas d where d.block_id = new.id
    having sum(d.new_response_count) <> 0;
  return null;
end;
$$;
revoke execute on function private.blocks_reset_new_deltas() from public;

-- Moves an audience group's count: the group row when free and no other write is taking it (one
-- at a time, as bump_block_counts' row), else a delta row of a free shard.
create or replace function private.bump_audience_group(p_user_id uuid, p_name text, p_delta integer)
returns void language plpgsql set search_path = '' as $$
begin
  if pg_try_advisory_xact_lock(hashtext('audience_group_row:' || p_user_id || '/' || p_name), 0) then
    update public.audience_groups set count = count + p_delta
      where id = (select id from public.audience_groups
                  where user_id = p_user_id and name = p_name for no key update skip locked)
        and count + p_delta >= 0;
    if found then
      return;
    end if;
  end if;
  insert into private.audience_group_deltas as d (group_id, shard, delta)
    select g.id, private.free_shard('audience_group_deltas:' || g.id, pg_backend_pid() % 32, 32), p_delta
    from public.audience_groups g where g.user_id = p_user_id and g.name = p_name
    on conflict (group_id, shard) do update set delta = d.delta + excluded.delta;
end;
$$;
revoke execute on function private.bump_audience_group(uuid, text, integer) from public;

-- A group's exact member count (computed field of audience_groups:
-- `audience_groups?select=*,member_count`): the row's count plus the deltas not folded yet.
-- security definer: the deltas are in schema private; a group the caller cannot read (RLS) is
-- never handed to it by PostgREST, and the count of another owner's group is null. The stored row
-- decides, not the one passed in: called as an RPC (/rpc/member_count), p_group is whatever the
-- caller wrote, another owner's group id under their own user id.
create function public.member_count(p_group public.audience_groups)
returns integer language sql stable security definer set search_path = '' as $$
  select greatest(g.count + coalesce((select sum(d.delta) from private.audience_group_deltas d
                                      where d.group_id = g.id), 0), 0)::integer
  from public.audience_groups g
  where g.id = p_group.id and private.may_read_as(g.user_id);
$$;
comment on function public.member_count(public.audience_groups) is
  'The group''s exact member count (computed field of audience_groups: count plus the changes not folded yet). Null for another owner''s group.';
revoke execute on function public.member_count(public.audience_groups) from public, anon;

-- Folds one kind of delta rows into the rows they count for (p_target, keyed by p_key in
-- p_deltas): the rows nobody holds, and of those only the ones whose every delta row is free, so
-- the row plus all its deltas is exact and the fold never clamps a partial sum. p_sums names each
-- counter column of p_target and the delta column added to it. Answers the rows updated.
create function private.fold_deltas(p_target regclass, p_deltas regclass, p_key text, p_sums jsonb)
returns integer language plpgsql set search_path = '' as $$
declare
  v_sums text;
  v_sets text;
  v_count integer;
begin
  select string_agg(format('sum(%I) as %I', value, key), ', ' order by key),
         string_agg(format('%I = greatest(t.%I + s.%I, 0)', key, key, key), ', ' order by key)
    into v_sums, v_sets
    from jsonb_each_text(p_sums);
  execute format($sql$
    with free as (
      select t.id from %1$s t
      where t.id in (select distinct %3$I from %2$s)
      for no key update of t skip locked
    ), locked as (
      select %3$I, shard from %2$s
      where %3$I in (select id from free) for update skip locked
    ), whole as (
      select l.%3$I from locked l group by l.%3$I
      having count(*) = (select count(*) from %2$s a where a.%3$I = l.%3$I)
    ), taken as (
      delete from %2$s d
      using locked x
      where x.%3$I in (select %3$I from whole) and d.%3$I = x.%3$I and d.shard = x.shard
      returning d.*
    ), sums as (
      select %3$I, %4$s from taken group by %3$I
    )
    update %1$s t set %5$s from sums s where t.id = s.%3$I
  $sql$, p_target, p_deltas, p_key, v_sums, v_sets);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.fold_deltas(regclass, regclass, text, jsonb) from public;

-- Folds the deltas into the rows: the blocks, groups, options and messages nobody holds, their delta rows
-- nobody holds (SKIP LOCKED throughout). SKIP LOCKED still waits for a row's newer version that an
-- open write holds (the chain of updated versions is followed, then waited for), so the fold gives
-- up after 100 ms of any wait, so that it, not a visitor, is the one to give way: a fold and a
-- visitor waiting on each other end with the fold's lock timeout, before the visitor's 1 s
-- deadlock check, unless the visitor had already waited about 900 ms for this fold when the fold
-- began to wait (a fold slowed to most of a second: then the visitor's write fails as before).
-- The fold answers 0 (no error: the next fold, 5 seconds later, takes what this one left).
-- Every 5 seconds.
create function private.fold_counters()
returns integer language plpgsql set search_path = '' set lock_timeout = '100ms' as $$
declare
  v_blocks integer;
  v_groups integer;
  v_options integer;
  v_messages integer;
begin
  perform set_config('counters.folding', 'on', true);
  v_blocks := private.fold_deltas('public.blocks', 'private.block_count_deltas', 'block_id',
    '{"response_count": "response_count", "new_response_count": "new_response_count", "like_count": "like_count"}');
  v_groups := private.fold_deltas('public.audience_groups', 'private.audience_group_deltas',
    'group_id', '{"count": "delta"}');
  v_options := private.fold_deltas('public.options', 'private.option_count_deltas', 'option_id',
    '{"response_count": "delta"}');
  -- the deltas of a deleted group (audience_group_deltas has no foreign key), those nobody holds
  delete from private.audience_group_deltas d
    where (d.group_id, d.shard) in (
      select o.group_id, o.shard from private.audience_group_deltas o
      where not exists (select 1 from public.audience_groups g where g.id = o.group_id)
      for update skip locked);
  -- a message's like and reply counts (private.message_count_deltas, messages.sql)
  v_messages := private.fold_deltas('public.messages', 'private.message_count_deltas', 'message_id',
    '{"like_count": "like_count", "reply_count": "reply_count"}');
  return v_blocks + v_groups + v_options + v_messages;
exception when lock_not_available then
  -- it waited 100 ms (lock_timeout): nothing folded, the next fold takes it all
  return 0;
end;
$$;
revoke execute on function private.fold_counters() from public;

-- The owner's block list reads exact counts. A block's counters may sit in
-- private.block_count_deltas for up to the 5 s fold while the row is busy, so the row's columns
-- can be a few seconds behind under a burst. These computed fields
-- (`blocks?select=response_count:live_response_count,...`) add the deltas not folded yet, like
-- member_count does for audience groups. security definer: the deltas are in schema private; a
-- block the caller cannot read (RLS: owners only) is never handed to them by PostgREST, and for
-- another owner's block the answer is null. The stored row decides, and is the one counted: called
-- as an RPC, p_block is whatever the caller wrote (another owner's block id under their own id).
create function public.live_response_count(p_block public.blocks)
returns integer language sql stable security definer set search_path = '' as $$
  select (private.with_live_counts(b)).response_count
  from public.blocks b
  where b.id = p_block.id and private.may_read_as(b.owner_id);
$$;
comment on function public.live_response_count(public.blocks) is
  'The block''s exact response count (computed field: the row plus the changes not folded yet). Null for another owner''s block.';
revoke execute on function public.live_response_count(public.blocks) from public, anon;

create function public.live_new_response_count(p_block public.blocks)
returns integer language sql stable security definer set search_path = '' as $$
  select (private.with_live_counts(b)).new_response_count
  from public.blocks b
  where b.id = p_block.id and private.may_read_as(b.owner_id);
$$;
comment on function public.live_new_response_count(public.blocks) is
  'The block''s exact count of new responses (computed field: the row plus the changes not folded yet). Null for another owner''s block.';
revoke execute on function public.live_new_response_count(public.blocks) from public, anon;

create trigger blocks_reset_new_deltas after update of new_response_count on public.blocks
  for each row when (new.new_response_count = 0 and new.response_count = old.response_count
                     and new.like_count = old.like_count)
  execute function private.blocks_reset_new_deltas();

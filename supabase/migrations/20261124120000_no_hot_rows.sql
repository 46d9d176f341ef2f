-- No hot rows on the visitor's path (issue 13).
--
-- A visitor's write used to update rows that every write of an owner or of a block shares, and
-- held their locks until commit, so concurrent writes queued on them:
--   - the owner's monthly response count on public.profiles (every form or A/B submit to any of
--     the owner's blocks: the quota);
--   - the owner's audience group counts on public.audience_groups (every first write of a visitor
--     adds an audience member, which counts in the `activated` group);
--   - the block's counters on public.blocks (response_count, new_response_count, like_count: every
--     like, click, submit, comment and reply).
-- Now:
--   - The monthly count lives in 32 count shards per owner and month (private.response_counts),
--     each allowed its share of the limit (limit / 32, the remainder to the first shards). A write
--     takes one unit from the shard of its database session (pg_backend_pid() mod 32), and from the
--     next one that has room when that one is full, with a conditional upsert under the shard's
--     row lock. The sum of the shares is the limit, so the quota holds exactly: a burst never
--     admits more than the limit (overshoot 0) and is refused only when every shard is full. The
--     count is read as the sum of this month's shards (private.monthly_response_count, and the
--     PostgREST computed field public.response_monthly_count(profiles), which replaces the column
--     of that name: `profiles?select=response_monthly_count` reads it as before). A new month
--     writes new rows: the count starts at zero on the first without any reset; the pg_cron
--     `monthly-response-reset` now deletes the rows of earlier months.
--   - The 80 % / 100 % notices: the write that takes a unit sums the shards and records the level
--     it sees (private.quota_notice, once per owner, month and level as before); two writes that
--     cross a level together may each miss the other's unit, so pg_cron `quota-notices` (every
--     minute) records any level reached that no write saw.
--   - Block counters and audience group counts stay on their rows, and a write updates the row
--     when nobody holds it (FOR NO KEY UPDATE SKIP LOCKED: a cold block costs what it did); when
--     another write holds it, the change goes to a delta row of the writer's session instead
--     (private.block_count_deltas, private.audience_group_deltas; 32 per block or group at most).
--     The exact value is the row plus its deltas: private.with_live_counts(block) for a block
--     (used by the block view, the write RPCs' answers and the results summary),
--     public.audience_group_count(group) for a group. pg_cron `fold-counters` (every 5 seconds)
--     folds the deltas into the rows, skipping rows that are busy, so the columns the dashboard
--     lists read are at most a few seconds behind, and only while a block or an owner is hot.

-- ---------------------------------------------------------------------------------------------
-- the owner's monthly count: shards
-- ---------------------------------------------------------------------------------------------

create table private.response_counts (
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- first day of the month (UTC) the count belongs to
  month date not null,
  shard smallint not null check (shard between 0 and 31),
  count integer not null default 0 check (count >= 0),
  primary key (user_id, month, shard)
) with (fillfactor = 70);

comment on table private.response_counts is
  'The owner''s monthly response count in 32 shards per month, each allowed its share of response_monthly_limit (private.take_response_quota); the count is their sum (private.monthly_response_count). No client role can read it.';

alter table private.response_counts enable row level security;

-- This month's count of an owner: the sum of their shards (at most 32 rows, one index range).
create function private.monthly_response_count(p_user_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select coalesce(sum(count), 0)::integer from private.response_counts
  where user_id = p_user_id and month = date_trunc('month', now())::date;
$$;

-- A shard's share of the limit: limit / 32, the remainder to the first shards. The shares add up
-- to the limit.
create function private.quota_share(p_limit integer, p_shard integer)
returns integer
language sql
immutable
set search_path = ''
as $$
  select greatest(p_limit, 0) / 32 + (p_shard < greatest(p_limit, 0) % 32)::integer;
$$;

-- Records the quota level an owner's count reached (80: 80 % of the limit, 100: the limit) and
-- enqueues its mail, once per owner, month and level.
create function private.quota_notice(p_user_id uuid, p_month date, p_count integer, p_limit integer)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_level integer;
begin
  if p_limit <= 0 then
    return;
  end if;
  v_level := case when p_count >= p_limit then 100 when p_count >= ceil(p_limit * 0.8) then 80 end;
  if v_level is null
     or exists (select 1 from private.quota_notices where user_id = p_user_id and month = p_month and level = v_level) then
    return;
  end if;
  insert into private.quota_notices (user_id, month, level) values (p_user_id, p_month, v_level)
    on conflict do nothing;
  if found then
    perform private.enqueue_job('quota.notice',
      jsonb_build_object('user_id', p_user_id, 'month', p_month, 'level', v_level,
                         'count', p_count, 'limit', p_limit),
      'quota.notice:' || p_user_id || ':' || p_month || ':' || v_level, null, null, 'mail');
  end if;
end;
$$;

-- Takes p_n units of the owner's monthly quota, or none: false when the month has no room.
-- One unit (a visitor's submit): the shard of this database session first (pg_backend_pid() mod
-- 32: two concurrent transactions are two sessions, so they rarely meet), then the next ones;
-- each attempt is one conditional upsert under that shard's row lock, so a shard never passes its
-- share and the month never passes the limit. A writer holds at most one shard and never waits
-- for a second one while holding it. Several units (a letter send, the owner's): every shard of
-- the month locked in shard order, then filled in order. Then the notice of the level reached.
create function private.take_response_quota(p_user_id uuid, p_n integer default 1)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_limit integer;
  v_start integer := pg_backend_pid() % 32;
  v_shard integer;
  v_share integer;
  v_total integer;
  v_left integer := p_n;
  v_take integer;
  v_row record;
begin
  if coalesce(p_n, 0) <= 0 then
    return true;
  end if;
  select response_monthly_limit into v_limit from public.profiles where id = p_user_id;
  if v_limit is null then
    return false;
  end if;
  if p_n = 1 then
    -- the session's shard: one upsert, all a submit costs while the month has room
    -- (the share written out: a function with SET search_path is never inlined)
    v_share := greatest(v_limit, 0) / 32 + (v_start < greatest(v_limit, 0) % 32)::integer;
    if v_share > 0 then
      insert into private.response_counts as c (user_id, month, shard, count)
        values (p_user_id, v_month, v_start, 1)
        on conflict (user_id, month, shard) do update set count = c.count + 1
          where c.count < v_share;
      if found then
        v_left := 0;
      end if;
    end if;
    if v_left > 0 then
      -- the shards that look like they have room (read without a lock: a full shard stays full
      -- this month), the session's first; an upsert that finds its shard full keeps it locked
      -- till commit, so a writer rarely tries one it cannot use
      for v_shard in
        select s.n from generate_series(0, 31) g(i)
        cross join lateral (select (v_start + g.i) % 32 as n) s
        left join private.response_counts c on c.user_id = p_user_id and c.month = v_month and c.shard = s.n
        where v_left > 0 and g.i > 0 and coalesce(c.count, 0) < private.quota_share(v_limit, s.n)
        order by g.i
      loop
        insert into private.response_counts as c (user_id, month, shard, count)
          values (p_user_id, v_month, v_shard, 1)
          on conflict (user_id, month, shard) do update set count = c.count + 1
            where c.count < private.quota_share(v_limit, v_shard);
        if found then
          v_left := 0;
          exit;
        end if;
      end loop;
    end if;
  else
    insert into private.response_counts (user_id, month, shard, count)
      select p_user_id, v_month, g, 0 from generate_series(0, 31) g
      on conflict do nothing;
    if (select sum(greatest(private.quota_share(v_limit, c.shard) - c.count, 0))
        from (select shard, count from private.response_counts
              where user_id = p_user_id and month = v_month order by shard for update) c) < p_n then
      return false;
    end if;
    for v_row in select shard, count from private.response_counts
                 where user_id = p_user_id and month = v_month order by shard loop
      v_take := least(v_left, greatest(private.quota_share(v_limit, v_row.shard) - v_row.count, 0));
      if v_take > 0 then
        update private.response_counts set count = count + v_take
          where user_id = p_user_id and month = v_month and shard = v_row.shard;
        v_left := v_left - v_take;
      end if;
      exit when v_left = 0;
    end loop;
  end if;
  if v_left > 0 then
    return false;
  end if;
  if v_limit > 0 then
    select coalesce(sum(count), 0)::integer into v_total from private.response_counts
      where user_id = p_user_id and month = v_month;
    if v_total >= ceil(v_limit * 0.8) then
      perform private.quota_notice(p_user_id, v_month, v_total, v_limit);
    end if;
  end if;
  return true;
end;
$$;

-- Sets an owner's count for this month (spread over the shards by their shares; what is beyond
-- the limit goes to shard 0). For the seed and for operators; service role only.
create function private.set_monthly_response_count(p_user_id uuid, p_count integer)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_limit integer := coalesce((select response_monthly_limit from public.profiles where id = p_user_id), 0);
  v_left integer := greatest(coalesce(p_count, 0), 0);
  v_take integer;
begin
  delete from private.response_counts where user_id = p_user_id and month = v_month;
  for s in 0..31 loop
    v_take := least(v_left, private.quota_share(v_limit, s));
    if s = 31 then
      v_take := v_left;
    end if;
    if v_take > 0 then
      insert into private.response_counts (user_id, month, shard, count)
        values (p_user_id, v_month, case when s = 31 and v_take > private.quota_share(v_limit, s) then 0 else s end, v_take)
        on conflict (user_id, month, shard) do update set count = private.response_counts.count + excluded.count;
      v_left := v_left - v_take;
    end if;
  end loop;
end;
$$;

-- Levels reached that no write saw (two writes crossing a level together): every minute.
create function private.sweep_quota_notices()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_row record;
  v_n integer := 0;
begin
  for v_row in
    select c.user_id, sum(c.count)::integer as total, p.response_monthly_limit as lim
    from private.response_counts c join public.profiles p on p.id = c.user_id
    where c.month = v_month and p.response_monthly_limit > 0
    group by c.user_id, p.response_monthly_limit
    having sum(c.count) >= ceil(p.response_monthly_limit * 0.8)
  loop
    perform private.quota_notice(v_row.user_id, v_month, v_row.total, v_row.lim);
    v_n := v_n + 1;
  end loop;
  return v_n;
end;
$$;

-- The column gives way to the shards: the PostgREST computed field of the same name reads the
-- sum (`profiles?select=response_monthly_count`; in SQL `p.response_monthly_count` as before).
-- The owner reads their own; the service role anyone's. security definer: the shards are in
-- schema private.
drop trigger profiles_quota_notice on public.profiles;
drop function private.profiles_quota_notice();
alter table public.profiles drop column response_monthly_count, drop column response_month;

create function public.response_monthly_count(p_profile public.profiles)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when p_profile.id = (select auth.uid())
                or coalesce((select auth.role()), 'service_role') not in ('anon', 'authenticated')
              then private.monthly_response_count(p_profile.id) end;
$$;

comment on function public.response_monthly_count(public.profiles) is
  'This month''s response count of the owner (computed field of profiles: the sum of their count shards). Null for another user''s profile.';

revoke execute on function public.response_monthly_count(public.profiles) from public, anon;
grant execute on function public.response_monthly_count(public.profiles) to authenticated, service_role;

-- The schedule of 20261123110200 reset the column; a month's shards start at zero by themselves,
-- so the run on the first of the month only drops the rows of earlier months.
select cron.schedule(
  'monthly-response-reset',
  '0 0 1 * *',
  $$ delete from private.response_counts where month < date_trunc('month', now())::date; $$
);

select cron.schedule('quota-notices', '* * * * *', $$ select private.sweep_quota_notices(); $$);

-- ---------------------------------------------------------------------------------------------
-- block counters and audience group counts: the row when free, else a delta of the session
-- ---------------------------------------------------------------------------------------------

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

create table private.audience_group_deltas (
  group_id uuid not null references public.audience_groups (id) on delete cascade,
  shard smallint not null check (shard between 0 and 31),
  delta integer not null default 0,
  primary key (group_id, shard)
) with (fillfactor = 70);

comment on table private.audience_group_deltas is
  'Changes to an audience group''s count made while another write held the group row; folded into public.audience_groups by pg_cron fold-counters. A group''s count is the row''s plus these (public.audience_group_count). No client role can read it.';

alter table private.audience_group_deltas enable row level security;

-- Adds to a block's counters: on the row when no other write holds it, else on this session's
-- delta row (never waits for another visitor's write).
create function private.bump_block_counts(p_block_id uuid, p_responses integer, p_new integer, p_likes integer)
returns void
language plpgsql
set search_path = ''
as $$
begin
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
  insert into private.block_count_deltas as d (block_id, shard, response_count, new_response_count, like_count)
    select b.id, pg_backend_pid() % 32, p_responses, p_new, p_likes
    from public.blocks b where b.id = p_block_id
    on conflict (block_id, shard) do update
      set response_count = d.response_count + excluded.response_count,
          new_response_count = d.new_response_count + excluded.new_response_count,
          like_count = d.like_count + excluded.like_count;
end;
$$;

-- The block with its exact counters: the row's plus the deltas not folded yet (one probe of an
-- index that is empty for a block nobody is writing to at the moment).
create function private.with_live_counts(p_block public.blocks)
returns public.blocks
language plpgsql
stable
set search_path = ''
as $$
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

create or replace function private.responses_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_block_counts(new.block_id, 1, 1, (new.kind = 'like')::integer);
  return new;
end;
$$;

create or replace function private.responses_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_option_ids uuid[];
begin
  perform private.bump_block_counts(old.block_id, -1, -1, -(old.kind = 'like')::integer);
  if old.kind in ('form', 'ab') then
    select coalesce(array_agg(o.value::uuid), '{}') into v_option_ids
      from jsonb_each(old.answers) a,
           jsonb_array_elements_text(case when jsonb_typeof(a.value -> 'option_ids') = 'array'
                                          then a.value -> 'option_ids' else '[]'::jsonb end) o;
    if cardinality(v_option_ids) > 0 then
      update public.options set response_count = greatest(response_count - 1, 0)
        where id = any (v_option_ids) and block_id = old.block_id;
    end if;
  end if;
  return old;
end;
$$;

create or replace function private.messages_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_block_counts(new.block_id, 1, 1, 0);
  if new.parent_id is not null then
    update public.messages set reply_count = reply_count + 1 where id = new.parent_id;
  end if;
  return new;
end;
$$;

create or replace function private.messages_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_block_counts(old.block_id, -1, -1, 0);
  if old.parent_id is not null then
    update public.messages set reply_count = greatest(reply_count - 1, 0) where id = old.parent_id;
  end if;
  return old;
end;
$$;

-- "Reset new responses" (the owner sets new_response_count to 0, nothing else) resets the
-- deltas too. A counter update moves response_count with it, so it never fires this; nor does the
-- fold, which says so in a transaction-local setting.
create function private.blocks_reset_new_deltas()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if current_setting('counters.folding', true) = 'on' then
    return null;
  end if;
  update private.block_count_deltas set new_response_count = 0
    where block_id = new.id and new_response_count <> 0;
  return null;
end;
$$;

create trigger blocks_reset_new_deltas after update of new_response_count on public.blocks
  for each row when (new.new_response_count = 0 and new.response_count = old.response_count
                     and new.like_count = old.like_count)
  execute function private.blocks_reset_new_deltas();

-- As in 20261121000300: the group row when free, else this session's delta row.
create or replace function private.bump_audience_group(p_user_id uuid, p_name text, p_delta integer)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update public.audience_groups set count = count + p_delta
    where id = (select id from public.audience_groups
                where user_id = p_user_id and name = p_name for no key update skip locked)
      and count + p_delta >= 0;
  if found then
    return;
  end if;
  insert into private.audience_group_deltas as d (group_id, shard, delta)
    select g.id, pg_backend_pid() % 32, p_delta
    from public.audience_groups g where g.user_id = p_user_id and g.name = p_name
    on conflict (group_id, shard) do update set delta = d.delta + excluded.delta;
end;
$$;

-- A group's exact member count (computed field of audience_groups:
-- `audience_groups?select=*,member_count`): the row's count plus the deltas not folded yet.
-- security definer: the deltas are in schema private; a group the caller cannot read (RLS) is
-- never handed to it by PostgREST, and the count of another owner's group is null.
create function public.member_count(p_group public.audience_groups)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when p_group.user_id = (select auth.uid())
                or coalesce((select auth.role()), 'service_role') not in ('anon', 'authenticated')
              then greatest(p_group.count + coalesce((select sum(d.delta) from private.audience_group_deltas d
                                                      where d.group_id = p_group.id), 0), 0)::integer end;
$$;

comment on function public.member_count(public.audience_groups) is
  'The group''s exact member count (computed field of audience_groups: count plus the changes not folded yet). Null for another owner''s group.';

revoke execute on function public.member_count(public.audience_groups) from public, anon;
grant execute on function public.member_count(public.audience_groups) to authenticated, service_role;

-- Folds the deltas into the rows: the blocks and groups nobody holds, their delta rows nobody
-- holds (SKIP LOCKED throughout: never waits for a visitor, never deadlocks with one: a visitor
-- holds a delta row only while it does not wait for its block or group). Every 5 seconds.
create function private.fold_counters()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_blocks integer;
  v_groups integer;
begin
  perform set_config('counters.folding', 'on', true);
  with free as (
    select b.id from public.blocks b
    where b.id in (select distinct block_id from private.block_count_deltas)
    for no key update of b skip locked
  ), locked as (
    select block_id, shard from private.block_count_deltas
    where block_id in (select id from free) for update skip locked
  ), whole as (
    -- only blocks whose every delta row is free: the row plus all its deltas is exact, so the
    -- fold never clamps a partial sum
    select l.block_id from locked l group by l.block_id
    having count(*) = (select count(*) from private.block_count_deltas a where a.block_id = l.block_id)
  ), taken as (
    delete from private.block_count_deltas d
    using locked x
    where x.block_id in (select block_id from whole) and d.block_id = x.block_id and d.shard = x.shard
    returning d.*
  ), sums as (
    select block_id, sum(response_count) as r, sum(new_response_count) as n, sum(like_count) as l
    from taken group by block_id
  )
  update public.blocks b
    set response_count = greatest(b.response_count + s.r, 0),
        new_response_count = greatest(b.new_response_count + s.n, 0),
        like_count = greatest(b.like_count + s.l, 0)
    from sums s where b.id = s.block_id;
  get diagnostics v_blocks = row_count;

  with free as (
    select g.id from public.audience_groups g
    where g.id in (select distinct group_id from private.audience_group_deltas)
    for no key update of g skip locked
  ), locked as (
    select group_id, shard from private.audience_group_deltas
    where group_id in (select id from free) for update skip locked
  ), whole as (
    select l.group_id from locked l group by l.group_id
    having count(*) = (select count(*) from private.audience_group_deltas a where a.group_id = l.group_id)
  ), taken as (
    delete from private.audience_group_deltas d
    using locked x
    where x.group_id in (select group_id from whole) and d.group_id = x.group_id and d.shard = x.shard
    returning d.*
  ), sums as (
    select group_id, sum(delta) as delta from taken group by group_id
  )
  update public.audience_groups g set count = greatest(g.count + s.delta, 0)
    from sums s where g.id = s.group_id;
  get diagnostics v_groups = row_count;
  return v_blocks + v_groups;
end;
$$;

select cron.schedule('fold-counters', '5 seconds',
  $$ select private.fold_counters() where exists (select 1 from private.block_count_deltas)
                                          or exists (select 1 from private.audience_group_deltas); $$);

-- ---------------------------------------------------------------------------------------------
-- the block's rate-limit bucket: 32 shards by default (was 4)
-- ---------------------------------------------------------------------------------------------

-- As in 20261123170100_visitor_rpcs_with_limits.sql, with limits.block_shards 32 by default
-- instead of 4 (never more shards than the block's burst), and a visitor whose shard of the
-- block's bucket is empty takes the token from another shard that has one: the block's limit is
-- the sum of its shards, and one shard's share never limits a visitor. With 4 shards, 20
-- concurrent likes on one block queued on them (npm run bench:hot-rows: 70 % of the spread
-- throughput; 88 % with 32).
CREATE OR REPLACE FUNCTION private.check_rate_limit(p_block public.blocks, p_uid uuid, p_action text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_now timestamptz := clock_timestamp();
  v_enabled boolean;
  v_shards integer;
  v_cfg jsonb;
  v_visitor_rate double precision;
  v_visitor_burst double precision;
  v_block_rate double precision;
  v_block_burst double precision;
  v_home integer;
  v_shard integer;
  v_visitor_ok boolean;
  v_shard_ok boolean;
begin
  if p_uid = p_block.owner_id then
    return;
  end if;
  -- the three settings in one index scan
  select coalesce((s -> 'limits.enabled' #>> '{}')::boolean, true),
         greatest(1, least(64, coalesce((s -> 'limits.block_shards' #>> '{}')::integer, 32))),
         -- the defaults: a person never meets them, a script does at once (per minute and burst,
         -- for one visitor on one block and for the whole block); one visitor's form submits:
         -- five at once (Submit again), then three an hour, so one visitor cannot burn the
         -- owner's monthly responses
         case p_action
           when 'message' then '{"visitor_per_minute": 6, "visitor_burst": 8, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'edit' then '{"visitor_per_minute": 10, "visitor_burst": 10, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'like' then '{"visitor_per_minute": 60, "visitor_burst": 30, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'vote' then '{"visitor_per_minute": 10, "visitor_burst": 5, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'submit' then '{"visitor_per_minute": 0.05, "visitor_burst": 5, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'click' then '{"visitor_per_minute": 30, "visitor_burst": 20, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'report' then '{"visitor_per_minute": 10, "visitor_burst": 10, "block_per_minute": 60, "block_burst": 60}'::jsonb
         end
           || case when jsonb_typeof(s -> ('limits.' || p_action)) = 'object'
                   then s -> ('limits.' || p_action) else '{}'::jsonb end
           || case when jsonb_typeof(p_block.rate_limits -> p_action) = 'object'
                   then p_block.rate_limits -> p_action else '{}'::jsonb end
    into v_enabled, v_shards, v_cfg
    from (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) as s from private.settings
          where key in ('limits.enabled', 'limits.block_shards', 'limits.' || p_action)) settings;
  if not v_enabled then
    return;
  end if;
  v_visitor_rate := greatest((v_cfg ->> 'visitor_per_minute')::double precision, 0.0001);
  v_visitor_burst := greatest((v_cfg ->> 'visitor_burst')::double precision, 1);
  -- no more shards than the block's burst: each holds at least one token, and together they
  -- hold the burst (a small bucket of 8 is 8 shards of 1, not 32 of 1); a visitor whose shard is
  -- empty takes a token from another one (below), so a shard's share never limits one visitor
  v_shards := greatest(1, least(v_shards, floor(greatest((v_cfg ->> 'block_burst')::double precision, 1))::integer));
  v_block_rate := greatest((v_cfg ->> 'block_per_minute')::double precision / v_shards, 0.0001);
  v_block_burst := greatest((v_cfg ->> 'block_burst')::double precision / v_shards, 1);

  v_home := abs(mod(hashtext(p_uid::text), v_shards));
  with taken as (
  insert into private.rate_limits as r (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at)
    values (p_block.id, p_uid, p_action, v_visitor_burst - 1, v_visitor_rate, v_visitor_burst, v_now,
            v_now + make_interval(secs => 60 / v_visitor_rate)),
           (p_block.id, ('00000000-0000-0000-0000-' || lpad(to_hex(v_home), 12, '0'))::uuid,
            p_action,
            v_block_burst - 1, v_block_rate, v_block_burst, v_now, v_now + make_interval(secs => 60 / v_block_rate))
    on conflict (block_id, subject, action) do update
      set tokens = least(excluded.burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                                    * excluded.per_minute / 60) - 1,
          per_minute = excluded.per_minute,
          burst = excluded.burst,
          updated_at = v_now,
          full_at = v_now + make_interval(secs => (excluded.burst + 1 - least(excluded.burst,
                      r.tokens + extract(epoch from v_now - r.updated_at)::double precision * excluded.per_minute / 60))
                    * 60 / excluded.per_minute)
      where least(excluded.burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                             * excluded.per_minute / 60) >= 1
    returning r.subject
  )
  -- inserted or updated: a bucket that had no token is neither
  select coalesce(bool_or(subject = p_uid), false), coalesce(bool_or(subject <> p_uid), false)
    into v_visitor_ok, v_shard_ok from taken;
  if v_visitor_ok and v_shard_ok then
    return;
  end if;
  -- The visitor has a token but their shard of the block's bucket is empty: the block still has
  -- tokens if another shard has one (the shards together are the block's bucket). Only the
  -- shards that look like they have a token are tried (read without a lock first), so a writer
  -- rarely holds a shard it could not use.
  if v_visitor_ok and v_shards > 1 then
    for v_shard in
      select s.n from generate_series(1, v_shards - 1) g(i)
      cross join lateral (select (v_home + g.i) % v_shards as n) s
      left join private.rate_limits r
        on r.block_id = p_block.id and r.action = p_action
       and r.subject = ('00000000-0000-0000-0000-' || lpad(to_hex(s.n), 12, '0'))::uuid
      where r.block_id is null
         or least(v_block_burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                            * v_block_rate / 60) >= 1
      order by g.i
    loop
      insert into private.rate_limits as r (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at)
        values (p_block.id, ('00000000-0000-0000-0000-' || lpad(to_hex(v_shard), 12, '0'))::uuid, p_action,
                v_block_burst - 1, v_block_rate, v_block_burst, v_now, v_now + make_interval(secs => 60 / v_block_rate))
        on conflict (block_id, subject, action) do update
          set tokens = least(excluded.burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                                        * excluded.per_minute / 60) - 1,
              per_minute = excluded.per_minute,
              burst = excluded.burst,
              updated_at = v_now,
              full_at = v_now + make_interval(secs => (excluded.burst + 1 - least(excluded.burst,
                          r.tokens + extract(epoch from v_now - r.updated_at)::double precision * excluded.per_minute / 60))
                        * 60 / excluded.per_minute)
          where least(excluded.burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                                 * excluded.per_minute / 60) >= 1;
      if found then
        return;
      end if;
    end loop;
  end if;

  if p_block.captcha then
    update private.captcha_passes set uses_left = uses_left - 1
      where block_id = p_block.id and user_id = p_uid and uses_left > 0 and expires_at > v_now;
    if found then
      return;
    end if;
  end if;
  raise exception 'You''re going too fast, try again in a few seconds.' using
    errcode = 'PT429',
    detail = case when p_block.captcha and private.captcha_config() is not null then 'captcha' else 'rate_limit' end,
    hint = 'Wait a few seconds, then try again.';
end;
$function$;

-- ---------------------------------------------------------------------------------------------
-- the functions that read or wrote the moved counts
-- ---------------------------------------------------------------------------------------------

-- (submit) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION public.submit_response(p_block_id uuid, p_answers jsonb, p_creator_name text DEFAULT NULL::text, p_color text DEFAULT NULL::text, p_timezone text DEFAULT NULL::text, p_honeypot text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_question public.questions;
  v_raw jsonb;
  v_text text;
  v_ids uuid[];
  v_values jsonb;
  v_all_option_ids uuid[] := '{}';
  v_answers jsonb := '{}'::jsonb;
  v_found integer;
  v_email text;
  v_name text;
  v_response_id uuid;
  v_options jsonb;
begin
  if v_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  if v_block.honeypot then
    perform private.check_honeypot(v_block, p_honeypot);
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Please check response' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color, null, null, p_timezone);
  if exists (select 1 from jsonb_object_keys(p_answers) k
             where not exists (select 1 from public.questions q
                               where q.block_id = p_block_id and not q.deleted and q.id::text = k)) then
    raise exception 'Not valid question' using errcode = 'P0001';
  end if;

  for v_question in
    select * from public.questions where block_id = p_block_id and not deleted order by index, created_at
  loop
    continue when v_question.type in ('description', 'image');
    v_raw := p_answers -> v_question.id::text;
    if jsonb_typeof(v_raw) = 'object' then
      v_raw := v_raw -> 'value';
    end if;
    if v_raw is null or jsonb_typeof(v_raw) = 'null' then
      v_raw := null;
    end if;

    if v_question.type in ('poll', 'ab') then
      if v_raw is not null and jsonb_typeof(v_raw) not in ('string', 'array') then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      if jsonb_typeof(v_raw) = 'string' then
        v_raw := jsonb_build_array(v_raw);
      end if;
      v_raw := coalesce(v_raw, '[]'::jsonb);
      if exists (select 1 from jsonb_array_elements(v_raw) e
                 where jsonb_typeof(e) <> 'string' or (e #>> '{}') !~* '^[0-9a-f-]{36}$') then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      select coalesce(array_agg(distinct (e #>> '{}')::uuid), '{}') into v_ids from jsonb_array_elements(v_raw) e;
      if cardinality(v_ids) = 0 then
        if v_question.required then
          raise exception 'Required' using errcode = 'P0001', detail = v_question.id::text;
        end if;
        continue;
      end if;
      if cardinality(v_ids) > 1 and (v_question.type = 'ab' or not v_question.allow_multi_select) then
        raise exception 'Choose one option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      select coalesce(jsonb_agg(o.value order by o.index), '[]'::jsonb), count(*) into v_values, v_found
        from public.options o where o.id = any (v_ids) and o.question_id = v_question.id and not o.deleted;
      if v_found <> cardinality(v_ids) then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      v_all_option_ids := v_all_option_ids || v_ids;
      v_answers := v_answers || jsonb_build_object(v_question.id::text, jsonb_build_object(
        'index', v_question.index, 'title', v_question.title, 'type', v_question.type,
        'value', v_values, 'option_ids', to_jsonb(v_ids), 'as_visitor_info', v_question.as_visitor_info));
      continue;
    end if;

    -- text-like questions
    if v_raw is not null and jsonb_typeof(v_raw) not in ('string', 'number') then
      raise exception 'Please check response' using errcode = 'P0001', detail = v_question.id::text;
    end if;
    v_text := nullif(private.trim_whitespace(v_raw #>> '{}'), '');
    if v_text is null then
      if v_question.required then
        raise exception 'Required' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      continue;
    end if;
    case v_question.type
      when 'short_text' then
        if char_length(v_text) > 300 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'long_text' then
        if char_length(v_text) > 1000 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'mail' then
        if char_length(v_text) > 50 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
        if not private.is_valid_email(v_text) then
          raise exception 'Invalid email address.' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'phone' then
        if v_text !~ '^[0-9 -]{1,20}$' then
          raise exception 'Invalid phone number' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'number' then
        if v_text !~ '^[-+]?[0-9]{1,18}$' then
          raise exception 'Not a number' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      else
        null;
    end case;
    if v_question.as_visitor_info = 'email' and v_question.type = 'mail' then
      v_email := v_text;
    elsif v_question.as_visitor_info = 'name' then
      v_name := left(v_text, 100);
    end if;
    v_answers := v_answers || jsonb_build_object(v_question.id::text, jsonb_build_object(
      'index', v_question.index, 'title', v_question.title, 'type', v_question.type,
      'value', v_text, 'as_visitor_info', v_question.as_visitor_info));
  end loop;

  if v_block.type = 'ab' and exists (
      select 1 from public.responses where block_id = p_block_id and kind = 'ab' and creator_id = v_uid) then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;

  -- before the quota: a refused submit never touches the owner's row
  perform private.check_rate_limit(v_block, v_uid, case when v_block.type = 'ab' then 'vote' else 'submit' end);

  -- the owner's monthly quota: one of the owner's count shards, never a row all their visitors
  -- share (private.take_response_quota)
  if not private.take_response_quota(v_block.owner_id, 1) then
    raise exception 'Monthly response limit reached' using errcode = 'PT429', detail = 'quota';
  end if;

  insert into public.responses (block_id, kind, creator_id, creator_name, color, timezone, answers)
    values (p_block_id, v_block.type::text::public.response_kind, v_uid,
            coalesce(v_name, p_creator_name), p_color, p_timezone, v_answers)
    on conflict (block_id, creator_id) where kind = 'ab' do nothing
    returning id into v_response_id;
  if v_response_id is null then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;

  with bumped as (
    update public.options set response_count = response_count + 1
      where id = any (v_all_option_ids) and block_id = p_block_id
      returning id, response_count
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'response_count', response_count)), '[]'::jsonb)
    into v_options from bumped;

  perform private.record_audience_event(v_block, v_uid, coalesce(v_name, p_creator_name), null, p_color, v_email);

  return jsonb_build_object(
    'id', v_response_id,
    'response_count', (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = p_block_id),
    'options', v_options);
end;
$function$;

-- (like) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION public.toggle_block_like(p_block_id uuid, p_creator_name text DEFAULT NULL::text, p_color text DEFAULT NULL::text, p_liked boolean DEFAULT NULL::boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_has boolean;
  v_want boolean;
begin
  if v_block.type <> 'like' then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color);
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  v_has := exists (select 1 from public.responses
                   where block_id = p_block_id and kind = 'like' and creator_id = v_uid);
  v_want := coalesce(p_liked, not v_has);
  if v_want <> v_has then
    perform private.check_rate_limit(v_block, v_uid, 'like');
    if v_want then
      insert into public.responses (block_id, kind, creator_id, creator_name, color, is_like)
        values (p_block_id, 'like', v_uid, p_creator_name, p_color, true)
        on conflict (block_id, creator_id) where kind = 'like' do nothing;
      if found then
        perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
      end if;
    else
      delete from public.responses where block_id = p_block_id and kind = 'like' and creator_id = v_uid;
    end if;
  end if;

  return jsonb_build_object('liked', v_want,
    'like_count', (select (private.with_live_counts(b)).like_count from public.blocks b where b.id = p_block_id));
end;
$function$;

-- (click) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION public.record_button_click(p_block_id uuid, p_creator_name text DEFAULT NULL::text, p_color text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
begin
  if v_block.type <> 'button' then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color);
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  perform private.check_rate_limit(v_block, v_uid, 'click');
  insert into public.responses (block_id, kind, creator_id, creator_name, color)
    values (p_block_id, 'button', v_uid, p_creator_name, p_color);
  perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
  return jsonb_build_object('response_count', (select (private.with_live_counts(b)).response_count from public.blocks b where b.id = p_block_id));
end;
$function$;

-- (letter) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION public.reserve_letter(p_owner_id uuid, p_block_id uuid, p_emails text[], p_group text, p_register boolean, p_sender jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_profile public.profiles;
  v_block public.blocks;
  v_private public.block_private;
  v_total integer;
  v_count integer;
  v_publish_id uuid;
begin
  -- no key update: a visitor's write that adds an audience member (a key share on the profile,
  -- from the foreign key) does not wait for a send
  select * into v_profile from public.profiles where id = p_owner_id for no key update;
  select * into v_block from public.blocks where id = p_block_id and owner_id = p_owner_id;
  if v_profile.id is null or v_block.id is null or v_block.deactivated then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not a letter block' using errcode = 'P0001';
  end if;
  select * into v_private from public.block_private where block_id = p_block_id;
  if coalesce(v_private.mail_html, '') = '' then
    raise exception 'Load a page and save the letter first' using errcode = 'P0001';
  end if;
  if (p_emails is null) = (p_group is null) then
    raise exception 'Give either addresses or a group' using errcode = 'P0001';
  end if;
  if (p_group is not null or coalesce(p_register, false)) and not v_profile.paid then
    raise exception 'Paid plan required (%)', case when p_group is not null then 'audience' else 'registerAudience' end
      using errcode = 'PT403';
  end if;
  if p_group is not null and not exists (
      select 1 from public.audience_groups where user_id = p_owner_id and name = p_group) then
    raise exception 'No such group' using errcode = 'P0001';
  end if;

  create temporary table if not exists pg_temp.letter_recipients (
    email text primary key, member_id uuid, skip boolean not null default false
  ) on commit drop;
  truncate pg_temp.letter_recipients;
  if p_emails is not null then
    if coalesce(array_length(p_emails, 1), 0) > 100 then
      raise exception 'You can send 100 emails at once by manual sending' using errcode = 'P0001';
    end if;
    if exists (select 1 from unnest(p_emails) e
               where e is null or char_length(btrim(e)) > 100 or not private.is_valid_email(btrim(e))) then
      raise exception 'Email address is invalid' using errcode = 'P0001';
    end if;
    insert into pg_temp.letter_recipients (email)
      select distinct lower(btrim(e)) from unnest(p_emails) e
      on conflict do nothing;
    if coalesce(p_register, false) then
      insert into public.audience_members (user_id, email, creator_name, history)
        select p_owner_id, r.email, left(split_part(r.email, '@', 1), 30), '[]'::jsonb
        from pg_temp.letter_recipients r
        where not exists (select 1 from public.audience_members a
                          where a.user_id = p_owner_id and lower(a.email) = r.email)
        on conflict do nothing;
    end if;
    update pg_temp.letter_recipients r set member_id = a.id
      from public.audience_members a where a.user_id = p_owner_id and lower(a.email) = r.email;
  else
    insert into pg_temp.letter_recipients (email, member_id)
      select distinct on (lower(a.email)) lower(a.email), a.id
      from public.audience_members a
      where a.user_id = p_owner_id and not a.deactivated and a.has_email
        and (p_group = 'activated' or a.group_name = p_group)
      order by lower(a.email), a.created_at
      on conflict do nothing;
  end if;

  update pg_temp.letter_recipients r set skip = true
    where exists (select 1 from public.unsubscribes u where u.user_id = p_owner_id and lower(u.email) = r.email)
       or exists (select 1 from private.mail_suppressions s where s.email = r.email);
  select count(*) filter (where not skip), count(*) into v_count, v_total from pg_temp.letter_recipients;
  if v_count = 0 then
    return jsonb_build_object('publish_id', null, 'reserved', 0, 'skipped', v_total);
  end if;

  -- the month's quota, from the owner's count shards (private.take_response_quota)
  if not private.take_response_quota(p_owner_id, v_count) then
    raise exception 'Not enough sending email counts' using errcode = 'P0001';
  end if;

  insert into public.publishes (block_id, user_id, subject, html, text, group_name, reserved_count,
                                mail_from, mail_name, reply_to)
    values (p_block_id, p_owner_id, left(coalesce(nullif(v_private.mail_title, ''), v_block.name), 200),
            v_private.mail_html, v_private.mail_text, p_group, v_count,
            p_sender ->> 'from', left(nullif(p_sender ->> 'from_name', ''), 100), nullif(p_sender ->> 'reply_to', ''))
    returning id into v_publish_id;

  with d as (
    insert into public.deliveries (publish_id, user_id, audience_member_id, email)
      select v_publish_id, p_owner_id, r.member_id, r.email
      from pg_temp.letter_recipients r where not r.skip
      returning id
  )
  insert into private.jobs (kind, payload, dedupe_key, rate_bucket)
    select 'letter', jsonb_build_object('delivery_id', d.id, 'publish_id', v_publish_id),
           'letter:' || d.id, 'mail'
    from d;

  update public.blocks
    set response_count = response_count + v_count, new_response_count = new_response_count + v_count
    where id = p_block_id;
  return jsonb_build_object('publish_id', v_publish_id, 'reserved', v_count, 'skipped', v_total - v_count);
end;
$function$;

-- (ctx) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION public.quota_notice_context(p_payloads jsonb)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select coalesce(jsonb_agg(
    case
      when pr.id is null then jsonb_build_object('skip', 'the account was deleted')
      when nullif(pr.email, '') is null then jsonb_build_object('skip', 'the owner has no email address')
      when exists (select 1 from private.mail_suppressions s where s.email = lower(pr.email))
        then jsonb_build_object('skip', 'the address is suppressed (bounce or complaint)')
      else jsonb_build_object(
        'to', pr.email, 'user_id', pr.id, 'language', pr.language, 'name', pr.name,
        'level', (x ->> 'level')::integer, 'month', x ->> 'month',
        'count', coalesce((x ->> 'count')::integer, private.monthly_response_count(pr.id)),
        'limit', coalesce((x ->> 'limit')::integer, pr.response_monthly_limit))
    end order by i), '[]'::jsonb)
  from jsonb_array_elements(p_payloads) with ordinality p(x, i)
  left join public.profiles pr on pr.id = (x ->> 'user_id')::uuid;
$function$;

-- (pbj) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION private.public_block_json(p_block public.blocks)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
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
    'captcha', case when p_block.captcha then private.captcha_config() end)
  from private.with_live_counts(p_block) c;
$function$;

-- (summary) as in supabase/schema.sql before this migration, with the counts above
CREATE OR REPLACE FUNCTION public.block_results_summary(p_block_id uuid, p_timezone text DEFAULT 'UTC'::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_block public.blocks;
  v_tz text := coalesce(nullif(p_timezone, ''), 'UTC');
  v_now timestamp;
  v_totals jsonb;
  v_first timestamptz;
  v_unit text;
  v_start timestamp;
  v_timeline jsonb;
  v_questions jsonb := '[]'::jsonb;
  v_q record;
  v_list jsonb := '[]'::jsonb;
  v_cols text[] := '{}';
  v_n integer;
  v_i integer;
  v_answer text;
  v_value text;
  v_row jsonb;
  v_item jsonb;
  v_options jsonb;
  v_latest jsonb;
begin
  select * into v_block from public.blocks where id = p_block_id and owner_id = (select auth.uid());
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  v_block := private.with_live_counts(v_block);
  if char_length(v_tz) > 64 then
    raise exception 'Invalid timezone' using errcode = 'P0001';
  end if;
  begin
    v_now := now() at time zone v_tz;
  exception when others then
    raise exception 'Invalid timezone' using errcode = 'P0001';
  end;

  -- the first response, from the (block_id, created_at) index: it decides the bucket size
  select created_at into v_first from public.responses
    where block_id = p_block_id order by created_at limit 1;

  -- scan 1: responses over time, in the owner's time zone (days for two months, weeks for a
  -- year, then months; at most 120 buckets), and the totals from the same rows
  if v_first is null then
    v_unit := 'day';
    v_timeline := '[]'::jsonb;
    v_totals := jsonb_build_object('responses', 0, 'last_7_days', 0,
                                   'first_at', null, 'last_at', null);
  else
    v_unit := case when v_now - (v_first at time zone v_tz) <= interval '62 days' then 'day'
                   when v_now - (v_first at time zone v_tz) <= interval '371 days' then 'week'
                   else 'month' end;
    v_start := greatest(date_trunc(v_unit, v_first at time zone v_tz),
                        date_trunc(v_unit, v_now) - ('119 ' || v_unit)::interval);
    with counts as (
      select date_trunc(v_unit, created_at at time zone v_tz) as t, count(*) as n,
             count(*) filter (where created_at > now() - interval '7 days') as recent,
             max(created_at) as last_at
      from public.responses
      where block_id = p_block_id
      group by 1
    ), buckets as (
      select t from generate_series(v_start, date_trunc(v_unit, v_now), ('1 ' || v_unit)::interval) t
    )
    select (select coalesce(jsonb_agg(jsonb_build_object('t', to_char(b.t, 'YYYY-MM-DD'), 'n', coalesce(c.n, 0))
                                      order by b.t), '[]'::jsonb)
              from buckets b left join counts c on c.t = b.t),
           jsonb_build_object('responses', (select coalesce(sum(n), 0) from counts),
                              'last_7_days', (select coalesce(sum(recent), 0) from counts),
                              'first_at', v_first,
                              'last_at', (select max(last_at) from counts))
      into v_timeline, v_totals;
  end if;

  -- scan 2 (form and ab): one pass over the rows computes every question's figures, with one
  -- aggregate per question and per option (built here from the current questions)
  if v_block.type in ('form', 'ab') and v_first is not null then
    for v_q in
      select q.id, q.index, q.title, q.type, q.allow_multi_select,
             (select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'value', o.value, 'deleted', o.deleted)
                                        order by o.deleted, o.index), '[]'::jsonb)
                from public.options o where o.question_id = q.id) as options
      from public.questions q
      where q.block_id = p_block_id and not q.deleted and q.type not in ('description', 'image')
      order by q.index
    loop
      v_list := v_list || jsonb_build_object('id', v_q.id, 'index', v_q.index, 'title', v_q.title,
        'type', v_q.type, 'multi', v_q.allow_multi_select, 'options', v_q.options);
      v_n := jsonb_array_length(v_list) - 1;
      v_answer := format('r.answers -> %L', v_q.id);
      v_cols := v_cols || format('count(*) filter (where r.answers ? %L) as a%s', v_q.id, v_n);
      if v_q.type = 'number' then
        v_value := format('case when %1$s ->> ''value'' ~ ''^[-+]?[0-9]{1,18}$'' then (%1$s ->> ''value'')::numeric end', v_answer);
        v_cols := v_cols
          || format('count(%s) as n%s', v_value, v_n)
          || format('round(avg(%s), 2) as mean%s', v_value, v_n)
          || format('percentile_cont(0.5) within group (order by %s) as median%s', v_value, v_n)
          || format('min(%s) as min%s', v_value, v_n)
          || format('max(%s) as max%s', v_value, v_n);
      elsif v_q.type in ('poll', 'ab') then
        for v_i in 0 .. jsonb_array_length(v_q.options) - 1 loop
          v_cols := v_cols || format('count(*) filter (where %s -> ''option_ids'' ? %L) as o%s_%s',
                                     v_answer, v_q.options -> v_i ->> 'id', v_n, v_i);
        end loop;
      end if;
    end loop;

    if cardinality(v_cols) > 0 then
      execute format('select to_jsonb(t) from (select %s from public.responses r where r.block_id = $1) t',
                     array_to_string(v_cols, ', '))
        into v_row using p_block_id;
    end if;

    for v_n in 0 .. jsonb_array_length(v_list) - 1 loop
      v_item := v_list -> v_n;
      v_item := v_item || jsonb_build_object('answered', coalesce((v_row ->> ('a' || v_n))::integer, 0));
      if v_item ->> 'type' = 'number' then
        v_item := v_item || jsonb_build_object('number', jsonb_build_object(
          'count', (v_row ->> ('n' || v_n))::integer, 'mean', v_row -> ('mean' || v_n),
          'median', v_row -> ('median' || v_n), 'min', v_row -> ('min' || v_n), 'max', v_row -> ('max' || v_n)));
      end if;
      if v_item ->> 'type' in ('poll', 'ab') then
        -- deleted options stay listed only while some responses chose them
        select coalesce(jsonb_agg(o.value || jsonb_build_object('count', o.count) order by o.i), '[]'::jsonb)
          into v_options
          from (select e.value, e.i, coalesce((v_row ->> format('o%s_%s', v_n, e.i - 1))::integer, 0) as count
                from jsonb_array_elements(v_item -> 'options') with ordinality e(value, i)) o
          where not (o.value ->> 'deleted')::boolean or o.count > 0;
        v_item := v_item || jsonb_build_object('options', v_options);
      else
        v_item := v_item - 'options';
      end if;
      if v_item ->> 'type' in ('short_text', 'long_text', 'mail', 'phone') then
        -- the latest answers: the (block_id, created_at) index read newest first, stopping at 5
        select coalesce(jsonb_agg(jsonb_build_object('value', l.value, 'created_at', l.created_at)
                                  order by l.created_at desc), '[]'::jsonb)
          into v_latest
          from (select r.answers -> (v_item ->> 'id') ->> 'value' as value, r.created_at
                from public.responses r
                where r.block_id = p_block_id and r.answers ? (v_item ->> 'id')
                order by r.created_at desc
                limit 5) l;
        v_item := v_item || jsonb_build_object('latest', v_latest);
      end if;
      v_questions := v_questions || v_item;
    end loop;
  end if;

  return jsonb_build_object(
    'block', jsonb_build_object('id', v_block.id, 'type', v_block.type,
                                'response_count', v_block.response_count, 'like_count', v_block.like_count),
    'timezone', v_tz,
    'totals', v_totals,
    'timeline', jsonb_build_object('unit', v_unit, 'points', v_timeline),
    'questions', v_questions);
end;
$function$;

revoke execute on function
  private.monthly_response_count(uuid), private.quota_share(integer, integer),
  private.quota_notice(uuid, date, integer, integer), private.take_response_quota(uuid, integer),
  private.set_monthly_response_count(uuid, integer), private.sweep_quota_notices(),
  private.bump_block_counts(uuid, integer, integer, integer), private.with_live_counts(public.blocks),
  private.blocks_reset_new_deltas(), private.fold_counters()
from public;

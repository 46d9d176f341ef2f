-- The owner's monthly response quota (issue 13): the count lives in 32 count shards per owner and
-- month, each allowed its share of the limit, so the quota holds exactly without one row every
-- submit of the owner's blocks locks (a writer takes a shard no other open transaction holds,
-- private.free_shard in counters.sql); the quota notices at 80 % and 100 % and what their mail
-- needs. The computed field profiles.response_monthly_count reads the sum of the shards.

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

create table private.quota_notices (
  user_id uuid not null references public.profiles (id) on delete cascade,
  month date not null,
  level integer not null check (level in (80, 100)),
  created_at timestamptz not null default now(),
  primary key (user_id, month, level)
);
comment on table private.quota_notices is
  'The monthly response quota mails sent to an owner: once per month at 80 % and once at 100 %.';
alter table private.quota_notices enable row level security;

-- This month's count of an owner: the sum of their shards (at most 32 rows, one index range).
create function private.monthly_response_count(p_user_id uuid)
returns integer language sql stable set search_path = '' as $$
  select coalesce(sum(count), 0)::integer from private.response_counts
  where user_id = p_user_id and month = date_trunc('month', now())::date;
$$;
revoke execute on function private.monthly_response_count(uuid) from public;

-- A shard's share of the limit: limit / 32, the remainder to the first shards. The shares add up
-- to the limit.
create function private.quota_share(p_limit integer, p_shard integer)
returns integer language sql immutable set search_path = '' as $$
  select greatest(p_limit, 0) / 32 + (p_shard < greatest(p_limit, 0) % 32)::integer;
$$;
revoke execute on function private.quota_share(integer, integer) from public;

-- Records the quota level an owner's count reached (80: 80 % of the limit, 100: the limit) and
-- enqueues its mail, once per owner, month and level.
create function private.quota_notice(p_user_id uuid, p_month date, p_count integer, p_limit integer)
returns void language plpgsql set search_path = '' as $$
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
    perform public.enqueue_job('quota.notice',
      jsonb_build_object('user_id', p_user_id, 'month', p_month, 'level', v_level,
                         'count', p_count, 'limit', p_limit),
      'quota.notice:' || p_user_id || ':' || p_month || ':' || v_level, null, null, 'mail');
  end if;
end;
$$;
revoke execute on function private.quota_notice(uuid, date, integer, integer) from public;

-- Takes p_n units of the owner's monthly quota, or answers false. Without deadlocks (found by
-- hot-rows.test.ts under a burst at the limit): `insert ... on conflict do update ... where
-- count < share` would lock a full shard's row till commit even though the WHERE failed, so a
-- writer holding its full shard could wait for another shard held by a writer waiting for the
-- first. So a unit is taken by `update ... where count < share`, which locks a row only when it takes
-- from it (a row that no longer qualifies after waiting is passed over unlocked), and a missing
-- shard row is inserted with `on conflict do nothing` (no lock on conflict). So a single-unit
-- writer holds a shard lock only once it has its unit, and never waits while holding one: no
-- cycle can form. Several units (letter sends) still lock every shard in shard order.
create or replace function private.take_response_quota(p_user_id uuid, p_n integer default 1)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_month date := date_trunc('month', now())::date;
  v_limit integer;
  v_start integer;
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
    -- a shard no other writer holds first (from the session's own), then the shards that look
    -- like they have room (read without a lock: a full shard stays full this month)
    v_start := private.free_shard('response_counts:' || p_user_id || ':' || v_month, pg_backend_pid() % 32, 32);
    for v_shard in
      select s.n from generate_series(0, 31) g(i)
      cross join lateral (select (v_start + g.i) % 32 as n) s
      left join private.response_counts c
        on c.user_id = p_user_id and c.month = v_month and c.shard = s.n
      where g.i = 0 or coalesce(c.count, 0) < private.quota_share(v_limit, s.n)
      order by g.i
    loop
      -- (the share written out: a function with SET search_path is never inlined)
      v_share := greatest(v_limit, 0) / 32 + (v_shard < greatest(v_limit, 0) % 32)::integer;
      continue when v_share <= 0;
      update private.response_counts set count = count + 1
        where user_id = p_user_id and month = v_month and shard = v_shard and count < v_share;
      if not found then
        insert into private.response_counts (user_id, month, shard, count)
          values (p_user_id, v_month, v_shard, 1)
          on conflict do nothing;
        if not found then
          -- another writer created the row meanwhile: its share may still have room
          update private.response_counts set count = count + 1
            where user_id = p_user_id and month = v_month and shard = v_shard
              and count < v_share;
        end if;
      end if;
      if found then
        v_left := 0;
        exit;
      end if;
    end loop;
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
revoke execute on function private.take_response_quota(uuid, integer) from public;

-- Sets an owner's count for this month (spread over the shards by their shares; what is beyond
-- the limit goes to shard 0). For the seed and for operators; service role only.
create function private.set_monthly_response_count(p_user_id uuid, p_count integer)
returns void language plpgsql set search_path = '' as $$
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
revoke execute on function private.set_monthly_response_count(uuid, integer) from public;

-- Levels reached that no write saw (two writes crossing a level together): every minute.
create function private.sweep_quota_notices()
returns integer language plpgsql set search_path = '' as $$
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
revoke execute on function private.sweep_quota_notices() from public;

create function public.response_monthly_count(p_profile public.profiles)
returns integer language sql stable security definer set search_path = '' as $$
  select case when private.may_read_as(p_profile.id)
              then private.monthly_response_count(p_profile.id) end;
$$;
comment on function public.response_monthly_count(public.profiles) is
  'This month''s response count of the owner (computed field of profiles: the sum of their count shards). Null for another user''s profile.';
revoke execute on function public.response_monthly_count(public.profiles) from public, anon;

-- What each quota.notice job's mail needs: the owner's address, language and name, the level,
-- the count and the limit when the threshold was crossed; or {skip} (no address, suppressed,
-- account gone).
create or replace function public.quota_notice_context(p_payloads jsonb)
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(
    case
      when pr.id is null then jsonb_build_object('skip', 'the account was deleted')
      when nullif(pr.email, '') is null then jsonb_build_object('skip', 'the owner has no email address')
      when private.mailbox_suppressed(pr.email)
        then jsonb_build_object('skip', 'the address is suppressed (bounce or complaint)')
      else jsonb_build_object(
        'to', pr.email, 'user_id', pr.id, 'language', pr.language, 'name', pr.name,
        'level', (x ->> 'level')::integer, 'month', x ->> 'month',
        'count', coalesce((x ->> 'count')::integer, private.monthly_response_count(pr.id)),
        'limit', coalesce((x ->> 'limit')::integer, pr.response_monthly_limit))
    end order by i), '[]'::jsonb)
  from jsonb_array_elements(p_payloads) with ordinality p(x, i)
  left join public.profiles pr on pr.id = (x ->> 'user_id')::uuid;
$$;
revoke execute on function public.quota_notice_context(jsonb) from public, anon, authenticated;

-- What the visitors of a site counted today (UTC) of one owner's monthly responses (issue 17),
-- and what all visitors without a track record counted together: at most
-- `limits.address_quota_share` (0.1) and `limits.fresh_quota_share` (0.25) of their
-- response_monthly_limit; beyond either the response is kept but held. In up to 32 shards per
-- (owner, key, day), each allowed its part (the parts add up to the whole), so the visitors of one
-- address (an office, a school, the load test's loopback) do not queue on one row (npm run
-- bench:load). Unlogged like the buckets (a crash gives each its share again); rows of past days
-- are purged.
create unlogged table private.address_quota (
  owner_id uuid not null,
  -- private.reserve_key of the client address (an IPv4 address, an IPv6 /48), or the nil uuid:
  -- every visitor without a track record together
  address uuid not null,
  day date not null,
  counted integer not null check (counted >= 0),
  shard smallint not null default 0 check (shard between 0 and 31),
  primary key (owner_id, address, day, shard)
) with (fillfactor = 50);
comment on table private.address_quota is
  'Responses and votes one site (reserve_key), or all visitors without a track record together (the nil uuid), counted today for one owner, in up to 32 shards (private.take_address_quota): at most limits.address_quota_share / limits.fresh_quota_share of the monthly limit, the rest is held.';
alter table private.address_quota enable row level security;

-- One unit of a day's share p_cap of an owner's monthly responses under p_key (an address, or the
-- nil uuid of the visitors without a track record): the shard it was taken from, null when the
-- share is spent today (UTC). The share is exact and split in n = min(32, cap) shards of cap / n
-- (the remainder to the first ones); a unit is taken as the owner's quota takes one
-- (take_response_quota): first a shard no other open transaction holds (private.free_shard), by
-- `update ... where counted < part`, which locks a row only when it takes from it, a missing row
-- inserted with `on conflict do nothing`; then the other shards that look like they have room.
-- So a writer holds a shard only once it has its unit and never waits while holding one: no
-- deadlock, and writers of one key wait for each other only when more of them than shards write
-- at once. (An upsert `on conflict do update ... where` would keep a full shard locked and let two
-- writers wait on each other.)
create or replace function private.take_day_share(p_owner uuid, p_key uuid, p_cap integer)
returns integer language plpgsql set search_path = '' as $$
declare
  v_n integer := least(32, p_cap);
  v_day date := (now() at time zone 'UTC')::date;
  v_start integer;
  v_shard integer;
  v_part integer;
begin
  -- a shard no other writer holds first, then the shards that look like they have room (read
  -- without a lock: a full shard stays full today)
  v_start := private.free_shard('address_quota:' || p_owner || ':' || p_key, pg_backend_pid() % v_n, v_n);
  for v_shard in
    select s.n from generate_series(0, v_n - 1) g(i)
    cross join lateral (select (v_start + g.i) % v_n as n) s
    left join private.address_quota q
      on q.owner_id = p_owner and q.address = p_key and q.day = v_day and q.shard = s.n
    where g.i = 0 or coalesce(q.counted, 0) < p_cap / v_n + (s.n < p_cap % v_n)::integer
    order by g.i
  loop
    v_part := p_cap / v_n + (v_shard < p_cap % v_n)::integer;
    update private.address_quota set counted = counted + 1
      where owner_id = p_owner and address = p_key and day = v_day and shard = v_shard
        and counted < v_part;
    if not found then
      insert into private.address_quota (owner_id, address, day, shard, counted)
        values (p_owner, p_key, v_day, v_shard, 1)
        on conflict do nothing;
      if not found then
        -- another writer created the row meanwhile: its part may still have room
        update private.address_quota set counted = counted + 1
          where owner_id = p_owner and address = p_key and day = v_day and shard = v_shard
            and counted < v_part;
      end if;
    end if;
    if found then
      return v_shard;
    end if;
  end loop;
  return null;
end;
$$;
revoke execute on function private.take_day_share(uuid, uuid, integer) from public;

-- The fair shares of the owner's monthly responses (issue 17; docs/data-model.md "When a shared
-- budget is under pressure"): true when this form response or A/B vote may count, false when it
-- is to be held. Two shares a day (UTC) of the owner's response_monthly_limit, at least one each
-- (`address_quota_share` / `fresh_quota_share` in `limits.<action>` or the block's rate_limits
-- override the settings):
-- - a site's, `limits.address_quota_share` (0.1), whoever writes: keyed as the reserve
--   (private.reserve_key: an IPv4 address, an IPv6 /48, so one home connection's /56 is one site);
--   a track record does not lift it (an address makes one for its own accounts inside its share a
--   day ahead, hostile-track-record.test);
-- - every visitor without a track record together, `limits.fresh_quota_share` (0.25): ten fresh
--   addresses' shares add up to the month, this does not (break9 Q1: fresh accounts of 10
--   addresses counted a free owner's month in 4 s and every visitor was refused until it turned).
--   A unit of the site's share taken for a response this one holds is given back.
-- No address (SQL outside an API request), the owner, limits or escalation off: always true.
create or replace function private.take_address_quota(p_block public.blocks, p_uid uuid, p_action text)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_on boolean;
  v_share double precision;
  v_fresh double precision;
  v_trusted jsonb;
  v_header text;
  v_addr uuid;
  v_limit integer;
  v_shard integer;
begin
  if p_uid = p_block.owner_id then
    return true;
  end if;
  select coalesce((s -> 'limits.enabled' #>> '{}')::boolean, true)
           and coalesce((s -> 'limits.escalation' #>> '{}')::boolean, true),
         coalesce((p_block.rate_limits -> p_action ->> 'address_quota_share')::double precision,
                  (s -> ('limits.' || p_action) ->> 'address_quota_share')::double precision,
                  (s -> 'limits.address_quota_share' #>> '{}')::double precision, 0.1),
         coalesce((p_block.rate_limits -> p_action ->> 'fresh_quota_share')::double precision,
                  (s -> ('limits.' || p_action) ->> 'fresh_quota_share')::double precision,
                  (s -> 'limits.fresh_quota_share' #>> '{}')::double precision, 0.25),
         case when jsonb_typeof(s -> 'network.trusted_proxies') = 'array'
              then s -> 'network.trusted_proxies' else '[]'::jsonb end,
         coalesce(s -> 'network.client_address_header' #>> '{}', '')
    into v_on, v_share, v_fresh, v_trusted, v_header
    from (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) as s from private.settings
          where key in ('limits.enabled', 'limits.escalation', 'limits.address_quota_share',
                        'limits.fresh_quota_share', 'limits.' || p_action,
                        'network.trusted_proxies', 'network.client_address_header')) settings;
  if not v_on then
    return true;
  end if;
  v_addr := private.reserve_key(private.client_address(v_trusted, v_header));
  if v_addr is null then
    return true;
  end if;
  select response_monthly_limit into v_limit from public.profiles where id = p_block.owner_id;
  v_shard := private.take_day_share(p_block.owner_id, v_addr,
    greatest(1, floor(least(coalesce(v_limit, 0) * least(1, greatest(0, v_share)), 2e9)))::integer);
  if v_shard is null then
    return false;
  end if;
  if private.has_track_record(p_block.id, p_uid) or private.take_day_share(p_block.owner_id,
       '00000000-0000-0000-0000-000000000000',
       greatest(1, floor(least(coalesce(v_limit, 0) * least(1, greatest(0, v_fresh)), 2e9)))::integer) is not null then
    return true;
  end if;
  update private.address_quota set counted = counted - 1
    where owner_id = p_block.owner_id and address = v_addr
      and day = (now() at time zone 'UTC')::date and shard = v_shard;
  return false;
end;
$$;
revoke execute on function private.take_address_quota(public.blocks, uuid, text) from public;

-- The monthly quota without deadlocks (found by hot-rows.test.ts under a burst at the limit).
-- 20261124120000 took a unit with `insert ... on conflict do update ... where count < share`: when
-- the shard was full the WHERE failed but Postgres still locked the conflicting row till commit,
-- so a writer holding its full shard could wait for another shard held by a writer waiting for
-- the first: "deadlock detected" instead of "Monthly response limit reached".
-- Now a unit is taken by `update ... where count < share`, which locks a row only when it takes
-- from it (a row that no longer qualifies after waiting is passed over unlocked), and a missing
-- shard row is inserted with `on conflict do nothing` (no lock on conflict). So a single-unit
-- writer holds a shard lock only once it has its unit, and never waits while holding one: no
-- cycle can form. Several units (letter sends) still lock every shard in shard order.
create or replace function private.take_response_quota(p_user_id uuid, p_n integer default 1)
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
    -- the session's shard first, then the shards that look like they have room (read without a
    -- lock: a full shard stays full this month)
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

-- Token buckets (issue 9, split out of trust.sql): the arithmetic of a bucket of
-- private.rate_limits (trust.sql's table), the subjects of a block's and an address's shard rows,
-- and taking a token from one shard, from an address's share or from a run of a block's shards.
-- private.check_rate_limit (trust.sql) decides which buckets a write takes from.

-- The arithmetic of a token bucket of private.rate_limits, written once: what the bucket holds
-- at p_now (what it held at p_updated_at, refilled at p_per_minute tokens a minute, never more
-- than p_burst); when it is full again after a token taken at p_now (its row is then worth
-- nothing: private.purge_trust); how many seconds until it holds a whole token. A missing row
-- (all null) holds null.
create function private.bucket_tokens(p_tokens double precision, p_updated_at timestamptz,
  p_per_minute double precision, p_burst double precision, p_now timestamptz)
returns double precision language sql immutable set search_path = '' as $$
  -- no time runs backwards: a write whose clock_timestamp() was read before it waited for the
  -- row lock of one that went on (an earlier p_now than the row's updated_at) sees the tokens as
  -- they are, not fewer (a visitor's five concurrent submits had the fifth refused with "again
  -- in 1 second" at load: the bucket held 0.9999 of a token)
  select least(p_burst, p_tokens + greatest(extract(epoch from p_now - p_updated_at)::double precision, 0)
                                   * p_per_minute / 60);
$$;
revoke execute on function private.bucket_tokens(double precision, timestamptz, double precision, double precision, timestamptz) from public;

create function private.bucket_full_at(p_tokens double precision, p_updated_at timestamptz,
  p_per_minute double precision, p_burst double precision, p_now timestamptz)
returns timestamptz language sql stable set search_path = '' as $$
  select p_now + make_interval(secs => (p_burst + 1 - private.bucket_tokens(p_tokens, p_updated_at,
                                          p_per_minute, p_burst, p_now)) * 60 / p_per_minute);
$$;
revoke execute on function private.bucket_full_at(double precision, timestamptz, double precision, double precision, timestamptz) from public;

create function private.bucket_wait(p_tokens double precision, p_updated_at timestamptz,
  p_per_minute double precision, p_burst double precision, p_now timestamptz)
returns double precision language sql immutable set search_path = '' as $$
  select (1 - private.bucket_tokens(p_tokens, p_updated_at, p_per_minute, p_burst, p_now))
         * 60 / p_per_minute;
$$;
revoke execute on function private.bucket_wait(double precision, timestamptz, double precision, double precision, timestamptz) from public;

-- The subjects of the shard rows: a block's bucket's shard k is 00000000-0000-0000-0000-0000000000kk
-- (never a user id: those are version 4 UUIDs); an address's share's shard 0 is the address key
-- (private.address_key), shard k md5(key:k). Shard k of p_n holds p_burst / p_n whole tokens, the
-- remainder to the first shards.
create function private.block_shard(p_shard integer)
returns uuid language sql immutable set search_path = '' as $$
  select ('00000000-0000-0000-0000-' || lpad(to_hex(p_shard), 12, '0'))::uuid;
$$;
revoke execute on function private.block_shard(integer) from public;

create function private.address_shard(p_addr uuid, p_shard integer)
returns uuid language sql immutable set search_path = '' as $$
  select case when p_shard = 0 then p_addr else md5(p_addr::text || ':' || p_shard)::uuid end;
$$;
revoke execute on function private.address_shard(uuid, integer) from public;

create function private.shard_part(p_burst double precision, p_n integer, p_shard integer)
returns double precision language sql immutable set search_path = '' as $$
  select floor(p_burst / p_n) + (p_shard < p_burst::bigint % p_n)::integer;
$$;
revoke execute on function private.shard_part(double precision, integer, integer) from public;

-- Takes a token from one shard row when no other write holds it (the row locked with SKIP
-- LOCKED: never waited for) and it has one, at p_rate tokens a minute and p_burst at most (the
-- row takes them on); a missing row is a full bucket. Answers the tokens left, or null.
create function private.take_token(p_block_id uuid, p_action text, p_subject uuid,
  p_rate double precision, p_burst double precision, p_now timestamptz)
returns double precision language plpgsql set search_path = '' as $$
declare
  v_left double precision;
begin
  update private.rate_limits r
    set tokens = private.bucket_tokens(r.tokens, r.updated_at, p_rate, p_burst, p_now) - 1,
        per_minute = p_rate,
        burst = p_burst,
        updated_at = p_now,
        full_at = private.bucket_full_at(r.tokens, r.updated_at, p_rate, p_burst, p_now)
    where r.block_id = p_block_id and r.action = p_action
      and r.subject = (select l.subject from private.rate_limits l
                       where l.block_id = p_block_id and l.action = p_action and l.subject = p_subject
                       for no key update skip locked)
      and private.bucket_tokens(r.tokens, r.updated_at, p_rate, p_burst, p_now) >= 1
    returning r.tokens into v_left;
  if not found and not exists (select 1 from private.rate_limits
                               where block_id = p_block_id and action = p_action and subject = p_subject) then
    insert into private.rate_limits (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at)
      values (p_block_id, p_subject, p_action, p_burst - 1, p_rate, p_burst, p_now,
              private.bucket_full_at(p_burst, p_now, p_rate, p_burst, p_now))
      on conflict do nothing
      returning tokens into v_left;
  end if;
  return v_left;
end;
$$;
revoke execute on function private.take_token(uuid, text, uuid, double precision, double precision, timestamptz) from public;

-- Takes a token from another shard of an address's share of a block (check_rate_limit, when the
-- writer's own shard is empty): the shards that look like they have one (read without a lock; a
-- missing row is a full shard), each only when no other write holds it (an advisory lock tried,
-- then the row locked with SKIP LOCKED), so a writer that already holds its block shard never
-- waits here. p_rate and p_burst are the whole share's (each shard holds its part of both:
-- private.shard_part). Answers the tokens left in the shard it took from, or null when none had
-- one.
create function private.take_address_token(p_block_id uuid, p_action text, p_addr uuid, p_n integer,
  p_rate double precision, p_burst double precision, p_now timestamptz)
returns double precision language plpgsql set search_path = '' as $$
declare
  v_shard integer;
  v_part double precision;
  v_left double precision;
begin
  for v_shard, v_part in
    select g.n, private.shard_part(p_burst, p_n, g.n)
    from generate_series(0, p_n - 1) g(n)
    left join private.rate_limits r
      on r.block_id = p_block_id and r.action = p_action and r.subject = private.address_shard(p_addr, g.n)
    where r.block_id is null
       or private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, p_now) >= 1
    order by g.n
  loop
    continue when not pg_try_advisory_xact_lock(
      hashtext('rate_limits:' || p_block_id || ':' || p_action || ':' || p_addr), v_shard);
    v_left := private.take_token(p_block_id, p_action, private.address_shard(p_addr, v_shard),
                                 p_rate * v_part / p_burst, v_part, p_now);
    if v_left is not null then
      return v_left;
    end if;
  end loop;
  return null;
end;
$$;
revoke execute on function private.take_address_token(uuid, text, uuid, integer, double precision, double precision, timestamptz) from public;

-- Takes a token from one of a block's shards p_first .. p_first + p_n - 1, starting at p_start
-- within them (check_rate_limit: the other shards of the block's budget when the writer's own is
-- empty, or its reserve). Only the shards that look like they have a token are tried (read
-- without a lock first), so a writer rarely holds a shard it could not use, and never one a
-- concurrent write holds (an advisory lock tried, then the row locked with SKIP LOCKED: no wait,
-- no deadlock with a writer doing the same). True when it took one.
create function private.take_block_token(p_block_id uuid, p_action text, p_first integer,
  p_n integer, p_start integer, p_rate double precision, p_burst double precision, p_now timestamptz)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_shard integer;
begin
  for v_shard in
    select s.n from generate_series(0, p_n - 1) g(i)
    cross join lateral (select p_first + (p_start + g.i) % p_n as n) s
    left join private.rate_limits r
      on r.block_id = p_block_id and r.action = p_action and r.subject = private.block_shard(s.n)
    where r.block_id is null
       or private.bucket_tokens(r.tokens, r.updated_at, p_rate, p_burst, p_now) >= 1
    order by g.i
  loop
    continue when not pg_try_advisory_xact_lock(hashtext('rate_limits:' || p_block_id || ':' || p_action), v_shard);
    if private.take_token(p_block_id, p_action, private.block_shard(v_shard), p_rate, p_burst, p_now) is not null then
      return true;
    end if;
  end loop;
  return false;
end;
$$;
revoke execute on function private.take_block_token(uuid, text, integer, integer, integer, double precision, double precision, timestamptz) from public;

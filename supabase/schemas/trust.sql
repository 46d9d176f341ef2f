-- Visitor trust (issue 9): rate limits (token buckets in an unlogged table, one row per block,
-- visitor and action plus a few shard rows per block and action, and an address's share), the
-- refusal; the buckets' arithmetic and shard rows are in token-buckets.sql. Tunables in
-- private.settings (`limits.<action>`, `limits.block_shards`, `limits.enabled`). The client's address is client-address.sql's; what a spent shared budget
-- does instead of refusing everyone is in escalation.sql; the per-owner limits on edge functions
-- an owner could call in a loop in owner-calls.sql. The other checks of a visitor's write
-- (honeypot, URLs, held messages, the owner-imitation mark) are in visitor-checks.sql, the
-- captcha passes in captcha.sql, the owner's monthly quota, its notices and an address's share of
-- it in quota.sql.

-- UNLOGGED: a bucket is worth nothing after a crash (all buckets start full again), and the
-- visitor's write should not pay a WAL record for it. fillfactor leaves room on each page so
-- the updates stay HOT (no indexed column changes).
create unlogged table private.rate_limits (
  block_id uuid not null,
  -- the visitor's uid, or for the block-wide buckets a shard id (0000...000N)
  subject uuid not null,
  action text not null,
  tokens double precision not null,
  -- the bucket's refill rate and size when it was last taken from
  per_minute double precision not null,
  burst double precision not null,
  updated_at timestamptz not null,
  -- when the bucket is full again: from then on the row is worth nothing (purged)
  full_at timestamptz not null,
  -- a visitor's row: the client address (private.address_key) they last wrote from, for messages
  address uuid,
  primary key (block_id, subject, action)
) with (fillfactor = 50);
comment on table private.rate_limits is
  'Token buckets of the visitor rate limits, per (block, visitor, action), per (block, shard, action) and for messages per (block, client address, action). Unlogged: lost on a crash, which only refills them.';
alter table private.rate_limits enable row level security;

-- A wait as people say it: "1 second", "45 seconds", "20 minutes", "3 hours", "5 days" (rounded
-- up, so the wait said is never shorter than the real one).
create function private.wait_text(p_seconds double precision)
returns text language sql immutable set search_path = '' as $$
  select case
    when s <= 90 then n_s || case when n_s = 1 then ' second' else ' seconds' end
    when s <= 90 * 60 then ceil(s / 60)::bigint || ' minutes'
    when s <= 36 * 3600 then ceil(s / 3600)::bigint || ' hours'
    else ceil(s / 86400)::bigint || ' days'
  end
  from (select greatest(ceil(coalesce(p_seconds, 1)), 1) as s,
               greatest(ceil(coalesce(p_seconds, 1)), 1)::bigint as n_s) x;
$$;
revoke execute on function private.wait_text(double precision) from public;

-- Refuses a write over a limit: HTTP 429 with Retry-After (whole seconds, at least 1) and a body
-- that says what is refused and for how long, per action, in the shape of every PostgREST error:
-- {code: PT429, message, details, hint}. `details` is what the elements act on (rate_limit,
-- captcha, quota); `hint` is JSON for programs: {"retry_after": seconds, "action", "scope"}
-- (scope: visitor = this visitor's own limit; block = everyone's on this block; address = the
-- share of it for everyone at the visitor's address; owner = the owner's monthly responses). Browsers cannot read Retry-After across origins (hosted Supabase
-- exposes only a few headers), so the elements read the hint.
-- Raised with SQLSTATE PGRST, PostgREST's way to set the status and headers of an error
-- (response.headers set before a raise are dropped with the failed transaction).
create function private.refuse_limit(p_action text, p_scope text, p_seconds double precision,
  p_details text default 'rate_limit', p_hold_address boolean default false)
returns void language plpgsql set search_path = '' as $$
declare
  v_seconds bigint := greatest(ceil(coalesce(p_seconds, 1)), 1)::bigint;
  v_wait text := private.wait_text(v_seconds);
  v_message text;
  v_body text;
  v_status text;
begin
  v_message := case
    when p_scope = 'owner' then
      'Monthly response limit reached. This form takes responses again in ' || v_wait || '.'
    when p_scope in ('block', 'address') then
      'Too many people are writing here right now. Try again in ' || v_wait || '.'
    when p_action = 'message' then 'You''re posting too fast. You can post again in ' || v_wait || '.'
    when p_action = 'edit' then 'You''re editing too fast. You can edit again in ' || v_wait || '.'
    when p_action = 'like' then 'You''re liking too fast. You can like again in ' || v_wait || '.'
    when p_action = 'vote' then 'You''re voting too fast. You can vote again in ' || v_wait || '.'
    when p_action = 'submit' then
      'You''ve sent this form several times. You can send it again in ' || v_wait || '.'
    when p_action = 'click' then 'You''re clicking too fast. You can click again in ' || v_wait || '.'
    when p_action = 'report' then 'You''re reporting too fast. You can report again in ' || v_wait || '.'
    else 'You''re going too fast. Try again in ' || v_wait || '.'
  end;
  v_body := jsonb_build_object('code', 'PT429', 'message', v_message, 'details', p_details,
    'hint', jsonb_build_object('retry_after', v_seconds, 'action', p_action, 'scope', p_scope)::text)::text;
  v_status := jsonb_build_object('status', 429, 'headers', jsonb_build_object('Retry-After', v_seconds::text))::text;
  if p_hold_address then
    -- the hint, which PostgREST does not read from a PGRST error, tells post_message to hold the
    -- address's burst after this refusal's rollback (it answers the 429 itself then)
    raise sqlstate 'PGRST' using message = v_body, detail = v_status, hint = 'hold_address_burst';
  end if;
  raise sqlstate 'PGRST' using message = v_body, detail = v_status;
end;
$$;
revoke execute on function private.refuse_limit(text, text, double precision, text, boolean) from public;

-- The visitor's and the block's token for this action, or a 429. The owner is never limited on
-- their own block. A visitor holding a captcha pass for the block goes through while it lasts.
-- Bucket sizes: the defaults below, then private.settings `limits.<action>`, then the block's
-- rate_limits -> <action>. The block's bucket is split in `limits.block_shards` (32; never more
-- shards than the block's burst) rows, each with its share of the rate; a visitor draws from its
-- own shard, and from another shard that has a token when its own is empty: the block's limit is
-- the sum of its shards, one shard's share never limits a visitor, and no single row is locked by
-- all of a block's visitors (npm run bench:hot-rows: 20 concurrent likes on one block ran at 70 %
-- of the spread throughput with 4 shards, 88 % with 32). The visitor's shard is the hash of their
-- uid, or the next shard no concurrent write holds (private.free_shard: 20 writers on 32 hashed
-- shards met on one, and waited for it, a third of the time; issue 19).
-- All tokens are taken by one upsert on the primary key (the visitor's row first, then the
-- address's, then the shard's; always in that order, and the other shards tried after: no
-- deadlock between writers, since a writer holding a shard holds its address's row); an empty
-- bucket is not updated and returns no row. A refusal raises, which rolls back whatever the
-- statement took. The shards' subjects: private.block_shard, private.address_shard.
--
-- Escalation instead of refusing everyone (issue 17; docs/data-model.md "When a shared budget is
-- under pressure"): every write but a form response or an A/B vote also takes a token from its
-- client address's fair share of the block (`limits.address_share` of the block's rate and
-- burst). When the block's bucket is empty (pressure), a visitor with a track record writes on as
-- usual; a visitor without one needs a solved captcha for a message (the platform's key: every
-- block, free ones too), which is held for the owner with the address's fresh writers' recent
-- messages, and is refused other writes. Past the address's share a message is held, a
-- response or vote held, any other write refused (scope address), whoever writes it.
-- The block's reserve (issue 17: four addresses at a quarter each took a like block's whole
-- budget): when a write has a client address, the block's last `limits.reserve` (a quarter) of
-- its shards are kept for addresses that write little: a write is drawn from the other shards,
-- and from the reserve only when those are spent, its address has used at most
-- `limits.reserve_share` (1/16) of the block's burst (what its share's shards are short of, this
-- write's token included; at least one token) and its site's reserve bucket (that share of the
-- reserve's burst and rate; a site is an IPv4 address, or an IPv6 /48: private.reserve_key) has a
-- token. Answers true when the write must be held.
create or replace function private.check_rate_limit(p_block public.blocks, p_uid uuid,
  p_action text)
returns boolean language plpgsql set search_path = '' as $$
declare
  v_now timestamptz := clock_timestamp();
  v_enabled boolean;
  v_shards integer;
  v_cfg jsonb;
  v_escalate boolean;
  v_share double precision;
  v_trusted jsonb;
  v_header text;
  v_visitor_rate double precision;
  v_visitor_burst double precision;
  v_block_rate double precision;
  v_block_burst double precision;
  v_addr uuid;
  v_addr_rate double precision;
  v_addr_burst double precision;
  v_addr_n integer;
  v_addr_sub uuid;
  v_addr_part double precision;
  v_home integer;
  v_shard integer;
  v_visitor_ok boolean;
  v_shard_ok boolean;
  v_addr_ok boolean;
  v_addr_left double precision;
  v_beyond boolean;
  v_hold boolean;
  v_kept boolean;
  v_wait double precision;
  v_reserve double precision;
  v_reserve_share double precision;
  v_main integer;
  v_light boolean := false;
  v_used double precision;
  v_client inet;
begin
  if p_uid = p_block.owner_id then
    return false;
  end if;
  -- the settings in one index scan
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
                   then p_block.rate_limits -> p_action else '{}'::jsonb end,
         coalesce((s -> 'limits.escalation' #>> '{}')::boolean, true),
         least(1, greatest(0, coalesce((s -> 'limits.address_share' #>> '{}')::double precision, 0.25))),
         case when jsonb_typeof(s -> 'network.trusted_proxies') = 'array'
              then s -> 'network.trusted_proxies' else '[]'::jsonb end,
         coalesce(s -> 'network.client_address_header' #>> '{}', ''),
         least(0.75, greatest(0, coalesce((s -> 'limits.reserve' #>> '{}')::double precision, 0.25))),
         least(1, greatest(0, coalesce((s -> 'limits.reserve_share' #>> '{}')::double precision, 0.0625)))
    into v_enabled, v_shards, v_cfg, v_escalate, v_share, v_trusted, v_header, v_reserve, v_reserve_share
    from (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) as s from private.settings
          where key in ('limits.enabled', 'limits.block_shards', 'limits.' || p_action,
                        'limits.escalation', 'limits.address_share', 'network.trusted_proxies',
                        'network.client_address_header', 'limits.reserve', 'limits.reserve_share')) settings;
  if not v_enabled then
    return false;
  end if;
  v_visitor_rate := greatest((v_cfg ->> 'visitor_per_minute')::double precision, 0.0001);
  v_visitor_burst := greatest((v_cfg ->> 'visitor_burst')::double precision, 1);
  -- no more shards than the block's burst: each holds at least one token, and together they
  -- hold the burst (a small bucket of 8 is 8 shards of 1, not 32 of 1); a visitor whose shard is
  -- empty takes a token from another one (below), so a shard's share never limits one visitor
  v_shards := greatest(1, least(v_shards, floor(greatest((v_cfg ->> 'block_burst')::double precision, 1))::integer));
  v_block_rate := greatest((v_cfg ->> 'block_per_minute')::double precision / v_shards, 0.0001);
  v_block_burst := greatest((v_cfg ->> 'block_burst')::double precision / v_shards, 1);
  -- the client address's fair share of the block, for every write a spent budget would refuse:
  -- messages, edits, likes, clicks and reports (a form response or an A/B vote in a burst is
  -- held instead, and an address's share of the owner's quota bounds what it counts:
  -- private.take_address_quota). Without it a few fresh accounts of one address toggling a like
  -- kept a like block's bucket empty and its real visitors' likes were refused
  -- (hostile-storm.test).
  if v_escalate and p_action not in ('submit', 'vote') then
    v_client := private.client_address(v_trusted, v_header);
    v_addr := private.address_key(v_client);
    v_addr_rate := greatest(coalesce((v_cfg ->> 'address_per_minute')::double precision,
                                     (v_cfg ->> 'block_per_minute')::double precision * v_share), 0.0001);
    v_addr_burst := greatest(coalesce((v_cfg ->> 'address_burst')::double precision,
                                      floor((v_cfg ->> 'block_burst')::double precision * v_share)), 1);
    -- the share in shards of at least 4 tokens (at most 32), so the writers of one address (an
    -- office, a school, the load test's loopback) do not queue on one row: each starts on a shard
    -- no other open transaction holds. Each shard holds its part of the burst (private.shard_part)
    -- and the same part of the rate, so the shards add up to the share (taken from another shard
    -- when one is empty: private.take_address_token).
    if v_addr is not null then
      v_addr_burst := floor(v_addr_burst);
      v_addr_n := greatest(1, least(32, floor(v_addr_burst / 4)::integer));
      v_shard := private.free_shard('rate_limits:' || p_block.id || ':' || p_action || ':' || v_addr,
                                    abs(mod(hashtext(p_uid::text), v_addr_n)), v_addr_n);
      v_addr_sub := private.address_shard(v_addr, v_shard);
      v_addr_part := private.shard_part(v_addr_burst, v_addr_n, v_shard);
    end if;
  end if;

  -- the block's shards outside its reserve (all of them for a write without an address's share:
  -- a response, a vote, or escalation off); at least one
  v_main := case when v_addr is null then v_shards
                 else greatest(1, v_shards - floor(v_shards * v_reserve)::integer) end;
  -- the visitor's shard, or the next one no concurrent write of this block and action holds
  v_home := private.free_shard('rate_limits:' || p_block.id || ':' || p_action,
                               abs(mod(hashtext(p_uid::text), v_main)), v_main);
  with taken as (
  insert into private.rate_limits as r (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at, address)
    select p_block.id, v.subject, p_action, v.burst - 1, v.rate, v.burst, v_now,
           private.bucket_full_at(v.burst, v_now, v.rate, v.burst, v_now), v.address
    from (values (1, p_uid, v_visitor_rate, v_visitor_burst, v_addr),
                 (2, v_addr_sub, v_addr_rate * v_addr_part / v_addr_burst, v_addr_part, null::uuid),
                 (3, private.block_shard(v_home),
                  v_block_rate, v_block_burst, null::uuid)) v(n, subject, rate, burst, address)
    where v.subject is not null
    order by v.n
    on conflict (block_id, subject, action) do update
      set tokens = private.bucket_tokens(r.tokens, r.updated_at, excluded.per_minute, excluded.burst, v_now) - 1,
          per_minute = excluded.per_minute,
          burst = excluded.burst,
          updated_at = v_now,
          full_at = private.bucket_full_at(r.tokens, r.updated_at, excluded.per_minute, excluded.burst, v_now),
          address = coalesce(excluded.address, r.address)
      where private.bucket_tokens(r.tokens, r.updated_at, excluded.per_minute, excluded.burst, v_now) >= 1
    returning r.subject, r.tokens
  )
  -- inserted or updated: a bucket that had no token is neither
  select coalesce(bool_or(subject = p_uid), false),
         coalesce(bool_or(subject <> p_uid and subject is distinct from v_addr_sub), false),
         coalesce(bool_or(subject = v_addr_sub), false),
         min(tokens) filter (where subject = v_addr_sub)
    into v_visitor_ok, v_shard_ok, v_addr_ok, v_addr_left from taken;
  -- The address's shard was empty, or this write took its last token: the share is spent only
  -- when no shard has a whole token (another shard's token is taken; never waiting for a shard
  -- another write holds: private.take_address_token).
  if v_addr_n > 1 and v_visitor_ok and (not v_addr_ok or v_addr_left < 1) then
    if not v_addr_ok then
      v_addr_left := private.take_address_token(p_block.id, p_action, v_addr, v_addr_n,
                                                v_addr_rate, v_addr_burst, v_now);
      v_addr_ok := v_addr_left is not null;
    end if;
    if v_addr_ok and v_addr_left < 1 then
      select coalesce(sum(floor(coalesce(private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, v_now),
                                         private.shard_part(v_addr_burst, v_addr_n, g.n)))), 0)
        into v_addr_left
        from generate_series(0, v_addr_n - 1) g(n)
        left join private.rate_limits r
          on r.block_id = p_block.id and r.action = p_action and r.subject = private.address_shard(v_addr, g.n);
    end if;
  end if;
  if v_visitor_ok and v_shard_ok and (v_addr is null or v_addr_left >= 1) then
    -- published, unless the address's burst was held a moment ago
    return p_action = 'message' and private.address_hold_applies(p_block, p_uid, v_addr);
  end if;
  -- The visitor has a token but their shard of the block's bucket is empty: the block still has
  -- tokens if another shard has one (the shards together are the block's bucket).
  if v_visitor_ok and not v_shard_ok and v_main > 1 then
    v_shard_ok := private.take_block_token(p_block.id, p_action, 0, v_main, v_home + 1,
                                           v_block_rate, v_block_burst, v_now);
  end if;
  -- Those are spent: the reserve, for an address that has used little of the block's budget (its
  -- share's shards are short of at most limits.reserve_share of the block's burst, this write's
  -- token included; a missing shard is full: a storm's addresses have used far more), and at most
  -- that share of the reserve (its burst and rate) to each address: the address's reserve bucket,
  -- so an address writing just under its share's rate, which keeps its shards full, still takes
  -- no more of the reserve than that.
  if v_visitor_ok and not v_shard_ok and v_main < v_shards and v_addr_ok then
    select v_addr_burst - coalesce(sum(coalesce(private.bucket_tokens(r.tokens, r.updated_at, r.per_minute, r.burst, v_now),
                                                private.shard_part(v_addr_burst, v_addr_n, g.n))), 0)
      into v_used
      from generate_series(0, v_addr_n - 1) g(n)
      left join private.rate_limits r
        on r.block_id = p_block.id and r.action = p_action and r.subject = private.address_shard(v_addr, g.n);
    v_light := v_used <= greatest(1, (v_cfg ->> 'block_burst')::double precision * v_reserve_share);
    if v_light then
      -- the site's reserve bucket: an IPv6 address's /48, not its /64 (private.reserve_key)
      v_light := private.take_token(p_block.id, p_action, private.reserve_key(v_client),
                                    v_block_rate * (v_shards - v_main) * v_reserve_share,
                                    greatest(1, v_block_burst * (v_shards - v_main) * v_reserve_share),
                                    v_now) is not null;
    end if;
    if v_light then
      v_shard_ok := private.take_block_token(p_block.id, p_action, v_main, v_shards - v_main,
                                             abs(mod(hashtext(p_uid::text), v_shards - v_main)),
                                             v_block_rate, v_block_burst, v_now);
    end if;
  end if;
  if v_visitor_ok and v_shard_ok and (v_addr is null or v_addr_left >= 1) then
    return p_action = 'message' and private.address_hold_applies(p_block, p_uid, v_addr);
  end if;

  -- the visitor's own limit: a paid block's captcha pass lets them past it
  if not v_visitor_ok then
    if p_block.captcha then
      if private.use_captcha_pass(p_block.id, p_uid, v_now) then
        return p_action = 'message' and private.address_hold_applies(p_block, p_uid, v_addr);
      end if;
    end if;
    select private.bucket_wait(r.tokens, r.updated_at, r.per_minute, r.burst, v_now) into v_wait
      from private.rate_limits r
      where r.block_id = p_block.id and r.subject = p_uid and r.action = p_action;
    perform private.refuse_limit(p_action, 'visitor', v_wait,
      case when p_block.captcha and private.captcha_config() is not null then 'captcha' else 'rate_limit' end);
  end if;

  -- A shared budget is spent: the block's bucket (pressure), or this address's share of it
  -- (beyond: no token left; at: this write took the last one).
  v_beyond := v_addr is not null and not v_addr_ok;
  -- an edit, like, click or report that took its address's last token is within the share (only
  -- a message's holds the address's burst there)
  if p_action <> 'message' and v_shard_ok and not v_beyond then
    return false;
  end if;
  if v_escalate then
    -- visitors with a track record write on, unchallenged (their own bucket still holds them),
    -- but not past their address's share: there a regular's message is kept and held, like
    -- anyone's from that address (an address can make a track record for its own accounts
    -- inside its share a day ahead: hostile-track-record.test)
    -- (an edit, like, click or report past the share is refused, below)
    if p_action = 'message' then
      -- a regular's message: published within the share, held past it
      if private.has_track_record(p_block.id, p_uid) then
        return v_beyond;
      end if;
    elsif not v_beyond then
      -- a regular's other write within the share: written
      if private.has_track_record(p_block.id, p_uid) then
        return false;
      end if;
    end if;
    -- (a non-message write past the share is refused whoever writes it: no track record asked)
    -- a form response or A/B vote in a burst is kept, held: it does not count against the
    -- owner's quota until approved (their own bucket bounds each visitor)
    if p_action in ('submit', 'vote') then
      return true;
    end if;
    if p_action = 'message' then
      -- this address's fresh writers' messages of the last minutes looked like anyone's until
      -- the address used its share: they are held with this one (all of it is the burst); when
      -- this write is refused below, post_message holds them after the refusal's rollback
      v_hold := v_addr is not null and (v_beyond or v_addr_left < 1);
      -- kept, held: within the block's budget and this write within the address's share; past
      -- a spent budget only with a solved captcha (the platform's, on every block); with no
      -- captcha configured, beyond the address's share (the visitor's own bucket bounds it)
      if v_shard_ok and not v_beyond then
        v_kept := true;
      elsif private.captcha_config() is not null then
        v_kept := private.use_captcha_pass(p_block.id, p_uid, v_now);
      else
        v_kept := v_shard_ok;
      end if;
      if v_kept then
        if v_hold then
          perform private.hold_address_burst(p_block, v_addr, v_now);
        end if;
        return true;
      end if;
    end if;
  end if;
  -- a paid block's captcha pass lets a visitor past the block's bucket on its other writes
  if p_block.captcha and not (v_escalate and p_action = 'message') then
    if private.use_captcha_pass(p_block.id, p_uid, v_now) then
      return false;
    end if;
  end if;
  -- how long until the spent budget has a token: the block's soonest shard this write may use
  -- (the reserve only for a light address), or the address's
  if not v_shard_ok then
    select min(private.bucket_wait(r.tokens, r.updated_at, r.per_minute, r.burst, v_now)) into v_wait
      from private.rate_limits r
      where r.block_id = p_block.id and r.action = p_action
        and r.subject <= private.block_shard(case when v_light then v_shards else v_main end - 1);
  else
    -- the address's soonest shard
    select min(private.bucket_wait(r.tokens, r.updated_at, r.per_minute, r.burst, v_now)) into v_wait
      from generate_series(0, coalesce(v_addr_n, 1) - 1) g(n)
      join private.rate_limits r
        on r.block_id = p_block.id and r.action = p_action and r.subject = private.address_shard(v_addr, g.n);
  end if;
  perform private.refuse_limit(p_action, case when v_shard_ok then 'address' else 'block' end, v_wait,
    case when private.captcha_config() is not null and (p_block.captcha or (v_escalate and p_action = 'message'))
         then 'captcha' else 'rate_limit' end, coalesce(v_hold, false));
  return false;
end;
$$;
revoke execute on function private.check_rate_limit(public.blocks, uuid, text) from public;

-- Buckets full again are worth nothing (a missing row is a full bucket); passes and tokens
-- expire; owner calls older than an hour no longer count. Every 10 minutes; a sequential scan of
-- a small unlogged table. SKIP LOCKED: a bucket a visitor's write holds is left for the next run,
-- so the purge never waits for a visitor and can never deadlock with one (a write locks its
-- visitor's row, then its block's shard).
create or replace function private.purge_trust()
returns void language sql set search_path = '' as $$
  delete from private.rate_limits r
    using (select block_id, subject, action from private.rate_limits
           where full_at < now() for update skip locked) x
    where r.block_id = x.block_id and r.subject = x.subject and r.action = x.action;
  delete from private.address_quota where day < (now() at time zone 'UTC')::date - 1;
  delete from private.address_holds where held_at < now() - interval '1 day';
  delete from private.captcha_passes where expires_at < now();
  delete from private.captcha_tokens where created_at < now() - interval '1 day';
  delete from private.owner_calls where called_at < now() - interval '1 hour';
$$;
revoke execute on function private.purge_trust() from public;

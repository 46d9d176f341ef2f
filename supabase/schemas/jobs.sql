-- Background work: one outbox of jobs, drained by the `jobs-worker` edge function.
--
-- A job is written in the transaction of the write that causes it (a trigger on the visitor's
-- comment, a send function's insert), so a job exists if and only if that write committed. The
-- worker claims due jobs with FOR UPDATE SKIP LOCKED through functions only the service role may
-- call, runs each kind's handler, and reports every outcome in one call per batch. Everything
-- lives in schema `private`, which no client role can use; the entry points are `public`
-- functions executable by `service_role` only (PostgREST exposes them, anon and authenticated
-- get "permission denied").
--
-- States: queued -> running -> done | queued (retry, with backoff) | failed (last attempt)
--                    running -> sending (just before a provider call) -> done | unknown
-- A job whose worker vanished while `running` is claimed again (the handler had not called the
-- provider yet); one that vanished while `sending` becomes `unknown`: the provider may have
-- accepted it, so it is never re-sent blindly (docs/architecture.md, "Delivery guarantee").

create table private.jobs (
  id bigint generated always as identity primary key,
  kind text not null check (kind ~ '^[a-z][a-z0-9_.-]{0,63}$'),
  payload jsonb not null default '{}'::jsonb check (jsonb_typeof(payload) = 'object'),
  status text not null default 'queued'
    check (status in ('queued', 'running', 'sending', 'done', 'failed', 'unknown', 'merged')),
  run_at timestamptz not null default now(),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 8 check (max_attempts between 1 and 100),
  locked_until timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  -- at most one job per key, ever (until purged): a retried enqueue adds nothing
  dedupe_key text unique check (char_length(dedupe_key) <= 300),
  -- jobs of one group run one at a time and may be merged into one (a digest)
  group_key text check (char_length(group_key) <= 300),
  -- jobs that spend a provider quota (mail) take tokens from this bucket when claimed
  rate_bucket text check (char_length(rate_bucket) <= 60),
  result jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
comment on table private.jobs is
  'Outbox of background work (mail, Notion writes, plan expiry). Written in the transaction that causes the work; claimed by the jobs-worker edge function.';
alter table private.jobs enable row level security;
create index jobs_due_idx on private.jobs (run_at, id) where status = 'queued';
-- a claim's windows: each bucket's due jobs, and those without one ('') in their order
create index jobs_due_by_bucket_idx on private.jobs ((coalesce(rate_bucket, '')), run_at, id) where status = 'queued';
-- a group's next job: is an older one of the group queued?
create index jobs_group_queued_idx on private.jobs (group_key, run_at, id) where status = 'queued' and group_key is not null;
create index jobs_leased_idx on private.jobs (locked_until) where status in ('running', 'sending');
create index jobs_group_idx on private.jobs (group_key, status) where group_key is not null;
create index jobs_finished_idx on private.jobs (finished_at) where finished_at is not null;
create index jobs_letter_unsettled_idx on private.jobs (finished_at)
  where kind = 'letter' and status in ('unknown', 'failed');

-- Last finished run per group: the digest throttle.
create table private.job_groups (
  group_key text primary key,
  last_done_at timestamptz not null
);
comment on table private.job_groups is 'When a job group last finished a run (for digests: at most one mail per group per window).';
alter table private.job_groups enable row level security;

-- Token buckets for provider quotas (SES sending rate). One row per bucket.
create table private.rate_buckets (
  name text primary key,
  tokens double precision not null,
  updated_at timestamptz not null default clock_timestamp()
);
comment on table private.rate_buckets is 'Token buckets of provider quotas; capacity and refill rate come from settings rate.<name>.per_second / .burst.';
alter table private.rate_buckets enable row level security;

-- The tokens a bucket holds at p_now: what it kept, refilled at rate.<name>.per_second since
-- (default 14), up to its burst (rate.<name>.burst, default one second's worth, and never under
-- one token: a rate under 1 a second with no burst would never hold a whole one). A bucket never
-- used is full. Read only: hold_bucket and take_tokens read it under the bucket's lock.
create function private.bucket_tokens(p_name text, p_now timestamptz)
returns double precision language sql stable set search_path = '' as $$
  with l as (
    select r.rate,
           greatest(1, coalesce(nullif((private.setting('rate.' || p_name || '.burst', 'null'::jsonb))::text, 'null')::double precision,
                                r.rate)) as burst
    from (select (private.setting('rate.' || p_name || '.per_second', '14'::jsonb))::text::double precision as rate) r
  )
  select least(l.burst, coalesce((select b.tokens + extract(epoch from p_now - b.updated_at) * l.rate
                                    from private.rate_buckets b where b.name = p_name), l.burst))
  from l;
$$;
revoke execute on function private.bucket_tokens(text, timestamp with time zone) from public;

-- Locks a bucket's row until the transaction ends (made full if the bucket was never used) and
-- answers the tokens it holds now. Two claims at once take their tokens one after the other: the
-- second reads what the first left once it committed, not the tokens the first is taking.
create function private.hold_bucket(p_name text)
returns double precision language plpgsql set search_path = '' as $$
begin
  insert into private.rate_buckets (name, tokens, updated_at)
    values (p_name, private.bucket_tokens(p_name, clock_timestamp()), clock_timestamp())
    on conflict (name) do nothing;
  perform 1 from private.rate_buckets where name = p_name for update;
  return private.bucket_tokens(p_name, clock_timestamp());
end;
$$;
revoke execute on function private.hold_bucket(text) from public;

-- Takes up to p_wanted tokens from a bucket (bucket_tokens says how many it holds). Returns how
-- many were granted.
create function private.take_tokens(p_name text, p_wanted integer)
returns integer language plpgsql set search_path = '' as $$
declare
  v_now timestamptz;
  v_tokens double precision;
  v_granted integer;
begin
  if p_wanted <= 0 then return 0; end if;
  perform private.hold_bucket(p_name);
  v_now := clock_timestamp();
  v_tokens := private.bucket_tokens(p_name, v_now);
  v_granted := least(p_wanted, floor(v_tokens)::integer);
  update private.rate_buckets set tokens = v_tokens - v_granted, updated_at = v_now where name = p_name;
  return v_granted;
end;
$$;
revoke execute on function private.take_tokens(text, integer) from public;

-- Adds a job. A dedupe key already used returns null and adds nothing. For the SQL code that
-- causes jobs and for edge functions (service role only; definer because private is not theirs).
create function public.enqueue_job(
  p_kind text,
  p_payload jsonb default '{}'::jsonb,
  p_dedupe_key text default null,
  p_run_at timestamptz default null,
  p_group_key text default null,
  p_rate_bucket text default null,
  p_max_attempts integer default null)
returns bigint language sql security definer set search_path = '' as $$
  insert into private.jobs (kind, payload, dedupe_key, run_at, group_key, rate_bucket, max_attempts)
  values (p_kind, coalesce(p_payload, '{}'::jsonb), p_dedupe_key, coalesce(p_run_at, now()),
          p_group_key, p_rate_bucket, coalesce(p_max_attempts, 8))
  on conflict (dedupe_key) do nothing
  returning id;
$$;
revoke execute on function public.enqueue_job(text, jsonb, text, timestamp with time zone, text, text, integer) from public, anon, authenticated;

-- Backoff before attempt n+1: 5 s, 10 s, 20 s, ... capped at an hour, with 20% jitter so a
-- provider coming back is not hit by every job at the same instant.
create function private.job_backoff(p_attempts integer)
returns interval language sql volatile set search_path = '' as $$
  select make_interval(secs => least(3600, 5 * power(2, greatest(p_attempts - 1, 0)))
                               * (0.8 + random() * 0.4));
$$;
revoke execute on function private.job_backoff(integer) from public;

-- Claims up to p_limit due jobs for p_lock_seconds. Leases that ran out are settled first:
-- `running` goes back to the queue (or fails after its last attempt), `sending` becomes
-- `unknown`. A group runs one job at a time, oldest first (its turn, below), so a digest
-- handler sees its siblings still queued; two claims at once agree on that through the group's
-- advisory lock (below). A rate bucket's jobs are candidates only as many as it holds tokens,
-- read under its lock, so a bucket's backlog never fills the claim ahead of other jobs, another
-- bucket's or those without one, and a claim beside another that holds the bucket waits for it
-- and fills from the rest. Rows another claim holds are skipped. p_kinds limits the claim to the
-- kinds a worker knows (null: any). Answers the claimed jobs as a JSON array, oldest first.
create function public.claim_jobs(p_limit integer default 50, p_lock_seconds integer default 60,
                                  p_kinds text[] default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_limit integer := greatest(1, least(coalesce(p_limit, 50), 500));
  v_reaped bigint[];
  v_ids bigint[];
  v_buckets text[];
  v_groups text[];
  v_names text[] := '{}';
  v_counts integer[] := '{}';
  v_name text;
  v_tokens integer;
  v_grants jsonb := '{}'::jsonb;
  v_bucket record;
  v_claimed jsonb;
begin
  with reaped as (
    update private.jobs
      set status = 'unknown', finished_at = now(), updated_at = now(), locked_until = null,
          last_error = left(coalesce(last_error || '; ', '') ||
            'the worker stopped after calling the provider; not re-sent', 2000)
      where status = 'sending' and locked_until < now()
      returning id)
  select array_agg(id) into v_reaped from reaped;
  -- a platform mail that went before its worker stopped: recorded from its kept events
  if v_reaped is not null then
    perform private.adopt_kept_job_mails(v_reaped);
  end if;
  update private.jobs
    set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
        finished_at = case when attempts >= max_attempts then now() end,
        run_at = now(), locked_until = null, updated_at = now(),
        last_error = left(coalesce(last_error || '; ', '') || 'the worker stopped before finishing', 2000)
    where status = 'running' and locked_until < now();

  -- each bucket with due jobs of these kinds, in name order (two claims never wait on each
  -- other's buckets crosswise), held to the end (private.hold_bucket): the jobs it may give are
  -- as many as it holds whole tokens once a claim beside us that holds it has committed, so we
  -- neither wait for its tokens only to be refused them nor leave our slots empty
  for v_name in
    with recursive b(name) as (
      (select coalesce(j.rate_bucket, '') from private.jobs j
        where j.status = 'queued' and coalesce(j.rate_bucket, '') > '' order by 1 limit 1)
      union all
      select (select coalesce(j.rate_bucket, '') from private.jobs j
               where j.status = 'queued' and coalesce(j.rate_bucket, '') > b.name order by 1 limit 1)
        from b where b.name is not null
    )
    select b.name from b where b.name is not null
  loop
    continue when not exists (
      select 1 from private.jobs j
      where coalesce(j.rate_bucket, '') = v_name and j.status = 'queued' and j.run_at <= now()
        and (p_kinds is null or j.kind = any(p_kinds)));
    v_tokens := least(v_limit, floor(private.hold_bucket(v_name)))::integer;
    continue when v_tokens < 1;
    v_names := v_names || v_name;
    v_counts := v_counts || v_tokens;
  end loop;

  -- the window: the oldest due jobs without a bucket (up to limit) and of each bucket (up to its
  -- tokens), each a group's turn, skipping the rows another claim holds; of them the oldest limit
  with due as (
    select w.name, d.id, d.run_at, d.group_key
    from unnest(array[''] || v_names, array[v_limit] || v_counts) as w(name, n)
    cross join lateral (
      select j.id, j.run_at, j.group_key
      from private.jobs j
      where coalesce(j.rate_bucket, '') = w.name and j.status = 'queued' and j.run_at <= now()
        and (p_kinds is null or j.kind = any(p_kinds))
        -- a group's turn: none of it runs and no older job of it waits (one another claim holds,
        -- or one of a bucket without a token): the group keeps its order. Written here, not as a
        -- function: one called per row cost a digest's backlog of 2,000 some 50 ms a claim
        and (j.group_key is null or (
          not exists (select 1 from private.jobs r
                      where r.group_key = j.group_key and r.status in ('running', 'sending'))
          and not exists (select 1 from private.jobs o
                          where o.group_key = j.group_key and o.status = 'queued'
                            and (o.run_at, o.id) < (j.run_at, j.id))))
      order by j.run_at, j.id
      limit w.n
      for update of j skip locked
    ) d
  ), picked as (
    select * from due order by run_at, id limit v_limit
  )
  select array_agg(id order by run_at, id), array_agg(nullif(name, '') order by run_at, id),
         array_agg(group_key order by run_at, id)
    into v_ids, v_buckets, v_groups from picked;
  if v_ids is null then
    return '[]'::jsonb;
  end if;

  -- a group's job only under the group's lock, and only if none of the group runs as read after
  -- taking it: a second guard beside the group's turn for two claims at once, each reading the queue
  -- before the other's `running` commits (the check is a statement of its own: its snapshot
  -- comes after the lock)
  select array_agg(id order by ord), array_agg(bucket order by ord), array_agg(grp order by ord)
    into v_ids, v_buckets, v_groups
    from unnest(v_ids, v_buckets, v_groups) with ordinality as t(id, bucket, grp, ord)
    where grp is null or pg_try_advisory_xact_lock(hashtextextended('private.jobs group:' || grp, 0));
  select array_agg(id order by ord), array_agg(bucket order by ord)
    into v_ids, v_buckets
    from unnest(v_ids, v_buckets, v_groups) with ordinality as t(id, bucket, grp, ord)
    where grp is null or not exists (
      select 1 from private.jobs r where r.group_key = t.grp and r.status in ('running', 'sending'));
  if v_ids is null then
    return '[]'::jsonb;
  end if;

  -- provider quotas: take the tokens of the jobs picked (the bucket held since its window was
  -- read, so all are granted; the filter is a guard), the others stay queued untouched
  for v_bucket in select b as name, count(*)::integer as wanted from unnest(v_buckets) b
                  where b is not null group by b loop
    v_grants := v_grants || jsonb_build_object(v_bucket.name, private.take_tokens(v_bucket.name, v_bucket.wanted));
  end loop;
  if v_grants <> '{}'::jsonb then
    select array_agg(id order by ord) into v_ids
    from (
      select id, bucket, ord, row_number() over (partition by bucket order by ord) as rn
      from unnest(v_ids, v_buckets) with ordinality as t(id, bucket, ord)
    ) r
    where bucket is null or rn <= (v_grants ->> bucket)::integer;
    if v_ids is null then
      return '[]'::jsonb;
    end if;
  end if;

  with updated as (
    update private.jobs j
      set status = 'running', attempts = j.attempts + 1, updated_at = now(),
          locked_until = now() + make_interval(secs => greatest(5, least(coalesce(p_lock_seconds, 60), 900)))
      where j.id = any(v_ids)
      returning j.id, j.kind, j.payload, j.attempts, j.max_attempts, j.run_at, j.group_key, j.created_at
  )
  select coalesce(jsonb_agg(to_jsonb(u) order by u.run_at, u.id), '[]'::jsonb) into v_claimed from updated u;
  return v_claimed;
end;
$$;
revoke execute on function public.claim_jobs(integer, integer, text[]) from public, anon, authenticated;

-- Marks claimed jobs as being handed to a provider: from here a lost worker means `unknown`.
create function public.mark_jobs_sending(p_ids bigint[])
returns void language sql security definer set search_path = '' as $$
  update private.jobs set status = 'sending', updated_at = now()
    where id = any(p_ids) and status = 'running';
$$;
revoke execute on function public.mark_jobs_sending(bigint[]) from public, anon, authenticated;

-- Records the outcome of claimed jobs, one call per batch. p_outcomes is an array of
--   {id, status: done|retry|failed|unknown|defer, error?, result?, retry_in?, run_at?, mail?}
-- retry: back to the queue after the backoff (or retry_in seconds), failed after the last attempt;
-- defer: back to the queue at run_at without counting the attempt (throttles, quotas).
-- An outcome's `mail` (done: sent, unknown: maybe sent) is recorded by
-- private.record_outbound_mail (mail-log.sql).
-- Answers {done, retried, failed, unknown, deferred}.
create function public.finish_jobs(p_outcomes jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_item jsonb;
  v_job private.jobs;
  v_status text;
  v_error text;
  v_counts jsonb := '{"done":0,"retried":0,"failed":0,"unknown":0,"deferred":0}'::jsonb;
  v_key text;
begin
  if jsonb_typeof(p_outcomes) <> 'array' then
    raise exception 'outcomes must be an array' using errcode = 'P0001';
  end if;
  -- the lock of every mail of the batch first (private.lock_mail_messages): a provider's event
  -- for one of them, which takes it first too, waits for this record, or was kept for it
  perform private.lock_mail_messages(array(
    select o.value -> 'mail' ->> 'provider_message_id' from jsonb_array_elements(p_outcomes) o));
  -- then the letters' sends and members, for the whole batch (private.lock_sends): a provider's
  -- event for one mail of the batch must not hold its delivery while waiting for the send this
  -- transaction counted an earlier mail in
  perform private.lock_sends(array(
    select coalesce(o.value -> 'mail' ->> 'delivery_id', j.payload ->> 'delivery_id')::uuid
    from jsonb_array_elements(p_outcomes) o
    join private.jobs j on j.id = (o.value ->> 'id')::bigint
    where j.kind = 'letter' or o.value -> 'mail' ? 'delivery_id'));
  for v_item in select * from jsonb_array_elements(p_outcomes) loop
    select * into v_job from private.jobs
      where id = (v_item ->> 'id')::bigint and status in ('running', 'sending') for update;
    continue when not found;
    v_status := v_item ->> 'status';
    v_error := left(v_item ->> 'error', 2000);
    if v_status = 'done' then
      update private.jobs set status = 'done', result = v_item -> 'result', finished_at = now(),
        updated_at = now(), locked_until = null, last_error = null where id = v_job.id;
      if v_job.group_key is not null then
        insert into private.job_groups (group_key, last_done_at) values (v_job.group_key, now())
          on conflict (group_key) do update set last_done_at = excluded.last_done_at;
      end if;
      if jsonb_typeof(v_item -> 'mail') = 'object' then
        perform private.record_outbound_mail(v_job.id, v_item -> 'mail', 'sent');
      end if;
      -- a like's page under its Notion page: where a later retry's lookup starts (notion.sql)
      if v_job.kind = 'notion' and v_item -> 'result' ? 'under' then
        perform private.keep_notion_page(v_job, v_item -> 'result');
      end if;
      v_key := 'done';
    elsif v_status = 'defer' then
      update private.jobs set status = 'queued', attempts = greatest(attempts - 1, 0),
        run_at = coalesce((v_item ->> 'run_at')::timestamptz, now()), locked_until = null,
        updated_at = now() where id = v_job.id;
      v_key := 'deferred';
    elsif v_status = 'retry' and v_job.attempts < v_job.max_attempts then
      update private.jobs set status = 'queued', last_error = v_error, locked_until = null,
        run_at = now() + coalesce(make_interval(secs => (v_item ->> 'retry_in')::double precision),
                                  private.job_backoff(v_job.attempts)),
        updated_at = now() where id = v_job.id;
      v_key := 'retried';
    elsif v_status = 'unknown' then
      update private.jobs set status = 'unknown', last_error = v_error, finished_at = now(),
        locked_until = null, updated_at = now() where id = v_job.id;
      if jsonb_typeof(v_item -> 'mail') = 'object' then
        perform private.record_outbound_mail(v_job.id, v_item -> 'mail', 'unknown');
      end if;
      v_key := 'unknown';
    elsif v_status in ('retry', 'failed') then
      update private.jobs set status = 'failed', last_error = v_error, finished_at = now(),
        locked_until = null, updated_at = now() where id = v_job.id;
      -- a consent mail that did not go gives its mailbox's day back (mail-consent.sql)
      if v_job.kind = 'confirm.mail' then
        perform private.release_mail_consent(v_job.id);
      end if;
      v_key := 'failed';
    else
      raise exception 'unknown outcome status %', v_status using errcode = 'P0001';
    end if;
    v_counts := jsonb_set(v_counts, array[v_key], to_jsonb((v_counts ->> v_key)::integer + 1));
  end loop;
  return v_counts;
end;
$$;
revoke execute on function public.finish_jobs(jsonb) from public, anon, authenticated;

-- For a digest: the claimed job takes over the queued jobs of its group (their payloads go into
-- its payload's `merged` array, they become `merged`). When the group ran within
-- p_window_seconds (default: setting jobs.group_window_seconds, 60), nothing is merged, the
-- answer names when to run instead, and the group's queued jobs move to that time too.
-- Answers {payloads: [...], defer_until}.
create function public.merge_job_group(p_job_id bigint, p_window_seconds integer default null)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_last timestamptz;
  v_until timestamptz;
  v_merged jsonb;
begin
  select * into v_job from private.jobs where id = p_job_id and status = 'running' for update;
  if not found then
    raise exception 'job % is not running', p_job_id using errcode = 'PT404';
  end if;
  if v_job.group_key is null then
    return jsonb_build_object('payloads', jsonb_build_array(v_job.payload), 'defer_until', null);
  end if;
  select last_done_at into v_last from private.job_groups where group_key = v_job.group_key;
  v_until := v_last + make_interval(secs => greatest(coalesce(p_window_seconds,
    (private.setting('jobs.group_window_seconds', '60'::jsonb))::text::integer), 0));
  if v_until is not null and v_until > now() then
    update private.jobs set run_at = greatest(run_at, v_until), updated_at = now()
      where group_key = v_job.group_key and status = 'queued';
    return jsonb_build_object('payloads', '[]'::jsonb, 'defer_until', v_until);
  end if;
  with siblings as (
    select id from private.jobs
    where group_key = v_job.group_key and kind = v_job.kind and status = 'queued' and id <> v_job.id
    order by id
    limit 500
    for update skip locked
  ), merged as (
    update private.jobs j
      set status = 'merged', finished_at = now(), updated_at = now(),
          result = jsonb_build_object('merged_into', v_job.id)
      from siblings s where j.id = s.id
      returning j.id, j.payload
  )
  select coalesce(jsonb_agg(payload order by id), '[]'::jsonb) into v_merged from merged;
  if jsonb_array_length(v_merged) > 0 then
    update private.jobs
      set payload = payload || jsonb_build_object('merged', coalesce(payload -> 'merged', '[]'::jsonb) || v_merged),
          updated_at = now()
      where id = v_job.id
      returning * into v_job;
  end if;
  return jsonb_build_object(
    'payloads', jsonb_build_array(v_job.payload - 'merged') || coalesce(v_job.payload -> 'merged', '[]'::jsonb),
    'defer_until', null);
end;
$$;
revoke execute on function public.merge_job_group(bigint, integer) from public, anon, authenticated;

-- Whether due work waits: what the schedule checks before it calls the worker, so an idle
-- project makes no function calls.
create function private.jobs_are_due()
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.jobs where status = 'queued' and run_at <= now())
      or exists (select 1 from private.jobs where status in ('running', 'sending') and locked_until < now());
$$;
revoke execute on function private.jobs_are_due() from public;

-- Finished jobs are kept for a while to read what happened, then purged.
create function private.purge_jobs()
returns integer language plpgsql set search_path = '' as $$
declare
  v_done integer;
  v_other integer;
begin
  delete from private.jobs
    where status in ('done', 'merged')
      and finished_at < now() - make_interval(days => (private.setting('jobs.keep_done_days', '7'::jsonb))::text::integer);
  get diagnostics v_done = row_count;
  delete from private.jobs
    where status in ('failed', 'unknown')
      and finished_at < now() - make_interval(days => (private.setting('jobs.keep_failed_days', '30'::jsonb))::text::integer);
  get diagnostics v_other = row_count;
  delete from private.job_groups where last_done_at < now() - interval '1 day';
  -- provider events of a mail never recorded (mail-log.sql, private.early_mail_events)
  delete from private.early_mail_events where received_at < now() - interval '1 day';
  -- the ids of provider events already applied (SNS, PortOne and PayPal webhooks): PayPal re-sends
  -- for 3 days at the most (25 tries), SNS for an hour (AWS's hard limit on an HTTP/S policy),
  -- PortOne up to 5 times a minute apart; an id older than 30 days can come again only from a
  -- resend by hand (PortOne's resend API), which the payment read back from the provider keeps
  -- single as every repeat is
  delete from private.provider_events where received_at < now() - interval '30 days';
  -- the mail log (mail-log.sql) keeps 30 days (setting mail.keep_log_days): the sender's
  -- reputation reads 14 (mail_sender_status), and an event for a mail purged still suppresses
  -- its bounced or complaining recipients (record_mail_event). What outlives that: an owner's
  -- newest digest (notify.owner) to each address, for as long as the owner's account, because an
  -- owner-scope unsubscribe link never expires and, once its block is deleted, that row is all
  -- that proves the link's owner mailed the address (private.optout_owner)
  delete from private.outbound_mails o
    where o.created_at < now() - make_interval(days => (private.setting('mail.keep_log_days', '30'::jsonb))::text::integer)
      and (o.kind <> 'notify.owner' or o.user_id is null or exists (
        select 1 from private.outbound_mails n
        where n.kind = 'notify.owner' and n.user_id = o.user_id and lower(n.to_email) = lower(o.to_email)
          and (n.created_at, n.id) > (o.created_at, o.id)));
  -- the webhook delivery log (webhooks.sql) keeps 30 days of what is settled
  delete from public.webhook_deliveries
    where status <> 'pending' and created_at < now() - interval '30 days';
  return v_done + v_other;
end;
$$;
revoke execute on function private.purge_jobs() from public;

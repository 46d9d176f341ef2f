-- Per-owner limits (issue 9) on the edge functions that an owner could call in a loop to guess
-- or to make us work: use-coupon (coupon codes are words an operator picks: ten tries an hour), and the
-- letter functions that fetch outside pages and copy their images (web-to-template,
-- verify-brunch-id). A call is noted in a call of its own before the work (a refused redemption
-- rolls back, so it could not note itself), and counts whether it succeeds or not. The visitors'
-- rate limits are in trust.sql, whose purge (private.purge_trust) drops calls older than an hour.
create table private.owner_calls (
  user_id uuid not null references public.profiles (id) on delete cascade,
  name text not null check (name ~ '^[a-z][a-z0-9-]{0,49}$'),
  called_at timestamptz not null default now()
);
comment on table private.owner_calls is
  'One row per limited edge-function call in the last hour, per owner and function (note_owner_call); older rows go on the next call and with the trust purge.';
alter table private.owner_calls enable row level security;
create index owner_calls_user_name_time on private.owner_calls (user_id, name, called_at);

create function public.note_owner_call(p_user_id uuid, p_name text, p_per_hour integer)
returns integer language plpgsql security definer set search_path = '' as $$
declare
  v_recent integer;
  v_oldest timestamptz;
begin
  -- one owner's calls of one function in a row: parallel calls count one after another
  perform pg_advisory_xact_lock(hashtext('owner_calls:' || p_name), hashtext(p_user_id::text));
  delete from private.owner_calls
    where user_id = p_user_id and name = p_name and called_at < now() - interval '1 hour';
  select count(*) into v_recent from private.owner_calls
    where user_id = p_user_id and name = p_name;
  if v_recent >= p_per_hour then
    -- the next call is allowed once the call that makes the count p_per_hour is an hour old
    select called_at into v_oldest from private.owner_calls
      where user_id = p_user_id and name = p_name
      order by called_at desc offset greatest(p_per_hour - 1, 0) limit 1;
    return greatest(1, ceil(extract(epoch from v_oldest + interval '1 hour' - now())))::integer;
  end if;
  insert into private.owner_calls (user_id, name) values (p_user_id, p_name);
  return 0;
end;
$$;
comment on function public.note_owner_call(uuid, text, integer) is
  'Notes one call of a limited edge function by an owner and answers 0; when they already made p_per_hour in the last hour, notes nothing and answers the seconds until the next call is allowed (the function answers 429 with Retry-After). Service role only.';
revoke execute on function public.note_owner_call(uuid, text, integer) from public, anon, authenticated;

-- Coupon codes are words an operator picks ("WELCOME", "LAUNCH2026"), so a signed-in owner could
-- try codes until one works: use-coupon now allows each owner ten tries an hour. A try is noted in
-- its own call before the redemption (a refused redemption rolls back, so it could not note
-- itself), and counts whether it succeeds or not.
create table private.coupon_attempts (
  user_id uuid not null references public.profiles (id) on delete cascade,
  attempted_at timestamptz not null default now()
);
create index coupon_attempts_user_time on private.coupon_attempts (user_id, attempted_at);
comment on table private.coupon_attempts is
  'One row per use-coupon call in the last hour, per owner (note_coupon_attempt); older rows go on the next try and with the trust purge.';
alter table private.coupon_attempts enable row level security;
revoke all on private.coupon_attempts from public, anon, authenticated;

create function public.note_coupon_attempt(p_user_id uuid, p_per_hour integer default 10)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_recent integer;
begin
  -- one owner's tries in a row: their parallel calls count one after another
  perform pg_advisory_xact_lock(hashtext('coupon_attempts'), hashtext(p_user_id::text));
  delete from private.coupon_attempts
    where user_id = p_user_id and attempted_at < now() - interval '1 hour';
  select count(*) into v_recent from private.coupon_attempts where user_id = p_user_id;
  if v_recent >= p_per_hour then
    return false;
  end if;
  insert into private.coupon_attempts (user_id) values (p_user_id);
  return true;
end;
$$;
comment on function public.note_coupon_attempt(uuid, integer) is
  'Notes one coupon try of an owner; false when they already tried p_per_hour times in the last hour (use-coupon answers 429). Service role only.';
revoke all on function public.note_coupon_attempt(uuid, integer) from public, anon, authenticated;
grant execute on function public.note_coupon_attempt(uuid, integer) to service_role;

-- (as in supabase/schema.sql before this migration, with the coupon tries older than an hour)
CREATE OR REPLACE FUNCTION private.purge_trust()
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  delete from private.rate_limits r
    using (select block_id, subject, action from private.rate_limits
           where full_at < now() for update skip locked) x
    where r.block_id = x.block_id and r.subject = x.subject and r.action = x.action;
  delete from private.captcha_passes where expires_at < now();
  delete from private.captcha_tokens where created_at < now() - interval '1 day';
  delete from private.coupon_attempts where attempted_at < now() - interval '1 hour';
$function$;

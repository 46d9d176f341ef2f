-- Per-owner limits on the edge functions that an owner could call in a loop to guess or to make
-- us work: use-coupon (coupon codes are words an operator picks: ten tries an hour), and the
-- letter functions that fetch outside pages and copy their images (web-to-template,
-- verify-brunch-id). A call is noted in a call of its own before the work (a refused redemption
-- rolls back, so it could not note itself), and counts whether it succeeds or not.
create table private.owner_calls (
  user_id uuid not null references public.profiles (id) on delete cascade,
  name text not null check (name ~ '^[a-z][a-z0-9-]{0,49}$'),
  called_at timestamptz not null default now()
);
create index owner_calls_user_name_time on private.owner_calls (user_id, name, called_at);
comment on table private.owner_calls is
  'One row per limited edge-function call in the last hour, per owner and function (note_owner_call); older rows go on the next call and with the trust purge.';
alter table private.owner_calls enable row level security;
revoke all on private.owner_calls from public, anon, authenticated;

create function public.note_owner_call(p_user_id uuid, p_name text, p_per_hour integer)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_recent integer;
begin
  -- one owner's calls of one function in a row: parallel calls count one after another
  perform pg_advisory_xact_lock(hashtext('owner_calls:' || p_name), hashtext(p_user_id::text));
  delete from private.owner_calls
    where user_id = p_user_id and name = p_name and called_at < now() - interval '1 hour';
  select count(*) into v_recent from private.owner_calls
    where user_id = p_user_id and name = p_name;
  if v_recent >= p_per_hour then
    return false;
  end if;
  insert into private.owner_calls (user_id, name) values (p_user_id, p_name);
  return true;
end;
$$;
comment on function public.note_owner_call(uuid, text, integer) is
  'Notes one call of a limited edge function by an owner; false when they already made p_per_hour in the last hour (the function answers 429). Service role only.';
revoke all on function public.note_owner_call(uuid, text, integer) from public, anon, authenticated;
grant execute on function public.note_owner_call(uuid, text, integer) to service_role;

-- (as in supabase/schema.sql before this migration, with the calls older than an hour)
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
  delete from private.owner_calls where called_at < now() - interval '1 hour';
$function$;

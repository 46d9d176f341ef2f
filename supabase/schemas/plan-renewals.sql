-- A plan after its checkout: renewals (PortOne card schedules; PayPal subscriptions, whose state is
-- applied in plan-paypal.sql), failed renewals, the owner's changes and stops, the daily expiry
-- (pg_cron `plan-expiry`: plans past their end go inactive, renewing ones are checked with the
-- provider first, owners mailed before).

-- The plan a plan row's content describes ({type, blockLimit, responseMonthlyLimit}): the other way
-- round of private.plan_content (plans.sql), whose limits it keeps, for a renewal of what the row holds.
create function private.content_plan(p_content jsonb)
returns jsonb language sql immutable set search_path = '' as $$
  select (private.plan_content(p_content) - 'planName')
    || jsonb_build_object('type', case when p_content ->> 'planName' = 'Basic' then 'basic' else 'custom' end);
$$;
revoke execute on function private.content_plan(jsonb) from public;

-- The next period's charge of a card plan, at the plan the owner asked for (next_content), else
-- the one paid for already and not started (paid_next_content), else the current one: scheduled
-- when the provider already made its schedule (p_schedule_id: a checkout's first payment came
-- with it), else unscheduled with a job that schedules it. p_id: the id the checkout gave the
-- provider for it (next_charge_id), else a new one; a charge of that id already written stays as
-- it is.
create function private.next_card_charge(p_payment public.payments, p_billing_key text,
  p_id uuid default null, p_schedule_id text default null)
returns uuid language plpgsql set search_path = '' as $$
declare
  v_id uuid := coalesce(p_id, gen_random_uuid());
  v_plan jsonb := private.content_plan(
    coalesce(p_payment.next_content, p_payment.paid_next_content, p_payment.content));
  v_price numeric := coalesce(p_payment.next_price, p_payment.paid_next_price, p_payment.price);
begin
  insert into private.payment_charges (id, user_id, payment_id, kind, method, provider_ref, plan,
                                       price, amount, currency, status, period_start, period_end,
                                       schedule_id)
  values (v_id, p_payment.user_id, p_payment.id, 'renewal', 'iamport', p_billing_key, v_plan,
          v_price, v_price * 1000, 'KRW',
          case when p_schedule_id is null then 'unscheduled' else 'scheduled' end,
          p_payment.end_date + 1, private.period_end(p_payment.end_date + 1),
          left(p_schedule_id, 200))
  on conflict (id) do nothing;
  if p_schedule_id is null then
    perform public.enqueue_job('plan.schedule-renewal', jsonb_build_object('charge_id', v_id),
                               'plan.schedule-renewal:' || v_id);
  end if;
  return v_id;
end;
$$;
revoke execute on function private.next_card_charge(public.payments, text, uuid, text) from public;

-- A scheduled renewal the provider created (the schedule job's answer): true when the charge is
-- still the plan's next one to charge. Locks the owner, the plan row, then the charge
-- (private.lock_plan), as Stop and Change do, so it waits for one running: a charge they revoked
-- meanwhile (or one of a plan that stopped renewing, or whose account was deleted) keeps the
-- schedule id or is gone and answers false, and the job revokes that schedule at PortOne.
create function public.mark_charge_scheduled(p_charge_id uuid, p_schedule_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_charge private.payment_charges;
begin
  perform private.lock_plan(user_id, payment_id, id) from private.payment_charges
    where id = p_charge_id and kind = 'renewal';
  select * into v_charge from private.payment_charges where id = p_charge_id and kind = 'renewal';
  if not found then
    return false;
  end if;
  select * into v_payment from public.payments where id = v_charge.payment_id;
  if v_charge.status = 'unscheduled' and v_payment.is_active and v_payment.auto_renew then
    update private.payment_charges set status = 'scheduled', schedule_id = left(p_schedule_id, 200)
      where id = v_charge.id;
    return true;
  end if;
  if v_charge.status = 'scheduled' then
    return true;
  end if;
  update private.payment_charges
    set status = case when status = 'unscheduled' then 'revoked' else status end,
        schedule_id = coalesce(schedule_id, left(p_schedule_id, 200))
    where id = v_charge.id;
  return false;
end;
$$;
revoke execute on function public.mark_charge_scheduled(uuid, text) from public, anon, authenticated;

-- Revokes a card plan's renewal charges not charged yet (Stop, Change, a plan ending). One the
-- schedule job marked scheduled may have been scheduled after the caller revoked the billing key's
-- schedules at PortOne: plan.revoke-schedule revokes its schedule by id.
create function private.revoke_renewal_charges(p_payment_id uuid)
returns void language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  for v_id in
    with revoked as (
      update private.payment_charges set status = 'revoked'
        where payment_id = p_payment_id and kind = 'renewal' and status in ('unscheduled', 'scheduled')
        returning id, schedule_id
    )
    select id from revoked where schedule_id is not null
  loop
    perform public.enqueue_job('plan.revoke-schedule', jsonb_build_object('charge_id', v_id),
                               'plan.revoke-schedule:' || v_id);
  end loop;
end;
$$;
revoke execute on function private.revoke_renewal_charges(uuid) from public;

-- Queues the deletion of a card plan's PortOne billing key (`plan.delete-billing-key`, 100 attempts
-- with the queue's backoff) once the plan no longer renews, however that came: a Stop, a failed
-- renewal, the plan ended (end_plan, the daily expiry). The job deletes it once nothing is
-- scheduled on it (PortOne refuses while a schedule waits: a late one is revoked by
-- plan.revoke-schedule, then the job tries again), never while its plan renews or its checkout is
-- in flight, and takes a key deleted already as done. One job a key; nothing for PayPal.
create function private.delete_billing_key_later(p_payment_id uuid)
returns void language plpgsql set search_path = '' as $$
begin
  perform public.enqueue_job('plan.delete-billing-key', jsonb_build_object('billing_key', provider_ref),
                             'plan.delete-billing-key:' || provider_ref, null, null, null, 100)
    from private.payment_charges
    where payment_id = p_payment_id and kind = 'first' and method = 'iamport';
end;
$$;
revoke execute on function private.delete_billing_key_later(uuid) from public;

-- Paid next plans whose first day has come become their rows' plans (type, content, price), and
-- the limits follow. p_payment_id: that row only (a renewal just recorded), else every row due
-- (the daily expiry). Answers how many owners' plans started.
create function private.start_paid_plans(p_payment_id uuid default null)
returns integer language plpgsql set search_path = '' as $$
declare
  v_users uuid[];
  v_user uuid;
begin
  with started as (
    update public.payments
      set type = (private.content_plan(paid_next_content) ->> 'type')::public.payment_type,
          content = paid_next_content, price = paid_next_price,
          paid_next_content = null, paid_next_price = null, paid_next_from = null
      where paid_next_from <= current_date and is_active
        and (p_payment_id is null or id = p_payment_id)
      returning user_id
  )
  select array_agg(distinct user_id) into v_users from started;
  foreach v_user in array coalesce(v_users, '{}'::uuid[]) loop
    perform private.apply_plan_limits(v_user);
  end loop;
  return coalesce(cardinality(v_users), 0);
end;
$$;
revoke execute on function private.start_paid_plans(uuid) from public;

-- A card renewal the provider charged: the plan runs one more period, and the following period's
-- charge is written. A changed plan is charged 3 days before its period, so it is kept beside the
-- plan (paid_next_*) and starts on its period's first day (private.start_paid_plans: here when
-- that day has come, else the daily expiry); the same plan simply runs on. Idempotent per charge.
-- Locks the owner, the plan row, then the charge (private.lock_plan), as every plan function and
-- deleting the account take them, so none waits for another in a circle. A revoked charge (PortOne
-- ran a schedule revoked too late) is refused, PT409: its payment goes back (settleCardRenewal).
create function public.record_plan_renewal(p_charge_id uuid, p_provider_payment_id text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_charge private.payment_charges;
  v_payment public.payments;
  v_content jsonb;
  v_changed boolean;
begin
  -- a renewal charge's owner and plan row never change: read them unlocked, then lock
  perform private.lock_plan(user_id, payment_id, id) from private.payment_charges
    where id = p_charge_id and kind = 'renewal';
  select * into v_charge from private.payment_charges where id = p_charge_id and kind = 'renewal';
  select * into v_payment from public.payments where id = v_charge.payment_id;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  if v_charge.status = 'recorded' then
    return to_jsonb(v_payment);
  end if;
  if v_charge.status = 'revoked' then
    -- a Stop or Change revoked it before PortOne ran its schedule: it is given back, never recorded
    raise exception 'This renewal was revoked' using errcode = 'PT409';
  end if;
  update private.payment_charges
    set status = 'recorded', provider_payment_id = left(p_provider_payment_id, 200), error = null
    where id = v_charge.id;
  v_content := private.plan_content(v_charge.plan);
  v_changed := (v_payment.content, v_payment.price) is distinct from (v_content, v_charge.price);
  -- the money came in: the period is the owner's even if they stopped meanwhile
  update public.payments
    set end_date = greatest(end_date, v_charge.period_end),
        is_active = true,
        paid_next_content = case when v_changed then v_content end,
        paid_next_price = case when v_changed then v_charge.price end,
        paid_next_from = case when v_changed then v_charge.period_start end,
        next_content = null, next_price = null, renewal_failed_at = null
    where id = v_payment.id
    returning * into v_payment;
  if v_payment.auto_renew then
    perform private.next_card_charge(v_payment, v_charge.provider_ref);
  end if;
  perform private.start_paid_plans(v_payment.id);
  perform private.apply_plan_limits(v_payment.user_id);
  select * into v_payment from public.payments where id = v_payment.id;
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_renewal(uuid, text) from public, anon, authenticated;

-- A renewal payment that failed: the plan stops renewing and ends at its end date; the owner is
-- mailed at once, and a card plan's billing key is deleted (private.delete_billing_key_later).
-- Idempotent. A PayPal plan keeps renewing while PayPal retries the payment (its
-- subscription stays ACTIVE): its auto_renew follows the subscription's status (sync_paypal_plan),
-- so a Stop still cancels it at PayPal and a payment PayPal retries brings the plan on.
create function public.record_renewal_failed(p_payment_id uuid, p_charge_id uuid, p_error text)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  perform private.lock_plan(user_id, id, p_charge_id) from public.payments where id = p_payment_id;
  select * into v_payment from public.payments where id = p_payment_id;
  if not found or v_payment.renewal_failed_at is not null then
    return;
  end if;
  if p_charge_id is not null then
    update private.payment_charges set status = 'failed', error = left(p_error, 500)
      where id = p_charge_id and kind = 'renewal' and status in ('unscheduled', 'scheduled');
  end if;
  update public.payments
    set auto_renew = (method = 'paypal' and auto_renew), renewal_failed_at = now()
    where id = v_payment.id;
  -- a card plan no longer renews: its billing key is not needed (PayPal retries its own)
  perform private.delete_billing_key_later(v_payment.id);
  perform public.enqueue_job('plan.mail',
    jsonb_build_object('payment_id', v_payment.id, 'template', 'renewal_failed'),
    'plan.mail:renewal_failed:' || v_payment.id || ':' || v_payment.end_date);
end;
$$;
revoke execute on function public.record_renewal_failed(uuid, uuid, text) from public, anon, authenticated;

-- Ends a plan now (a renewal the provider never made): inactive, limits fall back, a card plan's
-- billing key deleted (private.delete_billing_key_later), a PayPal plan's subscription cancelled
-- (private.stop_paypal_later).
create function public.end_plan(p_payment_id uuid)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_user uuid;
begin
  perform private.lock_plan(user_id, id) from public.payments where id = p_payment_id;
  update public.payments set is_active = false, auto_renew = false
    where id = p_payment_id and is_active
    returning user_id into v_user;
  if v_user is not null then
    perform private.revoke_renewal_charges(p_payment_id);
    perform private.delete_billing_key_later(p_payment_id);
    perform private.stop_paypal_later(p_payment_id, now(), 'ended');
    perform private.apply_plan_limits(v_user);
  end if;
end;
$$;
revoke execute on function public.end_plan(uuid) from public, anon, authenticated;

-- The owner's plan with what the provider needs to stop or change it: {payment, billing_key,
-- renewal_charge}. Only the owner's active, renewing (for changes) plan of this method; a PayPal
-- one also once ended (its Stop cancels a subscription PayPal may still bill; a Change needs it
-- renewing, which an ended row never is).
create function public.plan_for_owner(p_user_id uuid, p_payment_id uuid, p_method public.payment_method)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_first private.payment_charges;
  v_renewal private.payment_charges;
begin
  select * into v_payment from public.payments
    where id = p_payment_id and user_id = p_user_id and (is_active or p_method = 'paypal')
      and type in ('basic', 'custom') and method = p_method;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  select * into v_first from private.payment_charges where payment_id = v_payment.id and kind = 'first';
  select * into v_renewal from private.payment_charges
    where payment_id = v_payment.id and kind = 'renewal' and status in ('unscheduled', 'scheduled')
    order by period_start desc limit 1;
  return jsonb_build_object(
    'payment', to_jsonb(v_payment),
    'billing_key', case when p_method = 'iamport' then v_first.provider_ref end,
    'subscription_id', case when p_method = 'paypal' then v_payment.provider_payment_id end,
    'renewal_charge', to_jsonb(v_renewal));
end;
$$;
revoke execute on function public.plan_for_owner(uuid, uuid, public.payment_method) from public, anon, authenticated;

-- The owner stopped the plan (the provider was told first): no more renewals, the plan runs to
-- its end date; a period paid already keeps its plan (paid_next_*, which starts on its day). A plan
-- whose end date has passed (its renewal never came) ends now, not at the next daily expiry. A card
-- plan's billing key: the Stop deletes it at PortOne at once (p_key_deleted); when PortOne refused
-- (a schedule made late, after the Stop's revoke, waits) or did not answer, it is deleted by
-- `plan.delete-billing-key` (private.delete_billing_key_later) once plan.revoke-schedule has
-- revoked that schedule. Idempotent.
create function public.record_plan_stop(p_user_id uuid, p_payment_id uuid,
  p_key_deleted boolean default false)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
begin
  perform private.lock_plan(p_user_id, p_payment_id);
  update public.payments
    set auto_renew = false, stopped_at = coalesce(stopped_at, now()), next_content = null, next_price = null,
        is_active = is_active and coalesce(end_date >= current_date, true)
    where id = p_payment_id and user_id = p_user_id
    returning * into v_payment;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  perform private.revoke_renewal_charges(p_payment_id);
  if not p_key_deleted then
    perform private.delete_billing_key_later(p_payment_id);
  end if;
  if not v_payment.is_active then
    perform private.apply_plan_limits(p_user_id);
  end if;
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_stop(uuid, uuid, boolean) from public, anon, authenticated;

-- The owner changed the plan of the next periods not paid yet (p_plan, priced p_price: from
-- end_date + 1, so after a period charged already, whose paid_next_* stay). For a card plan the
-- pending renewal charge is replaced (its schedule was revoked first) and a new one is scheduled
-- by the queue; for PayPal the change waits for the owner's approval on PayPal.
create function public.record_plan_change(p_user_id uuid, p_payment_id uuid, p_plan jsonb, p_price numeric)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_billing_key text;
  v_price numeric := private.plan_price(p_plan);
begin
  if v_price is null or v_price is distinct from p_price then
    raise exception 'The price has changed; check the plan and try again' using errcode = 'P0001';
  end if;
  perform private.lock_plan(p_user_id, p_payment_id);
  select * into v_payment from public.payments
    where id = p_payment_id and user_id = p_user_id and is_active;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  if not v_payment.auto_renew then
    raise exception 'This plan does not renew' using errcode = 'PT409';
  end if;
  update public.payments
    set next_content = private.plan_content(p_plan), next_price = v_price
    where id = v_payment.id
    returning * into v_payment;
  if v_payment.method = 'paypal' then
    insert into private.paypal_revisions (payment_id, price, content)
      values (v_payment.id, v_price, v_payment.next_content)
      on conflict (payment_id, price) do update set content = excluded.content, created_at = now();
  end if;
  if v_payment.method = 'iamport' then
    perform private.revoke_renewal_charges(v_payment.id);
    select provider_ref into v_billing_key from private.payment_charges
      where payment_id = v_payment.id and kind = 'first';
    perform private.next_card_charge(v_payment, v_billing_key);
  end if;
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_change(uuid, uuid, jsonb, numeric) from public, anon, authenticated;

-- Once a day: paid next plans whose first day has come start (private.start_paid_plans); plans
-- that do not renew and are past their end date become inactive (limits fall back, blocks
-- beyond the limit are deactivated, a card plan's billing key is deleted, a PayPal plan's
-- subscription cancelled); plans that renew and are past their end are checked with the provider
-- first (`plan.renewal-check`: a renewal may have been paid without
-- its webhook reaching us), and ended after a week without an answer; owners of plans that end
-- in PLAN_RULES.noticeDays (3) days without renewing are mailed. Answers what it did.
create function private.expire_plans()
returns jsonb language plpgsql set search_path = '' as $$
declare
  v_notices integer := 0;
  v_checks integer := 0;
  v_ended integer := 0;
  v_started integer;
  v_row record;
  v_users uuid[] := '{}';
  v_user uuid;
  v_owners uuid[] := '{}';
begin
  -- the owners whose plans start or end now are locked first, one after the other in one order,
  -- as every plan function takes them (private.lock_plan); a Stop past the end date ends its plan
  -- itself (record_plan_stop), and a plan that stops renewing otherwise meanwhile (PayPal
  -- cancelled it) ends tomorrow
  for v_user in
    select distinct user_id from public.payments
    where is_active and (paid_next_from <= current_date
                         or (end_date < current_date and (not auto_renew or end_date < current_date - 7)))
    order by user_id
  loop
    if private.lock_plan(v_user) then
      v_owners := v_owners || v_user;
    end if;
  end loop;
  v_started := private.start_paid_plans();

  for v_row in
    select id, end_date from public.payments
    where is_active and not auto_renew and renewal_failed_at is null
      and end_date = current_date + 3
  loop
    if public.enqueue_job('plan.mail', jsonb_build_object('payment_id', v_row.id, 'template', 'ending'),
                          'plan.mail:ending:' || v_row.id || ':' || v_row.end_date) is not null then
      v_notices := v_notices + 1;
    end if;
  end loop;

  for v_row in
    select id, end_date from public.payments
    where is_active and auto_renew and end_date < current_date and end_date >= current_date - 7
  loop
    if public.enqueue_job('plan.renewal-check', jsonb_build_object('payment_id', v_row.id),
                          'plan.renewal-check:' || v_row.id || ':' || v_row.end_date) is not null then
      v_checks := v_checks + 1;
    end if;
  end loop;

  -- an ended plan's renewal charges are revoked (a scheduled one's schedule too) and a card plan's
  -- billing key deleted, as end_plan does
  for v_row in
    update public.payments set is_active = false, auto_renew = false
    where is_active and end_date < current_date
      and (not auto_renew or end_date < current_date - 7) and user_id = any(v_owners)
    returning id, user_id
  loop
    perform private.revoke_renewal_charges(v_row.id);
    perform private.delete_billing_key_later(v_row.id);
    perform private.stop_paypal_later(v_row.id, now(), 'ended');
    v_users := v_users || v_row.user_id;
  end loop;
  select array_agg(distinct u) into v_users from unnest(v_users) u;
  foreach v_user in array coalesce(v_users, '{}'::uuid[]) loop
    perform private.apply_plan_limits(v_user);
    v_ended := v_ended + 1;
  end loop;

  return jsonb_build_object('started', v_started, 'notices', v_notices, 'checks', v_checks,
                            'owners_ended', v_ended);
end;
$$;
-- the cron job runs it as postgres; the service role runs public.expire_plans below (this one
-- writes tables and calls helpers the service role is not granted)
revoke execute on function private.expire_plans() from public;

-- The same for the service role (tests and operators run it through PostgREST).
create function public.expire_plans()
returns jsonb language sql security definer set search_path = '' as $$
  select private.expire_plans();
$$;
revoke execute on function public.expire_plans() from public, anon, authenticated;

-- What a plan mail needs: the plan row and its owner (address, name, language).
create function public.plan_mail_context(p_payment_ids uuid[])
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
    'payment', to_jsonb(p),
    'owner', jsonb_build_object('id', o.id, 'email', o.email, 'name', o.name, 'language', o.language))), '[]'::jsonb)
  from public.payments p
  join public.profiles o on o.id = p.user_id
  where p.id = any(p_payment_ids);
$$;
revoke execute on function public.plan_mail_context(uuid[]) from public, anon, authenticated;

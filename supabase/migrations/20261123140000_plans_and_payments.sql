-- Plans and payments (spec: account sections 3, 4, 5, 7 and 9; docs/plans.md tells the story).
--
-- * A plan row (public.payments, the plan history) is written only when the provider took the
--   money: a card payment through PortOne, a PayPal subscription, or a coupon.
-- * What a plan gives is applied to the profile by ONE function, private.apply_plan_limits: paid,
--   block_limit and response_monthly_limit follow the owner's active rows, and blocks beyond the
--   limit are deactivated, newest first (never deleted). Client roles cannot write those columns
--   (20261121000100 grants them nothing but profile fields; tests/plans.test.ts proves it).
-- * One active paid plan at a time (a partial unique index), one checkout in flight per owner.
-- * A checkout is recorded in private.payment_charges BEFORE the provider is asked for money, with
--   a `plan.reconcile` job in the same transaction: if the function stops after the provider took
--   the money, the job re-reads the payment and records the plan (idempotently).
-- * Expiry runs daily (pg_cron): plans past their end become inactive and the limits fall back;
--   plans that renew are checked with the provider first; owners are mailed a few days before.
--
-- Entry points are public functions executable by service_role only (the payment functions call
-- them after validating with the shared zod schemas and talking to the provider).

-- ---------------------------------------------------------------------------------------------
-- plan rows: renewal state and the next period's plan
-- ---------------------------------------------------------------------------------------------

alter table public.payments
  add column auto_renew boolean not null default false,
  add column stopped_at timestamptz,
  add column renewal_failed_at timestamptz,
  add column next_content jsonb check (next_content is null or jsonb_typeof(next_content) = 'object'),
  add column next_price numeric(10, 2) check (next_price is null or next_price >= 0),
  add column updated_at timestamptz not null default now();

comment on column public.payments.auto_renew is 'The plan renews at the provider (card schedule or PayPal subscription) until stopped.';
comment on column public.payments.stopped_at is 'When the owner stopped the renewals (the plan keeps running until end_date).';
comment on column public.payments.renewal_failed_at is 'When the last renewal payment failed (the plan then ends at end_date).';
comment on column public.payments.next_content is 'A changed plan {planName, blockLimit, responseMonthlyLimit} that starts with the next period.';
comment on column public.payments.next_price is 'The price of next_content.';
comment on column public.payments.end_date is 'Last day of the current period (inclusive): the plan ends the day after unless it renews.';

create unique index payments_one_active_plan_idx on public.payments (user_id)
  where is_active and type in ('basic', 'custom', 'subscription');
create index payments_active_end_date_idx on public.payments (end_date) where is_active;
create index payments_provider_payment_id_idx on public.payments (method, provider_payment_id)
  where provider_payment_id is not null;

create trigger payments_set_updated_at before update on public.payments
  for each row execute function private.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- charges: every request for money, before it is made
-- ---------------------------------------------------------------------------------------------

create table private.payment_charges (
  -- for PortOne this is the payment id we give PortOne, so asking twice cannot charge twice
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete cascade,
  kind text not null check (kind in ('first', 'renewal')),
  method public.payment_method not null,
  -- the PortOne billing key or the PayPal subscription id
  provider_ref text not null check (char_length(provider_ref) between 1 and 200),
  -- {type, blockLimit, responseMonthlyLimit}
  plan jsonb not null check (jsonb_typeof(plan) = 'object'),
  price numeric(10, 2) not null check (price > 0),
  amount numeric(12, 2) not null check (amount > 0),
  currency text not null check (currency in ('KRW', 'USD')),
  -- first: pending -> recorded | failed; renewal: unscheduled -> scheduled -> recorded | failed | revoked
  status text not null check (status in ('pending', 'recorded', 'failed', 'unscheduled', 'scheduled', 'revoked')),
  period_start date not null,
  period_end date not null check (period_end >= period_start),
  -- first card charge: the id of the next period's charge (decided up front so its schedule can be
  -- made before the plan is recorded)
  next_charge_id uuid,
  schedule_id text check (char_length(schedule_id) <= 200),
  provider_payment_id text check (char_length(provider_payment_id) <= 200),
  error text check (char_length(error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table private.payment_charges is
  'Requests for money (a plan''s first payment, a card renewal), written before the provider is asked; no client access.';

-- a billing key or a subscription buys one plan, once
create unique index payment_charges_first_ref_idx on private.payment_charges (method, provider_ref)
  where kind = 'first';
-- one checkout in flight per owner: two parallel purchases cannot both charge
create unique index payment_charges_in_flight_idx on private.payment_charges (user_id)
  where kind = 'first' and status = 'pending';
create index payment_charges_payment_idx on private.payment_charges (payment_id, kind, period_start);

alter table private.payment_charges enable row level security;
revoke all on private.payment_charges from public, anon, authenticated;

create trigger payment_charges_set_updated_at before update on private.payment_charges
  for each row execute function private.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- coupons: codes compare case-insensitively
-- ---------------------------------------------------------------------------------------------

create unique index coupons_code_lower_idx on public.coupons (lower(code));

-- ---------------------------------------------------------------------------------------------
-- helpers
-- ---------------------------------------------------------------------------------------------

-- An integer member of a JSON object, or null when it is missing or not a whole number.
create function private.jsonb_int(p_value jsonb, p_key text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value -> p_key) = 'number'
                   and (p_value ->> p_key) ~ '^-?[0-9]{1,9}(\.0+)?$'
              then (p_value ->> p_key)::numeric::integer end;
$$;

-- The spec's price of a plan {type, blockLimit, responseMonthlyLimit}: floor(blockLimit / 4) +
-- floor(responseMonthlyLimit / 1000) dollars, or null for a plan that cannot be bought (Basic is
-- 8 and 1000; counts are multiples of 4 and 1000 within 400 and 100000; at least $3).
-- supabase/functions/_shared/plans.ts computes the same (tests/plans.test.ts ties the two).
create function private.plan_price(p_plan jsonb)
returns numeric
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_type text := p_plan ->> 'type';
  v_blocks integer := private.jsonb_int(p_plan, 'blockLimit');
  v_emails integer := private.jsonb_int(p_plan, 'responseMonthlyLimit');
  v_price numeric;
begin
  if v_type not in ('basic', 'custom') or v_blocks is null or v_emails is null
     or v_blocks < 0 or v_blocks > 400 or v_blocks % 4 <> 0
     or v_emails < 0 or v_emails > 100000 or v_emails % 1000 <> 0
     or (v_type = 'basic' and (v_blocks <> 8 or v_emails <> 1000)) then
    return null;
  end if;
  v_price := floor(v_blocks / 4.0) + floor(v_emails / 1000.0);
  return case when v_price >= 3 then v_price end;
end;
$$;

-- The content a plan row keeps: {planName, blockLimit, responseMonthlyLimit}.
create function private.plan_content(p_plan jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'planName', case p_plan ->> 'type' when 'basic' then 'Basic' else 'Custom' end,
    'blockLimit', private.jsonb_int(p_plan, 'blockLimit'),
    'responseMonthlyLimit', private.jsonb_int(p_plan, 'responseMonthlyLimit'));
$$;

-- The last day of a one-month period starting on p_start (23 Nov -> 22 Dec).
create function private.period_end(p_start date)
returns date
language sql
immutable
set search_path = ''
as $$
  select (p_start + interval '1 month')::date - 1;
$$;

-- Applies the owner's active plan rows to the profile: the ONE writer of paid, block_limit and
-- response_monthly_limit. Limits are Starter's (3 blocks, 100 emails) plus the largest addition
-- among the active rows (a coupon running beside a paid plan gives the larger of the two). Blocks
-- beyond the limit are deactivated, newest first, never deleted; room again reactivates them,
-- oldest first. security definer: it writes columns and rows the owner may not write.
create function private.apply_plan_limits(p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_paid boolean;
  v_blocks integer;
  v_emails integer;
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    return;
  end if;
  select count(*) > 0,
         3 + coalesce(max(greatest(coalesce(private.jsonb_int(content, 'blockLimit'), 0), 0)), 0),
         100 + coalesce(max(greatest(coalesce(private.jsonb_int(content, 'responseMonthlyLimit'), 0), 0)), 0)
    into v_paid, v_blocks, v_emails
    from public.payments
    where user_id = p_user_id and is_active;
  update public.profiles
    set paid = v_paid, block_limit = v_blocks, response_monthly_limit = v_emails
    where id = p_user_id
      and (paid, block_limit, response_monthly_limit) is distinct from (v_paid, v_blocks, v_emails);
  with ranked as (
    select id, row_number() over (order by created_at, id) as n
    from public.blocks
    where owner_id = p_user_id
  )
  update public.blocks b
    set deactivated = (r.n > v_blocks)
    from ranked r
    where b.id = r.id and b.deactivated is distinct from (r.n > v_blocks);
end;
$$;

-- The owner's active paid plan (the spec's: active and basic, custom or subscription), if any.
create function private.active_plan(p_user_id uuid)
returns public.payments
language sql
stable
set search_path = ''
as $$
  select * from public.payments
  where user_id = p_user_id and is_active and type in ('basic', 'custom', 'subscription')
  limit 1;
$$;

-- ---------------------------------------------------------------------------------------------
-- checkout: start (before the money), record (after it), fail
-- ---------------------------------------------------------------------------------------------

-- Starts a checkout, or answers the one this billing key or subscription already started (a
-- double submit, a retry): the charge row with `existing`. Refuses a second plan and a second
-- checkout in flight. The `plan.reconcile` job written here finishes the checkout if its caller
-- stops half way (docs/plans.md, "What if recording fails").
create function public.start_plan_checkout(
  p_user_id uuid,
  p_method public.payment_method,
  p_provider_ref text,
  p_plan jsonb,
  p_price numeric)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_charge private.payment_charges;
  v_price numeric := private.plan_price(p_plan);
  v_start date := current_date;
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    raise exception 'Sign in with Google or Apple first' using errcode = 'PT403';
  end if;
  if v_price is null then
    raise exception 'Invalid plan' using errcode = 'P0001';
  end if;
  if v_price is distinct from p_price then
    raise exception 'The price has changed; check the plan and try again' using errcode = 'P0001';
  end if;

  select * into v_charge from private.payment_charges
    where kind = 'first' and method = p_method and provider_ref = p_provider_ref;
  if found then
    if v_charge.user_id <> p_user_id then
      raise exception 'This payment belongs to another account' using errcode = 'PT403';
    end if;
    return to_jsonb(v_charge) || jsonb_build_object('existing', true);
  end if;

  if (private.active_plan(p_user_id)).id is not null then
    raise exception 'You already have an active plan' using errcode = 'PT409';
  end if;
  if exists (select 1 from private.payment_charges
             where user_id = p_user_id and kind = 'first' and status = 'pending') then
    raise exception 'A payment is already in progress; try again in a few minutes' using errcode = 'PT409';
  end if;

  insert into private.payment_charges (user_id, kind, method, provider_ref, plan, price, amount,
                                       currency, status, period_start, period_end, next_charge_id)
  values (p_user_id, 'first', p_method, p_provider_ref,
          jsonb_build_object('type', p_plan ->> 'type',
                             'blockLimit', private.jsonb_int(p_plan, 'blockLimit'),
                             'responseMonthlyLimit', private.jsonb_int(p_plan, 'responseMonthlyLimit')),
          v_price,
          case when p_method = 'iamport' then v_price * 1000 else v_price end,
          case when p_method = 'iamport' then 'KRW' else 'USD' end,
          'pending', v_start, private.period_end(v_start),
          case when p_method = 'iamport' then gen_random_uuid() end)
  returning * into v_charge;

  perform private.enqueue_job('plan.reconcile', jsonb_build_object('charge_id', v_charge.id),
                              'plan.reconcile:' || v_charge.id, now() + interval '2 minutes');
  return to_jsonb(v_charge) || jsonb_build_object('existing', false);
end;
$$;

-- Records a paid checkout as the owner's plan (idempotent: a recorded one answers its plan row).
-- p_provider: {provider_payment_id, end_date?: PayPal's period end, schedule_id?: the card
-- renewal's PortOne schedule}. For a card plan it also writes the next period's charge; without
-- a schedule id, a `plan.schedule-renewal` job makes the schedule.
create function public.record_plan_checkout(p_charge_id uuid, p_provider jsonb default '{}'::jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_charge private.payment_charges;
  v_payment public.payments;
  v_end date;
  v_next_id uuid;
begin
  select * into v_charge from private.payment_charges
    where id = p_charge_id and kind = 'first' for update;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  if v_charge.status = 'recorded' then
    select * into v_payment from public.payments where id = v_charge.payment_id;
    return to_jsonb(v_payment);
  end if;
  if v_charge.status <> 'pending' then
    raise exception 'Failed to payment' using errcode = 'PT402';
  end if;
  perform 1 from public.profiles where id = v_charge.user_id for update;
  if (private.active_plan(v_charge.user_id)).id is not null then
    -- start_plan_checkout lets one checkout through at a time, so this means a plan was made by
    -- hand meanwhile: the charge stays pending, for an operator to refund (docs/plans.md)
    raise exception 'You already have an active plan' using errcode = 'PT409';
  end if;
  v_end := greatest(coalesce((p_provider ->> 'end_date')::date, v_charge.period_end), v_charge.period_start);

  insert into public.payments (user_id, type, price, method, start_date, end_date, is_active,
                               content, provider_payment_id, auto_renew)
  values (v_charge.user_id, (v_charge.plan ->> 'type')::public.payment_type, v_charge.price,
          v_charge.method, v_charge.period_start, v_end, true, private.plan_content(v_charge.plan),
          case when v_charge.method = 'paypal' then v_charge.provider_ref
               else left(p_provider ->> 'provider_payment_id', 200) end,
          true)
  returning * into v_payment;

  update private.payment_charges
    set status = 'recorded', payment_id = v_payment.id, period_end = v_end,
        provider_payment_id = left(p_provider ->> 'provider_payment_id', 200), error = null
    where id = v_charge.id;

  if v_charge.method = 'iamport' then
    v_next_id := coalesce(v_charge.next_charge_id, gen_random_uuid());
    insert into private.payment_charges (id, user_id, payment_id, kind, method, provider_ref, plan,
                                         price, amount, currency, status, period_start, period_end,
                                         schedule_id)
    values (v_next_id, v_charge.user_id, v_payment.id,
            'renewal', 'iamport', v_charge.provider_ref, v_charge.plan, v_charge.price,
            v_charge.amount, v_charge.currency,
            case when p_provider ? 'schedule_id' then 'scheduled' else 'unscheduled' end,
            v_end + 1, private.period_end(v_end + 1), left(p_provider ->> 'schedule_id', 200))
    on conflict (id) do nothing;
    if not (p_provider ? 'schedule_id') then
      perform private.enqueue_job('plan.schedule-renewal', jsonb_build_object('charge_id', v_next_id),
                                  'plan.schedule-renewal:' || v_next_id);
    end if;
  end if;

  perform private.apply_plan_limits(v_charge.user_id);
  return to_jsonb(v_payment);
end;
$$;

-- A checkout the provider refused (declined card, a subscription that does not match): final.
create function public.fail_plan_checkout(p_charge_id uuid, p_error text)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.payment_charges set status = 'failed', error = left(p_error, 500)
    where id = p_charge_id and kind = 'first' and status = 'pending';
$$;

-- A charge with what the functions need to act on it (service role: the billing key is in it).
create function public.plan_charge(p_charge_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(c) || jsonb_build_object('payment', to_jsonb(p))
  from private.payment_charges c
  left join public.payments p on p.id = c.payment_id
  where c.id = p_charge_id;
$$;

-- The first charge a billing key or a PayPal subscription made (webhooks find their checkout).
create function public.plan_charge_by_ref(p_method public.payment_method, p_ref text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select public.plan_charge(c.id)
  from private.payment_charges c
  where c.kind = 'first' and c.method = p_method and c.provider_ref = p_ref;
$$;

-- A plan row with its first charge and the renewal charge of the period after it, if any.
create function public.plan_payment(p_payment_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'payment', to_jsonb(p),
    'first_charge', (select to_jsonb(c) from private.payment_charges c
                     where c.payment_id = p.id and c.kind = 'first'),
    'renewal_charge', (select to_jsonb(c) from private.payment_charges c
                       where c.payment_id = p.id and c.kind = 'renewal' and c.period_start = p.end_date + 1
                       order by c.created_at desc limit 1))
  from public.payments p
  where p.id = p_payment_id;
$$;

-- ---------------------------------------------------------------------------------------------
-- renewals
-- ---------------------------------------------------------------------------------------------

-- The next period's charge of a card plan, written unscheduled with a job that schedules it.
create function private.next_card_charge(p_payment public.payments, p_billing_key text)
returns uuid
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := gen_random_uuid();
  v_plan jsonb;
  v_price numeric := coalesce(p_payment.next_price, p_payment.price);
  v_content jsonb := coalesce(p_payment.next_content, p_payment.content);
begin
  v_plan := jsonb_build_object(
    'type', case when v_content ->> 'planName' = 'Basic' then 'basic' else 'custom' end,
    'blockLimit', private.jsonb_int(v_content, 'blockLimit'),
    'responseMonthlyLimit', private.jsonb_int(v_content, 'responseMonthlyLimit'));
  insert into private.payment_charges (id, user_id, payment_id, kind, method, provider_ref, plan,
                                       price, amount, currency, status, period_start, period_end)
  values (v_id, p_payment.user_id, p_payment.id, 'renewal', 'iamport', p_billing_key, v_plan,
          v_price, v_price * 1000, 'KRW', 'unscheduled', p_payment.end_date + 1,
          private.period_end(p_payment.end_date + 1));
  perform private.enqueue_job('plan.schedule-renewal', jsonb_build_object('charge_id', v_id),
                              'plan.schedule-renewal:' || v_id);
  return v_id;
end;
$$;

-- A scheduled renewal the provider created (the schedule job's answer).
create function public.mark_charge_scheduled(p_charge_id uuid, p_schedule_id text)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.payment_charges set status = 'scheduled', schedule_id = left(p_schedule_id, 200)
    where id = p_charge_id and kind = 'renewal' and status = 'unscheduled';
$$;

-- A card renewal the provider charged: the plan runs one more period (a changed plan starts
-- now), and the following period's charge is written. Idempotent per charge.
create function public.record_plan_renewal(p_charge_id uuid, p_provider_payment_id text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_charge private.payment_charges;
  v_payment public.payments;
begin
  select * into v_charge from private.payment_charges
    where id = p_charge_id and kind = 'renewal' for update;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  select * into v_payment from public.payments where id = v_charge.payment_id for update;
  if v_charge.status = 'recorded' then
    return to_jsonb(v_payment);
  end if;
  update private.payment_charges
    set status = 'recorded', provider_payment_id = left(p_provider_payment_id, 200), error = null
    where id = v_charge.id;
  -- the money came in: the period is the owner's even if they stopped meanwhile
  update public.payments
    set end_date = greatest(end_date, v_charge.period_end),
        is_active = true,
        type = (v_charge.plan ->> 'type')::public.payment_type,
        content = private.plan_content(v_charge.plan),
        price = v_charge.price,
        next_content = null, next_price = null, renewal_failed_at = null
    where id = v_payment.id
    returning * into v_payment;
  if v_payment.auto_renew then
    perform private.next_card_charge(v_payment, v_charge.provider_ref);
  end if;
  perform private.apply_plan_limits(v_payment.user_id);
  return to_jsonb(v_payment);
end;
$$;

-- A renewal payment that failed: the plan stops renewing and ends at its end date; the owner is
-- mailed at once. Idempotent.
create function public.record_renewal_failed(p_payment_id uuid, p_charge_id uuid, p_error text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  select * into v_payment from public.payments where id = p_payment_id for update;
  if not found or v_payment.renewal_failed_at is not null then
    return;
  end if;
  if p_charge_id is not null then
    update private.payment_charges set status = 'failed', error = left(p_error, 500)
      where id = p_charge_id and kind = 'renewal' and status in ('unscheduled', 'scheduled');
  end if;
  update public.payments set auto_renew = false, renewal_failed_at = now() where id = v_payment.id;
  perform private.enqueue_job('plan.mail',
    jsonb_build_object('payment_id', v_payment.id, 'template', 'renewal_failed'),
    'plan.mail:renewal_failed:' || v_payment.id || ':' || v_payment.end_date);
end;
$$;

-- What PayPal says about a subscription, applied to its plan: the period runs to the day before
-- the next billing; a changed quantity the owner approved starts with a new period; a subscription
-- that is not active stops renewing (the plan runs to its end). Idempotent (it sets, never adds).
create function public.sync_paypal_plan(p_subscription_id text, p_state jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
  v_status text := p_state ->> 'status';
  v_next date := (p_state ->> 'next_billing_date')::date;
  v_quantity numeric := (p_state ->> 'quantity')::numeric;
  v_end date;
begin
  select * into v_payment from public.payments
    where method = 'paypal' and provider_payment_id = p_subscription_id
    order by created_at desc limit 1
    for update;
  if not found then
    return null;
  end if;
  if v_status = 'ACTIVE' and v_payment.stopped_at is null then
    v_end := coalesce(v_next - 1, v_payment.end_date);
    if v_end > v_payment.end_date then
      -- a new period: a changed plan the owner approved on PayPal starts now
      update public.payments
        set end_date = v_end, is_active = true, renewal_failed_at = null,
            type = case when next_content is not null and next_price = v_quantity
                        then (case when next_content ->> 'planName' = 'Basic' then 'basic' else 'custom' end)::public.payment_type
                        else type end,
            content = case when next_content is not null and next_price = v_quantity then next_content else content end,
            price = case when next_content is not null and next_price = v_quantity then next_price else price end,
            next_content = case when next_content is not null and next_price = v_quantity then null else next_content end,
            next_price = case when next_content is not null and next_price = v_quantity then null else next_price end
        where id = v_payment.id
        returning * into v_payment;
    end if;
  elsif v_status in ('CANCELLED', 'SUSPENDED', 'EXPIRED') and v_payment.auto_renew then
    update public.payments set auto_renew = false where id = v_payment.id returning * into v_payment;
  end if;
  if coalesce((p_state ->> 'payment_failed')::boolean, false) then
    perform public.record_renewal_failed(v_payment.id, null, 'PayPal could not take the payment');
    select * into v_payment from public.payments where id = v_payment.id;
  end if;
  perform private.apply_plan_limits(v_payment.user_id);
  return to_jsonb(v_payment);
end;
$$;

-- Ends a plan now (a renewal the provider never made): inactive, limits fall back.
create function public.end_plan(p_payment_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  update public.payments set is_active = false, auto_renew = false
    where id = p_payment_id and is_active
    returning user_id into v_user;
  if v_user is not null then
    update private.payment_charges set status = 'revoked'
      where payment_id = p_payment_id and kind = 'renewal' and status in ('unscheduled', 'scheduled');
    perform private.apply_plan_limits(v_user);
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- stop and change (the owner's own active plan)
-- ---------------------------------------------------------------------------------------------

-- The owner's plan with what the provider needs to stop or change it: {payment, billing_key,
-- renewal_charge}. Only the owner's active, renewing (for changes) plan of this method.
create function public.plan_for_owner(p_user_id uuid, p_payment_id uuid, p_method public.payment_method)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
  v_first private.payment_charges;
  v_renewal private.payment_charges;
begin
  select * into v_payment from public.payments
    where id = p_payment_id and user_id = p_user_id and is_active
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

-- The owner stopped the plan (the provider was told first): no more renewals, the plan runs to
-- its end date. Idempotent.
create function public.record_plan_stop(p_user_id uuid, p_payment_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  update public.payments
    set auto_renew = false, stopped_at = coalesce(stopped_at, now()), next_content = null, next_price = null
    where id = p_payment_id and user_id = p_user_id
    returning * into v_payment;
  if not found then
    raise exception 'No such plan' using errcode = 'PT404';
  end if;
  update private.payment_charges set status = 'revoked'
    where payment_id = p_payment_id and kind = 'renewal' and status in ('unscheduled', 'scheduled');
  return to_jsonb(v_payment);
end;
$$;

-- The owner changed the plan of the next periods (p_plan, priced p_price). For a card plan the
-- pending renewal charge is replaced (its schedule was revoked first) and a new one is scheduled
-- by the queue; for PayPal the change waits for the owner's approval on PayPal.
create function public.record_plan_change(p_user_id uuid, p_payment_id uuid, p_plan jsonb, p_price numeric)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
  v_billing_key text;
  v_price numeric := private.plan_price(p_plan);
begin
  if v_price is null or v_price is distinct from p_price then
    raise exception 'The price has changed; check the plan and try again' using errcode = 'P0001';
  end if;
  select * into v_payment from public.payments
    where id = p_payment_id and user_id = p_user_id and is_active for update;
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
  if v_payment.method = 'iamport' then
    update private.payment_charges set status = 'revoked'
      where payment_id = v_payment.id and kind = 'renewal' and status in ('unscheduled', 'scheduled')
      returning provider_ref into v_billing_key;
    if v_billing_key is null then
      select provider_ref into v_billing_key from private.payment_charges
        where payment_id = v_payment.id and kind = 'first';
    end if;
    perform private.next_card_charge(v_payment, v_billing_key);
  end if;
  return to_jsonb(v_payment);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- coupons
-- ---------------------------------------------------------------------------------------------

-- Redeems a coupon for the owner: the coupon's row is locked, so parallel redemptions of a capped
-- coupon (or one owner's double click) run one after the other; once per owner, before
-- valid_until, within max_redemptions. A promote_coupon is for owners who never had a plan. The
-- coupon gives its plan for duration_days (beside a paid plan the larger limits apply).
create function public.redeem_coupon(p_user_id uuid, p_code text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_coupon public.coupons;
  v_payment public.payments;
begin
  perform 1 from public.profiles where id = p_user_id;
  if not found then
    raise exception 'Sign in with Google or Apple first' using errcode = 'PT403';
  end if;
  select * into v_coupon from public.coupons where lower(code) = lower(btrim(p_code)) for update;
  if not found then
    raise exception 'No such coupon' using errcode = 'PT404';
  end if;
  if v_coupon.valid_until is not null and v_coupon.valid_until < now() then
    raise exception 'This coupon has expired' using errcode = 'PT410';
  end if;
  if exists (select 1 from public.coupon_redemptions where coupon_id = v_coupon.id and user_id = p_user_id) then
    raise exception 'You have already used this coupon' using errcode = 'PT409';
  end if;
  if v_coupon.max_redemptions is not null and v_coupon.redemption_count >= v_coupon.max_redemptions then
    raise exception 'This coupon has been used up' using errcode = 'PT409';
  end if;
  if v_coupon.type = 'promote_coupon'
     and exists (select 1 from public.payments where user_id = p_user_id) then
    raise exception 'This coupon is for owners who have never had a plan' using errcode = 'PT403';
  end if;

  insert into public.payments (user_id, type, price, method, start_date, end_date, is_active, content)
  values (p_user_id, v_coupon.type, 0, null, current_date, current_date + v_coupon.duration_days - 1, true,
          jsonb_build_object(
            'planName', coalesce(v_coupon.content ->> 'planName', 'Coupon'),
            'blockLimit', greatest(coalesce(private.jsonb_int(v_coupon.content, 'blockLimit'), 0), 0),
            'responseMonthlyLimit', greatest(coalesce(private.jsonb_int(v_coupon.content, 'responseMonthlyLimit'), 0), 0),
            'coupon', v_coupon.code))
  returning * into v_payment;
  insert into public.coupon_redemptions (coupon_id, user_id, payment_id)
  values (v_coupon.id, p_user_id, v_payment.id);
  update public.coupons set redemption_count = redemption_count + 1 where id = v_coupon.id;
  perform private.apply_plan_limits(p_user_id);
  return to_jsonb(v_payment);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- webhooks: each provider event is applied once
-- ---------------------------------------------------------------------------------------------

-- Whether a provider event (PortOne webhook-id, PayPal event id) was applied already.
create function public.payment_event_seen(p_id text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.provider_events where id = left(p_id, 200));
$$;

-- Records an applied provider event; false when it was recorded already.
create function public.record_payment_event(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.provider_events (id) values (left(p_id, 200)) on conflict (id) do nothing;
  return found;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- expiry and notices (daily)
-- ---------------------------------------------------------------------------------------------

-- Once a day: plans that do not renew and are past their end date become inactive (limits fall
-- back, blocks beyond the limit are deactivated); plans that renew and are past their end are
-- checked with the provider first (`plan.renewal-check`: a renewal may have been paid without
-- its webhook reaching us), and ended after a week without an answer; owners of plans that end
-- in PLAN_RULES.noticeDays (3) days without renewing are mailed. Answers what it did.
create function private.expire_plans()
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_notices integer := 0;
  v_checks integer := 0;
  v_ended integer := 0;
  v_row record;
  v_users uuid[];
  v_user uuid;
begin
  for v_row in
    select id, end_date from public.payments
    where is_active and not auto_renew and renewal_failed_at is null
      and end_date = current_date + 3
  loop
    if private.enqueue_job('plan.mail', jsonb_build_object('payment_id', v_row.id, 'template', 'ending'),
                           'plan.mail:ending:' || v_row.id || ':' || v_row.end_date) is not null then
      v_notices := v_notices + 1;
    end if;
  end loop;

  for v_row in
    select id, end_date from public.payments
    where is_active and auto_renew and end_date < current_date and end_date >= current_date - 7
  loop
    if private.enqueue_job('plan.renewal-check', jsonb_build_object('payment_id', v_row.id),
                           'plan.renewal-check:' || v_row.id || ':' || v_row.end_date) is not null then
      v_checks := v_checks + 1;
    end if;
  end loop;

  with ended as (
    update public.payments set is_active = false, auto_renew = false
    where is_active and end_date < current_date
      and (not auto_renew or end_date < current_date - 7)
    returning id, user_id
  ), revoked as (
    update private.payment_charges c set status = 'revoked'
    from ended e
    where c.payment_id = e.id and c.kind = 'renewal' and c.status in ('unscheduled', 'scheduled')
  )
  select array_agg(distinct user_id) into v_users from ended;
  foreach v_user in array coalesce(v_users, '{}'::uuid[]) loop
    perform private.apply_plan_limits(v_user);
    v_ended := v_ended + 1;
  end loop;

  return jsonb_build_object('notices', v_notices, 'checks', v_checks, 'owners_ended', v_ended);
end;
$$;

-- The same for the service role (tests and operators run it through PostgREST).
create function public.expire_plans()
returns jsonb
language sql
security definer
set search_path = ''
as $$
  select private.expire_plans();
$$;

-- What a plan mail needs: the plan row and its owner (address, name, language).
create function public.plan_mail_context(p_payment_ids uuid[])
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
    'payment', to_jsonb(p),
    'owner', jsonb_build_object('id', o.id, 'email', o.email, 'name', o.name, 'language', o.language))), '[]'::jsonb)
  from public.payments p
  join public.profiles o on o.id = p.user_id
  where p.id = any(p_payment_ids);
$$;

select cron.schedule('plan-expiry', '10 0 * * *', $$ select private.expire_plans(); $$);

-- ---------------------------------------------------------------------------------------------
-- grants: the service role only
-- ---------------------------------------------------------------------------------------------

revoke all on function private.jsonb_int(jsonb, text), private.plan_price(jsonb), private.plan_content(jsonb),
  private.period_end(date), private.apply_plan_limits(uuid), private.active_plan(uuid),
  private.next_card_charge(public.payments, text), private.expire_plans() from public, anon, authenticated;
grant execute on function private.plan_price(jsonb), private.apply_plan_limits(uuid), private.expire_plans()
  to service_role;

revoke all on function public.start_plan_checkout(uuid, public.payment_method, text, jsonb, numeric),
  public.record_plan_checkout(uuid, jsonb), public.fail_plan_checkout(uuid, text),
  public.plan_charge(uuid), public.plan_charge_by_ref(public.payment_method, text),
  public.plan_payment(uuid), public.mark_charge_scheduled(uuid, text),
  public.record_plan_renewal(uuid, text), public.record_renewal_failed(uuid, uuid, text),
  public.sync_paypal_plan(text, jsonb), public.end_plan(uuid),
  public.plan_for_owner(uuid, uuid, public.payment_method), public.record_plan_stop(uuid, uuid),
  public.record_plan_change(uuid, uuid, jsonb, numeric), public.redeem_coupon(uuid, text),
  public.payment_event_seen(text), public.record_payment_event(text), public.expire_plans(),
  public.plan_mail_context(uuid[])
  from public, anon, authenticated;
grant execute on function public.start_plan_checkout(uuid, public.payment_method, text, jsonb, numeric),
  public.record_plan_checkout(uuid, jsonb), public.fail_plan_checkout(uuid, text),
  public.plan_charge(uuid), public.plan_charge_by_ref(public.payment_method, text),
  public.plan_payment(uuid), public.mark_charge_scheduled(uuid, text),
  public.record_plan_renewal(uuid, text), public.record_renewal_failed(uuid, uuid, text),
  public.sync_paypal_plan(text, jsonb), public.end_plan(uuid),
  public.plan_for_owner(uuid, uuid, public.payment_method), public.record_plan_stop(uuid, uuid),
  public.record_plan_change(uuid, uuid, jsonb, numeric), public.redeem_coupon(uuid, text),
  public.payment_event_seen(text), public.record_payment_event(text), public.expire_plans(),
  public.plan_mail_context(uuid[])
  to service_role;

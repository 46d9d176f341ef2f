-- Plans and payments (spec: account sections 3, 4, 5, 7 and 9; docs/plans.md tells the story).
--
-- * A plan row (public.payments, the plan history) is written only when the provider took the
--   money: a card payment through PortOne, a PayPal subscription, or a coupon.
-- * What a plan gives is applied to the profile by ONE function, private.apply_plan_limits: paid,
--   block_limit and response_monthly_limit follow the owner's active rows, and blocks beyond the
--   limit are deactivated, newest first (never deleted). Client roles cannot write those columns
--   (profiles.sql grants them nothing but profile fields; tests/plans.test.ts proves it).
-- * One active paid plan at a time (a partial unique index), one checkout in flight per owner.
-- * A checkout is recorded in private.payment_charges BEFORE the provider is asked for money, with
--   a `plan.reconcile` job in the same transaction: if the function stops after the provider took
--   the money, the job re-reads the payment and records the plan (idempotently).
--
-- Entry points are public functions executable by service_role only (the payment functions call
-- them after validating with the shared zod schemas and talking to the provider). Renewals,
-- changes, stops and expiry are in plan-renewals.sql; PayPal's syncs and refunds in plan-paypal.sql.

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  type public.payment_type not null,
  price numeric(10, 2) not null default 3 check (price >= 0),
  method public.payment_method,
  start_date date not null default current_date,
  end_date date,
  is_active boolean not null default true,
  -- {planName, blockLimit, responseMonthlyLimit}
  content jsonb not null default '{}'::jsonb check (jsonb_typeof(content) = 'object'),
  provider_payment_id text check (char_length(provider_payment_id) <= 200),
  created_at timestamptz not null default now(),
  auto_renew boolean not null default false,
  stopped_at timestamptz,
  renewal_failed_at timestamptz,
  next_content jsonb check (next_content is null or jsonb_typeof(next_content) = 'object'),
  next_price numeric(10, 2) check (next_price is null or next_price >= 0),
  updated_at timestamptz not null default now(),
  -- a changed plan already paid for (a card renewal is charged 3 days before its period): it
  -- becomes the row's plan on paid_next_from, its period's first day (private.start_paid_plans)
  paid_next_content jsonb check (paid_next_content is null or jsonb_typeof(paid_next_content) = 'object'),
  paid_next_from date,
  paid_next_price numeric(10, 2) check (paid_next_price is null or paid_next_price >= 0),
  renewal_retry_at timestamptz,
  check (end_date is null or end_date >= start_date),
  constraint payments_paid_next_check check (
    (paid_next_content is null) = (paid_next_from is null) and (paid_next_price is null) = (paid_next_from is null))
);
comment on table public.payments is
  'Plan history of a user (basic, custom, coupon, subscription). Owner reads; only the service role writes.';
comment on column public.payments.auto_renew is 'The plan renews at the provider (card schedule or PayPal subscription) until stopped.';
comment on column public.payments.stopped_at is 'When the owner stopped the renewals (the plan keeps running until end_date).';
comment on column public.payments.renewal_failed_at is 'When the last renewal payment failed (the plan then ends at end_date).';
comment on column public.payments.renewal_retry_at is 'PayPal plans whose renewal failed: when PayPal tries the payment again (the plan renews meanwhile).';
comment on column public.payments.next_content is 'A changed plan {planName, blockLimit, responseMonthlyLimit} that starts with the first period not charged yet (end_date + 1).';
comment on column public.payments.next_price is 'The price of next_content.';
comment on column public.payments.paid_next_content is 'A changed plan {planName, blockLimit, responseMonthlyLimit} charged already for the period starting paid_next_from; the row''s plan from that day.';
comment on column public.payments.paid_next_price is 'The price of paid_next_content.';
comment on column public.payments.paid_next_from is 'The first day of the period paid_next_content was charged for (the old end_date + 1).';
comment on column public.payments.end_date is 'Last day of the current period (inclusive): the plan ends the day after unless it renews.';
call private.clients_read('public.payments', 'Users can read their own payments',
  'user_id = (select auth.uid())');
create index payments_user_id_created_at_idx on public.payments (user_id, created_at desc);
create unique index payments_one_active_plan_idx on public.payments (user_id)
  where is_active and type in ('basic', 'custom', 'subscription');
create index payments_active_end_date_idx on public.payments (end_date) where is_active;
create index payments_paid_next_from_idx on public.payments (paid_next_from)
  where paid_next_from is not null;
create index payments_provider_payment_id_idx on public.payments (method, provider_payment_id)
  where provider_payment_id is not null;

create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (char_length(code) between 1 and 99),
  type public.payment_type not null default 'coupon' check (type in ('coupon', 'promote_coupon')),
  -- the plan it grants: {planName, blockLimit, responseMonthlyLimit}
  content jsonb not null default '{}'::jsonb check (jsonb_typeof(content) = 'object'),
  duration_days integer not null default 30 check (duration_days > 0),
  max_redemptions integer check (max_redemptions > 0),
  redemption_count integer not null default 0 check (redemption_count >= 0),
  valid_until timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.coupons is 'Coupon codes and the plan they grant. No client access: the use-coupon edge function redeems them.';
alter table public.coupons enable row level security;
revoke select, insert, update, delete, references, trigger, maintain on public.coupons from anon, authenticated;
create unique index coupons_code_lower_idx on public.coupons (lower(code));

create table public.coupon_redemptions (
  id uuid primary key default gen_random_uuid(),
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (coupon_id, user_id)
);
comment on table public.coupon_redemptions is 'Which user redeemed which coupon (once each). No client access.';
alter table public.coupon_redemptions enable row level security;
revoke select, insert, update, delete, references, trigger, maintain on public.coupon_redemptions from anon, authenticated;
create index coupon_redemptions_user_id_idx on public.coupon_redemptions (user_id);

-- Who redeemed a coupon, kept past the account (rev-break3 C1): coupon_redemptions goes with a
-- deleted account, so the same person signing in again as a new account could redeem every
-- uncapped coupon, the promote coupon too, again. A row per coupon and person: the sha256 of the
-- sign-in address in lower case (no link to the profile, nothing readable).
create table private.coupon_claims (
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  person text not null check (person ~ '^[0-9a-f]{64}$'),
  primary key (coupon_id, person)
);
comment on table private.coupon_claims is
  'The sha256 of the sign-in address of each person who redeemed a coupon; outlives the account (redeem_coupon).';
alter table private.coupon_claims enable row level security;
create index coupon_claims_person_idx on private.coupon_claims (person);

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
alter table private.payment_charges enable row level security;
-- a billing key or a subscription buys one plan, once
create unique index payment_charges_first_ref_idx on private.payment_charges (method, provider_ref)
  where kind = 'first';
-- one checkout in flight per owner: two parallel purchases cannot both charge
create unique index payment_charges_in_flight_idx on private.payment_charges (user_id)
  where kind = 'first' and status = 'pending';
create index payment_charges_payment_idx on private.payment_charges (payment_id, kind, period_start);

-- The spec's price of a plan {type, blockLimit, responseMonthlyLimit}: floor(blockLimit / 4) +
-- floor(responseMonthlyLimit / 1000) dollars, or null for a plan that cannot be bought (Basic is
-- 8 and 1000; counts are multiples of 4 and 1000 within 400 and 100000; at least $3).
-- supabase/functions/_shared/plans.ts computes the same (tests/plans.test.ts ties the two).
create function private.plan_price(p_plan jsonb)
returns numeric language plpgsql immutable set search_path = '' as $$
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
revoke execute on function private.plan_price(jsonb) from public;

-- The content a plan row keeps: {planName, blockLimit, responseMonthlyLimit}.
create function private.plan_content(p_plan jsonb)
returns jsonb language sql immutable set search_path = '' as $$
  select jsonb_build_object(
    'planName', case p_plan ->> 'type' when 'basic' then 'Basic' else 'Custom' end,
    'blockLimit', private.jsonb_int(p_plan, 'blockLimit'),
    'responseMonthlyLimit', private.jsonb_int(p_plan, 'responseMonthlyLimit'));
$$;
revoke execute on function private.plan_content(jsonb) from public;

-- The last day of a one-month period starting on p_start (23 Nov -> 22 Dec).
create function private.period_end(p_start date)
returns date language sql immutable set search_path = '' as $$
  select (p_start + interval '1 month')::date - 1;
$$;
revoke execute on function private.period_end(date) from public;

-- The one lock order of every function that writes an owner's plans: the owner's profile, then the
-- plan row (p_payment_id), then the charge (p_charge_id). Deleting the account locks the profile
-- first too (its cascade goes auth.users, profiles, then the plan rows and charges), and a plan
-- function that writes a row or the limits goes on to the profile (apply_plan_limits, a charge's
-- key on it), so one that locked its plan row first deadlocked with a deletion. Answers false when
-- the owner has no profile (the account was deleted, perhaps while this waited); callers read the
-- rows they locked afterwards, and find nothing then.
create function private.lock_plan(p_user_id uuid, p_payment_id uuid default null, p_charge_id uuid default null)
returns boolean language plpgsql set search_path = '' as $$
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    return false;
  end if;
  perform 1 from public.payments where id = p_payment_id and user_id = p_user_id for update;
  perform 1 from private.payment_charges where id = p_charge_id and user_id = p_user_id for update;
  return true;
end;
$$;
revoke execute on function private.lock_plan(uuid, uuid, uuid) from public;

-- Applies the owner's active plan rows to the profile: the ONE writer of paid, block_limit and
-- response_monthly_limit. Limits are Starter's (3 blocks, 100 emails) plus the largest addition
-- among the active rows (a coupon running beside a paid plan gives the larger of the two). Blocks
-- beyond the limit are deactivated, newest first, never deleted; room again reactivates them,
-- oldest first. security definer: it writes columns and rows the owner may not write.
create function private.apply_plan_limits(p_user_id uuid)
returns void language plpgsql security definer set search_path = '' as $$
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
revoke execute on function private.apply_plan_limits(uuid) from public;
grant execute on function private.apply_plan_limits(uuid) to service_role;

-- The owner's active paid plan (the spec's: active and basic, custom or subscription), if any.
create function private.active_plan(p_user_id uuid)
returns public.payments language sql stable set search_path = '' as $$
  select * from public.payments
  where user_id = p_user_id and is_active and type in ('basic', 'custom', 'subscription')
  limit 1;
$$;
revoke execute on function private.active_plan(uuid) from public;

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
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_charge private.payment_charges;
  v_price numeric := private.plan_price(p_plan);
  v_start date := current_date;
begin
  if not private.lock_plan(p_user_id) then
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
  -- a subscription being given back never starts a checkout: plan.paypal-orphan decided so under
  -- this lock (queue_orphan_refund) and may be cancelling it at PayPal now, or a check refused it
  -- (a second plan, not the plan ordered); a plan recorded from it would be cancelled and refunded
  if p_method = 'paypal'
     and exists (select 1 from public.paypal_refunds where subscription_id = p_provider_ref) then
    raise exception 'This subscription was cancelled; its payment is given back' using errcode = 'PT410';
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

  -- 34 attempts: about a day of the queue's backoff (5 s doubling, an hour at most) through a
  -- provider or database outage, where the default 8 gave up after ten minutes and left the
  -- checkout pending (every purchase of the owner refused) until a webhook settled it
  perform public.enqueue_job('plan.reconcile', jsonb_build_object('charge_id', v_charge.id),
                             'plan.reconcile:' || v_charge.id, now() + interval '2 minutes',
                             p_max_attempts => 34);
  -- the subscription's webhook came first (it usually does) and queued plan.paypal-orphan for a
  -- subscription with no checkout: it has one now, settled by its own check or plan.reconcile, so
  -- the job could only find it and stop; taken out while still waiting (one running, a check
  -- after its hour, goes on)
  if p_method = 'paypal' then
    delete from private.jobs
      where dedupe_key = 'plan.paypal-orphan:' || p_provider_ref and status = 'queued';
  end if;
  return to_jsonb(v_charge) || jsonb_build_object('existing', false);
end;
$$;
revoke execute on function public.start_plan_checkout(uuid, public.payment_method, text, jsonb, numeric) from public, anon, authenticated;

-- Records a paid checkout as the owner's plan (idempotent: a recorded one answers its plan row).
-- p_provider: {provider_payment_id, end_date?: PayPal's period end, paid_at?: PayPal's first
-- payment's time when taken already, schedule_id?: the card renewal's PortOne schedule}. For a
-- card plan it also writes the next period's charge
-- (private.next_card_charge, plan-renewals.sql; without a schedule id a job makes the schedule).
create function public.record_plan_checkout(p_charge_id uuid, p_provider jsonb default '{}'::jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_charge private.payment_charges;
  v_payment public.payments;
  v_end date;
begin
  -- the owner first, then the charge (private.lock_plan; a charge's owner never changes: read it
  -- unlocked)
  perform private.lock_plan(user_id, null, id) from private.payment_charges
    where id = p_charge_id and kind = 'first';
  select * into v_charge from private.payment_charges where id = p_charge_id and kind = 'first';
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
    perform private.next_card_charge(v_payment, v_charge.provider_ref, v_charge.next_charge_id,
                                     p_provider ->> 'schedule_id');
  end if;
  -- PayPal's first payment, taken already (its last_payment: p_provider.paid_at), paid this
  -- period: applied, so a later payment that moves no period is told apart from it
  -- (sync_paypal_plan gives that one back)
  if v_charge.method = 'paypal' and p_provider ->> 'paid_at' is not null then
    insert into private.paypal_payments (payment_id, paid_at)
      values (v_payment.id, (p_provider ->> 'paid_at')::timestamptz)
      on conflict (payment_id) do nothing;
  end if;

  perform private.apply_plan_limits(v_charge.user_id);
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.record_plan_checkout(uuid, jsonb) from public, anon, authenticated;

-- A checkout the provider refused (declined card, a subscription that does not match): final.
create function public.fail_plan_checkout(p_charge_id uuid, p_error text)
returns void language sql security definer set search_path = '' as $$
  update private.payment_charges set status = 'failed', error = left(p_error, 500)
    where id = p_charge_id and kind = 'first' and status = 'pending';
$$;
revoke execute on function public.fail_plan_checkout(uuid, text) from public, anon, authenticated;

-- A charge with what the functions need to act on it (service role: the billing key is in it).
create function public.plan_charge(p_charge_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select to_jsonb(c) || jsonb_build_object('payment', to_jsonb(p))
  from private.payment_charges c
  left join public.payments p on p.id = c.payment_id
  where c.id = p_charge_id;
$$;
revoke execute on function public.plan_charge(uuid) from public, anon, authenticated;

-- The first charge a billing key or a PayPal subscription made (webhooks find their checkout).
create function public.plan_charge_by_ref(p_method public.payment_method, p_ref text)
returns jsonb language sql stable security definer set search_path = '' as $$
  select public.plan_charge(c.id)
  from private.payment_charges c
  where c.kind = 'first' and c.method = p_method and c.provider_ref = p_ref;
$$;
revoke execute on function public.plan_charge_by_ref(public.payment_method, text) from public, anon, authenticated;

-- A plan row with its first charge and the renewal charge of the period after it, if any.
create function public.plan_payment(p_payment_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
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
revoke execute on function public.plan_payment(uuid) from public, anon, authenticated;

-- Provider webhooks are applied once (plan-renewals.sql and the webhook functions):
-- Whether a provider event (PortOne webhook-id, PayPal event id) was applied already.
create function public.payment_event_seen(p_id text)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from private.provider_events where id = left(p_id, 200));
$$;
revoke execute on function public.payment_event_seen(text) from public, anon, authenticated;

-- Records an applied provider event; false when it was recorded already.
create function public.record_payment_event(p_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  insert into private.provider_events (id) values (left(p_id, 200)) on conflict (id) do nothing;
  return found;
end;
$$;
revoke execute on function public.record_payment_event(text) from public, anon, authenticated;

-- Redeems a coupon for the owner: the coupon's row is locked, so parallel redemptions of a capped
-- coupon (or one owner's double click) run one after the other; once per owner, before
-- valid_until, within max_redemptions. A promote_coupon is for owners who never had a plan (bought
-- or promoted; a free coupon does not count). The
-- coupon gives its plan for duration_days (beside a paid plan the larger limits apply).
create function public.redeem_coupon(p_user_id uuid, p_code text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_coupon public.coupons;
  v_payment public.payments;
  v_person text;
begin
  if not private.lock_plan(p_user_id) then
    raise exception 'Sign in with Google or Apple first' using errcode = 'PT403';
  end if;
  select pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(lower(u.email), 'UTF8')), 'hex')
    into v_person from auth.users as u where u.id = p_user_id and u.email is not null;
  select * into v_coupon from public.coupons where lower(code) = lower(btrim(p_code)) for update;
  if not found then
    raise exception 'No such coupon' using errcode = 'PT404';
  end if;
  if v_coupon.valid_until is not null and v_coupon.valid_until < now() then
    raise exception 'This coupon has expired' using errcode = 'PT410';
  end if;
  if exists (select 1 from public.coupon_redemptions where coupon_id = v_coupon.id and user_id = p_user_id)
     or exists (select 1 from private.coupon_claims where coupon_id = v_coupon.id and person = v_person) then
    raise exception 'You have already used this coupon' using errcode = 'PT409';
  end if;
  if v_coupon.max_redemptions is not null and v_coupon.redemption_count >= v_coupon.max_redemptions then
    raise exception 'This coupon has been used up' using errcode = 'PT409';
  end if;
  -- a free coupon is not a plan: redeemed before, it does not spend the welcome (rev-uncov3 D7)
  if v_coupon.type = 'promote_coupon'
     and (exists (select 1 from public.payments where user_id = p_user_id and type <> 'coupon')
          or exists (select 1 from private.coupon_claims as c join public.coupons as k on k.id = c.coupon_id
                     where c.person = v_person and k.type = 'promote_coupon')) then
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
  if v_person is not null then
    insert into private.coupon_claims (coupon_id, person) values (v_coupon.id, v_person)
      on conflict do nothing;
  end if;
  update public.coupons set redemption_count = redemption_count + 1 where id = v_coupon.id;
  perform private.apply_plan_limits(p_user_id);
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.redeem_coupon(uuid, text) from public, anon, authenticated;

create trigger payments_set_updated_at before update on public.payments
  for each row execute function private.set_updated_at();
create trigger payment_charges_set_updated_at before update on private.payment_charges
  for each row execute function private.set_updated_at();

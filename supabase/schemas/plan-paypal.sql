-- PayPal plans after their checkout: what PayPal says of a subscription applied to its plan
-- (sync_paypal_plan: periods paid, failed cycles, revisions), and a subscription our side ended
-- cancelled and given back (stop_paypal_later), and the refunds of subscriptions cancelled
-- without a plan (public.paypal_refunds). Card renewals, stops, changes and the daily expiry are in
-- plan-renewals.sql.

-- PayPal subscriptions cancelled without a plan, whose payments the `plan.paypal-refund` job gives
-- back (supabase/functions/_shared/paypal-refund.ts; docs/plans.md, "PayPal's refund"): one row a
-- subscription, written with its job, kept after the job is purged, so the owner's Plan page can
-- say which payment could not be given back automatically (`failed`) and what to do. A deleted
-- account's rows still owed (queued, failed) stay with no owner (user_id null), for the job and the
-- operator, as does a refund its stop (plan.account-stop) could not make; the others go with it
-- (private.profiles_before_delete_stop_payments).
create table public.paypal_refunds (
  subscription_id text primary key check (char_length(subscription_id) between 1 and 200),
  user_id uuid references public.profiles (id) on delete set null,
  reason text not null check (char_length(reason) <= 500),
  -- queued -> refunded | none (nothing was taken, or it is a plan) | failed (PayPal refused the
  -- refund, or the job gave up): an operator who gives it back by hand sets `refunded`
  status text not null default 'queued' check (status in ('queued', 'refunded', 'none', 'failed')),
  error text check (char_length(error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.paypal_refunds is
  'PayPal subscriptions cancelled without a plan and the refund of their payments. Owner reads; only the service role writes.';
call private.clients_read('public.paypal_refunds', 'Users can read their own PayPal refunds',
  'user_id = (select auth.uid())');
create index paypal_refunds_user_id_idx on public.paypal_refunds (user_id, created_at desc);
create trigger paypal_refunds_set_updated_at before update on public.paypal_refunds
  for each row execute function private.set_updated_at();

-- Queues the refund of a subscription: its row and its job (first run in 2 minutes, after the
-- refund tried at once; up to 100 attempts with the queue's backoff) in one transaction; a second
-- call adds nothing.
create function public.queue_paypal_refund(p_subscription_id text, p_user_id uuid, p_reason text)
returns void language plpgsql security definer set search_path = '' as $$
begin
  insert into public.paypal_refunds (subscription_id, user_id, reason)
    values (p_subscription_id, p_user_id, left(p_reason, 500))
    on conflict (subscription_id) do nothing;
  perform public.enqueue_job('plan.paypal-refund',
    jsonb_build_object('subscription_id', p_subscription_id, 'reason', p_reason),
    'plan.paypal-refund:' || p_subscription_id, now() + interval '2 minutes', null, null, 100);
end;
$$;
revoke execute on function public.queue_paypal_refund(text, uuid, text) from public, anon, authenticated;

-- plan.paypal-orphan's decision to give back a subscription with no checkout and no plan, taken
-- under the owner's lock, which start_plan_checkout takes first (private.lock_plan): a checkout
-- the owner's check started meanwhile answers 'settling' (pending) or 'plan' (recorded, or a plan
-- row on the subscription) and nothing is queued; otherwise the refund is queued
-- (queue_paypal_refund, 'queued'), and from then on start_plan_checkout refuses a checkout of the
-- subscription: a check that comes while the job cancels it at PayPal records no plan that the
-- job then gives back. 'no account': the owner's profile is gone (its stop gives it back).
-- security definer: it locks the owner's profile and writes the refund row and its job, which the
-- service role's job does not own.
create function public.queue_orphan_refund(p_subscription_id text, p_user_id uuid, p_reason text)
returns text language plpgsql security definer set search_path = '' as $$
declare
  v_status text;
begin
  if not private.lock_plan(p_user_id) then
    return 'no account';
  end if;
  select status into v_status from private.payment_charges
    where kind = 'first' and method = 'paypal' and provider_ref = p_subscription_id;
  if v_status = 'pending' then
    return 'settling';
  end if;
  if v_status = 'recorded' or exists (select 1 from public.payments
                                        where method = 'paypal' and provider_payment_id = p_subscription_id) then
    return 'plan';
  end if;
  perform public.queue_paypal_refund(p_subscription_id, p_user_id, p_reason);
  return 'queued';
end;
$$;
revoke execute on function public.queue_orphan_refund(text, uuid, text) from public, anon, authenticated;

-- What the refund job found in the end. `failed` (PayPal refused the refund, or the job gives up)
-- also queues `plan.refund-alert`, the operator's mail, in the same transaction. p_reason: a refund
-- with no row of its own (a deleted account's, by its stop) gets one, with no owner.
create function public.finish_paypal_refund(p_subscription_id text, p_status text,
  p_error text default null, p_reason text default null)
returns void language plpgsql security definer set search_path = '' as $$
begin
  if p_reason is not null then
    insert into public.paypal_refunds (subscription_id, user_id, reason)
      values (p_subscription_id, null, left(p_reason, 500))
      on conflict (subscription_id) do nothing;
  end if;
  update public.paypal_refunds set status = p_status, error = left(p_error, 500)
    where subscription_id = p_subscription_id and status is distinct from p_status;
  if found and p_status = 'failed' then
    perform public.enqueue_job('plan.refund-alert',
      jsonb_build_object('subscription_id', p_subscription_id),
      'plan.refund-alert:' || p_subscription_id);
  end if;
end;
$$;
revoke execute on function public.finish_paypal_refund(text, text, text, text) from public, anon, authenticated;

-- Queues `plan.refund-alert`, the operator's mail of a payment a job could not give back, for what
-- has no paypal_refunds row of its own (a deleted account's card stop, a PayPal outstanding
-- balance): p_payload says what (the job's handler reads it); p_key: once per failure.
create function public.queue_refund_alert(p_payload jsonb, p_key text)
returns void language sql security definer set search_path = '' as $$
  select public.enqueue_job('plan.refund-alert', p_payload, 'plan.refund-alert:' || left(p_key, 300));
$$;
revoke execute on function public.queue_refund_alert(jsonb, text) from public, anon, authenticated;

-- Queues `plan.paypal-ended` for a PayPal plan our side ended (end_plan, the daily expiry) or a
-- payment PayPal took for a plan already ended (sync_paypal_plan): the subscription is cancelled at
-- PayPal if it still bills, and what PayPal took from p_since on is given back (it paid no period:
-- an ended row never comes back). One job per p_key (the end, or the payment's time), 100 attempts
-- with the queue's backoff; nothing for a card plan (delete_billing_key_later stops it). A payment's
-- job (p_billed: its amount) gives back that payment, found by amount and nearest time, as PayPal
-- may list it earlier than its last_payment.time (an e-check: when made, not when cleared).
create function private.stop_paypal_later(p_payment_id uuid, p_since timestamptz, p_key text,
                                          p_billed numeric default null)
returns void language plpgsql set search_path = '' as $$
begin
  perform public.enqueue_job('plan.paypal-ended',
    jsonb_build_object('subscription_id', provider_payment_id, 'payment_id', id, 'user_id', user_id,
                       'since', p_since)
      || case when p_billed is null then '{}'::jsonb else jsonb_build_object('billed', p_billed) end,
    'plan.paypal-ended:' || provider_payment_id || ':' || left(p_key, 100), null, null, null, 100)
    from public.payments
    where id = p_payment_id and method = 'paypal' and provider_payment_id is not null;
end;
$$;
revoke execute on function private.stop_paypal_later(uuid, timestamptz, text, numeric) from public;

-- The last PayPal payment applied to each PayPal plan (its time, as PayPal lists it): a payment
-- later than it is a new period's, one that is not (the cycle moved on unpaid: PayPal carries a
-- failed amount to the next cycle's outstanding balance while the subscription stays ACTIVE) never
-- moves the period. No client access.
create table private.paypal_payments (
  payment_id uuid primary key references public.payments (id) on delete cascade,
  paid_at timestamptz not null
);
comment on table private.paypal_payments is
  'When PayPal took the last payment applied to a PayPal plan (a later one pays a new period); no client access.';
alter table private.paypal_payments enable row level security;

-- What PayPal says about a subscription, applied to its plan. A payment later than the last one
-- applied (p_state.paid_at; without a record, after the row was written) pays a new period, to the
-- day before the next billing (a month when PayPal gives none: cancelled after that payment), the
-- owner's even if they stopped meanwhile (as a card renewal PortOne took before a Stop). The next
-- billing moving on without a payment adds nothing. ACTIVE at PayPal renews (auto_renew follows,
-- unless the owner stopped it), not active stops renewing; a failed renewal PayPal retries keeps
-- when it tries next (renewal_retry_at). What PayPal billed (p_state.billed, else the quantity)
-- decides the period's plan: the change asked (next_*) at that price, else the last change at it
-- (private.paypal_revisions), else the row's. A payment above the quantity but for the row's price
-- (auto_bill_outstanding: a cycle PayPal could not take billed with the next) pays the period at
-- the quantity; the rest paid no period and goes back (`plan.paypal-outstanding`), as does the
-- whole of a payment that moves no period (an outstanding balance collected on its own). A payment for a
-- row that ended (our side ended it: its subscription is being cancelled) revives nothing and goes
-- back (`plan.paypal-ended`). Idempotent.
create function public.sync_paypal_plan(p_subscription_id text, p_state jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_payment public.payments;
  v_status text := p_state ->> 'status';
  v_next date := (p_state ->> 'next_billing_date')::date;
  v_quantity numeric := (p_state ->> 'quantity')::numeric;
  v_billed numeric := coalesce((p_state ->> 'billed')::numeric, v_quantity);
  v_outstanding numeric := 0;
  v_retry timestamptz := (p_state ->> 'retry_at')::timestamptz;
  v_paid timestamptz := (p_state ->> 'paid_at')::timestamptz;
  v_renews boolean;
  v_new boolean;
  v_end date;
  v_content jsonb;
  v_price numeric;
  v_take_next boolean := false;
  v_unpaid boolean;
begin
  select * into v_payment from public.payments
    where method = 'paypal' and provider_payment_id = p_subscription_id
    order by created_at desc limit 1;
  if not found or not private.lock_plan(v_payment.user_id, v_payment.id) then
    return null;
  end if;
  select * into v_payment from public.payments where id = v_payment.id;
  if not found then
    return null;
  end if;
  v_renews := v_status = 'ACTIVE' and v_payment.stopped_at is null;
  v_new := v_paid > coalesce((select paid_at from private.paypal_payments where payment_id = v_payment.id),
                             v_payment.created_at);
  v_end := case when v_status = 'ACTIVE' and v_next is not null then v_next - 1
                else private.period_end(v_payment.end_date + 1) end;
  -- more than a cycle of our quantity-priced plan (the quantity moves only with a revision PayPal
  -- approved; the row's own price is what it billed before one approved since): a cycle PayPal
  -- could not take, billed with this one (auto_bill_outstanding), never a change not approved;
  -- that part pays no period and goes back (never a legacy plan's)
  if v_payment.type in ('basic', 'custom') and v_billed > v_quantity
     and v_billed <> v_payment.price then
    v_outstanding := v_billed - v_quantity;
    v_billed := v_quantity;
  end if;
  -- a payment later than the last one applied that moves no period (PayPal's next billing where it
  -- was, the period to it paid already by an earlier payment): an outstanding balance PayPal
  -- collected on its own (its capture of a subscription's outstanding balance), which paid no
  -- period; it goes back whole (`plan.paypal-outstanding`). Not a first payment captured after the
  -- checkout (none applied before: the checkout gave its period)
  v_unpaid := v_new and v_payment.is_active and v_end <= v_payment.end_date
              and exists (select 1 from private.paypal_payments where payment_id = v_payment.id);
  if v_new and not v_payment.is_active then
    -- a payment for a plan that ended on our side (its cancel reached PayPal after PayPal billed,
    -- or an e-check cleared after the end): no period, the row stays ended (beside a newer plan it
    -- could not be active anyway), and the payment goes back (private.stop_paypal_later)
    perform private.stop_paypal_later(v_payment.id, v_paid, v_paid::text, v_billed + v_outstanding);
  elsif v_new and v_end > v_payment.end_date then
    -- a new period, of the plan PayPal billed (the row is locked above, so v_payment holds what
    -- the update sees)
    if v_outstanding > 0 then
      perform public.enqueue_job('plan.paypal-outstanding',
        jsonb_build_object('subscription_id', p_subscription_id, 'paid_at', v_paid,
                           'billed', v_billed + v_outstanding, 'amount', v_outstanding),
        'plan.paypal-outstanding:' || p_subscription_id || ':' || v_paid, null, null, null, 100);
    end if;
    if v_payment.next_content is not null and v_payment.next_price = v_billed then
      v_content := v_payment.next_content;
      v_price := v_billed;
      v_take_next := true;
    else
      select r.content, r.price into v_content, v_price from private.paypal_revisions r
        where r.payment_id = v_payment.id and r.price = v_billed;
      if not found then
        -- the row's price, or one no change of ours asked for: the row's plan, never taken from it
        v_content := v_payment.content;
        v_price := v_payment.price;
      end if;
    end if;
    update public.payments
      set end_date = v_end, is_active = true, auto_renew = v_renews, renewal_failed_at = null,
          type = case when v_content is distinct from content
                      then (private.content_plan(v_content) ->> 'type')::public.payment_type
                      else type end,
          content = v_content, price = v_price,
          next_content = case when v_take_next then null else next_content end,
          next_price = case when v_take_next then null else next_price end
      where id = v_payment.id
      returning * into v_payment;
  elsif v_renews and v_payment.is_active and not v_payment.auto_renew then
    -- PayPal still bills it (a failed renewal it retries, a plan back after one): it renews
    update public.payments set auto_renew = true where id = v_payment.id returning * into v_payment;
  elsif v_status in ('CANCELLED', 'SUSPENDED', 'EXPIRED') and v_payment.auto_renew then
    update public.payments set auto_renew = false where id = v_payment.id returning * into v_payment;
  end if;
  if v_unpaid then
    perform public.enqueue_job('plan.paypal-outstanding',
      jsonb_build_object('subscription_id', p_subscription_id, 'paid_at', v_paid,
                         'billed', v_billed + v_outstanding, 'amount', v_billed + v_outstanding),
      'plan.paypal-outstanding:' || p_subscription_id || ':' || v_paid, null, null, null, 100);
  end if;
  if v_paid is not null then
    insert into private.paypal_payments (payment_id, paid_at) values (v_payment.id, v_paid)
      on conflict (payment_id) do update set paid_at = greatest(private.paypal_payments.paid_at, excluded.paid_at);
  end if;
  if coalesce((p_state ->> 'payment_failed')::boolean, false) then
    perform public.record_renewal_failed(v_payment.id, null, 'PayPal could not take the payment');
  end if;
  -- a failed renewal PayPal retries: when it tries next (p_state.retry_at, for the Plan page)
  update public.payments
    set renewal_retry_at = case when renewal_failed_at is not null and auto_renew then v_retry end
    where id = v_payment.id
      and renewal_retry_at is distinct from
          (case when renewal_failed_at is not null and auto_renew then v_retry end);
  select * into v_payment from public.payments where id = v_payment.id;
  perform private.apply_plan_limits(v_payment.user_id);
  return to_jsonb(v_payment);
end;
$$;
revoke execute on function public.sync_paypal_plan(text, jsonb) from public, anon, authenticated;

-- The plans of a PayPal subscription's revisions (a Change asks PayPal for quantity = price): PayPal
-- bills the quantity the owner approved last, which may be an earlier Change than the row's
-- next_content (approved, then changed again and not approved), so sync_paypal_plan finds the
-- plan of what PayPal billed here. One row a price (the last Change at that price).
create table private.paypal_revisions (
  payment_id uuid not null references public.payments (id) on delete cascade,
  price numeric(10, 2) not null check (price > 0),
  content jsonb not null check (jsonb_typeof(content) = 'object'),
  created_at timestamptz not null default now(),
  primary key (payment_id, price)
);
comment on table private.paypal_revisions is
  'The plan of each quantity (price) a PayPal plan was revised to, for the period PayPal bills it; no client access.';
alter table private.paypal_revisions enable row level security;

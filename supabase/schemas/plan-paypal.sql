-- PayPal plans after their checkout: what PayPal says of a subscription applied to its plan
-- (sync_paypal_plan: periods paid, failed cycles, revisions), and a subscription our side ended
-- cancelled and given back (stop_paypal_later). Card renewals, stops, changes and the daily expiry
-- are in plan-renewals.sql.

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

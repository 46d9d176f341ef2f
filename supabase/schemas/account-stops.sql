-- What deleting an account stops at the payment providers (docs/plans.md, "Deleting an
-- account"): the provider ids a deleted owner's billing keys and subscriptions leave behind, the
-- trigger on profiles that keeps them, and what the `plan.account-stop` job and the webhooks call.
-- The charges and plan rows it reads are plans.sql's; the job is in
-- supabase/functions/_shared/plan-jobs.ts.

-- What a deleted account still owes a stop at its providers (docs/plans.md, "Deleting an
-- account"): its charges and plan rows go with the profile, so the provider ids the
-- `plan.account-stop` job needs are kept here, one row a billing key or subscription. Card: the
-- key's schedules revoked, every charge id it may have paid (a checkout in flight, a renewal not
-- recorded) refunded if PortOne took it, the key deleted. PayPal: the subscription cancelled, and
-- what PayPal took for it given back (everything for a checkout that never became a plan; for a
-- plan, what it took after the deletion). No client access; no foreign key (the owner is gone).
create table private.account_stops (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  method public.payment_method not null,
  -- the PortOne billing key or the PayPal subscription id
  provider_ref text not null check (char_length(provider_ref) between 1 and 200),
  -- card: the payment ids PortOne may have charged for this account: our charge ids, and any
  -- other payment PortOne reports made with the billing key after the deletion (account_stop_again)
  charge_ids text[] not null default '{}',
  -- the ref paid for a recorded plan (its payments before deleted_at were the owner's)
  was_plan boolean not null default false,
  deleted_at timestamptz not null default now(),
  unique (method, provider_ref)
);
comment on table private.account_stops is
  'Provider ids of deleted accounts owed a stop (schedules, billing keys, subscriptions) and refunds of what was taken after; no client access.';
alter table private.account_stops enable row level security;
create index account_stops_charge_ids_idx on private.account_stops using gin (charge_ids);

-- Writes the stop of one billing key or subscription of a deleted account and queues its job (100
-- attempts with the queue's backoff, capped at an hour: about 90 hours of provider outage).
-- p_key names the job: a payment arriving later queues another run (account_stop_again).
create function private.queue_account_stop(p_user_id uuid, p_method public.payment_method,
  p_ref text, p_charge_ids text[], p_was_plan boolean, p_key text default 'deleted')
returns uuid language plpgsql set search_path = '' as $$
declare
  v_id uuid;
begin
  insert into private.account_stops (user_id, method, provider_ref, charge_ids, was_plan)
    values (p_user_id, p_method, p_ref, coalesce(p_charge_ids, '{}'), p_was_plan)
    on conflict (method, provider_ref) do update
      set charge_ids = coalesce((select array_agg(distinct c) from unnest(
                                   private.account_stops.charge_ids || excluded.charge_ids) c), '{}'),
          was_plan = private.account_stops.was_plan or excluded.was_plan
    returning id into v_id;
  perform public.enqueue_job('plan.account-stop', jsonb_build_object('stop_id', v_id),
                             'plan.account-stop:' || v_id || ':' || left(p_key, 200), null, null, null, 100);
  return v_id;
end;
$$;
revoke execute on function private.queue_account_stop(uuid, public.payment_method, text, text[], boolean, text) from public;

-- Deleting a profile (the account's deletion cascades here) writes the stops of every billing key
-- and subscription that may still charge: a checkout in flight, a plan still running (a legacy
-- PayPal one too, and a stopped one: its card key may be left after a late schedule, and a cancel or revoke of what
-- is gone already is a no-op), and every PayPal plan, ended or not (rev-money3 D1). A card plan's charge ids: its renewals not charged yet, and those a
-- Stop or Change revoked whose period has not ended (a schedule made late, or revoked by
-- plan.revoke-schedule only after the deletion, may still run). Runs before the cascade takes the
-- charges. PayPal refunds still owed stay (their owner set null), settled ones go.
create function private.profiles_before_delete_stop_payments()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_row record;
begin
  for v_row in
    select method, provider_ref, was_plan, ids from (
      select c.method, c.provider_ref, c.status = 'recorded' as was_plan, c.status, p.is_active,
             array_remove(array[case when c.status = 'pending' then c.id end,
                                 case when c.status = 'pending' then c.next_charge_id end]
                          || coalesce((select array_agg(r.id) from private.payment_charges r
                                       where r.payment_id = c.payment_id and r.kind = 'renewal'
                                         and (r.status in ('unscheduled', 'scheduled')
                                              or (r.status = 'revoked' and r.period_end >= current_date))),
                                      '{}'), null) as ids
      from private.payment_charges c
      left join public.payments p on p.id = c.payment_id
      where c.user_id = old.id and c.kind = 'first'
    ) k
    -- an ended plan too while a charge it revoked may still run
    -- (a PayPal plan however it ended: PayPal bills its subscription until it is cancelled, and a
    -- cancel of one cancelled already is a no-op)
    where k.status = 'pending'
       or (k.status = 'recorded' and (k.is_active or k.method = 'paypal' or cardinality(k.ids) > 0))
    union all
    -- a PayPal plan row without a checkout of ours (a legacy one) that PayPal may still bill,
    -- active or ended
    select p.method, p.provider_payment_id, true, '{}'::uuid[]
    from public.payments p
    where p.user_id = old.id and p.method = 'paypal' and p.provider_payment_id is not null
  loop
    perform private.queue_account_stop(old.id, v_row.method, v_row.provider_ref, v_row.ids::text[],
                                       v_row.was_plan);
  end loop;
  -- PayPal refunds settled go with the account; those still owed (queued, failed) stay, with no
  -- owner, for their job and the operator (public.paypal_refunds)
  delete from public.paypal_refunds where user_id = old.id and status in ('refunded', 'none');
  return old;
end;
$$;
create trigger profiles_before_delete_stop_payments before delete on public.profiles
  for each row execute function private.profiles_before_delete_stop_payments();

-- A stop for a subscription approved while its account was deleted (check-paypal-payment found
-- no profile): written only when the account is gone, so a live owner's subscription is never
-- stopped through it. Answers whether it was written.
create function public.stop_for_deleted_account(p_user_id uuid, p_method public.payment_method, p_ref text)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from public.profiles where id = p_user_id) then
    return false;
  end if;
  perform private.queue_account_stop(p_user_id, p_method, p_ref, '{}', false, 'checkout');
  return true;
end;
$$;
revoke execute on function public.stop_for_deleted_account(uuid, public.payment_method, text) from public, anon, authenticated;

-- A payment (a webhook, the reconcile job) for a charge id or a ref a deleted account owed a stop:
-- its job runs again (p_key: once per payment), which refunds it. A card payment found by its
-- billing key (PortOne's payment names it) whose id the stop does not hold yet (a schedule PortOne
-- ran after the deletion under an id the deleting transaction did not know) joins the stop's
-- payment ids, so the job refunds it too: never recorded, the account is gone. Answers the stop's
-- id, or null when it is no deleted account's.
create function public.account_stop_again(p_charge_id text, p_method public.payment_method,
  p_ref text, p_key text)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid;
begin
  select id into v_id from private.account_stops
    where (p_charge_id is not null and charge_ids @> array[p_charge_id])
       or (method = p_method and provider_ref = p_ref)
    order by (p_charge_id is not null and charge_ids @> array[p_charge_id]) desc
    limit 1;
  if v_id is not null then
    update private.account_stops set charge_ids = charge_ids || p_charge_id
      where id = v_id and method = 'iamport' and p_charge_id is not null
        and not charge_ids @> array[p_charge_id];
    perform public.enqueue_job('plan.account-stop', jsonb_build_object('stop_id', v_id),
                               'plan.account-stop:' || v_id || ':' || left(p_key, 200), null, null, null, 100);
  end if;
  return v_id;
end;
$$;
revoke execute on function public.account_stop_again(text, public.payment_method, text, text) from public, anon, authenticated;

-- A stop that gave up (its provider refused for good, or failed through the job's last attempt, or
-- a payment stayed pending 14 days): the operator is mailed by `plan.refund-alert`, the one mail
-- of a payment not given back. PayPal: the subscription's refund recorded `failed` with no owner
-- (finish_paypal_refund, which queues the alert); card: the alert queued for the stop (p_key: once
-- per failed job), with what PortOne answered.
create function public.account_stop_failed(p_id uuid, p_error text, p_reason text, p_key text)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_stop private.account_stops;
begin
  select * into v_stop from private.account_stops where id = p_id;
  if not found then
    return;
  end if;
  if v_stop.method = 'paypal' then
    perform public.finish_paypal_refund(v_stop.provider_ref, 'failed', p_error, p_reason);
  else
    perform public.queue_refund_alert(jsonb_build_object('stop_id', p_id, 'error', left(p_error, 500)),
                                      'stop:' || p_id || ':' || p_key);
  end if;
end;
$$;
revoke execute on function public.account_stop_failed(uuid, text, text, text) from public, anon, authenticated;

-- What the plan.account-stop job reads.
create function public.account_stop(p_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select to_jsonb(s) from private.account_stops s where s.id = p_id;
$$;
revoke execute on function public.account_stop(uuid) from public, anon, authenticated;

-- Outgoing webhooks (issue 18, "beyond the spec"; docs/webhooks.md): an owner adds an endpoint for
-- one block or for all their blocks and gets each new response, comment (or question, reply) and
-- unsubscribe as a signed POST (Standard Webhooks: webhook-id, webhook-timestamp,
-- webhook-signature). The event is written in the transaction that causes it (a delivery row and
-- a `webhook` job per endpoint), delivered by the jobs worker through the SSRF guard, retried on a
-- schedule, and kept as a delivery log the owner reads. Paid, like the integrations: endpoints are
-- saved with a paid plan, and nothing is sent for an owner without one.
--   public.webhook_endpoints     the owner's endpoints (the secret is not here)
--   private.webhook_secrets      the signing secrets (shown once by the functions that make them)
--   public.webhook_deliveries    every event sent or to send, with its last answer

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- null: every block of the owner
  block_id uuid references public.blocks (id) on delete cascade,
  url text not null check (char_length(url) <= 500 and url ~ '^https://'),
  events text[] not null check (cardinality(events) >= 1 and cardinality(events) <= 3
    and events <@ array['response.created', 'message.created', 'unsubscribe.created']),
  description text not null default '' check (char_length(description) <= 100),
  enabled boolean not null default true,
  -- the secret's first characters, so the owner can tell which secret they hold
  secret_hint text not null default '' check (char_length(secret_hint) <= 20),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.webhook_endpoints is
  'An owner''s webhook endpoints (one block, or every block when block_id is null). Written through save-webhook-endpoint; the owner may delete. The signing secret is in private.webhook_secrets.';
create index webhook_endpoints_user_id_idx on public.webhook_endpoints (user_id) where enabled;
create index webhook_endpoints_block_id_idx on public.webhook_endpoints (block_id);

create trigger webhook_endpoints_set_updated_at before update on public.webhook_endpoints
  for each row execute function private.set_updated_at();

alter table public.webhook_endpoints enable row level security;
create policy "Owners can read their webhook endpoints" on public.webhook_endpoints
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Owners can delete their webhook endpoints" on public.webhook_endpoints
  for delete to authenticated using (user_id = (select auth.uid()));
revoke all on public.webhook_endpoints from anon, authenticated;
grant select, delete on public.webhook_endpoints to authenticated;

create table private.webhook_secrets (
  endpoint_id uuid primary key references public.webhook_endpoints (id) on delete cascade,
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]{20,}={0,2}$'),
  -- after a rotation the old secret signs too for a day, so a receiver can switch over
  previous_secret text,
  previous_until timestamptz
);
comment on table private.webhook_secrets is
  'Signing secrets of webhook endpoints (Standard Webhooks whsec_...). Schema private: no client role can read them.';
alter table private.webhook_secrets enable row level security;

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  event_type text not null check (event_type in ('response.created', 'message.created',
                                                 'unsubscribe.created', 'webhook.test')),
  -- the body as sent: {type, timestamp, data}
  payload jsonb not null check (jsonb_typeof(payload) = 'object'),
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  response_status integer,
  last_error text check (char_length(last_error) <= 500),
  created_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  delivered_at timestamptz
);
comment on table public.webhook_deliveries is
  'Each event for a webhook endpoint: its body, and the last attempt''s answer (the delivery log). Its id is the webhook-id the receiver deduplicates by. Written by the triggers and the jobs worker.';
create index webhook_deliveries_endpoint_id_idx on public.webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_user_id_idx on public.webhook_deliveries (user_id);

alter table public.webhook_deliveries enable row level security;
create policy "Owners can read their webhook deliveries" on public.webhook_deliveries
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;

-- ---------------------------------------------------------------------------------------------
-- events: a delivery and a job per endpoint, in the transaction of the write
-- ---------------------------------------------------------------------------------------------

-- One delivery (and one `webhook` job) for each enabled endpoint of the owner that wants this
-- event for this block. An owner without endpoints costs one index probe.
create function private.enqueue_webhooks(p_owner uuid, p_block_id uuid, p_type text, p_data jsonb)
returns void language plpgsql security definer set search_path = '' as $$
declare
  v_endpoint public.webhook_endpoints;
  v_delivery uuid;
begin
  for v_endpoint in
    select * from public.webhook_endpoints e
    where e.user_id = p_owner and e.enabled and p_type = any(e.events)
      and (e.block_id is null or e.block_id = p_block_id)
  loop
    insert into public.webhook_deliveries (endpoint_id, user_id, event_type, payload)
      values (v_endpoint.id, p_owner, p_type,
              jsonb_build_object('type', p_type,
                                 'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                 'data', p_data))
      returning id into v_delivery;
    perform public.enqueue_job('webhook', jsonb_build_object('delivery_id', v_delivery),
                               'webhook:' || v_delivery, null, null, null, 8);
  end loop;
end;
$$;

create function private.block_webhook_json(p_block public.blocks)
returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object('id', p_block.id, 'name', p_block.name, 'type', p_block.type);
$$;

-- A response (once counted: on insert, or when the owner approves a held one) or a message of a
-- block whose owner has an enabled endpoint: response.created or message.created, with the block.
create function private.enqueue_created_webhooks()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_event text;
  v_row jsonb;
begin
  select * into v_block from public.blocks where id = new.block_id;
  if not exists (select 1 from public.webhook_endpoints where user_id = v_block.owner_id and enabled) then
    return null;
  end if;
  if tg_table_name = 'responses' then
    v_event := 'response';
    v_row := jsonb_build_object(
      'id', new.id, 'kind', new.kind, 'creator_id', new.creator_id, 'creator_name', new.creator_name,
      'page_key', new.page_key, 'created_at', new.created_at,
      'answers', coalesce((
        select jsonb_agg(jsonb_build_object('question_id', a.key, 'title', a.value ->> 'title',
                                            'type', a.value ->> 'type', 'value', a.value -> 'value')
                         order by (a.value ->> 'index')::integer, a.key)
        from jsonb_each(new.answers) a), '[]'::jsonb));
  else
    v_event := 'message';
    v_row := jsonb_build_object(
      'id', new.id, 'parent_id', new.parent_id, 'content', new.content, 'creator_id', new.creator_id,
      'creator_name', new.creator_name, 'status', new.status, 'page_key', new.page_key,
      'is_owner', new.creator_id = v_block.owner_id, 'created_at', new.created_at);
  end if;
  perform private.enqueue_webhooks(v_block.owner_id, v_block.id, v_event || '.created',
    jsonb_build_object('block', private.block_webhook_json(v_block), v_event, v_row));
  return null;
end;
$$;

create function private.unsubscribes_enqueue_webhooks()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
begin
  if not exists (select 1 from public.webhook_endpoints where user_id = new.user_id and enabled) then
    return null;
  end if;
  select * into v_block from public.blocks where id = new.block_id;
  perform private.enqueue_webhooks(new.user_id, new.block_id, 'unsubscribe.created', jsonb_build_object(
    'block', case when v_block.id is null then null else private.block_webhook_json(v_block) end,
    'unsubscribe', jsonb_build_object('email', new.email, 'created_at', new.created_at)));
  return null;
end;
$$;

-- a response held by escalation (issue 17) goes out when the owner approves it
create trigger responses_enqueue_webhooks after insert on public.responses
  for each row when (not new.held) execute function private.enqueue_created_webhooks();
create trigger responses_approved_enqueue_webhooks after update of held on public.responses
  for each row when (old.held and not new.held) execute function private.enqueue_created_webhooks();
create trigger messages_enqueue_webhooks after insert on public.messages
  for each row execute function private.enqueue_created_webhooks();
create trigger unsubscribes_enqueue_webhooks after insert on public.unsubscribes
  for each row execute function private.unsubscribes_enqueue_webhooks();

revoke all on function private.enqueue_webhooks(uuid, uuid, text, jsonb) from public;
revoke all on function private.block_webhook_json(public.blocks) from public;

-- ---------------------------------------------------------------------------------------------
-- service-role functions (the webhook functions and the jobs worker)
-- ---------------------------------------------------------------------------------------------

-- Creates or changes an endpoint of the owner (checked by the function with the dashboard's zod
-- schema first). A new endpoint gets p_secret; a change keeps its secret. At most 10 per owner.
-- Errors: block doesn't exists (PT404), Webhook endpoint doesn't exists (PT404), Too many
-- webhook endpoints (P0001).
create function public.save_webhook_endpoint(p_user_id uuid, p_endpoint jsonb, p_secret text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid := (p_endpoint ->> 'id')::uuid;
  v_block uuid := (p_endpoint ->> 'block_id')::uuid;
  v_row public.webhook_endpoints;
begin
  if v_block is not null and not exists (
    select 1 from public.blocks where id = v_block and owner_id = p_user_id) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_id is null then
    perform 1 from public.profiles where id = p_user_id for update;
    if (select count(*) from public.webhook_endpoints where user_id = p_user_id) >= 10 then
      raise exception 'Too many webhook endpoints' using errcode = 'P0001';
    end if;
    insert into public.webhook_endpoints (user_id, block_id, url, events, description, enabled, secret_hint)
      values (p_user_id, v_block, p_endpoint ->> 'url',
              array(select jsonb_array_elements_text(p_endpoint -> 'events')),
              coalesce(p_endpoint ->> 'description', ''), coalesce((p_endpoint ->> 'enabled')::boolean, true),
              left(p_secret, 12))
      returning * into v_row;
    insert into private.webhook_secrets (endpoint_id, secret) values (v_row.id, p_secret);
  else
    update public.webhook_endpoints
      set block_id = v_block, url = p_endpoint ->> 'url',
          events = array(select jsonb_array_elements_text(p_endpoint -> 'events')),
          description = coalesce(p_endpoint ->> 'description', ''),
          enabled = coalesce((p_endpoint ->> 'enabled')::boolean, true)
      where id = v_id and user_id = p_user_id
      returning * into v_row;
    if not found then
      raise exception 'Webhook endpoint doesn''t exists' using errcode = 'PT404';
    end if;
  end if;
  return to_jsonb(v_row);
end;
$$;

-- A new secret for an endpoint of the owner; the old one keeps signing beside it for a day.
create function public.rotate_webhook_secret(p_user_id uuid, p_endpoint_id uuid, p_secret text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_row public.webhook_endpoints;
begin
  update public.webhook_endpoints set secret_hint = left(p_secret, 12)
    where id = p_endpoint_id and user_id = p_user_id
    returning * into v_row;
  if not found then
    raise exception 'Webhook endpoint doesn''t exists' using errcode = 'PT404';
  end if;
  update private.webhook_secrets
    set previous_secret = secret, previous_until = now() + interval '1 day', secret = p_secret
    where endpoint_id = p_endpoint_id;
  return to_jsonb(v_row);
end;
$$;

-- A test event for an endpoint of the owner: a delivery the function sends at once.
create function public.create_test_webhook(p_user_id uuid, p_endpoint_id uuid)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_endpoint public.webhook_endpoints;
  v_delivery uuid;
begin
  select * into v_endpoint from public.webhook_endpoints where id = p_endpoint_id and user_id = p_user_id;
  if not found then
    raise exception 'Webhook endpoint doesn''t exists' using errcode = 'PT404';
  end if;
  insert into public.webhook_deliveries (endpoint_id, user_id, event_type, payload)
    values (p_endpoint_id, p_user_id, 'webhook.test',
            jsonb_build_object('type', 'webhook.test',
                               'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'data', jsonb_build_object('endpoint_id', p_endpoint_id,
                                                          'message', 'A test event from Reaction Blocks')))
    returning id into v_delivery;
  return v_delivery;
end;
$$;

-- What a delivery needs: its body, the endpoint's URL and secrets, and whether it should still go
-- (endpoint enabled, owner paid). Answers [{delivery_id, event_type, payload, attempts, url,
-- secrets, skip}] for the given deliveries.
create function public.webhook_delivery_context(p_delivery_ids uuid[])
returns jsonb language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
    'delivery_id', d.id, 'event_type', d.event_type, 'payload', d.payload, 'attempts', d.attempts,
    'url', e.url,
    'secrets', array_remove(array[s.secret,
                                  case when s.previous_until > now() then s.previous_secret end], null),
    'skip', case when e.id is null then 'the endpoint was deleted'
                 when not e.enabled and d.event_type <> 'webhook.test' then 'the endpoint is turned off'
                 when not coalesce(p.paid, false) then 'no paid plan'
                 when d.status = 'delivered' then 'already delivered' end)), '[]'::jsonb)
  from public.webhook_deliveries d
    left join public.webhook_endpoints e on e.id = d.endpoint_id
    left join private.webhook_secrets s on s.endpoint_id = e.id
    left join public.profiles p on p.id = d.user_id
  where d.id = any(p_delivery_ids);
$$;

-- The outcome of attempts: [{delivery_id, ok, status, error, final}] (final: no retry follows).
create function public.record_webhook_attempts(p_results jsonb)
returns void language sql security definer set search_path = '' as $$
  update public.webhook_deliveries d
    set attempts = d.attempts + 1, last_attempt_at = now(),
        response_status = (r ->> 'status')::integer,
        last_error = left(r ->> 'error', 500),
        status = case when (r ->> 'ok')::boolean then 'delivered'
                      when (r ->> 'final')::boolean then 'failed' else 'pending' end,
        delivered_at = case when (r ->> 'ok')::boolean then now() else d.delivered_at end
  from jsonb_array_elements(coalesce(p_results, '[]'::jsonb)) r
  where d.id = (r ->> 'delivery_id')::uuid;
$$;

revoke all on function public.save_webhook_endpoint(uuid, jsonb, text) from public, anon, authenticated;
revoke all on function public.rotate_webhook_secret(uuid, uuid, text) from public, anon, authenticated;
revoke all on function public.create_test_webhook(uuid, uuid) from public, anon, authenticated;
revoke all on function public.webhook_delivery_context(uuid[]) from public, anon, authenticated;
revoke all on function public.record_webhook_attempts(jsonb) from public, anon, authenticated;
grant execute on function public.save_webhook_endpoint(uuid, jsonb, text) to service_role;
grant execute on function public.rotate_webhook_secret(uuid, uuid, text) to service_role;
grant execute on function public.create_test_webhook(uuid, uuid) to service_role;
grant execute on function public.webhook_delivery_context(uuid[]) to service_role;
grant execute on function public.record_webhook_attempts(jsonb) to service_role;

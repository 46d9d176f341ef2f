-- Mail: a record of every mail the platform hands to the provider, provider events (SES through
-- SNS) applied to it, suppressions and opt-outs, sender reputation, and the notification mails
-- of blocks (mailTo for the owner, allowCreatorEmail for a commenter who gets replies).
--
-- Notifications are jobs (see 20261123110000_jobs_queue.sql) enqueued by triggers in the
-- visitor's transaction: one job per new message or response, grouped per block (owner) or per
-- thread (commenter), so the worker sends the first at once and folds a burst into one digest
-- per window (setting jobs.group_window_seconds, default 60).

-- ---------------------------------------------------------------------------------------------
-- outbound mails and provider events
-- ---------------------------------------------------------------------------------------------

create table private.outbound_mails (
  id uuid primary key default gen_random_uuid(),
  job_id bigint,
  kind text not null check (char_length(kind) <= 64),
  -- the owner the mail concerns (notifications: the block owner; letters: the sender)
  user_id uuid references public.profiles (id) on delete set null,
  -- set when the From address is the user's own verified identity: counts in their reputation
  sender_user_id uuid references public.profiles (id) on delete set null,
  block_id uuid references public.blocks (id) on delete set null,
  delivery_id uuid references public.deliveries (id) on delete set null,
  to_email text not null check (char_length(to_email) <= 320),
  from_email text not null check (char_length(from_email) <= 320),
  subject text not null default '' check (char_length(subject) <= 500),
  provider_message_id text unique check (char_length(provider_message_id) <= 300),
  -- sent: the provider accepted it; unknown: the worker lost track after calling the provider
  status text not null default 'sent'
    check (status in ('sent', 'unknown', 'delivered', 'bounced', 'complaint', 'rejected')),
  opened boolean not null default false,
  bounce_type text check (char_length(bounce_type) <= 60),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table private.outbound_mails is
  'Every mail handed to the mail provider, with the state its events reported (delivered, opened, bounced, complaint, rejected).';

create index outbound_mails_sender_created_idx on private.outbound_mails (sender_user_id, created_at desc)
  where sender_user_id is not null;
create index outbound_mails_created_idx on private.outbound_mails (created_at);

alter table private.outbound_mails enable row level security;
revoke all on private.outbound_mails from public, anon, authenticated;

-- SNS message ids already applied (SNS delivers at least once).
create table private.provider_events (
  id text primary key check (char_length(id) <= 200),
  received_at timestamptz not null default now()
);
comment on table private.provider_events is 'Ids of provider events (SNS MessageId) already applied, so a duplicate delivery changes nothing.';
alter table private.provider_events enable row level security;
revoke all on private.provider_events from public, anon, authenticated;

-- Addresses nothing is sent to any more: hard bounces and complaints (as SES's suppression list).
-- Addresses are stored lower-cased and compared that way.
create table private.mail_suppressions (
  email text primary key check (char_length(email) <= 320 and email = lower(email)),
  reason text not null check (reason in ('bounce', 'complaint')),
  created_at timestamptz not null default now()
);
comment on table private.mail_suppressions is 'Addresses that hard-bounced or complained: every later mail to them is skipped.';
alter table private.mail_suppressions enable row level security;
revoke all on private.mail_suppressions from public, anon, authenticated;

-- One-click unsubscribes from notification mails, per block: scope owner (mailTo) or reply
-- (replies to the commenter's message). Letters use public.unsubscribes.
create table private.mail_optouts (
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  scope text not null check (scope in ('owner', 'reply')),
  block_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (email, scope, block_id)
);
comment on table private.mail_optouts is 'Notification unsubscribes (signed one-click links): no more mails of that scope about that block to that address.';
alter table private.mail_optouts enable row level security;
revoke all on private.mail_optouts from public, anon, authenticated;

-- Called by public.finish_jobs (20261123110000) for an outcome that carries a `mail`:
--   {to, from, subject, kind, provider_message_id?, user_id?, sender_user_id?, block_id?, delivery_id?}
create function private.record_outbound_mail(p_job_id bigint, p_mail jsonb, p_status text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into private.outbound_mails (job_id, kind, user_id, sender_user_id, block_id, delivery_id,
                                      to_email, from_email, subject, provider_message_id, status)
  values (p_job_id, coalesce(p_mail ->> 'kind', 'mail'),
          (p_mail ->> 'user_id')::uuid, (p_mail ->> 'sender_user_id')::uuid,
          (select id from public.blocks where id = (p_mail ->> 'block_id')::uuid),
          (select id from public.deliveries where id = (p_mail ->> 'delivery_id')::uuid),
          left(p_mail ->> 'to', 320), left(p_mail ->> 'from', 320), left(coalesce(p_mail ->> 'subject', ''), 500),
          p_mail ->> 'provider_message_id', p_status)
  on conflict (provider_message_id) do nothing;
  if p_mail ? 'delivery_id' then
    update public.deliveries
      set status = case when p_status = 'sent' then 'sent'::public.delivery_status else status end,
          provider_message_id = coalesce(p_mail ->> 'provider_message_id', provider_message_id)
      where id = (p_mail ->> 'delivery_id')::uuid and status = 'reserved';
  end if;
end;
$$;

-- Order of delivery states: a late Delivery never overwrites a Bounce or Complaint.
create function private.mail_state_rank(p_status text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case p_status when 'sent' then 1 when 'unknown' then 1 when 'delivered' then 2
                       when 'rejected' then 3 when 'bounced' then 3 when 'complaint' then 4 else 0 end;
$$;

-- Applies one provider event, once per event id. p_event:
--   {event_id, type: send|delivery|open|bounce|complaint|reject, message_id, bounce_type?, recipients?}
-- Answers {applied: bool, reason?}. A letter delivery row and its send's counts follow, and the
-- audience member's counts; hard bounces and complaints suppress the address.
create function public.record_mail_event(p_event jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_type text := lower(p_event ->> 'type');
  v_mail private.outbound_mails;
  v_new text;
  v_delivery public.deliveries;
  v_column text;
  v_recipient text;
begin
  if coalesce(p_event ->> 'event_id', '') = '' or coalesce(p_event ->> 'message_id', '') = '' then
    raise exception 'event_id and message_id are required' using errcode = 'P0001';
  end if;
  insert into private.provider_events (id) values (p_event ->> 'event_id') on conflict do nothing;
  if not found then
    return jsonb_build_object('applied', false, 'reason', 'duplicate');
  end if;
  select * into v_mail from private.outbound_mails where provider_message_id = p_event ->> 'message_id' for update;
  if not found then
    return jsonb_build_object('applied', false, 'reason', 'unknown message');
  end if;

  v_new := case v_type when 'delivery' then 'delivered' when 'bounce' then 'bounced'
                       when 'complaint' then 'complaint' when 'reject' then 'rejected' end;
  if v_type = 'open' then
    update private.outbound_mails set opened = true, updated_at = now() where id = v_mail.id;
  elsif v_new is not null and private.mail_state_rank(v_new) > private.mail_state_rank(v_mail.status) then
    update private.outbound_mails set status = v_new, updated_at = now(),
      bounce_type = case when v_type = 'bounce' then left(p_event ->> 'bounce_type', 60) else bounce_type end
      where id = v_mail.id;
  elsif v_type not in ('send', 'delivery', 'bounce', 'complaint', 'reject', 'open') then
    return jsonb_build_object('applied', false, 'reason', 'ignored type');
  end if;

  -- permanent failures: never mail this address again (transient bounces are not suppressed)
  if v_type = 'complaint' or (v_type = 'bounce' and coalesce(p_event ->> 'bounce_type', 'Permanent') = 'Permanent') then
    for v_recipient in
      select value from jsonb_array_elements_text(coalesce(p_event -> 'recipients', jsonb_build_array(v_mail.to_email)))
    loop
      insert into private.mail_suppressions (email, reason)
        values (lower(v_recipient), case when v_type = 'complaint' then 'complaint' else 'bounce' end)
        on conflict (email) do nothing;
    end loop;
  end if;

  -- letters: the delivery row, the send's counts and the member's counts
  if v_mail.delivery_id is not null then
    select * into v_delivery from public.deliveries where id = v_mail.delivery_id for update;
    if found then
      v_column := case v_type when 'delivery' then 'delivered' when 'open' then 'opened'
                              when 'bounce' then 'bounced' when 'complaint' then 'complaint'
                              when 'reject' then 'rejected' end;
      if v_column is not null then
        if v_type <> 'open' and private.mail_state_rank(v_new) > private.mail_state_rank(v_delivery.status::text) then
          update public.deliveries set status = v_new::public.delivery_status where id = v_delivery.id;
        elsif v_type = 'open' and v_delivery.status in ('sent', 'delivered') then
          update public.deliveries set status = 'opened' where id = v_delivery.id;
        end if;
        -- each event type counts once per delivery (opens: the first only)
        if v_type <> 'open' or not v_mail.opened then
          execute format('update public.publishes set %I = %I + 1 where id = $1',
                         v_column || '_count', v_column || '_count') using v_delivery.publish_id;
          if v_delivery.audience_member_id is not null then
            execute format('update public.audience_members set %I = %I + 1 where id = $1',
                           v_column || '_count', v_column || '_count') using v_delivery.audience_member_id;
          end if;
        end if;
      end if;
    end if;
  end if;
  return jsonb_build_object('applied', true);
end;
$$;

-- A sender whose letters bounce or draw complaints too often stops sending, as SES would put the
-- account on probation and suspend it (SES reviews above 5% bounces / 0.1% complaints; we stop
-- at mail.suspend_bounce_rate 0.05 and mail.suspend_complaint_rate 0.001 over the last 14 days,
-- once mail.suspend_min_volume (50) mails were sent).
create function public.mail_sender_status(p_user_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with recent as (
    select count(*) as sent,
           count(*) filter (where status = 'bounced') as bounced,
           count(*) filter (where status = 'complaint') as complained
    from private.outbound_mails
    where sender_user_id = p_user_id and created_at > now() - interval '14 days'
  )
  select jsonb_build_object(
    'sent', sent, 'bounced', bounced, 'complained', complained,
    'suspended', sent >= (private.setting('mail.suspend_min_volume', '50'::jsonb))::text::integer
      and (bounced::double precision / sent > (private.setting('mail.suspend_bounce_rate', '0.05'::jsonb))::text::double precision
           or complained::double precision / sent > (private.setting('mail.suspend_complaint_rate', '0.001'::jsonb))::text::double precision))
  from recent;
$$;

-- Records a one-click unsubscribe from notification mails (the unsubscribe function checks the
-- signed token first).
create function public.record_mail_optout(p_email text, p_scope text, p_block_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.mail_optouts (email, scope, block_id) values (lower(p_email), p_scope, p_block_id)
    on conflict do nothing;
$$;

-- ---------------------------------------------------------------------------------------------
-- notification jobs
-- ---------------------------------------------------------------------------------------------

-- A new message: the owner's digest (mailTo set, not the owner's own message), and for a reply
-- the commenter's digest (they left an email, the block still allows it, not their own reply).
create function private.messages_enqueue_notifications()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_mail_to text;
  v_allow_email boolean;
  v_parent_creator uuid;
begin
  select b.owner_id, bp.mail_to, b.allow_creator_email into v_owner, v_mail_to, v_allow_email
    from public.blocks b left join public.block_private bp on bp.block_id = b.id
    where b.id = new.block_id;
  if v_mail_to is not null and new.creator_id is distinct from v_owner then
    perform private.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'message_id', new.id),
      'notify.owner:message:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  if new.parent_id is not null and v_allow_email then
    select m.creator_id into v_parent_creator
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = new.parent_id;
    if found and v_parent_creator is distinct from new.creator_id then
      perform private.enqueue_job('notify.reply',
        jsonb_build_object('block_id', new.block_id, 'parent_id', new.parent_id, 'message_id', new.id),
        'notify.reply:' || new.id, null, 'notify.reply:' || new.parent_id, 'mail');
    end if;
  end if;
  return null;
end;
$$;

create trigger messages_enqueue_notifications after insert on public.messages
  for each row execute function private.messages_enqueue_notifications();

-- A new response (form, ab vote, like, button click): the owner's digest when mailTo is set.
create function private.responses_enqueue_notifications()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.block_private bp join public.blocks b on b.id = bp.block_id
             where bp.block_id = new.block_id and bp.mail_to is not null
               and b.owner_id is distinct from new.creator_id) then
    perform private.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'response_id', new.id),
      'notify.owner:response:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  return null;
end;
$$;

create trigger responses_enqueue_notifications after insert on public.responses
  for each row execute function private.responses_enqueue_notifications();

-- What a notification mail needs, for the payloads of one (merged) job: the recipient, the
-- language, the block and the items, newest last (at most 50 with the total). Answers
-- {skip: reason} when nothing is to be sent: the setting was turned off, the address opted out
-- or is suppressed, the items are gone.
create function public.notification_context(p_kind text, p_payloads jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_block_id uuid := (p_payloads -> 0 ->> 'block_id')::uuid;
  v_block public.blocks;
  v_to text;
  v_language text;
  v_scope text;
  v_message_ids uuid[];
  v_response_ids uuid[];
  v_items jsonb;
  v_total integer;
  v_parent jsonb;
  v_owner_name text;
begin
  select * into v_block from public.blocks where id = v_block_id;
  if not found then
    return jsonb_build_object('skip', 'the block was deleted');
  end if;
  select array_agg(distinct (p ->> 'message_id')::uuid) filter (where p ? 'message_id'),
         array_agg(distinct (p ->> 'response_id')::uuid) filter (where p ? 'response_id')
    into v_message_ids, v_response_ids
    from jsonb_array_elements(p_payloads) p;
  select coalesce(nullif(name, ''), 'Owner'), language::text into v_owner_name, v_language
    from public.profiles where id = v_block.owner_id;

  if p_kind = 'notify.owner' then
    v_scope := 'owner';
    select mail_to into v_to from public.block_private where block_id = v_block_id;
    if v_to is null then
      return jsonb_build_object('skip', 'notifications were turned off');
    end if;
  elsif p_kind = 'notify.reply' then
    v_scope := 'reply';
    if not v_block.allow_creator_email then
      return jsonb_build_object('skip', 'the block no longer asks for emails');
    end if;
    select mp.creator_email, jsonb_build_object('id', m.id, 'content', m.content, 'creator_name', m.creator_name,
                                                'created_at', m.created_at)
      into v_to, v_parent
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = (p_payloads -> 0 ->> 'parent_id')::uuid;
    if v_to is null then
      return jsonb_build_object('skip', 'the message or its email is gone');
    end if;
    v_language := v_block.language::text;
  else
    raise exception 'not a notification kind: %', p_kind using errcode = 'P0001';
  end if;

  if exists (select 1 from private.mail_optouts where email = lower(v_to) and scope = v_scope and block_id = v_block_id) then
    return jsonb_build_object('skip', 'the address unsubscribed');
  end if;
  if exists (select 1 from private.mail_suppressions where email = lower(v_to)) then
    return jsonb_build_object('skip', 'the address is suppressed (bounce or complaint)');
  end if;

  with items as (
    select 'message' as item, m.id, m.created_at,
           jsonb_build_object('item', 'message', 'id', m.id, 'content', m.content,
             'creator_name', m.creator_name, 'is_reply', m.parent_id is not null,
             'is_owner', m.creator_id = v_block.owner_id, 'created_at', m.created_at) as json
    from public.messages m where m.id = any(coalesce(v_message_ids, '{}')) and m.block_id = v_block_id
    union all
    select 'response', r.id, r.created_at,
           jsonb_build_object('item', 'response', 'id', r.id, 'kind', r.kind,
             'creator_name', r.creator_name, 'created_at', r.created_at,
             'answers', coalesce((
               select jsonb_agg(jsonb_build_object('title', a.value ->> 'title', 'value', a.value -> 'value')
                                order by (a.value ->> 'index')::integer nulls last)
               from jsonb_each(r.answers) a), '[]'::jsonb))
    from public.responses r where r.id = any(coalesce(v_response_ids, '{}')) and r.block_id = v_block_id
  )
  select coalesce(jsonb_agg(json order by created_at, id) filter (where rn <= 50), '[]'::jsonb), count(*)::integer
    into v_items, v_total
    from (select *, row_number() over (order by created_at desc, id desc) as rn from items) x;
  if v_total = 0 then
    return jsonb_build_object('skip', 'the messages or responses were deleted');
  end if;

  return jsonb_build_object(
    'to', v_to, 'scope', v_scope, 'language', coalesce(v_language, 'en'),
    'owner_id', v_block.owner_id, 'owner_name', v_owner_name,
    'block', jsonb_build_object('id', v_block.id, 'name', v_block.name, 'type', v_block.type,
                                'owner_id', v_block.owner_id, 'embeded_url', v_block.embeded_url),
    'parent', v_parent, 'items', v_items, 'total', v_total);
end;
$$;

-- Whether any of these addresses is suppressed (for mails outside notifications).
create function public.mail_suppressed(p_emails text[])
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(email), '{}') from private.mail_suppressions
    where email = any(array(select lower(e) from unnest(p_emails) e));
$$;

revoke all on function public.record_mail_event(jsonb) from public, anon, authenticated;
revoke all on function public.mail_sender_status(uuid) from public, anon, authenticated;
revoke all on function public.record_mail_optout(text, text, uuid) from public, anon, authenticated;
revoke all on function public.notification_context(text, jsonb) from public, anon, authenticated;
revoke all on function public.mail_suppressed(text[]) from public, anon, authenticated;
grant execute on function public.record_mail_event(jsonb) to service_role;
grant execute on function public.mail_sender_status(uuid) to service_role;
grant execute on function public.record_mail_optout(text, text, uuid) to service_role;
grant execute on function public.notification_context(text, jsonb) to service_role;
grant execute on function public.mail_suppressed(text[]) to service_role;

-- ---------------------------------------------------------------------------------------------
-- sender emails: the DMARC policy of the address's domain decides whether we may send as it
-- ---------------------------------------------------------------------------------------------

alter table public.sender_emails
  add column dmarc_policy text check (dmarc_policy in ('none', 'quarantine', 'reject')),
  add column checked_at timestamptz;
comment on column public.sender_emails.dmarc_policy is
  'The _dmarc policy of the address''s domain when last checked; quarantine or reject means letters go from the platform address with Reply-To this one.';

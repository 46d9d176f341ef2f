-- The mail log: a record of every mail the platform hands to the provider, the provider's
-- events (SES through SNS) applied to it (and those that came before it), suppressions, and the
-- sender's reputation.

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
alter table private.outbound_mails enable row level security;
create index outbound_mails_sender_created_idx on private.outbound_mails (sender_user_id, created_at desc)
  where sender_user_id is not null;
create index outbound_mails_created_idx on private.outbound_mails (created_at);
-- private.adopt_job_mail: a mail recorded without SES's message id (its answer was lost), found
-- by its job when an event tagged with the job comes
create index outbound_mails_unnamed_job_idx on private.outbound_mails (job_id)
  where provider_message_id is null;
-- private.optout_owner: an owner's notification mails to an address (the unsubscribe link of a
-- deleted block's digest)
create index outbound_mails_notification_idx on private.outbound_mails (user_id, lower(to_email))
  where kind = 'notify.owner';

-- SNS message ids already applied (SNS delivers at least once).
create table private.provider_events (
  id text primary key check (char_length(id) <= 200),
  received_at timestamptz not null default now()
);
comment on table private.provider_events is 'Ids of provider events (SNS MessageId) already applied, so a duplicate delivery changes nothing.';
alter table private.provider_events enable row level security;

-- A provider's events that came before their mail was recorded: SES publishes a mail's events as
-- soon as it takes the mail, and the worker records a batch's mails after its last send
-- (finish_jobs). record_mail_event keeps such an event here (its SNS id is in provider_events
-- already, so SNS's retry stays a duplicate) and private.record_outbound_mail applies it when the
-- mail comes, in the order they came. A mail never recorded (its worker stopped after the send:
-- the job is `unknown`) leaves its events here for a day (private.purge_jobs).
create table private.early_mail_events (
  event_id text primary key check (char_length(event_id) <= 200),
  message_id text not null check (char_length(message_id) <= 300),
  event jsonb not null,
  received_at timestamptz not null default now()
);
comment on table private.early_mail_events is
  'Provider events (SES through SNS) for a mail not recorded yet, kept by record_mail_event and applied by the mail''s record (finish_jobs); purged after a day.';
alter table private.early_mail_events enable row level security;
revoke all on private.early_mail_events from public, anon, authenticated;
create index early_mail_events_message_id_idx on private.early_mail_events (message_id);
create index early_mail_events_received_at_idx on private.early_mail_events (received_at);

-- The lock that orders a mail's record and its provider's events, one per SES message id:
-- finish_jobs takes those of its whole batch before anything else, record_mail_event its event's
-- first, so an event either finds its mail recorded or is kept where the record finds it (without
-- it both could look before the other committed, and the event be kept for good). In one order
-- (the keys sorted), before every other lock either takes.
create function private.lock_mail_messages(p_message_ids text[])
returns void language plpgsql set search_path = '' as $$
declare
  v_key bigint;
begin
  for v_key in
    select distinct hashtextextended('mail_message:' || m, 0) from unnest(p_message_ids) m
    where m is not null order by 1
  loop
    perform pg_advisory_xact_lock(v_key);
  end loop;
end;
$$;
revoke execute on function private.lock_mail_messages(text[]) from public;

-- Addresses nothing is sent to any more: hard bounces and complaints (as SES's suppression list),
-- and "Not me" answers to confirmation mails. Addresses are stored lower-cased; the checks of the
-- confirmation and notification mails go through private.mailbox_suppressed.
create table private.mail_suppressions (
  email text primary key check (char_length(email) <= 320 and email = lower(email)),
  reason text not null check (reason in ('bounce', 'complaint', 'not_me')),
  created_at timestamptz not null default now(),
  -- private.mailbox_key(email): a complaint's or a "Not me"'s reach
  mailbox text generated always as (private.mailbox_key(email)) stored,
  -- not_me: every "Not me" of the mailbox answered a consent ask (a stranger typed the address),
  -- none a sender confirmation mail. Such a no stops every mail of the platform but the sender
  -- confirmation of an owner's own sign-in address (private.sender_confirmation_suppressed)
  from_consent boolean not null default false
);
comment on table private.mail_suppressions is 'Addresses that hard-bounced, complained or answered "not me" to a confirmation mail (mail-consent.sql): every later mail to them is skipped.';
alter table private.mail_suppressions enable row level security;

-- A complaint or a "Not me" is the mailbox's own word: it covers every spelling of the mailbox
-- (private.mailbox_key). A bounce covers the address that bounced only: a domain without
-- '+' addresses bounces victim+x@ while victim@ is fine, and anyone can make that bounce.
create index mail_suppressions_mailbox_idx on private.mail_suppressions (mailbox)
  where reason <> 'bounce';

-- Whether the platform sends an address nothing (the one suppression check of the confirmation
-- mails, sender and consent, and of the notification mails).
create function private.mailbox_suppressed(p_email text)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.mail_suppressions s
                 where s.email = lower(btrim(p_email))
                    or (s.reason <> 'bounce' and s.mailbox = private.mailbox_key(p_email)));
$$;
revoke execute on function private.mailbox_suppressed(text) from public;

-- Whether a sender confirmation that p_user_id (an owner, signed in) asks for p_email is refused
-- (reserve_sender_confirmation): as private.mailbox_suppressed, except that an owner's own sign-in
-- address (the same address, any letter case) is not held back by a "Not me" that only ever
-- answered consent asks (from_consent). Anyone can make a consent ask reach an owner's address (a
-- visitor types it into any form); the owner who says "Not me" to it wants no strangers' mail,
-- and did not give up proving their own address (rev-fixes D4, docs/security.md). Any other
-- owner's claim on that mailbox stays refused.
create function private.sender_confirmation_suppressed(p_email text, p_user_id uuid)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.mail_suppressions s
                 where (s.email = lower(btrim(p_email))
                        or (s.reason <> 'bounce' and s.mailbox = private.mailbox_key(p_email)))
                   and not (s.reason = 'not_me' and s.from_consent
                            and exists (select 1 from auth.users u where u.id = p_user_id
                                        and lower(btrim(u.email)) = lower(btrim(p_email)))));
$$;
revoke execute on function private.sender_confirmation_suppressed(text, uuid) from public;

-- "Not me" to a confirmation mail (p_scope: the mail's, sender or a consent scope): the mailbox
-- gets nothing more from the platform. A sender confirmation mail's no also removes the sender
-- claims on any spelling of the mailbox that nobody confirmed (a claim never confirmed never made
-- the provider's identity); a consent mail's no leaves them and the owner's next sender
-- confirmation (from_consent). The one definition of the answer.
create function private.not_me(p_email text, p_scope text)
returns void language sql set search_path = '' as $$
  insert into private.mail_suppressions (email, reason, from_consent)
    values (lower(btrim(p_email)), 'not_me', p_scope is distinct from 'sender')
    on conflict (email) do update set reason = 'not_me',
      from_consent = case when private.mail_suppressions.reason = 'bounce' then excluded.from_consent
                          else private.mail_suppressions.from_consent and excluded.from_consent end
    where private.mail_suppressions.reason in ('bounce', 'not_me');
  delete from public.sender_emails
    where p_scope is not distinct from 'sender'
      and private.mailbox_key(email) = private.mailbox_key(p_email) and confirmed_at is null;
$$;
revoke execute on function private.not_me(text, text) from public;

-- Called by public.finish_jobs (jobs.sql) for an outcome that carries a `mail`:
--   {to, from, subject, kind, provider_message_id?, user_id?, sender_user_id?, block_id?, delivery_id?}
create function private.record_outbound_mail(p_job_id bigint, p_mail jsonb, p_status text)
returns void language plpgsql set search_path = '' as $$
declare
  v_kept record;
  v_message text;
begin
  -- the send and the delivery before the mail, the order record_mail_event takes them in when a
  -- provider's event outruns this record (private.lock_sends; finish_jobs locked the batch's
  -- sends already)
  if p_mail ? 'delivery_id' then
    perform private.lock_sends(array[(p_mail ->> 'delivery_id')::uuid]);
    perform 1 from public.deliveries where id = (p_mail ->> 'delivery_id')::uuid for update;
  end if;
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
  -- a mail whose answer was lost (unknown, no message id): events SES published for it that
  -- came first carry its job's tag, and the first names the message (adopt_job_mail). The job's
  -- lock before the look: every event of the mail carries the tag and passes this lock before it
  -- is kept (adopt_job_mail), holding it until it commits, so the look (a statement after the
  -- lock: its snapshot sees that commit) finds every event kept before, and an event after it
  -- waits and finds this row by the tag. Not the message's lock: an event holds it while it waits
  -- for this one (a deadlock), and a committing event may still hold it when the job's lock is
  -- already released (a commit releases its locks one by one): ce3df4d4's try of it then failed
  -- and the kept event stayed kept (rev-fixes D2)
  if p_status = 'unknown' and p_mail ->> 'provider_message_id' is null and p_job_id is not null then
    perform pg_advisory_xact_lock(hashtextextended('mail_job:' || p_job_id, 0));
    select k.message_id into v_message from private.early_mail_events k
      where k.event -> 'tags' ->> 'job' = p_job_id::text
      order by k.received_at, k.event_id limit 1;
    if v_message is not null then
      perform private.adopt_job_mail(p_job_id, v_message,
        (select k.event from private.early_mail_events k where k.message_id = v_message
         order by k.received_at, k.event_id limit 1));
    end if;
    return;
  end if;
  -- the provider's events that came first (record_mail_event kept them), in the order they came;
  -- finish_jobs holds the mail's lock (private.lock_mail_messages), so none is kept meanwhile
  for v_kept in
    select k.event from private.early_mail_events k
    where k.message_id = p_mail ->> 'provider_message_id' order by k.received_at, k.event_id
  loop
    perform private.apply_mail_event(p_mail ->> 'provider_message_id', v_kept.event);
  end loop;
  delete from private.early_mail_events where message_id = p_mail ->> 'provider_message_id';
end;
$$;
revoke execute on function private.record_outbound_mail(bigint, jsonb, text) from public;

-- Order of delivery states: a late Delivery never overwrites a Bounce or Complaint.
create function private.mail_state_rank(p_status text)
returns integer language sql immutable set search_path = '' as $$
  select case p_status when 'sent' then 1 when 'unknown' then 1 when 'delivered' then 2
                       when 'rejected' then 3 when 'bounced' then 3 when 'complaint' then 4 else 0 end;
$$;
revoke execute on function private.mail_state_rank(text) from public;

-- A permanent bounce's or a complaint's addresses are never mailed again (transient bounces are
-- not suppressed): the event's recipients, else the mail's address (p_to; null: not known yet).
create function private.suppress_for_mail_event(p_event jsonb, p_to text)
returns void language sql set search_path = '' as $$
  insert into private.mail_suppressions (email, reason)
    select lower(r.value), case when lower(p_event ->> 'type') = 'complaint' then 'complaint' else 'bounce' end
    from jsonb_array_elements_text(coalesce(p_event -> 'recipients', jsonb_build_array(p_to))) r
    where r.value is not null
      and (lower(p_event ->> 'type') = 'complaint'
           or (lower(p_event ->> 'type') = 'bounce'
               and coalesce(p_event ->> 'bounce_type', 'Permanent') = 'Permanent'))
    on conflict (email) do nothing;
$$;
revoke execute on function private.suppress_for_mail_event(jsonb, text) from public;

-- Applies one provider event to its recorded mail (record_mail_event; record_outbound_mail for
-- the events that came first): the mail's state, a letter's delivery row and counts, suppression
-- of the address after a permanent bounce or a complaint. The caller took the mail's locks
-- (private.lock_mail_messages, private.lock_sends). Answers record_mail_event's answer.
create function private.apply_mail_event(p_message_id text, p_event jsonb)
returns jsonb language plpgsql set search_path = '' as $$
declare
  v_type text := lower(p_event ->> 'type');
  v_mail private.outbound_mails;
  v_new text;
  v_delivery public.deliveries;
  v_column text;
begin
  select * into v_mail from private.outbound_mails where provider_message_id = p_message_id for update;
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

  perform private.suppress_for_mail_event(p_event, v_mail.to_email);

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
revoke execute on function private.apply_mail_event(text, jsonb) from public;

-- A platform mail (notifications, confirmations, plan and quota mails) whose SendEmail answer
-- never reached the database, found by the `job` tag every platform mail carries
-- (_shared/mail-delivery.ts) as a letter is by its `delivery` tag (rev-mail3 D5): its answer was
-- lost (finish_jobs recorded it `unknown`, without SES's message id: the id is adopted and it is
-- `sent`), or its worker stopped after the send (claim_jobs made the job `unknown` and nothing
-- recorded the mail: it is recorded from the event, its address, From and subject as SES names
-- them). The kept events of the message then apply, in the order they came. Without it such a
-- mail stayed `unknown` for good and its events, a bounce included, were purged after a day.
-- An event's caller holds the message's lock (private.lock_mail_messages); the job's lock is taken
-- here, after it. finish_jobs' record of an unknown mail (record_outbound_mail) takes the job's lock
-- alone, so an event that waited here for it may find the mail named already. Answers the mail, or
-- null.
-- A job payload's text as a uuid, null when it is none (a payload is the enqueuer's, not checked).
create function private.uuid_in(p_text text)
returns uuid language sql immutable set search_path = '' as $$
  select case when p_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then p_text::uuid end;
$$;
revoke execute on function private.uuid_in(text) from public;

create function private.adopt_job_mail(p_job_id bigint, p_message_id text, p_event jsonb)
returns private.outbound_mails language plpgsql set search_path = '' as $$
declare
  v_mail private.outbound_mails;
  v_job private.jobs;
  v_kept record;
  v_block_id uuid;
  v_owner_id uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('mail_job:' || p_job_id, 0));
  update private.outbound_mails
    set provider_message_id = p_message_id, status = 'sent', updated_at = now()
    where job_id = p_job_id and provider_message_id is null and status = 'unknown' and delivery_id is null
    returning * into v_mail;
  if v_mail.id is null then
    -- named while this waited for the job's lock (record_outbound_mail adopted an earlier event
    -- of the message): the caller's event applies to it
    select * into v_mail from private.outbound_mails
      where job_id = p_job_id and provider_message_id = p_message_id;
  end if;
  if v_mail.id is null then
    select * into v_job from private.jobs where id = p_job_id and status = 'unknown' and kind <> 'letter';
    if v_job.id is null or exists (select 1 from private.outbound_mails where job_id = p_job_id) then
      return null;
    end if;
    -- the owner and block the job was for (rev-fixes D3), as its worker would have recorded them:
    -- a notification's block (payload block_id) and its owner, else the payload's owner_id or
    -- user_id (a quota notice), else its payment's owner (a plan mail; rev-fixes2 D6)
    select b.id, b.owner_id into v_block_id, v_owner_id from public.blocks b
      where b.id = private.uuid_in(v_job.payload ->> 'block_id');
    v_owner_id := coalesce(v_owner_id,
      (select p.id from public.profiles p
        where p.id = coalesce(private.uuid_in(v_job.payload ->> 'owner_id'),
                              private.uuid_in(v_job.payload ->> 'user_id'))),
      (select pay.user_id from public.payments pay
        where pay.id = private.uuid_in(v_job.payload ->> 'payment_id')));
    insert into private.outbound_mails (job_id, kind, user_id, block_id, to_email, from_email, subject,
                                        provider_message_id, status)
      values (p_job_id, v_job.kind, v_owner_id, v_block_id,
              left(coalesce(p_event -> 'destination' ->> 0, p_event -> 'recipients' ->> 0, ''), 320),
              left(coalesce(p_event ->> 'source', ''), 320), left(coalesce(p_event ->> 'subject', ''), 500),
              p_message_id, 'sent')
      on conflict (provider_message_id) do nothing
      returning * into v_mail;
    if v_mail.id is null then
      return null;
    end if;
  end if;
  for v_kept in
    select k.event from private.early_mail_events k
    where k.message_id = p_message_id order by k.received_at, k.event_id
  loop
    perform private.apply_mail_event(p_message_id, v_kept.event);
  end loop;
  delete from private.early_mail_events where message_id = p_message_id;
  select * into v_mail from private.outbound_mails where id = v_mail.id;
  return v_mail;
end;
$$;
revoke execute on function private.adopt_job_mail(bigint, text, jsonb) from public;

-- The jobs that became `unknown` (claim_jobs: their worker stopped after calling the provider)
-- whose mail's events came and were kept: their mails are recorded from them (adopt_job_mail).
create function private.adopt_kept_job_mails(p_job_ids bigint[])
returns void language plpgsql set search_path = '' as $$
declare
  v_kept record;
begin
  for v_kept in
    select distinct on (k.event -> 'tags' ->> 'job') k.message_id, k.event,
           (k.event -> 'tags' ->> 'job')::bigint as job_id
    from private.early_mail_events k
    where k.event -> 'tags' ->> 'job' = any (select id::text from unnest(p_job_ids) id)
    order by k.event -> 'tags' ->> 'job', k.received_at, k.event_id
  loop
    -- the message's lock first, then the job's: the order record_mail_event takes them in
    perform private.lock_mail_messages(array[v_kept.message_id]);
    perform private.adopt_job_mail(v_kept.job_id, v_kept.message_id, v_kept.event);
  end loop;
end;
$$;
revoke execute on function private.adopt_kept_job_mails(bigint[]) from public;

-- Applies a provider event (SES through SNS) once per SNS MessageId to the mail it is about
-- (private.apply_mail_event). An event for a message not recorded yet that carries the
-- `delivery` tag of a letter is recorded from that delivery, so no count is lost and a lost
-- worker's mail is known to have gone. Any other event for a message not recorded yet (the worker
-- records a batch after its last send, or died first) is kept (private.early_mail_events) and
-- applied when the mail is recorded, and a permanent bounce's or a complaint's recipients are
-- suppressed at once: nothing is lost whichever comes first, and SNS's retry of it is a duplicate
-- (a Send, which would change nothing, is not kept: 'unknown message').
-- It waits for a lock (its mail's record under way in finish_jobs, the letter's send rows) at most
-- lock_timeout, then fails whole with 55P03 and ses-events answers 503, so SNS posts it again
-- (the same event id: nothing of this try was kept). Waiting as long as the record took held a
-- PostgREST connection each: 30 events of one batch's mails took the whole pool (20) and an
-- unrelated read waited 8 s for it (rev-mail3 D2).
-- p_event: {event_id, type, message_id, bounce_type?, recipients?, tags? ({name: value})}.
create or replace function public.record_mail_event(p_event jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_mail private.outbound_mails;
  v_delivery public.deliveries;
  v_publish public.publishes;
  v_tag text := p_event -> 'tags' ->> 'delivery';
begin
  if coalesce(p_event ->> 'event_id', '') = '' or coalesce(p_event ->> 'message_id', '') = '' then
    raise exception 'event_id and message_id are required' using errcode = 'P0001';
  end if;
  -- for the rest of this call's transaction (PostgREST's, one per call): see above
  perform set_config('lock_timeout', '250ms', true);
  -- first: a record of this mail that has begun ends before this looks for it
  perform private.lock_mail_messages(array[p_event ->> 'message_id']);
  insert into private.provider_events (id) values (p_event ->> 'event_id') on conflict do nothing;
  if not found then
    return jsonb_build_object('applied', false, 'reason', 'duplicate');
  end if;
  -- a letter's send and member rows before its delivery and mail, in the order every writer takes
  -- them (private.lock_sends): the mail's delivery, or the one the event's tag names
  perform private.lock_sends(array[coalesce(
    (select delivery_id from private.outbound_mails where provider_message_id = p_event ->> 'message_id'),
    private.uuid_in(v_tag))]);
  select * into v_mail from private.outbound_mails where provider_message_id = p_event ->> 'message_id' for update;
  if not found and private.uuid_in(v_tag) is not null then
    select * into v_delivery from public.deliveries where id = v_tag::uuid for update;
    if found then
      select * into v_publish from public.publishes where id = v_delivery.publish_id;
      insert into private.outbound_mails (kind, user_id, sender_user_id, block_id, delivery_id, to_email,
                                          from_email, subject, provider_message_id, status)
        values ('letter', v_delivery.user_id, v_delivery.user_id, v_publish.block_id, v_delivery.id,
                v_delivery.email, coalesce(v_publish.mail_from, ''), left(coalesce(v_publish.subject, ''), 500),
                p_event ->> 'message_id', 'sent')
        on conflict (provider_message_id) do nothing;
      update public.deliveries set status = 'sent', provider_message_id = p_event ->> 'message_id'
        where id = v_delivery.id and status = 'reserved';
      select * into v_mail from private.outbound_mails where provider_message_id = p_event ->> 'message_id' for update;
    end if;
  end if;
  -- a platform mail whose answer was lost or whose worker stopped: its `job` tag finds it
  if v_mail.id is null and p_event -> 'tags' ->> 'job' ~ '^[0-9]{1,18}$' then
    v_mail := private.adopt_job_mail((p_event -> 'tags' ->> 'job')::bigint, p_event ->> 'message_id', p_event);
  end if;
  if v_mail.id is null then
    -- a Send (or a type we ignore) would change nothing: not kept
    if lower(p_event ->> 'type') not in ('delivery', 'bounce', 'complaint', 'reject', 'open') then
      return jsonb_build_object('applied', false, 'reason', 'unknown message');
    end if;
    perform private.suppress_for_mail_event(p_event, null);
    insert into private.early_mail_events (event_id, message_id, event)
      values (p_event ->> 'event_id', p_event ->> 'message_id', p_event);
    return jsonb_build_object('applied', false, 'reason', 'kept until its mail is recorded');
  end if;
  return private.apply_mail_event(p_event ->> 'message_id', p_event);
end;
$$;
revoke execute on function public.record_mail_event(jsonb) from public, anon, authenticated;

-- A sender whose letters bounce or draw complaints too often stops sending, as SES would put the
-- account on probation and suspend it (SES reviews above 5% bounces / 0.1% complaints; we stop
-- at mail.suspend_bounce_rate 0.05 and mail.suspend_complaint_rate 0.001 over the last 14 days,
-- once mail.suspend_min_volume (50) mails were sent).
create function public.mail_sender_status(p_user_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
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
revoke execute on function public.mail_sender_status(uuid) from public, anon, authenticated;

-- Whether any of these addresses is suppressed (for mails outside notifications).
create function public.mail_suppressed(p_emails text[])
returns text[] language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(lower(btrim(e))), '{}') from unnest(p_emails) e
    where private.mailbox_suppressed(e);
$$;
revoke execute on function public.mail_suppressed(text[]) from public, anon, authenticated;

-- Mail: sender addresses, a record of every mail the platform hands to the provider, provider
-- events (SES through SNS) applied to it, suppressions, opt-outs and unsubscribes, and the
-- sender's reputation.

-- The mailbox an address reaches, for the caps and the suppression checks (docs/security.md
-- "One mailbox, many spellings"): lower case, trimmed, the local part cut at its first '+'
-- (victim+1@x and victim+2@x reach victim@x), for gmail.com and googlemail.com the dots of the
-- local part gone and the domain gmail.com, and the domains one provider documents as one
-- account's (docs/security.md "One mailbox, many spellings", with the sources): Apple's
-- icloud.com, me.com and mac.com are icloud.com; Proton's proton.me, protonmail.com,
-- protonmail.ch and pm.me are proton.me. Only for counting and matching: mail still goes to the
-- address as typed. A local part that is nothing before its '+' stays whole.
create function private.mailbox_key(p_email text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select case when a.domain is null then a.address
              when a.domain in ('gmail.com', 'googlemail.com')
                then replace(a.local, '.', '') || '@gmail.com'
              when a.domain in ('icloud.com', 'me.com', 'mac.com') then a.local || '@icloud.com'
              when a.domain in ('proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me')
                then a.local || '@proton.me'
              else a.local || '@' || a.domain end
  from (select t.address, t.domain,
               coalesce(nullif(split_part(t.whole, '+', 1), ''), t.whole) as local
        from (select lower(btrim(p_email)) as address,
                     nullif(substring(lower(btrim(p_email)) from '@([^@]*)$'), '') as domain,
                     substring(lower(btrim(p_email)) from '^(.*)@[^@]*$') as whole) t) a;
$$;
revoke execute on function private.mailbox_key(text) from public;
-- sender_emails_mailbox_idx runs it as the role that writes the row: the functions' service
-- role (a status update that is not HOT failed without it, now and then: rls-rpc.test.ts)
grant execute on function private.mailbox_key(text) to service_role;

create table public.sender_emails (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  email text not null check (char_length(email) <= 60 and private.is_valid_email(email)),
  status public.sender_email_status not null default 'pending',
  spf_verified boolean not null default false,
  dkim_verified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  dmarc_policy text check (dmarc_policy in ('none', 'quarantine', 'reject')),
  checked_at timestamptz,
  -- issue 17: a sender email is one owner's claim on an address, verified only by that owner's
  -- own proof (request-mail-verify mails a single-use link, confirm-mail-verify spends it). A row
  -- is verified only when it is confirmed AND the provider can send as the address (the SES
  -- identity, which stays the platform's: created after the first owner's confirmation, deleted
  -- with the last confirmed claim).
  confirmed_at timestamptz,
  unique (user_id, email),
  constraint sender_emails_verified_needs_confirmation
    check (status <> 'verified' or confirmed_at is not null)
);
comment on table public.sender_emails is
  'Addresses a user sends letters from, with verification, SPF and DKIM state (set by the mail edge functions).';
comment on column public.sender_emails.dmarc_policy is
  'The _dmarc policy of the address''s domain when last checked; quarantine or reject means letters go from the platform address with Reply-To this one.';
comment on column public.sender_emails.confirmed_at is
  'When this owner opened the confirmation link mailed to the address (confirm-mail-verify); null until then. verified needs it.';
-- deleting too goes through delete-mail-verified: it releases the provider's identity with the
-- last confirmed claim and clears the letters that named the address
call private.clients_read('public.sender_emails', 'Users can read their own sender emails',
  'user_id = (select auth.uid())');
-- delete-mail-verified counts the other owners' claims of an address
create index sender_emails_email_idx on public.sender_emails (email);
-- "Not me" drops the claims nobody confirmed of every spelling of the mailbox (private.not_me)
create index sender_emails_mailbox_idx on public.sender_emails (private.mailbox_key(email))
  where confirmed_at is null;

-- An account that goes takes its claims with it (the profile's cascade): the provider's identity
-- of each confirmed one is released by the jobs worker (`sender.release`,
-- _shared/sender-emails.ts), enqueued in the deleting transaction with the queue's most attempts
-- (100: with the backoff capped at an hour, about 90 hours of SES outage, give or take the 20%
-- jitter); SES refusing the call for good (a 4xx but a throttle or its 404) fails it at once.
-- An outage longer than that, or such a refusal, leaves the identity at SES unowned: the job is
-- then `failed` with SES's last answer (kept 30 days) and the identity is deleted by hand. A claim
-- deleted by itself (delete-mail-verified) releases the identity before its row goes: only a
-- claim whose profile went in this transaction enqueues. A claim never confirmed never enqueues:
-- it never made the identity (the handler relies on this and does not check it again).
create function private.sender_emails_after_delete()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if old.confirmed_at is not null
     and not exists (select 1 from public.profiles p where p.id = old.user_id) then
    perform public.enqueue_job('sender.release',
      jsonb_build_object('user_id', old.user_id, 'email', old.email),
      'sender.release:' || old.user_id || ':' || old.email, p_max_attempts => 100);
  end if;
  return old;
end;
$$;
create trigger sender_emails_after_delete after delete on public.sender_emails
  for each row execute function private.sender_emails_after_delete();

create table private.sender_email_tokens (
  sender_email_id uuid primary key references public.sender_emails (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sender_email_tokens_expires_at_idx on private.sender_email_tokens (expires_at);
comment on table private.sender_email_tokens is
  'The live confirmation token of a sender email claim (one per claim; a new request replaces it), as the SHA-256 of the token mailed to the address. Spent by confirm_sender_email; gone with the claim.';
alter table private.sender_email_tokens enable row level security;
revoke all on private.sender_email_tokens from public, anon, authenticated;

-- Every confirmation mail's "Not me" token (sender: request_sender_email; consent:
-- start_mail_consent, where it is also the mail's confirm token), as its SHA-256. It belongs to
-- the mail, not to what asked: the claim, the consent row, the account that asked or the owner
-- may go, and a later mail may replace the claim's or the row's token, while "Not me" keeps
-- suppressing the mailbox for 7 days (answer_mail_consent; single use). owner_id: the account
-- the mail came from (the sender claim's or the consent's owner), no foreign key: the page names
-- it while it exists. Expired rows go with request_sender_email and purge_mail_consents.
create table private.not_me_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  scope text not null check (scope in ('sender', 'reply', 'letters', 'notify')),
  locale public.language_code not null default 'en',
  owner_id uuid,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
comment on table private.not_me_tokens is
  'The "Not me" token of every confirmation mail (sender and consent), as its SHA-256, tied to the mail only: it suppresses the mailbox for 7 days whatever became of the claim, the consent or the accounts (answer_mail_consent).';
alter table private.not_me_tokens enable row level security;
revoke all on private.not_me_tokens from public, anon, authenticated;
create index not_me_tokens_expires_at_idx on private.not_me_tokens (expires_at);

-- Every sender confirmation mail, by mailbox (private.mailbox_key): one a day per mailbox, whoever
-- asks (docs/security.md "Sender addresses"). Not tied to the account or the claim, so deleting
-- either gives the address no day back; rows go after two days (reserve_sender_confirmation).
create table private.sender_confirmation_mails (
  id bigint generated always as identity primary key,
  mailbox text not null,
  user_id uuid not null,
  mailed_at timestamptz not null default now()
);
comment on table private.sender_confirmation_mails is
  'Sender confirmation mails sent (request-mail-verify), by mailbox key, for the one-a-day cap across owners.';
alter table private.sender_confirmation_mails enable row level security;
revoke all on private.sender_confirmation_mails from public, anon, authenticated;
create index sender_confirmation_mails_mailbox_idx
  on private.sender_confirmation_mails (mailbox, mailed_at);

-- Before request-mail-verify mails an address: refuses a suppressed mailbox ({outcome:
-- suppressed}) and a mailbox a sender confirmation went to in the last 24 hours, for any owner
-- ({outcome: sent_today, retry_at}); else notes the mail ({outcome: reserved, id}). One mailbox at
-- a time (an advisory lock): twenty accounts asking at once make one mail.
create function public.reserve_sender_confirmation(p_user_id uuid, p_email text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_key text := private.mailbox_key(p_email);
  v_last timestamptz;
  v_id bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('sender_confirmation:' || v_key, 0));
  if private.mailbox_suppressed(p_email) then
    return jsonb_build_object('outcome', 'suppressed');
  end if;
  select max(mailed_at) into v_last from private.sender_confirmation_mails
    where mailbox = v_key and mailed_at > now() - interval '24 hours';
  if v_last is not null then
    return jsonb_build_object('outcome', 'sent_today', 'retry_at', v_last + interval '24 hours');
  end if;
  delete from private.sender_confirmation_mails where mailed_at < now() - interval '2 days';
  insert into private.sender_confirmation_mails (mailbox, user_id) values (v_key, p_user_id)
    returning id into v_id;
  return jsonb_build_object('outcome', 'reserved', 'id', v_id);
end;
$$;
comment on function public.reserve_sender_confirmation(uuid, text) is
  'Notes a sender confirmation mail about to go to an address, or refuses it: suppressed, or sent_today (one a day per mailbox, across owners) with retry_at. Service role only (request-mail-verify).';
revoke all on function public.reserve_sender_confirmation(uuid, text) from public, anon, authenticated;
grant execute on function public.reserve_sender_confirmation(uuid, text) to service_role;

-- The provider refused the mail reserve_sender_confirmation noted: it did not go, the day is not spent.
create function public.release_sender_confirmation(p_id bigint)
returns void language sql security definer set search_path = '' as $$
  delete from private.sender_confirmation_mails where id = p_id;
$$;
revoke all on function public.release_sender_confirmation(bigint) from public, anon, authenticated;
grant execute on function public.release_sender_confirmation(bigint) to service_role;

create function public.request_sender_email(p_user_id uuid, p_email text, p_token_hash text,
                                            p_not_me_hash text)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid;
begin
  delete from private.sender_email_tokens where expires_at < now();
  delete from private.not_me_tokens where expires_at < now();
  insert into public.sender_emails as s (user_id, email, status)
    values (p_user_id, lower(p_email), 'pending')
    on conflict (user_id, email) do update
      set status = case when s.status = 'verified' then s.status else 'pending' end,
          updated_at = now()
    returning id into v_id;
  insert into private.sender_email_tokens (sender_email_id, token_hash, expires_at)
    values (v_id, p_token_hash, now() + interval '24 hours')
    on conflict (sender_email_id) do update
      set token_hash = excluded.token_hash, expires_at = excluded.expires_at, created_at = now();
  -- the mail's "Not me", which outlives this claim and the next request
  insert into private.not_me_tokens (token_hash, email, scope, locale, owner_id, expires_at)
    select p_not_me_hash, lower(p_email), 'sender',
           coalesce((select p.language from public.profiles p where p.id = p_user_id), 'en'),
           p_user_id, now() + interval '7 days'
    where p_not_me_hash is not null;
  return v_id;
end;
$$;
comment on function public.request_sender_email(uuid, text, text, text) is
  'Adds (or asks again for) an owner''s claim on a sender address with the hashes of the tokens just mailed to it (confirm, 24 hours, the claim''s older one stops working; "Not me", 7 days, the mail''s own: private.not_me_tokens). Service role only (request-mail-verify, after reserve_sender_confirmation).';
revoke all on function public.request_sender_email(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.request_sender_email(uuid, text, text, text) to service_role;

create function public.confirm_sender_email(p_user_id uuid, p_token_hash text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_claim public.sender_emails;
begin
  -- the row lock makes the token single use: a second call waits, then finds it gone
  select s.* into v_claim
    from private.sender_email_tokens t
    join public.sender_emails s on s.id = t.sender_email_id
    where t.token_hash = p_token_hash and t.expires_at > now()
    for update of t;
  if not found then
    return jsonb_build_object('outcome', 'invalid');
  end if;
  -- another account's link is not spent: its owner may still open it
  if v_claim.user_id <> p_user_id then
    return jsonb_build_object('outcome', 'other_account');
  end if;
  delete from private.sender_email_tokens where sender_email_id = v_claim.id;
  update public.sender_emails set confirmed_at = now() where id = v_claim.id;
  return jsonb_build_object('outcome', 'confirmed', 'id', v_claim.id, 'email', v_claim.email);
end;
$$;
comment on function public.confirm_sender_email(uuid, text) is
  'Spends a sender email confirmation token for its own owner (outcome confirmed, with the claim''s id and email); invalid when unknown, spent or expired; other_account (not spent) when the caller is not the claim''s owner. Service role only (confirm-mail-verify).';
revoke all on function public.confirm_sender_email(uuid, text) from public, anon, authenticated;
grant execute on function public.confirm_sender_email(uuid, text) to service_role;

create table public.unsubscribes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  block_id uuid references public.blocks (id) on delete set null,
  email text not null check (char_length(email) <= 100),
  response_id text check (char_length(response_id) <= 100),
  created_at timestamptz not null default now(),
  -- private.mailbox_key(email): an unsubscribe is the mailbox's own word, as a complaint is; it
  -- stops the owner's letters to every spelling of it (victim+news@ after victim@)
  mailbox text generated always as (private.mailbox_key(email)) stored,
  unique (user_id, email)
);
comment on table public.unsubscribes is
  'Addresses that unsubscribed from a user''s letters; sends skip them. Written by the unsubscribe function.';
call private.clients_read('public.unsubscribes', 'Owners can read their unsubscribes',
  'user_id = (select auth.uid())');
create index unsubscribes_block_id_idx on public.unsubscribes (block_id);
-- Every read asks by the owner and the mailbox (is_unsubscribed per member of the audience list
-- and of a CSV import's answer, letter_send_groups, reserve_letter, prepare_letter_jobs, a form's
-- letter: private.letter_unsubscribed); the unique key above is on the address as written.
create index unsubscribes_user_id_mailbox_idx on public.unsubscribes (user_id, mailbox);

-- Whether an address's mailbox unsubscribed from an owner's letters: the one check of every
-- letter path. Not security definer: its callers are.
create function private.letter_unsubscribed(p_owner_id uuid, p_email text)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from public.unsubscribes u
                 where u.user_id = p_owner_id and u.mailbox = private.mailbox_key(p_email));
$$;
revoke execute on function private.letter_unsubscribed(uuid, text) from public;

-- Whether the member's address unsubscribed from the owner's letters (computed field of
-- audience_members: `audience_members?select=*,is_unsubscribed`), so the audience list says
-- Unsubscribed instead of Active and a CSV import can say which new members letters will skip.
-- security definer, and the caller's own rows by auth.uid(): under RLS the index on
-- (user_id, mailbox) could not serve the read (mailbox_key() is not leakproof, so Postgres
-- applies the policy first and then filters every unsubscribe of the owner's, for each member).
create function public.is_unsubscribed(p_member public.audience_members)
returns boolean language sql stable security definer set search_path = '' as $$
  select p_member.email is not null and p_member.user_id = (select auth.uid())
    and private.letter_unsubscribed(p_member.user_id, p_member.email);
$$;
comment on function public.is_unsubscribed(public.audience_members) is
  'Computed field of audience_members: the member''s address unsubscribed from the owner''s letters.';
revoke execute on function public.is_unsubscribed(public.audience_members) from public, anon;
grant execute on function public.is_unsubscribed(public.audience_members) to authenticated;

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
  mailbox text generated always as (private.mailbox_key(email)) stored
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

-- "Not me" to a confirmation mail (consent or sender): the mailbox gets nothing more from the
-- platform, and the sender claims on any spelling of it that nobody confirmed go (a claim never
-- confirmed never made the provider's identity). The one definition of the answer.
create function private.not_me(p_email text)
returns void language sql set search_path = '' as $$
  insert into private.mail_suppressions (email, reason) values (lower(btrim(p_email)), 'not_me')
    on conflict (email) do update set reason = 'not_me'
    where private.mail_suppressions.reason = 'bounce';
  delete from public.sender_emails
    where private.mailbox_key(email) = private.mailbox_key(p_email) and confirmed_at is null;
$$;
revoke execute on function private.not_me(text) from public;

-- One-click unsubscribes from notification mails: scope owner (mailTo: all of the owner's block
-- digests to the address, looked up by owner) or reply (replies to the commenter's message on
-- that block). The owner is written at unsubscribe time from the block's owner, so deleting the
-- block keeps the opt-out (block_id names the block the link came from; no foreign key).
-- Letters use public.unsubscribes.
create table private.mail_optouts (
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  scope text not null check (scope in ('owner', 'reply')),
  block_id uuid not null,
  created_at timestamptz not null default now(),
  -- the block's owner when the address unsubscribed
  owner_id uuid not null references public.profiles (id) on delete cascade,
  primary key (email, scope, block_id)
);
comment on table private.mail_optouts is 'Notification unsubscribes (signed one-click links): no more owner digests of that block''s owner (scope owner), or replies on that block (scope reply), to that address.';
alter table private.mail_optouts enable row level security;
-- notification_context's owner-scope lookup, and the owner's cascade
create index mail_optouts_owner_email_scope_idx on private.mail_optouts (owner_id, email, scope);

-- Called by public.finish_jobs (jobs.sql) for an outcome that carries a `mail`:
--   {to, from, subject, kind, provider_message_id?, user_id?, sender_user_id?, block_id?, delivery_id?}
create function private.record_outbound_mail(p_job_id bigint, p_mail jsonb, p_status text)
returns void language plpgsql set search_path = '' as $$
declare
  v_kept record;
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

-- Applies a provider event (SES through SNS) once per SNS MessageId to the mail it is about
-- (private.apply_mail_event). An event for a message not recorded yet that carries the
-- `delivery` tag of a letter is recorded from that delivery, so no count is lost and a lost
-- worker's mail is known to have gone. Any other event for a message not recorded yet (the worker
-- records a batch after its last send, or died first) is kept (private.early_mail_events) and
-- applied when the mail is recorded, and a permanent bounce's or a complaint's recipients are
-- suppressed at once: nothing is lost whichever comes first, and SNS's retry of it is a duplicate
-- (a Send, which would change nothing, is not kept: 'unknown message').
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
    case when v_tag ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v_tag::uuid end)]);
  select * into v_mail from private.outbound_mails where provider_message_id = p_event ->> 'message_id' for update;
  if not found and v_tag ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
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

-- The owner a notification unsubscribe link (owner or reply scope, p_block_id, p_owner_id: the
-- signed link's `u`) stops mails of: the block's owner while the block exists; once it is gone,
-- only an owner the mail log proves mailed the address that owner's digests (owner scope: the
-- link's `u`, and an outbound_mails row of a notify.owner mail from them to the address). Null:
-- nothing left to stop (a reply opt-out is the deleted block's; a link without an owner, or of an
-- owner whose account went or who never mailed the address).
create function private.optout_owner(p_email text, p_scope text, p_block_id uuid, p_owner_id uuid)
returns uuid language sql stable set search_path = '' as $$
  select coalesce(
    (select b.owner_id from public.blocks b where b.id = p_block_id),
    (select o.user_id from private.outbound_mails o
     where p_scope = 'owner' and o.kind = 'notify.owner' and o.user_id = p_owner_id
       and lower(o.to_email) = lower(btrim(p_email))
     limit 1));
$$;
revoke execute on function private.optout_owner(text, text, uuid, uuid) from public;

-- Records a one-click unsubscribe from notification mails (the unsubscribe function checks the
-- signed token first), with its owner (private.optout_owner): an owner-scope opt-out then holds
-- for all of that owner's blocks, deleted ones too. Answers 'recorded' (or it was already), or
-- 'gone' when there is nothing left to stop (nothing is recorded: the block is deleted and the
-- mail log proves no owner). Until rev-mail2's review the link's owner was taken on its word and
-- the page said "unsubscribed" when nothing was recorded.
create function public.record_mail_optout(p_email text, p_scope text, p_block_id uuid,
                                          p_owner_id uuid default null)
returns text language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid := private.optout_owner(p_email, p_scope, p_block_id, p_owner_id);
begin
  if v_owner is null then
    return 'gone';
  end if;
  insert into private.mail_optouts (email, scope, block_id, owner_id)
    values (lower(btrim(p_email)), p_scope, p_block_id, v_owner)
    on conflict do nothing;
  return 'recorded';
end;
$$;
revoke execute on function public.record_mail_optout(text, text, uuid, uuid) from public, anon, authenticated;

-- What an unsubscribe link would do now, for the unsubscribe page: 'out' (the address already
-- left these mails: that block's, or in owner scope any of its owner's digests), 'in' (it can
-- leave them), 'gone' (nothing left to stop: record_mail_optout would record nothing).
-- security definer: private.mail_optouts is not readable through the API.
create function public.mail_optout_state(p_email text, p_scope text, p_block_id uuid,
                                         p_owner_id uuid default null)
returns text language sql stable security definer set search_path = '' as $$
  select case
    when exists (select 1 from private.mail_optouts
                 where email = lower(btrim(p_email)) and scope = p_scope and block_id = p_block_id)
      then 'out'
    when o.id is null then 'gone'
    when p_scope = 'owner' and exists (
           select 1 from private.mail_optouts m
           where m.owner_id = o.id and m.email = lower(btrim(p_email)) and m.scope = 'owner')
      then 'out'
    else 'in' end
  from (select private.optout_owner(p_email, p_scope, p_block_id, p_owner_id) as id) o;
$$;
revoke execute on function public.mail_optout_state(text, text, uuid, uuid) from public, anon, authenticated;

-- Whether an address's mailbox already left an owner's letters (private.letter_unsubscribed, the
-- check every letter path makes): the unsubscribe page says so instead of asking again, for
-- another spelling of the mailbox too (a letter to name+news@ once name@ unsubscribed). security
-- definer: the service role's unsubscribe function asks through PostgREST, which has no private.
create function public.letter_optout_exists(p_owner_id uuid, p_email text)
returns boolean language sql stable security definer set search_path = '' as $$
  select private.letter_unsubscribed(p_owner_id, p_email);
$$;
revoke execute on function public.letter_optout_exists(uuid, text) from public, anon, authenticated;

-- Whether any of these addresses is suppressed (for mails outside notifications).
create function public.mail_suppressed(p_emails text[])
returns text[] language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(lower(btrim(e))), '{}') from unnest(p_emails) e
    where private.mailbox_suppressed(e);
$$;
revoke execute on function public.mail_suppressed(text[]) from public, anon, authenticated;

create trigger sender_emails_set_updated_at before update on public.sender_emails
  for each row execute function private.set_updated_at();

-- Mail: sender addresses (an owner's own From addresses: claimed, confirmed by a mail, verified at
-- the provider) and their confirmation mails. What the platform mails and what the provider
-- says of it is in mail-log.sql; unsubscribes and opt-outs in mail-optouts.sql.

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
-- role (a status update that is not HOT failed without it, now and then: rls-catalogue.test.ts)
grant execute on function private.mailbox_key(text) to service_role;

create table public.sender_emails (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  -- the address rule on write: private.check_email_written (sender_emails_email_rule)
  email text not null check (char_length(email) <= 60),
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
-- deleting too goes through delete-mail-verified: it clears the letters that named the address;
-- the provider's identity goes with the last confirmed claim (sender.release, below)
call private.clients_read('public.sender_emails', 'Users can read their own sender emails',
  'user_id = (select auth.uid())');
-- sender.release looks for the confirmed claims left on an address
create index sender_emails_email_idx on public.sender_emails (email);
-- "Not me" drops the claims nobody confirmed of every spelling of the mailbox (private.not_me)
create index sender_emails_mailbox_idx on public.sender_emails (private.mailbox_key(email))
  where confirmed_at is null;

-- A confirmed claim that goes (delete-mail-verified, or its account's cascade) hands the address
-- to the jobs worker (`sender.release`, _shared/sender-emails.ts), enqueued in the deleting
-- transaction, one job per claim (its id is the dedupe key), with the queue's most attempts (100:
-- with the backoff capped at an hour, about 90 hours of SES outage, give or take the 20% jitter).
-- The job decides, after the rows changed and with no lock held across SES: it deletes the
-- provider's identity only when no confirmed claim of the address is left, and re-creates it when
-- one was confirmed while it deleted (capfix: two owners deleting at once each saw the other's
-- claim, and the identity stayed at SES with no claim). SES refusing the call for good (a 4xx but
-- a throttle or its 404) fails it at once. An outage longer than that, or such a refusal, leaves
-- the identity at SES unowned: the job is then `failed` with SES's last answer (kept 30 days) and
-- the identity is deleted by hand. A claim never confirmed never enqueues: it never made the
-- identity (an owner cannot take another's identity away by adding and deleting an address).
create function private.sender_emails_after_delete()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if old.confirmed_at is not null then
    perform public.enqueue_job('sender.release',
      jsonb_build_object('user_id', old.user_id, 'email', old.email),
      'sender.release:' || old.id, p_max_attempts => 100);
  end if;
  return old;
end;
$$;
create trigger sender_emails_after_delete after delete on public.sender_emails
  for each row execute function private.sender_emails_after_delete();
create trigger sender_emails_email_rule before insert or update of email on public.sender_emails
  for each row execute function private.check_email_written();

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

-- Before request-mail-verify mails an address: refuses a new address to an owner who holds
-- p_max_claims claims already ({outcome: too_many}), a suppressed mailbox
-- (private.sender_confirmation_suppressed: a "Not me" only to consent asks does not hold back
-- the owner's own sign-in address)
-- ({outcome: suppressed}) and a mailbox sent a sender confirmation, for any owner, in the last 24
-- hours ({outcome: sent_today, retry_at}); else notes the mail ({outcome: reserved, id}). A consent
-- ask's day does not count: any visitor can make one reach the owner's own address, and so keep
-- the owner from ever confirming it (rev-fixes D4); a consent ask still waits for this one's day
-- (private.mailbox_last_ask). One mailbox at a time (private.lock_mailbox_asks): twenty accounts
-- asking at once make one mail.
-- A new address's claim is written here, pending, before its mail goes ({claim: its id}):
-- release_sender_confirmation removes it when the provider refuses the mail, request_sender_email
-- gives it its tokens once the mail is out. The count and that write are one owner's at a time
-- (an advisory lock per owner, taken before the mailbox's and held to the end): until capfix
-- (2026-11-30) the function counted the owner's rows with no lock and the claim was written only
-- after the mail, so five requests at once for new addresses all read 9 and all passed (14 claims).
create function public.reserve_sender_confirmation(p_user_id uuid, p_email text,
                                                   p_max_claims integer)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_key text := private.mailbox_key(p_email);
  v_new boolean;
  v_last timestamptz;
  v_id bigint;
  v_claim uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('sender_emails_cap:' || p_user_id, 0));
  v_new := not exists (select 1 from public.sender_emails
                       where user_id = p_user_id and email = lower(p_email));
  if v_new and (select count(*) from public.sender_emails where user_id = p_user_id)
               >= p_max_claims then
    return jsonb_build_object('outcome', 'too_many');
  end if;
  perform private.lock_mailbox_asks(v_key);
  if private.sender_confirmation_suppressed(p_email, p_user_id) then
    return jsonb_build_object('outcome', 'suppressed');
  end if;
  -- sender confirmations only: a consent ask's day does not hold this one back (see above)
  select max(mailed_at) into v_last from private.sender_confirmation_mails
    where mailbox = v_key and mailed_at > now() - interval '24 hours';
  if v_last is not null then
    return jsonb_build_object('outcome', 'sent_today', 'retry_at', v_last + interval '24 hours');
  end if;
  delete from private.sender_confirmation_mails where mailed_at < now() - interval '2 days';
  insert into private.sender_confirmation_mails (mailbox, user_id) values (v_key, p_user_id)
    returning id into v_id;
  if v_new then
    insert into public.sender_emails (user_id, email, status)
      values (p_user_id, lower(p_email), 'pending')
      returning id into v_claim;
  end if;
  return jsonb_build_object('outcome', 'reserved', 'id', v_id, 'claim', v_claim);
end;
$$;
comment on function public.reserve_sender_confirmation(uuid, text, integer) is
  'Notes a sender confirmation mail about to go to an address, or refuses it: too_many (a new address when the owner holds p_max_claims claims, counted under a per-owner lock), suppressed, or sent_today (one a day per mailbox, across owners) with retry_at. A new address''s pending claim is written here (claim), before the mail. Service role only (request-mail-verify).';
revoke all on function public.reserve_sender_confirmation(uuid, text, integer) from public, anon, authenticated;
grant execute on function public.reserve_sender_confirmation(uuid, text, integer) to service_role;

-- The provider refused the mail reserve_sender_confirmation noted: it did not go, the day is not
-- spent, and the claim it wrote for a new address (p_claim) goes, unless a token came to it since.
create function public.release_sender_confirmation(p_id bigint, p_claim uuid default null)
returns void language sql security definer set search_path = '' as $$
  delete from private.sender_confirmation_mails where id = p_id;
  delete from public.sender_emails s
    where s.id = p_claim and s.confirmed_at is null
      and not exists (select 1 from private.sender_email_tokens t where t.sender_email_id = s.id);
$$;
revoke all on function public.release_sender_confirmation(bigint, uuid) from public, anon, authenticated;
grant execute on function public.release_sender_confirmation(bigint, uuid) to service_role;

-- Once the mail is out: the claim (written by reserve_sender_confirmation, or an older one) gets
-- the hashes of the mail's tokens. A claim the owner deleted meanwhile stays deleted (writing it
-- again here would pass the owner's count): its mail's "Not me" is still kept, and its link
-- answers invalid.
create function public.request_sender_email(p_user_id uuid, p_email text, p_token_hash text,
                                            p_not_me_hash text)
returns uuid language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid;
begin
  delete from private.sender_email_tokens where expires_at < now();
  delete from private.not_me_tokens where expires_at < now();
  update public.sender_emails as s
    set status = case when s.status = 'verified' then s.status else 'pending' end,
        updated_at = now()
    where s.user_id = p_user_id and s.email = lower(p_email)
    returning s.id into v_id;
  if v_id is not null then
    insert into private.sender_email_tokens (sender_email_id, token_hash, expires_at)
      values (v_id, p_token_hash, now() + interval '24 hours')
      on conflict (sender_email_id) do update
        set token_hash = excluded.token_hash, expires_at = excluded.expires_at, created_at = now();
  end if;
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
  'Gives an owner''s claim on a sender address (written pending by reserve_sender_confirmation, or an older one) the hashes of the tokens just mailed to it (confirm, 24 hours, the claim''s older one stops working; "Not me", 7 days, the mail''s own: private.not_me_tokens); a claim deleted meanwhile is not written again (null). Service role only (request-mail-verify, after reserve_sender_confirmation).';
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

create trigger sender_emails_set_updated_at before update on public.sender_emails
  for each row execute function private.set_updated_at();

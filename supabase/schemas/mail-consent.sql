-- Double opt-in for the addresses a visitor types (issue 17). A visitor can name any address: a
-- comment's notification email (reply notifications, allow_creator_email) or a form's email
-- answer (the owner's audience, as_visitor_info 'email', and the letter a mail question sends by
-- itself). None of them gets mail from the platform or from an owner until the address itself
-- said yes, through a single-use link mailed to it (the model of the sender addresses,
-- mail.sql: only the hash of the token is stored, bound to what it confirms).
--
-- What is confirmed (docs/security.md "Addresses a visitor typed"):
-- * reply notifications: per address, owner and commenter (the account whose comment asked).
--   The yes answers what the mail named (replies to that person's comments on that owner's
--   site); another account naming the same address, or the same account on another owner's
--   blocks, is asked afresh.
-- * an owner's letters: per address and owner.
-- * an owner's notification address (a block's mail_to, notifications.sql): per address and
--   owner (for_notifications), unless it is the owner's own sign-in address or one of their
--   verified sender addresses (notification_address_allowed). A yes to owner A is not one to B.
-- The confirmation mail is a `confirm.mail` job, one per mailbox, owner and commenter a day (its
-- dedupe key). start_mail_consent sends at most one confirmation mail per mailbox a day (a reply
-- confirmation past it is dropped, a letters one waits a day), at most the owner's daily cap
-- (mail_consent.owner_daily_free / _paid; past it the ask is dropped and counted for the owner:
-- confirmation_mail_usage), none to a suppressed address. Neither the mail nor its link's page
-- (mail_consent_info) carries free text of a visitor's or an owner's (an owner can be their own
-- visitor, and the address is anyone's): no block name, site or profile name, only the scope,
-- the address, the language, the address the mails would come from (consent_sender: the owner's
-- verified sender address for letters, else the platform's) and (notify) the owner's sign-in
-- address. "Not me" on its page puts the address on the suppression list: the platform then
-- sends it nothing at all. Every count of an address (the ask's dedupe key, the address's day,
-- the suppression checks) is of its mailbox (private.mailbox_key, mail.sql): victim+1@x and
-- victim+2@x are victim@x. Rows that never confirmed go when their token expires
-- (purge_mail_consents, daily).

create table private.mail_consents (
  id bigint generated always as identity primary key,
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  -- the owner: reply notifications on their blocks, or their letters
  owner_id uuid not null references public.profiles (id) on delete cascade,
  -- the block that last asked (for letters, its sender address is the one the mail and the page name)
  block_id uuid references public.blocks (id) on delete set null,
  confirmed_at timestamptz,
  -- the live token's SHA-256 (hex): one per row, a new mail replaces it, spent when answered
  token_hash text unique check (token_hash ~ '^[0-9a-f]{64}$'),
  token_expires_at timestamptz,
  -- the last confirmation mail, and the job that sent it (a retried job may send it again)
  mailed_at timestamptz,
  mailed_job bigint,
  created_at timestamptz not null default now(),
  -- reply notifications: the account whose comment asked for them (the consent is theirs alone);
  -- null: the owner's letters
  commenter_id uuid references auth.users (id) on delete cascade,
  -- the language of the visitor who asked: the mail's, and its link's page's
  locale public.language_code not null default 'en',
  -- the last time the owner's daily cap kept this confirmation mail back
  capped_at timestamptz,
  -- the owner's notification mails (a block's mail_to), not their letters (commenter_id null)
  for_notifications boolean not null default false,
  check (not for_notifications or commenter_id is null),
  unique nulls not distinct (email, owner_id, commenter_id, for_notifications)
);
comment on table private.mail_consents is
  'Double opt-in of visitor-typed addresses: reply notifications (per owner and commenter), an owner''s letters (commenter_id null) or an owner''s notification address (for_notifications), confirmed through a single-use token mailed to the address.';
alter table private.mail_consents enable row level security;
revoke all on private.mail_consents from public, anon, authenticated;
create index mail_consents_owner_mailed_idx on private.mail_consents (owner_id, mailed_at);
create index mail_consents_commenter_id_idx on private.mail_consents (commenter_id) where commenter_id is not null;
create index mail_consents_block_id_idx on private.mail_consents (block_id) where block_id is not null;
create index mail_consents_unconfirmed_idx on private.mail_consents (created_at) where confirmed_at is null;

-- Every confirmation mail sent, by address and owner: what the daily caps count. Kept apart from
-- the consent rows, which go with the account that asked (a visitor who deletes their account
-- must not give the address or the owner their day back: the eighth hostile review had one
-- address mailed three times a day that way). One row per job (a retried job replaces its own);
-- purged after two days with the consents (purge_mail_consents).
create table private.confirmation_mails (
  job_id bigint primary key,
  email text not null,
  owner_id uuid not null,
  mailed_at timestamptz not null default now(),
  -- private.mailbox_key(email): what the address's day counts (victim+1@ is victim@)
  mailbox text generated always as (private.mailbox_key(email)) stored
);
comment on table private.confirmation_mails is
  'Confirmation mails sent (double opt-in), by address and owner, for the daily caps; not tied to the account that asked.';
alter table private.confirmation_mails enable row level security;
revoke all on private.confirmation_mails from public, anon, authenticated;
create index confirmation_mails_mailbox_idx on private.confirmation_mails (mailbox, mailed_at);
create index confirmation_mails_owner_idx on private.confirmation_mails (owner_id, mailed_at);

-- At most one visitor-triggered ask a day per mailbox: a consent ask (start_mail_consent,
-- private.confirmation_mails) waits for a sender confirmation's day (request-mail-verify,
-- private.sender_confirmation_mails) as for another consent ask's (rev-mail3 D4). A sender
-- confirmation, which the owner asks for while signed in, waits only for another sender
-- confirmation (rev-fixes D4). Both take this lock first, one mailbox at a time.
create function private.lock_mailbox_asks(p_mailbox text)
returns void language sql set search_path = '' as $$
  select pg_advisory_xact_lock(hashtextextended('mailbox_ask:' || p_mailbox, 0));
$$;
revoke execute on function private.lock_mailbox_asks(text) from public;

-- When the mailbox (private.mailbox_key) was last asked in the last 24 hours, by either kind of
-- confirmation mail; null when it was not. p_job_id: a consent job's own earlier try, not counted.
-- What a consent ask waits for (start_mail_consent). A sender confirmation counts only its own
-- kind (reserve_sender_confirmation): a visitor typing an owner's address into any form must not
-- keep the owner from proving it theirs (rev-fixes D4).
create function private.mailbox_last_ask(p_mailbox text, p_job_id bigint)
returns timestamptz language sql stable set search_path = '' as $$
  select greatest(
    (select max(mailed_at) from private.sender_confirmation_mails
      where mailbox = p_mailbox and mailed_at > now() - interval '24 hours'),
    (select max(mailed_at) from private.confirmation_mails
      where mailbox = p_mailbox and job_id is distinct from p_job_id
        and mailed_at > now() - interval '24 hours'));
$$;
revoke execute on function private.mailbox_last_ask(text, bigint) from public;

-- A confirm.mail job that ended failed (finish_jobs: the provider refused the mail, or its
-- retries ran out) mailed nothing: its mailbox's and its owner's day are given back, as
-- request-mail-verify gives a refused sender confirmation's back (release_sender_confirmation),
-- and its consent row no longer says it was mailed (its token went nowhere) (rev-fixes D5).
create function private.release_mail_consent(p_job_id bigint)
returns void language sql set search_path = '' as $$
  delete from private.not_me_tokens
    where token_hash in (select token_hash from private.mail_consents where mailed_job = p_job_id);
  update private.mail_consents
    set mailed_at = null, mailed_job = null, token_hash = null, token_expires_at = null
    where mailed_job = p_job_id and confirmed_at is null;
  delete from private.confirmation_mails where job_id = p_job_id;
$$;
revoke execute on function private.release_mail_consent(bigint) from public;

-- Whether an address confirmed reply notifications for a commenter on an owner's blocks, or (p_commenter_id
-- null) the owner's letters, or (p_notifications) the owner's notification mails.
create function private.mail_confirmed(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                       p_notifications boolean default false)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.mail_consents c
                 where c.email = lower(btrim(p_email)) and c.owner_id = p_owner_id
                   and c.commenter_id is not distinct from p_commenter_id
                   and c.for_notifications = coalesce(p_notifications, false)
                   and c.confirmed_at is not null);
$$;
revoke execute on function private.mail_confirmed(text, uuid, uuid, boolean) from public;

-- Whether an owner's notification mails (a block's mail_to) may go to an address: the owner's own
-- sign-in address, one of their verified sender addresses, or an address that confirmed this
-- owner's notifications through the link mailed to it. Anything else gets no notification.
create function private.notification_address_allowed(p_owner_id uuid, p_email text)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from auth.users u
                 where u.id = p_owner_id and lower(u.email) = lower(btrim(p_email)))
    or exists (select 1 from public.sender_emails s
               where s.user_id = p_owner_id and s.status = 'verified'
                 and lower(s.email) = lower(btrim(p_email)))
    or private.mail_confirmed(p_email, p_owner_id, null, true);
$$;
revoke execute on function private.notification_address_allowed(uuid, text) from public;

-- The visitor's language for a mail they caused: the first of en/ko in the request's
-- Accept-Language (the browser's, as PostgREST passes it), else p_fallback (the block's).
create function private.request_locale(p_fallback public.language_code)
returns public.language_code language sql stable set search_path = '' as $$
  select coalesce(
    (select case when btrim(t) like 'ko%' then 'ko' else 'en' end::public.language_code
     from unnest(string_to_array(lower(left(
            nullif(current_setting('request.headers', true), '')::jsonb ->> 'accept-language', 200)), ','))
          with ordinality u(t, n)
     where btrim(split_part(t, ';', 1)) ~ '^(en|ko)(-|$)'
     order by n limit 1),
    p_fallback, 'en');
$$;
revoke execute on function private.request_locale(public.language_code) from public;

-- The dedupe key of today's `confirm.mail` job asking p_email about reply notifications for
-- p_commenter_id, or (p_commenter_id null) p_owner_id's letters, or (p_notifications) their
-- notification mails: one such job per mailbox (private.mailbox_key: a.b+1@gmail.com is
-- ab@gmail.com), owner and commenter (or scope) a UTC day. Until rev-mail2's review it keyed the
-- address as typed, so each spelling of one mailbox had a job, and the letters ones each waited
-- for the mailbox's next free day: one mail a day for as many days as an owner typed spellings.
-- ask_mail_consent enqueues under it; consent_asked_today reads it (the workspace's resend).
create function private.consent_ask_key(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                        p_notifications boolean default false)
returns text language sql stable set search_path = '' as $$
  select 'confirm.mail:' || p_owner_id || ':'
    || coalesce(p_commenter_id::text,
                case when coalesce(p_notifications, false) then 'notify' else 'letters' end)
    || ':' || private.mailbox_key(p_email) || ':' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD');
$$;
revoke execute on function private.consent_ask_key(text, uuid, uuid, boolean) from public;

-- Whether that confirmation was asked today (its job exists, whatever became of it).
create function private.consent_asked_today(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                            p_notifications boolean default false)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from private.jobs j
                 where j.dedupe_key = private.consent_ask_key(p_email, p_owner_id, p_commenter_id,
                                                              p_notifications));
$$;
revoke execute on function private.consent_asked_today(text, uuid, uuid, boolean) from public;

-- Asks an address to confirm reply notifications for p_commenter_id's comments on p_owner_id's
-- blocks, or (p_commenter_id null) p_owner_id's letters, or (p_notifications) p_owner_id's
-- notification mails: one `confirm.mail` job per address, owner and commenter (or scope) a day. Answers 'confirmed', 'suppressed' (nothing is asked) or 'pending'
-- (a confirmation mail is asked for; start_mail_consent decides whether it goes).
create function private.ask_mail_consent(p_email text, p_owner_id uuid, p_commenter_id uuid,
                                         p_block_id uuid, p_locale public.language_code,
                                         p_notifications boolean default false)
returns text language plpgsql set search_path = '' as $$
declare
  v_email text := lower(btrim(p_email));
  v_notify boolean := coalesce(p_notifications, false) and p_commenter_id is null;
begin
  if private.mailbox_suppressed(v_email) then
    return 'suppressed';
  end if;
  if private.mail_confirmed(v_email, p_owner_id, p_commenter_id, v_notify) then
    return 'confirmed';
  end if;
  perform public.enqueue_job('confirm.mail',
    jsonb_build_object('email', v_email, 'owner_id', p_owner_id, 'commenter_id', p_commenter_id,
                       'block_id', p_block_id, 'locale', coalesce(p_locale, 'en'))
      || case when v_notify then jsonb_build_object('scope', 'notify') else '{}'::jsonb end,
    private.consent_ask_key(v_email, p_owner_id, p_commenter_id, v_notify),
    null, null, 'mail');
  return 'pending';
end;
$$;
revoke execute on function private.ask_mail_consent(text, uuid, uuid, uuid, public.language_code, boolean) from public;

-- Whether an owner's letter may go to an address a visitor typed: the address confirmed the
-- owner's letters, or the owner has it as an active member they added themselves (by hand, by
-- CSV, by a manual send that registers: the owner's responsibility).
create function private.letters_allowed(p_owner_id uuid, p_email text)
returns boolean language sql stable set search_path = '' as $$
  select private.mail_confirmed(p_email, p_owner_id, null)
    or exists (select 1 from public.audience_members a
               where a.user_id = p_owner_id and lower(a.email) = lower(btrim(p_email))
                 and not a.awaiting_confirmation);
$$;
revoke execute on function private.letters_allowed(uuid, text) from public;

-- How many confirmation mails an owner's blocks and forms may cause in 24 hours: by plan
-- (mail_consent.owner_daily_free, default 30; mail_consent.owner_daily_paid, default 300;
-- docs/security.md says why).
create function private.owner_confirmation_cap(p_owner_id uuid)
returns integer language sql stable set search_path = '' as $$
  select case when coalesce((select paid from public.profiles where id = p_owner_id), false)
              then (private.setting('mail_consent.owner_daily_paid', '300'::jsonb))::text::integer
              else (private.setting('mail_consent.owner_daily_free', '30'::jsonb))::text::integer end;
$$;
revoke execute on function private.owner_confirmation_cap(uuid) from public;

-- The caller's confirmation mails of the last 24 hours: {limit, sent, capped} (capped: asks the
-- daily cap kept back, not sent; the audience page shows them). Counts only.
create function public.confirmation_mail_usage()
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'limit', private.owner_confirmation_cap((select auth.uid())),
    'sent', (select count(*) from private.confirmation_mails m
             where m.owner_id = (select auth.uid()) and m.mailed_at > now() - interval '24 hours'),
    'capped', count(*) filter (where c.capped_at > now() - interval '24 hours'
                                 and (c.mailed_at is null or c.mailed_at < c.capped_at)
                                 and c.confirmed_at is null))
  from private.mail_consents c
  where c.owner_id = (select auth.uid());
$$;
comment on function public.confirmation_mail_usage() is
  'The caller''s confirmation mails (double opt-in of visitor-typed addresses) in the last 24 hours: the plan''s limit, how many went, how many the limit kept back.';
revoke all on function public.confirmation_mail_usage() from public, anon;
grant execute on function public.confirmation_mail_usage() to authenticated;

-- Consent rows that never confirmed are kept while their link can still be answered: once the
-- token expired (or, never mailed, a week after the ask) they go. Daily (cron
-- mail-consents-purge); the caps read only the last 24 hours of confirmation_mails, whose rows go
-- after two days.
create function private.purge_mail_consents()
returns integer language sql set search_path = '' as $$
  delete from private.confirmation_mails where mailed_at < now() - interval '2 days';
  delete from private.not_me_tokens where expires_at < now();
  with gone as (
    delete from private.mail_consents
    where confirmed_at is null
      and coalesce(token_expires_at, greatest(mailed_at, capped_at, created_at) + interval '7 days') < now()
    returning 1)
  select count(*)::integer from gone;
$$;
revoke execute on function private.purge_mail_consents() from public;

-- The address an owner's mails to a confirming address would come from, which the confirmation
-- mail and its page name (an address the owner proved theirs, not words they chose): letters
-- (p_letters) come from a verified sender address of the owner's, the asking block's own
-- (block_private.mail_from) when it is one, else their first; null: the platform's (reply and
-- notification mails always, letters of an owner with no verified sender).
create function private.consent_sender(p_owner_id uuid, p_block_id uuid, p_letters boolean)
returns text language sql stable set search_path = '' as $$
  select s.email from public.sender_emails s
  where p_letters and s.user_id = p_owner_id and s.status = 'verified'
  order by s.email = (select bp.mail_from from public.block_private bp where bp.block_id = p_block_id)
             desc nulls last, s.created_at
  limit 1;
$$;
revoke execute on function private.consent_sender(uuid, uuid, boolean) from public;

-- The worker starts one `confirm.mail` job (running) with the hash of the token it is about to
-- mail. Answers {skip: reason}, {defer_until} (a letters confirmation when another went to the
-- address less than a day ago), or what the mail needs: {to, scope: reply|letters|notify, language,
-- block: {id}, owner_id, sender, owner_email}. No confirmation carries a word the owner chose (no
-- block name or site, no profile name: an owner can pose as their own visitor and type any
-- address): only the address the mails would come from (sender: consent_sender; null, the
-- platform's) and, a notify one, the owner's sign-in address. The token replaces the row's older
-- one; a job run again (retried before the provider took it) replaces its own. In order: the
-- same confirmation to the mailbox in the last day (skipped), the mailbox's day (one
-- confirmation mail a day: a reply one past it is dropped, as many accounts may name one address;
-- a letters one, one per owner, waits), then the owner's day (owner_confirmation_cap: past it the
-- ask is dropped and the row's capped_at tells the owner).
create function public.start_mail_consent(p_job_id bigint, p_token_hash text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_email text;
  v_owner uuid;
  v_commenter uuid;
  v_row private.mail_consents;
  v_last timestamptz;
  v_block public.blocks;
  v_sender text;
  v_locale public.language_code;
  v_notify boolean;
  v_owner_email text;
begin
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$' then
    raise exception 'not a token hash' using errcode = 'P0001';
  end if;
  select * into v_job from private.jobs where id = p_job_id and kind = 'confirm.mail' and status = 'running';
  if not found then
    return jsonb_build_object('skip', 'the job is no longer running');
  end if;
  v_email := lower(btrim(v_job.payload ->> 'email'));
  v_owner := (v_job.payload ->> 'owner_id')::uuid;
  v_commenter := (v_job.payload ->> 'commenter_id')::uuid;
  v_notify := coalesce(v_job.payload ->> 'scope', '') = 'notify' and v_commenter is null;
  v_locale := case when v_job.payload ->> 'locale' = 'ko' then 'ko' else 'en' end;
  if v_email is null or not private.is_valid_email(v_email) then
    return jsonb_build_object('skip', 'no address');
  end if;
  if v_owner is null then
    -- asked before consents were per owner and commenter (20261126 migration): ask again
    return jsonb_build_object('skip', 'a request of the old form');
  end if;
  -- one address at a time: the daily cap is read and written under this lock
  perform private.lock_mailbox_asks(private.mailbox_key(v_email));
  if private.mailbox_suppressed(v_email) then
    return jsonb_build_object('skip', 'the address is suppressed');
  end if;
  select * into v_block from public.blocks where id = (v_job.payload ->> 'block_id')::uuid;
  if v_block.id is null or v_block.owner_id <> v_owner then
    return jsonb_build_object('skip', 'the block was deleted');
  end if;
  if not exists (select 1 from public.profiles where id = v_owner) then
    return jsonb_build_object('skip', 'the owner is gone');
  end if;
  if v_commenter is not null and not exists (select 1 from auth.users where id = v_commenter) then
    return jsonb_build_object('skip', 'the commenter is gone');
  end if;
  insert into private.mail_consents (email, owner_id, commenter_id, block_id, locale, for_notifications)
    values (v_email, v_owner, v_commenter, v_block.id, v_locale, v_notify)
    on conflict (email, owner_id, commenter_id, for_notifications) do nothing;
  select * into v_row from private.mail_consents
    where email = v_email and owner_id = v_owner and commenter_id is not distinct from v_commenter
      and for_notifications = v_notify
    for update;
  if v_row.confirmed_at is not null then
    return jsonb_build_object('skip', 'the address already confirmed');
  end if;
  -- this confirmation (owner, and commenter or scope) went to the mailbox today, in any spelling
  if exists (select 1 from private.mail_consents c
             where c.owner_id = v_owner and c.commenter_id is not distinct from v_commenter
               and c.for_notifications = v_notify and c.mailed_at > now() - interval '24 hours'
               and c.mailed_job is distinct from p_job_id
               and private.mailbox_key(c.email) = private.mailbox_key(v_email)) then
    return jsonb_build_object('skip', 'this confirmation went to the address less than a day ago');
  end if;
  -- the mailbox's day, a sender confirmation included (private.mailbox_last_ask)
  v_last := private.mailbox_last_ask(private.mailbox_key(v_email), p_job_id);
  if v_last is not null then
    if v_commenter is not null then
      return jsonb_build_object('skip', 'a confirmation went to the address less than a day ago');
    end if;
    return jsonb_build_object('defer_until', v_last + interval '24 hours');
  end if;
  -- the owner's day: one owner at a time, so concurrent jobs cannot both take the last one
  perform pg_advisory_xact_lock(hashtextextended('mail_consent_owner:' || v_owner, 0));
  if (select count(*) from private.confirmation_mails
      where owner_id = v_owner and mailed_at > now() - interval '24 hours'
        and job_id <> p_job_id) >= private.owner_confirmation_cap(v_owner) then
    update private.mail_consents set capped_at = now() where id = v_row.id;
    return jsonb_build_object('skip', 'the owner''s confirmation mails of the day are spent', 'capped', true);
  end if;

  update private.mail_consents
    set token_hash = p_token_hash, token_expires_at = now() + interval '7 days',
        mailed_at = now(), mailed_job = p_job_id, block_id = v_block.id, locale = v_locale
    where id = v_row.id;
  insert into private.confirmation_mails (job_id, email, owner_id) values (p_job_id, v_email, v_owner)
    on conflict (job_id) do update set mailed_at = now();
  -- the mail's "Not me", which outlives this row, its accounts and the next mail's token
  insert into private.not_me_tokens (token_hash, email, scope, locale, owner_id, expires_at)
    values (p_token_hash, v_email,
            case when v_notify then 'notify' when v_commenter is null then 'letters' else 'reply' end,
            v_locale, v_owner, now() + interval '7 days')
    on conflict (token_hash) do nothing;
  if v_notify then
    select u.email into v_owner_email from auth.users u where u.id = v_owner;
  end if;
  v_sender := private.consent_sender(v_owner, v_block.id, v_commenter is null and not v_notify);
  return jsonb_build_object(
    'to', v_email,
    'scope', case when v_notify then 'notify' when v_commenter is null then 'letters' else 'reply' end,
    'language', v_locale,
    'block', jsonb_build_object('id', v_block.id),
    'owner_id', v_owner, 'sender', v_sender, 'owner_email', v_owner_email);
end;
$$;
comment on function public.start_mail_consent(bigint, text) is
  'Starts a running confirm.mail job with the hash of the token it mails: the mail''s context, a skip reason, or defer_until (one confirmation mail per address a day; the owner''s daily cap). Service role only (jobs-worker).';
revoke all on function public.start_mail_consent(bigint, text) from public, anon, authenticated;
grant execute on function public.start_mail_consent(bigint, text) to service_role;

-- What a live token asks, for the confirmation page: {scope, email, locale, sender, owner_email},
-- or null when the token is unknown, spent or expired (scope sender: the "Not me" link of a
-- sender confirmation mail, which can only say no). Only what the mail says: the page is the
-- mail's, and the address anyone's. No block name, no account name, both the owner's words
-- (rev-mail2, 2026-11-28: a block named "Your bank account is locked, call ..." was shown to
-- whatever address a visitor typed). sender: the address the mails would come from
-- (consent_sender; null: the platform's, which the confirm-email function names); owner_email,
-- a notify token's only: the owner's sign-in address (who asked).
create function public.mail_consent_info(p_token_hash text)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
           'scope', case when c.for_notifications then 'notify'
                         when c.commenter_id is null then 'letters' else 'reply' end,
           'email', c.email, 'locale', c.locale,
           'sender', private.consent_sender(c.owner_id, c.block_id,
                                            c.commenter_id is null and not c.for_notifications),
           'owner_email', case when c.for_notifications then
             (select u.email from auth.users u where u.id = c.owner_id) end)
  from private.mail_consents c
  where c.token_hash = p_token_hash and c.token_expires_at > now()
  -- a "Not me" token alone (private.not_me_tokens): a sender confirmation mail's (scope sender,
  -- named by the sign-in address of the account that asked, while it exists), or a consent mail's
  -- whose row went or holds a later mail's token (it can only say no: nothing is named)
  union all
  select jsonb_build_object('scope', t.scope, 'email', t.email, 'block_name', null,
                            'locale', t.locale, 'owner_name', null,
                            'owner_email', case when t.scope = 'sender' then u.email end)
  from private.not_me_tokens t left join auth.users u on u.id = t.owner_id
  where t.token_hash = p_token_hash and t.expires_at > now()
    and not exists (select 1 from private.mail_consents c
                    where c.token_hash = p_token_hash and c.token_expires_at > now());
$$;
revoke all on function public.mail_consent_info(text) from public, anon, authenticated;
grant execute on function public.mail_consent_info(text) to service_role;

-- Spends a token: p_confirm true confirms (the owner's members with the address stop waiting, and
-- the letters its forms held for it are queued again), false is "not me" (private.not_me: the
-- mailbox joins the suppression list). A "Not me" token alone (private.not_me_tokens) answers
-- false only (true: invalid). Answers {outcome: confirmed | declined | invalid, scope, email}.
create function public.answer_mail_consent(p_token_hash text, p_confirm boolean)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_row private.mail_consents;
  v_not_me private.not_me_tokens;
begin
  -- the row lock makes the token single use: a second call waits, then finds it gone
  select * into v_row from private.mail_consents
    where token_hash = p_token_hash and token_expires_at > now() for update;
  if not found then
    -- a "Not me" token alone (private.not_me_tokens): a sender confirmation mail's, or a consent
    -- mail's whose row went (its owner's or its commenter's account was deleted) or holds a later
    -- mail's token. It can only decline, once
    delete from private.not_me_tokens
      where token_hash = p_token_hash and expires_at > now() and not p_confirm
      returning * into v_not_me;
    if not found then
      return jsonb_build_object('outcome', 'invalid');
    end if;
    perform private.not_me(v_not_me.email, v_not_me.scope);
    return jsonb_build_object('outcome', 'declined', 'scope', v_not_me.scope, 'email', v_not_me.email);
  end if;
  -- the mail's token is spent: its "Not me" too
  delete from private.not_me_tokens where token_hash = p_token_hash;
  update private.mail_consents
    set token_hash = null, token_expires_at = null,
        confirmed_at = case when p_confirm then now() end
    where id = v_row.id;
  if not p_confirm then
    perform private.not_me(v_row.email, 'consent');
  elsif v_row.commenter_id is null and not v_row.for_notifications then
    update public.audience_members set awaiting_confirmation = false
      where user_id = v_row.owner_id and lower(email) = v_row.email and awaiting_confirmation;
    -- the letters the owner's forms would have sent it (reserve_trigger_letter waited); none
    -- when the address unsubscribed from the owner since it was asked: each would only be
    -- skipped as unsubscribed (a yes never opts an address back in, rev-mission D1)
    insert into private.jobs (kind, payload, dedupe_key)
      select 'letter.trigger', j.payload, j.dedupe_key || ':confirmed'
      from private.jobs j
      where j.kind = 'letter.trigger' and j.status = 'done' and j.finished_at > now() - interval '8 days'
        and j.payload ->> 'owner_id' = v_row.owner_id::text and j.result ->> 'awaiting' = v_row.email
        and j.dedupe_key not like '%:confirmed'
        and not private.letter_unsubscribed(v_row.owner_id, v_row.email)
      on conflict (dedupe_key) do nothing;
  end if;
  return jsonb_build_object('outcome', case when p_confirm then 'confirmed' else 'declined' end,
    'scope', case when v_row.for_notifications then 'notify'
                  when v_row.commenter_id is null then 'letters' else 'reply' end,
    'email', v_row.email);
end;
$$;
comment on function public.answer_mail_consent(text, boolean) is
  'Spends a mail confirmation token: confirms (true) or suppresses the mailbox (false, "not me"); a "Not me" token alone (a sender confirmation mail''s, or a consent mail''s whose row went or holds a later token: private.not_me_tokens) answers false only. Outcome invalid when unknown, spent or expired. Service role only (confirm-email).';
revoke all on function public.answer_mail_consent(text, boolean) from public, anon, authenticated;
grant execute on function public.answer_mail_consent(text, boolean) to service_role;

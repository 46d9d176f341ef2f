-- A sender email is one owner's claim on an address, verified only by that owner's own proof
-- (issue 17). Before, request-mail-verify and check-mail-verified read the SES identity's
-- account-wide status: once any owner had verified x@domain, every other owner who added it was
-- "verified" without a mail, sent letters from it and passed the Brunch writer check with it.
--
-- Now request-mail-verify mails the address a link with a single-use token bound to the owner and
-- the address (stored here as a SHA-256 hash, for 24 hours); confirm-mail-verify, called by the
-- signed-in owner from that link, spends it and sets confirmed_at. A row is verified only when it
-- is confirmed AND the provider can send as the address (the SES identity, which stays the
-- platform's: created after the first owner's confirmation, deleted with the last confirmed
-- claim). The database refuses a verified row without a confirmation.

alter table public.sender_emails add column confirmed_at timestamptz;
comment on column public.sender_emails.confirmed_at is
  'When this owner opened the confirmation link mailed to the address (confirm-mail-verify); null until then. verified needs it.';

-- No owner proved an address before this migration, so none stays verified: each confirms again
-- (one mail; the provider's identity is still verified). Brunch writer checks passed with such an
-- address are undone too, since they may have been passed with another owner's address.
update public.sender_emails set status = 'not_verified' where status = 'verified';
update public.block_private set brunch_profile_page = null where brunch_profile_page is not null;

alter table public.sender_emails
  add constraint sender_emails_verified_needs_confirmation
  check (status <> 'verified' or confirmed_at is not null);

-- delete-mail-verified counts the other owners' claims of an address
create index sender_emails_email_idx on public.sender_emails (email);

-- Deleting goes through delete-mail-verified: it releases the provider's identity with the last
-- confirmed claim and clears the letters that named the address.
drop policy "Users can delete their own sender emails" on public.sender_emails;
revoke delete on public.sender_emails from anon, authenticated;

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

create function public.request_sender_email(p_user_id uuid, p_email text, p_token_hash text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  delete from private.sender_email_tokens where expires_at < now();
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
  return v_id;
end;
$$;
comment on function public.request_sender_email(uuid, text, text) is
  'Adds (or asks again for) an owner''s claim on a sender address with the hash of the token just mailed to it; an older token of the claim stops working. Service role only (request-mail-verify).';
revoke all on function public.request_sender_email(uuid, text, text) from public, anon, authenticated;
grant execute on function public.request_sender_email(uuid, text, text) to service_role;

create function public.confirm_sender_email(p_user_id uuid, p_token_hash text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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

-- (as in supabase/schema.sql before this migration, with the sender checked again at send time)
CREATE OR REPLACE FUNCTION public.prepare_letter_jobs(p_job_ids bigint[])
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_jobs jsonb;
  v_publishes jsonb;
begin
  create temporary table if not exists pg_temp.letter_batch (
    job_id bigint primary key, delivery_id uuid, publish_id uuid, owner_id uuid, email text,
    name text, status text, skip text
  ) on commit drop;
  truncate pg_temp.letter_batch;
  insert into pg_temp.letter_batch (job_id, delivery_id, publish_id, owner_id, email, name, status)
    select j.id, d.id, d.publish_id, d.user_id, d.email, nullif(m.creator_name, ''), d.status::text
    from private.jobs j
    left join public.deliveries d on d.id = (j.payload ->> 'delivery_id')::uuid
    left join public.audience_members m on m.id = d.audience_member_id
    where j.id = any(coalesce(p_job_ids, '{}')) and j.status = 'running' and j.kind = 'letter';

  update pg_temp.letter_batch b set skip = case
      when b.delivery_id is null then 'the send was deleted'
      when b.status <> 'reserved' then 'already ' || b.status
      when exists (select 1 from public.unsubscribes u where u.user_id = b.owner_id and lower(u.email) = lower(b.email))
        then 'the address unsubscribed'
      when exists (select 1 from private.mail_suppressions s where s.email = lower(b.email))
        then 'the address is suppressed (bounce or complaint)'
    end;
  -- a sender whose letters bounce or draw complaints too often stops sending (mail_sender_status)
  update pg_temp.letter_batch b set skip = 'the sender is suspended (bounces or complaints)'
    where b.skip is null and b.owner_id in (
      select o.owner_id from (select distinct owner_id from pg_temp.letter_batch where owner_id is not null) o
      where (public.mail_sender_status(o.owner_id) ->> 'suspended')::boolean);
  -- the owner's address (From, or Reply-To when the letter goes from the platform address) must
  -- still be a verified claim of theirs: deleted or no longer verified meanwhile, nothing goes
  update pg_temp.letter_batch b set skip = 'the sender address is no longer verified'
    where b.skip is null and not exists (
      select 1 from public.publishes p
      join public.sender_emails s
        on s.user_id = p.user_id and s.email = lower(coalesce(p.reply_to, p.mail_from))
      where p.id = b.publish_id and s.status = 'verified');
  update public.deliveries d set status = 'skipped'
    from pg_temp.letter_batch b
    where d.id = b.delivery_id and b.status = 'reserved' and b.skip is not null;

  select coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
           'id', b.job_id, 'delivery_id', b.delivery_id, 'publish_id', b.publish_id, 'to', b.email,
           'name', b.name, 'skip', b.skip)) order by b.job_id), '[]'::jsonb)
    into v_jobs from pg_temp.letter_batch b;
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id, 'block_id', p.block_id, 'user_id', p.user_id, 'subject', p.subject,
           'html', p.html, 'text', p.text, 'from', p.mail_from, 'from_name', p.mail_name,
           'reply_to', p.reply_to, 'language', pr.language, 'owner_name', pr.name,
           'block_name', bl.name)), '[]'::jsonb)
    into v_publishes
    from public.publishes p
    join public.profiles pr on pr.id = p.user_id
    join public.blocks bl on bl.id = p.block_id
    where p.id in (select publish_id from pg_temp.letter_batch where skip is null);
  return jsonb_build_object('jobs', v_jobs, 'publishes', v_publishes);
end;
$function$;

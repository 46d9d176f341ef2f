-- Letters (issue 11): templates, sends reserved in one transaction (a publish, one delivery and
-- one job per recipient), the worker's batch preparation, the delivery counts, the reconciliation
-- of sends the worker lost track of, and the public view of a letter.
--
-- Who writes what:
--   block_private letter fields   save_letter (the `save-letter` function renders the HTML from
--                                 the block model on the server; the client never sends HTML)
--   publishes, deliveries, jobs   reserve_letter (`send-letter`, `publish-letter`)
--   delivery states and counts    finish_jobs (sent), record_mail_event (provider events),
--                                 prepare_letter_jobs (skipped), settle_letter_jobs (failed)
-- Every function here is executable by service_role only, except get_letter_view (public).

create table public.letter_templates (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null,
  user_id uuid not null default auth.uid(),
  mail_html text check (char_length(mail_html) <= 1000000),
  mail_title text check (char_length(mail_title) <= 200),
  mail_text text check (char_length(mail_text) <= 100000),
  mail_name text check (char_length(mail_name) <= 100),
  cta boolean not null default false,
  cta_link text check (char_length(cta_link) <= 2000),
  cta_text text check (char_length(cta_text) < 100),
  image_link text check (char_length(image_link) <= 2000),
  page_url text check (char_length(page_url) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (block_id, user_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.letter_templates is 'Saved templates of a letter block (the default one is kept on block_private).';
call private.owners_write('public.letter_templates', 'letter templates');
revoke update on public.letter_templates from authenticated;
grant update (id, block_id, user_id, mail_html, mail_title, mail_text, mail_name, cta, cta_link, cta_text, image_link, page_url, created_at, updated_at) on public.letter_templates to authenticated;
create index letter_templates_block_id_idx on public.letter_templates (block_id);
create index letter_templates_user_id_idx on public.letter_templates (user_id);

create table public.publishes (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null,
  user_id uuid not null,
  subject text not null default '' check (char_length(subject) <= 200),
  html text check (char_length(html) <= 1000000),
  group_name text check (char_length(group_name) <= 100),
  reserved_count integer not null default 0 check (reserved_count >= 0),
  sent_count integer not null default 0 check (sent_count >= 0),
  opened_count integer not null default 0 check (opened_count >= 0),
  delivered_count integer not null default 0 check (delivered_count >= 0),
  bounced_count integer not null default 0 check (bounced_count >= 0),
  rejected_count integer not null default 0 check (rejected_count >= 0),
  complaint_count integer not null default 0 check (complaint_count >= 0),
  created_at timestamptz not null default now(),
  -- what a send needs, kept with the publish
  text text check (char_length(text) <= 300000),
  mail_from text check (char_length(mail_from) <= 320),
  mail_name text check (char_length(mail_name) <= 100),
  reply_to text check (char_length(reply_to) <= 320),
  skipped_count integer not null default 0 check (skipped_count >= 0),
  failed_count integer not null default 0 check (failed_count >= 0),
  -- the form whose responses send this letter by themselves (letter-triggers.sql): one such
  -- automatic send per letter and form, its deliveries one per address
  trigger_block_id uuid references public.blocks (id) on delete set null,
  foreign key (block_id, user_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.publishes is 'One letter send (publish) of a letter block with its delivery counts. Written by the send functions.';
call private.clients_read('public.publishes', 'Owners can read their publishes',
  'user_id = (select auth.uid())');
create index publishes_block_id_created_at_idx on public.publishes (block_id, created_at desc);
create index publishes_user_id_idx on public.publishes (user_id);
create unique index publishes_block_id_trigger_block_id_idx on public.publishes (block_id, trigger_block_id)
  where trigger_block_id is not null;
create index publishes_trigger_block_id_idx on public.publishes (trigger_block_id);

create table public.deliveries (
  id uuid primary key default gen_random_uuid(),
  publish_id uuid not null references public.publishes (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  audience_member_id uuid references public.audience_members (id) on delete set null,
  email text not null check (char_length(email) <= 100),
  status public.delivery_status not null default 'reserved',
  provider_message_id text check (char_length(provider_message_id) <= 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  reason text check (char_length(reason) <= 500),
  unique (publish_id, email)
);
comment on table public.deliveries is 'Per-recipient state of a letter send (reserved, sent, delivered, opened, bounced, ...).';
comment on column public.deliveries.reason is
  'Why the mail was not sent: the provider''s answer when it failed, the rule (DELIVERY_SKIP_REASONS) when it was skipped. Shown in the letter history.';
call private.clients_read('public.deliveries', 'Owners can read their deliveries',
  'user_id = (select auth.uid())');
-- The owner reads what the letter history shows, not SES's message id nor when the row last
-- changed: a suppressed address's bounce has neither SES's id nor SES's delay, so those would
-- tell it from a real bounce (docs/security.md "What an owner learns of a suppressed address").
revoke select on public.deliveries from authenticated;
grant select (id, publish_id, user_id, audience_member_id, email, status, reason, created_at)
  on public.deliveries to authenticated;
create index deliveries_user_id_idx on public.deliveries (user_id);
create index deliveries_provider_message_id_idx on public.deliveries (provider_message_id);
create index deliveries_audience_member_id_idx on public.deliveries (audience_member_id);
create index deliveries_publish_id_status_idx on public.deliveries (publish_id, status);

-- A delivery leaving `reserved` counts once in its send (and its audience member).
-- security definer: counts are not the client's to write (they cannot write deliveries at all).
create function private.deliveries_after_status()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_column text;
begin
  if old.status <> 'reserved' or new.status = old.status then
    return null;
  end if;
  v_column := case new.status when 'sent' then 'sent_count' when 'skipped' then 'skipped_count'
                              when 'failed' then 'failed_count' end;
  if v_column is null then
    -- an event (delivered, bounced ...) reached a delivery the worker had not recorded yet:
    -- record_mail_event records it as sent first, so this does not happen; count nothing
    return null;
  end if;
  execute format('update public.publishes set %I = %I + 1 where id = $1', v_column, v_column)
    using new.publish_id;
  if new.status = 'sent' and new.audience_member_id is not null then
    update public.audience_members set sent_count = sent_count + 1 where id = new.audience_member_id;
  end if;
  return null;
end;
$$;

-- Every writer of a letter's rows locks them in one order, so two never wait on each other: the
-- sends (publishes) by id, then the audience members by id, then the deliveries. A delivery
-- leaving `reserved` counts in its send's and its member's rows (deliveries_after_status), and a
-- provider's event counts there too; the worker records a batch of mails of one send in one
-- transaction (finish_jobs) while SES reports the first of them (record_mail_event): taken
-- delivery first, the two deadlocked. Call this before the first delivery is locked or updated.
create function private.lock_sends(p_delivery_ids uuid[])
returns void language plpgsql set search_path = '' as $$
begin
  perform 1 from public.publishes
    where id in (select publish_id from public.deliveries where id = any(p_delivery_ids))
    order by id for no key update;
  perform 1 from public.audience_members
    where id in (select audience_member_id from public.deliveries where id = any(p_delivery_ids))
    order by id for no key update;
end;
$$;
revoke execute on function private.lock_sends(uuid[]) from public;

-- A letter job that failed for good fails its delivery at once, with the provider's answer as the
-- reason, so the history shows it (settle_letter_jobs, every 30 s, remains for older jobs).
create function private.fail_letter_delivery()
returns trigger language plpgsql set search_path = '' as $$
begin
  -- (finish_jobs, which fails the job, locked the send first: private.lock_sends)
  update public.deliveries set status = 'failed', reason = left(new.last_error, 500)
    where id = (new.payload ->> 'delivery_id')::uuid and status = 'reserved';
  return null;
end;
$$;
revoke execute on function private.fail_letter_delivery() from public;

-- Saves a letter block's name, language and letter (the save-letter function validated the payload with
-- ZSaveLetter and rendered mail_html and mail_text from the model itself). p_payload:
--   {name?, language?, mail_title, mail_from, mail_name, page_url, letter, mail_html, mail_text}
-- mail_from must be one of the owner's verified sender emails (or null). Answers {block, private}.
create function public.save_letter(p_owner_id uuid, p_block_id uuid, p_payload jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_from text := nullif(btrim(p_payload ->> 'mail_from'), '');
  v_private public.block_private;
begin
  select * into v_block from public.blocks where id = p_block_id and owner_id = p_owner_id for update;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not a letter block' using errcode = 'P0001';
  end if;
  if v_from is not null and not exists (
      select 1 from public.sender_emails
      where user_id = p_owner_id and email = lower(v_from) and status = 'verified') then
    raise exception 'Verify the sender email first' using errcode = 'P0001';
  end if;
  if p_payload ? 'name' or p_payload ? 'language' then
    -- the language sets the mail footer's and <html lang> of what is sent (U3)
    update public.blocks
      set name = coalesce(p_payload ->> 'name', name),
          language = coalesce((p_payload ->> 'language')::public.language_code, language),
          updated_at = now()
      where id = p_block_id
      returning * into v_block;
  end if;
  update public.block_private
    set mail_title = p_payload ->> 'mail_title',
        mail_from = lower(v_from),
        mail_name = nullif(p_payload ->> 'mail_name', ''),
        page_url = nullif(p_payload ->> 'page_url', ''),
        letter = p_payload -> 'letter',
        mail_html = nullif(p_payload ->> 'mail_html', ''),
        mail_text = nullif(p_payload ->> 'mail_text', ''),
        updated_at = now()
    where block_id = p_block_id
    returning * into v_private;
  return jsonb_build_object('block', to_jsonb(v_block), 'private', to_jsonb(v_private));
end;
$$;
revoke execute on function public.save_letter(uuid, uuid, jsonb) from public, anon, authenticated;

-- One send of a letter, in one transaction: the recipients (typed-in addresses, or the active
-- members with an email of an audience group; `activated` is everyone), minus the addresses that
-- unsubscribed from this owner or are suppressed; the monthly email quota (the owner's
-- response_monthly_limit, shared with responses as in the spec, taken from the count shards of
-- counters.sql); a publish, one delivery and one `letter` job per recipient (dedupe key per
-- delivery).
-- p_sender: {from, from_name, reply_to} as the send-letter function decided them (verified
-- sender, or the platform address with Reply-To under a strict DMARC policy).
-- Answers {publish_id, reserved, skipped}; no publish when nobody is left to send to.
create or replace function public.reserve_letter(p_owner_id uuid, p_block_id uuid, p_emails text[],
  p_group text, p_register boolean, p_sender jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_profile public.profiles;
  v_block public.blocks;
  v_private public.block_private;
  v_total integer;
  v_count integer;
  v_publish_id uuid;
begin
  -- no key update: a visitor's write that adds an audience member (a key share on the profile,
  -- from the foreign key) does not wait for a send
  select * into v_profile from public.profiles where id = p_owner_id for no key update;
  select * into v_block from public.blocks where id = p_block_id and owner_id = p_owner_id;
  if v_profile.id is null or v_block.id is null or v_block.deactivated then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not a letter block' using errcode = 'P0001';
  end if;
  select * into v_private from public.block_private where block_id = p_block_id;
  if not public.letter_has_content(v_private.mail_html) then
    raise exception 'Load a page and save the letter first' using errcode = 'P0001';
  end if;
  if (p_emails is null) = (p_group is null) then
    raise exception 'Give either addresses or a group' using errcode = 'P0001';
  end if;
  if (p_group is not null or coalesce(p_register, false)) and not v_profile.paid then
    raise exception 'Paid plan required (%)', case when p_group is not null then 'audience' else 'registerAudience' end
      using errcode = 'PT403';
  end if;
  if p_group is not null and not exists (
      select 1 from public.audience_groups where user_id = p_owner_id and name = p_group) then
    raise exception 'No such group' using errcode = 'P0001';
  end if;

  create temporary table if not exists pg_temp.letter_recipients (
    email text primary key, member_id uuid, skip text
  ) on commit drop;
  truncate pg_temp.letter_recipients;
  if p_emails is not null then
    if coalesce(array_length(p_emails, 1), 0) > 100 then
      raise exception 'You can send 100 emails at once by manual sending' using errcode = 'P0001';
    end if;
    if exists (select 1 from unnest(p_emails) e
               where e is null or char_length(btrim(e)) > 100 or not private.is_valid_email(btrim(e))) then
      raise exception 'Email address is invalid' using errcode = 'P0001';
    end if;
    insert into pg_temp.letter_recipients (email)
      select distinct lower(btrim(e)) from unnest(p_emails) e
      on conflict do nothing;
    if coalesce(p_register, false) then
      insert into public.audience_members (user_id, email, creator_name, history)
        select p_owner_id, r.email, left(split_part(r.email, '@', 1), 30), '[]'::jsonb
        from pg_temp.letter_recipients r
        where not exists (select 1 from public.audience_members a
                          where a.user_id = p_owner_id and lower(a.email) = r.email)
        on conflict do nothing;
    end if;
    update pg_temp.letter_recipients r set member_id = a.id
      from public.audience_members a where a.user_id = p_owner_id and lower(a.email) = r.email;
  else
    insert into pg_temp.letter_recipients (email, member_id)
      select distinct on (lower(a.email)) lower(a.email), a.id
      from public.audience_members a
      where a.user_id = p_owner_id and not a.deactivated and a.has_email
        and not a.awaiting_confirmation
        and (p_group = 'activated' or a.group_name = p_group)
      order by lower(a.email), a.created_at
      on conflict do nothing;
  end if;

  -- the reason is prepare_letter_jobs' (DELIVERY_SKIP_REASONS), so the history reads them alike.
  -- A suppressed address is reserved like any other and bounces at the send (prepare_letter_jobs,
  -- docs/security.md "What an owner learns of a suppressed address")
  update pg_temp.letter_recipients r set skip = 'the address unsubscribed'
    where private.letter_unsubscribed(p_owner_id, r.email);
  select count(*) filter (where skip is null), count(*) into v_count, v_total from pg_temp.letter_recipients;
  if v_count = 0 then
    return jsonb_build_object('publish_id', null, 'reserved', 0, 'skipped', v_total);
  end if;

  -- the month's quota, from the owner's count shards (private.take_response_quota)
  if not private.take_response_quota(p_owner_id, v_count) then
    raise exception 'Not enough sending email counts' using errcode = 'P0001';
  end if;

  -- the addresses skipped now are counted and listed with the send, as the dialog said them
  insert into public.publishes (block_id, user_id, subject, html, text, group_name, reserved_count,
                                skipped_count, mail_from, mail_name, reply_to)
    values (p_block_id, p_owner_id, left(coalesce(nullif(v_private.mail_title, ''), v_block.name), 200),
            v_private.mail_html, v_private.mail_text, p_group, v_count, v_total - v_count,
            p_sender ->> 'from', left(nullif(p_sender ->> 'from_name', ''), 100), nullif(p_sender ->> 'reply_to', ''))
    returning id into v_publish_id;
  insert into public.deliveries (publish_id, user_id, audience_member_id, email, status, reason)
    select v_publish_id, p_owner_id, r.member_id, r.email, 'skipped', r.skip
    from pg_temp.letter_recipients r where r.skip is not null;

  with d as (
    insert into public.deliveries (publish_id, user_id, audience_member_id, email)
      select v_publish_id, p_owner_id, r.member_id, r.email
      from pg_temp.letter_recipients r where r.skip is null
      returning id
  )
  insert into private.jobs (kind, payload, dedupe_key, rate_bucket)
    select 'letter', jsonb_build_object('delivery_id', d.id, 'publish_id', v_publish_id),
           'letter:' || d.id, 'mail'
    from d;

  update public.blocks
    set response_count = response_count + v_count, new_response_count = new_response_count + v_count
    where id = p_block_id;
  return jsonb_build_object('publish_id', v_publish_id, 'reserved', v_count, 'skipped', v_total - v_count);
end;
$$;
revoke execute on function public.reserve_letter(uuid, uuid, text[], text, boolean, jsonb) from public, anon, authenticated;

-- The groups an audience send can go to (`activated`: every active member), each with the
-- addresses it reaches as reserve_letter picks them (active members with an email, one per
-- address, not awaiting confirmation), how many of those it will skip (unsubscribed from the
-- owner's letters; a suppressed address is not the owner's to learn of: it counts as reached),
-- and how many members it leaves out because their address has not confirmed yet
-- (awaiting_count: a visitor typed it, mail-consent.sql). Counted here: PostgREST answers at most
-- 1,000 rows, so the dashboard cannot count. security definer, the caller's own rows by
-- auth.uid(): the index on unsubscribes (user_id, mailbox) serves it (is_unsubscribed says why).
create function public.letter_send_groups()
returns table (name text, email_count integer, skip_count integer, awaiting_count integer)
language sql stable security definer set search_path = '' as $$
  with m as (
    select a.group_name, lower(a.email) as email, a.awaiting_confirmation as awaiting,
           private.letter_unsubscribed(a.user_id, a.email) as skip
    from public.audience_members a
    where a.user_id = (select auth.uid()) and not a.deactivated and a.has_email
  )
  select g.name, (count(distinct m.email) filter (where not m.awaiting))::integer,
         (count(distinct m.email) filter (where m.skip and not m.awaiting))::integer,
         (count(distinct m.email) filter (where m.awaiting))::integer
  from public.audience_groups g
  left join m on g.name = 'activated' or m.group_name = g.name
  where g.user_id = (select auth.uid()) and g.name <> 'deactivated'
  group by g.id, g.name, g.created_at
  order by g.created_at;
$$;
comment on function public.letter_send_groups() is
  'The caller''s audience groups with the addresses an audience send reaches, how many it skips, and how many members await confirmation (left out).';
revoke execute on function public.letter_send_groups() from public, anon;
grant execute on function public.letter_send_groups() to authenticated;

-- For each claimed letter job: its recipient, or why it is not sent (the delivery is gone or no
-- longer reserved, the address unsubscribed, the sender is suspended, the owner's sender address
-- is no longer a verified claim of theirs; the delivery then becomes `skipped`; a suppressed
-- address: the delivery is sent and bounced, as SES reports a send to an address on its
-- suppression list, so the owner learns no more than mailing it would tell: docs/security.md
-- "What an owner learns of a suppressed address"), and once per send what the mail needs. Answers
-- {jobs: [{id, delivery_id, publish_id, to, name, skip?}], publishes: [{id, ...}]}.
create function public.prepare_letter_jobs(p_job_ids bigint[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_jobs jsonb;
  v_publishes jsonb;
begin
  create temporary table if not exists pg_temp.letter_batch (
    job_id bigint primary key, delivery_id uuid, publish_id uuid, owner_id uuid, email text,
    name text, status text, skip text, bounce boolean not null default false
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
      when private.letter_unsubscribed(b.owner_id, b.email) then 'the address unsubscribed'
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
  -- a suppressed address (last: every reason above is the owner's own to know) is not mailed;
  -- its delivery goes as a mail SES bounced (sent, then bounced, counted as record_mail_event
  -- counts a bounce), and the worker is told to skip it
  update pg_temp.letter_batch b set bounce = true, skip = 'the address is suppressed'
    where b.skip is null and private.mailbox_suppressed(b.email);
  perform private.lock_sends(array(select delivery_id from pg_temp.letter_batch
                                   where status = 'reserved' and skip is not null));
  update public.deliveries d set status = 'skipped', reason = b.skip
    from pg_temp.letter_batch b
    where d.id = b.delivery_id and b.status = 'reserved' and b.skip is not null and not b.bounce;
  -- leaving `reserved` for `sent` counts the send's and the member's sent_count
  -- (deliveries_after_status); the bounce then counts as a provider's bounce event does
  update public.deliveries d set status = 'sent'
    from pg_temp.letter_batch b where d.id = b.delivery_id and b.status = 'reserved' and b.bounce;
  update public.deliveries d set status = 'bounced'
    from pg_temp.letter_batch b where d.id = b.delivery_id and b.status = 'reserved' and b.bounce;
  update public.publishes p set bounced_count = p.bounced_count + n.count
    from (select publish_id, count(*)::integer as count from pg_temp.letter_batch
          where status = 'reserved' and bounce group by publish_id) n
    where p.id = n.publish_id;
  update public.audience_members m set bounced_count = m.bounced_count + n.count
    from (select d.audience_member_id, count(*)::integer as count
          from public.deliveries d join pg_temp.letter_batch b on b.delivery_id = d.id
          where b.status = 'reserved' and b.bounce and d.audience_member_id is not null
          group by d.audience_member_id) n
    where m.id = n.audience_member_id;

  select coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
           'id', b.job_id, 'delivery_id', b.delivery_id, 'publish_id', b.publish_id, 'to', b.email,
           'name', b.name, 'skip', b.skip)) order by b.job_id), '[]'::jsonb)
    into v_jobs from pg_temp.letter_batch b;
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', p.id, 'block_id', p.block_id, 'user_id', p.user_id, 'subject', p.subject,
           'html', p.html, 'text', p.text, 'from', p.mail_from, 'from_name', p.mail_name,
           'reply_to', p.reply_to, 'language', bl.language, 'owner_name', pr.name,
           'block_name', bl.name)), '[]'::jsonb)
    into v_publishes
    from public.publishes p
    join public.profiles pr on pr.id = p.user_id
    join public.blocks bl on bl.id = p.block_id
    where p.id in (select publish_id from pg_temp.letter_batch where skip is null);
  return jsonb_build_object('jobs', v_jobs, 'publishes', v_publishes);
end;
$$;
revoke execute on function public.prepare_letter_jobs(bigint[]) from public, anon, authenticated;

-- When the letter settler last ran, and since when it has run without a gap. The grace for a
-- Send event counts only time the stack was up to take it: a stack that was down longer than the
-- grace (its events endpoint gone, SNS retrying or the SES fake's journal waiting) would
-- otherwise find, on its first run back, jobs `unknown` since before the crash "unseen for too
-- long" and send them again before their pending Send events arrive.
create table private.letter_settle_clock (
  id boolean primary key default true check (id),
  last_run timestamptz not null,
  up_since timestamptz not null
);
comment on table private.letter_settle_clock is
  'settle_letter_jobs''s clock: its last run, and the start of its runs without a gap (a stack that was down).';
alter table private.letter_settle_clock enable row level security;

-- A letter job whose worker died after handing the mail to SES and before recording it is
-- `unknown` (jobs.sql). For letters that is settled, not left in doubt:
--   - SES reports every accepted mail with a Send event carrying the delivery id (an email tag);
--     record_mail_event then records the delivery as sent, and the job becomes done here;
--   - a job still unseen after `letters.unknown_grace_seconds` (default 600) of the stack being
--     up was never accepted (SES publishes Send within seconds, SNS retries a failed post): it is
--     queued again. The grace starts again when the settler finds it did not run for
--     `letters.settle_gap_seconds` (default 120; it runs every 30 s): the stack was down, and
--     the events of that time are still to come (letter_settle_clock).
-- Jobs the provider refused for good (`failed`) make their delivery `failed`.
create function private.settle_letter_jobs()
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_grace integer := (private.setting('letters.unknown_grace_seconds', '600'::jsonb))::text::integer;
  v_gap integer := (private.setting('letters.settle_gap_seconds', '120'::jsonb))::text::integer;
  v_up_since timestamptz;
  v_done integer;
  v_requeued integer;
  v_failed integer;
begin
  update private.jobs j
    set status = 'done', updated_at = now(),
        result = coalesce(j.result, '{}'::jsonb) || jsonb_build_object('settled', 'the provider reported the mail')
    from public.deliveries d
    where j.kind = 'letter' and j.status = 'unknown'
      and d.id = (j.payload ->> 'delivery_id')::uuid and d.status <> 'reserved';
  get diagnostics v_done = row_count;

  insert into private.letter_settle_clock as c (id, last_run, up_since) values (true, now(), now())
    on conflict (id) do update
      set up_since = case when c.last_run < now() - make_interval(secs => v_gap) then now()
                          else c.up_since end,
          last_run = now()
    returning c.up_since into v_up_since;

  update private.jobs j
    set status = 'queued', run_at = now(), finished_at = null, locked_until = null, updated_at = now(),
        max_attempts = greatest(j.max_attempts, j.attempts + 1),
        last_error = left(coalesce(j.last_error || '; ', '') || 'no Send event: queued again', 2000)
    where j.kind = 'letter' and j.status = 'unknown'
      and greatest(j.finished_at, v_up_since) < now() - make_interval(secs => v_grace)
      and exists (select 1 from public.deliveries d
                  where d.id = (j.payload ->> 'delivery_id')::uuid and d.status = 'reserved');
  get diagnostics v_requeued = row_count;

  perform private.lock_sends(array(
    select d.id from private.jobs j join public.deliveries d on d.id = (j.payload ->> 'delivery_id')::uuid
    where j.kind = 'letter' and j.status = 'failed' and d.status = 'reserved'));
  update public.deliveries d set status = 'failed'
    from private.jobs j
    where j.kind = 'letter' and j.status = 'failed' and d.status = 'reserved'
      and d.id = (j.payload ->> 'delivery_id')::uuid;
  get diagnostics v_failed = row_count;
  return jsonb_build_object('done', v_done, 'requeued', v_requeued, 'failed', v_failed);
end;
$$;
revoke execute on function private.settle_letter_jobs() from public;

-- The letter of a published letter block as its public page shows it: the title and the HTML
-- that save-letter rendered and sanitised (never an address, a sender or a send). anon too.
-- security definer: block_private is owner-only; only these two fields leave it.
create function public.get_letter_view(p_block_id uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_block public.blocks := private.visible_block(p_block_id);
  v_private public.block_private;
begin
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not valid type' using errcode = 'P0001';
  end if;
  select * into v_private from public.block_private where block_id = p_block_id;
  return jsonb_build_object(
    'block', jsonb_build_object('id', v_block.id, 'type', v_block.type, 'name', v_block.name,
                                'language', v_block.language, 'owner_id', v_block.owner_id),
    'title', coalesce(nullif(v_private.mail_title, ''), v_block.name),
    'html', v_private.mail_html);
end;
$$;
comment on function public.get_letter_view(uuid) is
  'Title and sanitised HTML of a published letter block, for its public page. Errors: block doesn''t exists, Not valid type.';
revoke execute on function public.get_letter_view(uuid) from public;

create trigger letter_templates_set_updated_at before update on public.letter_templates
  for each row execute function private.set_updated_at();
create trigger deliveries_set_updated_at before update on public.deliveries
  for each row execute function private.set_updated_at();
create trigger deliveries_after_status after update of status on public.deliveries
  for each row execute function private.deliveries_after_status();
create trigger jobs_fail_letter_delivery after update of status on private.jobs
  for each row
  when (new.kind = 'letter' and new.status = 'failed' and old.status is distinct from 'failed')
  execute function private.fail_letter_delivery();

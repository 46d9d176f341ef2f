-- Letters (issue 11): a letter block's content and sender, sends reserved in one transaction
-- (a publish, one delivery and one job per recipient), the worker's batch preparation, the
-- delivery counts, the reconciliation of sends the worker lost track of, and the public view of
-- a letter.
--
-- Who writes what:
--   block_private letter fields   save_letter (the `save-letter` function renders the HTML from
--                                 the block model on the server; the client never sends HTML)
--   publishes, deliveries, jobs   reserve_letter (`send-letter`, `publish-letter`)
--   delivery states and counts    finish_jobs (sent), record_mail_event (provider events),
--                                 prepare_letter_jobs (skipped), settle_letter_jobs (failed)
-- Every function here is executable by service_role only, except get_letter_view (public).

-- ---------------------------------------------------------------------------------------------
-- the letter of a block
-- ---------------------------------------------------------------------------------------------

alter table public.block_private
  add column mail_title text check (char_length(mail_title) <= 200),
  add column mail_text text check (char_length(mail_text) <= 300000),
  add column page_url text check (char_length(page_url) <= 2000),
  -- the block model the editor deletes rows from: {version, source, blocks, cta, image_button}
  add column letter jsonb check (letter is null or (jsonb_typeof(letter) = 'object'
                                                    and octet_length(letter::text) <= 2000000));
comment on column public.block_private.letter is
  'The letter as a block model (headings, paragraphs, lists, images, ...), from which save-letter renders mail_html and mail_text.';

-- ---------------------------------------------------------------------------------------------
-- sends: what the worker needs is kept on the publish, so a later edit of the letter or of the
-- sender never changes a send in progress
-- ---------------------------------------------------------------------------------------------

alter table public.publishes
  add column text text check (char_length(text) <= 300000),
  add column mail_from text check (char_length(mail_from) <= 320),
  add column mail_name text check (char_length(mail_name) <= 100),
  add column reply_to text check (char_length(reply_to) <= 320),
  add column skipped_count integer not null default 0 check (skipped_count >= 0),
  add column failed_count integer not null default 0 check (failed_count >= 0);

create index deliveries_publish_id_status_idx on public.deliveries (publish_id, status);

-- A delivery leaving `reserved` counts once in its send (and its audience member).
-- security definer: counts are not the client's to write (they cannot write deliveries at all).
create function private.deliveries_after_status()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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

create trigger deliveries_after_status after update of status on public.deliveries
  for each row execute function private.deliveries_after_status();

-- ---------------------------------------------------------------------------------------------
-- saving a letter
-- ---------------------------------------------------------------------------------------------

-- Saves a letter block's name and letter (the save-letter function validated the payload with
-- ZSaveLetter and rendered mail_html and mail_text from the model itself). p_payload:
--   {name?, mail_title, mail_from, mail_name, page_url, letter, mail_html, mail_text}
-- mail_from must be one of the owner's verified sender emails (or null). Answers {block, private}.
create function public.save_letter(p_owner_id uuid, p_block_id uuid, p_payload jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
  if p_payload ? 'name' then
    update public.blocks set name = p_payload ->> 'name', updated_at = now() where id = p_block_id
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

-- ---------------------------------------------------------------------------------------------
-- reserving a send
-- ---------------------------------------------------------------------------------------------

-- One send of a letter, in one transaction: the recipients (typed-in addresses, or the active
-- members with an email of an audience group; `activated` is everyone), minus the addresses that
-- unsubscribed from this owner or are suppressed; the monthly email quota (the profile's
-- response_monthly_limit, shared with responses as in the spec); a publish, one delivery and one
-- `letter` job per recipient (dedupe key per delivery). The profile row is locked, so two sends
-- of one owner cannot both spend the last of the quota.
-- p_sender: {from, from_name, reply_to} as the send-letter function decided them (verified
-- sender, or the platform address with Reply-To under a strict DMARC policy).
-- Answers {publish_id, reserved, skipped}; no publish when nobody is left to send to.
create function public.reserve_letter(p_owner_id uuid, p_block_id uuid, p_emails text[],
                                      p_group text, p_register boolean, p_sender jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_profile public.profiles;
  v_block public.blocks;
  v_private public.block_private;
  v_month date := date_trunc('month', now())::date;
  v_used integer;
  v_total integer;
  v_count integer;
  v_publish_id uuid;
begin
  select * into v_profile from public.profiles where id = p_owner_id for update;
  select * into v_block from public.blocks where id = p_block_id and owner_id = p_owner_id;
  if v_profile.id is null or v_block.id is null or v_block.deactivated then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_block.type not in ('notion_letter', 'typedream_letter', 'brunch_letter') then
    raise exception 'Not a letter block' using errcode = 'P0001';
  end if;
  select * into v_private from public.block_private where block_id = p_block_id;
  if coalesce(v_private.mail_html, '') = '' then
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
    email text primary key, member_id uuid, skip boolean not null default false
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
        and (p_group = 'activated' or a.group_name = p_group)
      order by lower(a.email), a.created_at
      on conflict do nothing;
  end if;

  update pg_temp.letter_recipients r set skip = true
    where exists (select 1 from public.unsubscribes u where u.user_id = p_owner_id and lower(u.email) = r.email)
       or exists (select 1 from private.mail_suppressions s where s.email = r.email);
  select count(*) filter (where not skip), count(*) into v_count, v_total from pg_temp.letter_recipients;
  if v_count = 0 then
    return jsonb_build_object('publish_id', null, 'reserved', 0, 'skipped', v_total);
  end if;

  v_used := case when v_profile.response_month < v_month then 0 else v_profile.response_monthly_count end;
  if v_count > v_profile.response_monthly_limit - v_used then
    raise exception 'Not enough sending email counts' using errcode = 'P0001';
  end if;

  insert into public.publishes (block_id, user_id, subject, html, text, group_name, reserved_count,
                                mail_from, mail_name, reply_to)
    values (p_block_id, p_owner_id, left(coalesce(nullif(v_private.mail_title, ''), v_block.name), 200),
            v_private.mail_html, v_private.mail_text, p_group, v_count,
            p_sender ->> 'from', left(nullif(p_sender ->> 'from_name', ''), 100), nullif(p_sender ->> 'reply_to', ''))
    returning id into v_publish_id;

  with d as (
    insert into public.deliveries (publish_id, user_id, audience_member_id, email)
      select v_publish_id, p_owner_id, r.member_id, r.email
      from pg_temp.letter_recipients r where not r.skip
      returning id
  )
  insert into private.jobs (kind, payload, dedupe_key, rate_bucket)
    select 'letter', jsonb_build_object('delivery_id', d.id, 'publish_id', v_publish_id),
           'letter:' || d.id, 'mail'
    from d;

  update public.profiles
    set response_monthly_count = v_used + v_count, response_month = v_month
    where id = p_owner_id;
  update public.blocks
    set response_count = response_count + v_count, new_response_count = new_response_count + v_count
    where id = p_block_id;
  return jsonb_build_object('publish_id', v_publish_id, 'reserved', v_count, 'skipped', v_total - v_count);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- the worker: one database call per batch of letter jobs
-- ---------------------------------------------------------------------------------------------

-- For each claimed letter job: its recipient, or why it is not sent (the delivery is gone or no
-- longer reserved, the address unsubscribed or is suppressed, the sender is suspended; the
-- delivery then becomes `skipped`), and once per send what the mail needs. Answers
-- {jobs: [{id, delivery_id, publish_id, to, name, skip?}], publishes: [{id, ...}]}.
create function public.prepare_letter_jobs(p_job_ids bigint[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

-- ---------------------------------------------------------------------------------------------
-- settling what the worker could not record
-- ---------------------------------------------------------------------------------------------

-- A letter job whose worker died after handing the mail to SES and before recording it is
-- `unknown` (20261123110000_jobs_queue.sql). For letters that is settled, not left in doubt:
--   - SES reports every accepted mail with a Send event carrying the delivery id (an email tag);
--     record_mail_event then records the delivery as sent, and the job becomes done here;
--   - a job still unseen after `letters.unknown_grace_seconds` (default 600) was never accepted
--     (SES publishes Send within seconds, SNS retries a failed post): it is queued again.
-- Jobs the provider refused for good (`failed`) make their delivery `failed`.
create function private.settle_letter_jobs()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_grace integer := (private.setting('letters.unknown_grace_seconds', '600'::jsonb))::text::integer;
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

  update private.jobs j
    set status = 'queued', run_at = now(), finished_at = null, locked_until = null, updated_at = now(),
        max_attempts = greatest(j.max_attempts, j.attempts + 1),
        last_error = left(coalesce(j.last_error || '; ', '') || 'no Send event: queued again', 2000)
    where j.kind = 'letter' and j.status = 'unknown'
      and j.finished_at < now() - make_interval(secs => v_grace)
      and exists (select 1 from public.deliveries d
                  where d.id = (j.payload ->> 'delivery_id')::uuid and d.status = 'reserved');
  get diagnostics v_requeued = row_count;

  update public.deliveries d set status = 'failed'
    from private.jobs j
    where j.kind = 'letter' and j.status = 'failed' and d.status = 'reserved'
      and d.id = (j.payload ->> 'delivery_id')::uuid;
  get diagnostics v_failed = row_count;
  return jsonb_build_object('done', v_done, 'requeued', v_requeued, 'failed', v_failed);
end;
$$;

create index jobs_letter_unsettled_idx on private.jobs (finished_at)
  where kind = 'letter' and status in ('unknown', 'failed');

select cron.schedule('letter-settle', '30 seconds', $$ select private.settle_letter_jobs(); $$);

-- ---------------------------------------------------------------------------------------------
-- provider events: a letter's event may arrive before the worker recorded the mail
-- ---------------------------------------------------------------------------------------------

-- As in 20261123110100_mail_and_notifications.sql, plus: an event for a message not recorded
-- yet (the worker records a batch after its last send, or died first) that carries the
-- `delivery` tag of a letter is recorded from that delivery, so no count is lost and a lost
-- worker's mail is known to have gone. p_event gains `tags` ({name: value}).
create or replace function public.record_mail_event(p_event jsonb)
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
  v_publish public.publishes;
  v_column text;
  v_recipient text;
  v_tag text := p_event -> 'tags' ->> 'delivery';
begin
  if coalesce(p_event ->> 'event_id', '') = '' or coalesce(p_event ->> 'message_id', '') = '' then
    raise exception 'event_id and message_id are required' using errcode = 'P0001';
  end if;
  insert into private.provider_events (id) values (p_event ->> 'event_id') on conflict do nothing;
  if not found then
    return jsonb_build_object('applied', false, 'reason', 'duplicate');
  end if;
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

-- ---------------------------------------------------------------------------------------------
-- the public page of a letter block
-- ---------------------------------------------------------------------------------------------

-- The letter of a published letter block as its public page shows it: the title and the HTML
-- that save-letter rendered and sanitised (never an address, a sender or a send). anon too.
-- security definer: block_private is owner-only; only these two fields leave it.
create function public.get_letter_view(p_block_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
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

revoke all on function public.save_letter(uuid, uuid, jsonb) from public, anon, authenticated;
revoke all on function public.reserve_letter(uuid, uuid, text[], text, boolean, jsonb) from public, anon, authenticated;
revoke all on function public.prepare_letter_jobs(bigint[]) from public, anon, authenticated;
revoke all on function public.record_mail_event(jsonb) from public, anon, authenticated;
grant execute on function public.save_letter(uuid, uuid, jsonb) to service_role;
grant execute on function public.reserve_letter(uuid, uuid, text[], text, boolean, jsonb) to service_role;
grant execute on function public.prepare_letter_jobs(bigint[]) to service_role;
grant execute on function public.record_mail_event(jsonb) to service_role;
revoke all on function public.get_letter_view(uuid) from public;
grant execute on function public.get_letter_view(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- audience: adding members and groups is a paid feature (spec section 6)
-- ---------------------------------------------------------------------------------------------

-- The spec marks "adding audience and groups" paid. Visitors still become members of every
-- owner's audience through the visitor functions (definer, unaffected), and an owner whose plan
-- ended can still read, edit, rename and delete what they have: only new rows need the plan.
-- How many rows an unpaid owner sees (100) is a display limit of the audience page, not a rule
-- on their own data (docs/dashboard.md, "Audience").
-- (inline: client roles have no usage on schema private; they read their own profile row)
drop policy "Users can create their own audience groups" on public.audience_groups;
create policy "Paid users can create their own audience groups" on public.audience_groups
  for insert to authenticated
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated')
              and coalesce((select p.paid from public.profiles p where p.id = (select auth.uid())), false));

drop policy "Users can add to their own audience" on public.audience_members;
create policy "Paid users can add to their own audience" on public.audience_members
  for insert to authenticated
  with check (user_id = (select auth.uid()) and coalesce((select p.paid from public.profiles p where p.id = (select auth.uid())), false));

-- A letter a form sends by itself (issue 18; spec: a question's triggerLetterBlock). A mail
-- question of a form may name one of its owner's letter blocks (save_block checks the owner and,
-- as a paid feature, the plan). Then:
--   1. submit_response, in the visitor's transaction, adds one `letter.trigger` job per such
--      answered question (private.enqueue_trigger_letters; dedupe key per response and
--      question: one letter per response, however often a job runs);
--   2. the jobs worker decides the sender as a manual send does (the owner's verified address,
--      or the platform's with Reply-To under a strict DMARC policy) and calls
--      reserve_trigger_letter, which reserves one delivery and one `letter` job in the letter's
--      automatic send (a publish with trigger_block_id: one per letter and form, so the history
--      shows it with its counts), taking the owner's monthly email quota;
--   3. the `letter` job goes out as every letter does (prepare_letter_jobs, the footer and the
--      one-click unsubscribe headers, the provider's events moving the counts).
-- An address gets the letter of a form once: a second response with it (or the same response
-- seen twice) reserves nothing. Unsubscribed and suppressed addresses, and sends past the
-- month's quota, are skipped deliveries with their reason.

-- Adds the trigger jobs of a response just stored (called by submit_response). Only mail
-- questions with an answer and a letter named; the address is read from the stored response
-- when the job runs.
create function private.enqueue_trigger_letters(p_block public.blocks, p_response_id uuid, p_answers jsonb)
returns void language plpgsql set search_path = '' as $$
begin
  insert into private.jobs (kind, payload, dedupe_key)
    select 'letter.trigger',
           jsonb_build_object('response_id', p_response_id, 'question_id', q.id,
                              'form_block_id', p_block.id, 'letter_block_id', q.trigger_letter_block,
                              'owner_id', p_block.owner_id),
           'letter.trigger:' || p_response_id || ':' || q.id
    from public.questions q
    where q.block_id = p_block.id and not q.deleted and q.type = 'mail'
      and q.trigger_letter_block is not null and p_answers ? q.id::text
    on conflict (dedupe_key) do nothing;
end;
$$;
revoke execute on function private.enqueue_trigger_letters(public.blocks, uuid, jsonb) from public;

-- Whether a letter's saved HTML is something to send: the one definition reserve_trigger_letter,
-- the manual send (letters.sql) and the editor's choices (trigger_letter_choices has_html) use,
-- so the editor never offers a letter the send would skip as "no content yet" (rev-mission D4).
create function public.letter_has_content(p_mail_html text)
returns boolean language sql immutable set search_path = '' as $$
  select coalesce(p_mail_html, '') <> '';
$$;
comment on function public.letter_has_content(text) is
  'Whether a letter''s saved mail_html is something to send (not null, not empty).';
revoke execute on function public.letter_has_content(text) from public, anon;
grant execute on function public.letter_has_content(text) to authenticated, service_role;

-- Reserves the letter of one running `letter.trigger` job. p_sender: {from, from_name, reply_to}
-- as the worker decided them (_shared/letter/calls.ts senderFor). Answers {delivery_id,
-- publish_id} when a `letter` job was added, {delivery_id, publish_id, skipped} when the delivery
-- was recorded as skipped, or {skip} when nothing is to be sent (the reason).
create function public.reserve_trigger_letter(p_job_id bigint, p_sender jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_form public.blocks;
  v_letter public.blocks;
  v_private public.block_private;
  v_paid boolean;
  v_email text;
  v_publish_id uuid;
  v_delivery_id uuid;
  v_member_id uuid;
  v_skip text;
  v_quota_left boolean;
begin
  select * into v_job from private.jobs where id = p_job_id and kind = 'letter.trigger' and status = 'running';
  if not found then
    return jsonb_build_object('skip', 'the job is no longer running');
  end if;
  select * into v_form from public.blocks where id = (v_job.payload ->> 'form_block_id')::uuid;
  -- the letter must be the form owner's, whatever the job says
  select * into v_letter from public.blocks
    where id = (v_job.payload ->> 'letter_block_id')::uuid and owner_id = v_form.owner_id
      and type in ('notion_letter', 'typedream_letter', 'brunch_letter');
  if v_form.id is null or v_letter.id is null then
    return jsonb_build_object('skip', 'the letter was deleted or is not the form owner''s');
  end if;
  if not exists (select 1 from public.questions q
                 where q.id = (v_job.payload ->> 'question_id')::uuid and q.block_id = v_form.id
                   and not q.deleted and q.trigger_letter_block = v_letter.id) then
    return jsonb_build_object('skip', 'the question no longer sends this letter');
  end if;
  -- every check that would skip the send comes before the consent ask (rev-mission D2): no
  -- confirmation mail, and none of the owner's daily confirmation cap, for a letter that cannot go
  select paid into v_paid from public.profiles where id = v_form.owner_id;
  if not coalesce(v_paid, false) then
    return jsonb_build_object('skip', 'a paid plan is required');
  end if;
  if v_letter.deactivated then
    return jsonb_build_object('skip', 'the letter is deactivated');
  end if;
  select * into v_private from public.block_private where block_id = v_letter.id;
  if not public.letter_has_content(v_private.mail_html) then
    return jsonb_build_object('skip', 'the letter has no content yet');
  end if;
  select r.answers -> (v_job.payload ->> 'question_id') ->> 'value' into v_email
    from public.responses r where r.id = (v_job.payload ->> 'response_id')::uuid and r.block_id = v_form.id;
  v_email := lower(btrim(v_email));
  if v_email is null or char_length(v_email) > 100 or not private.is_valid_email(v_email) then
    return jsonb_build_object('skip', 'the response was deleted or has no address');
  end if;
  -- double opt-in (mail-consent.sql): a typed address gets the owner's letter once it confirmed
  -- it wants their letters. Until then the confirmation mail goes instead (asked here too: the
  -- question need not be the form's visitor email), and answer_mail_consent queues this job's
  -- letter again when it confirms (the result's `awaiting`). Never to an address that
  -- unsubscribed from the owner (rev-mission D1: a yes would lead to nothing, and a stranger
  -- could make the owner mail someone who opted out; the delivery below is skipped and says so)
  -- nor to a suppressed one (ask_mail_consent asks nothing: the platform mails it nothing).
  -- The month's quota used up is such a check too (rev-fixes2 D7), read here without taking: the
  -- take stays below, with the delivery. An address not asked for it falls through to the
  -- delivery, skipped for the quota as a confirmed address's is.
  v_quota_left := private.monthly_response_count(v_form.owner_id)
                  < coalesce((select response_monthly_limit from public.profiles where id = v_form.owner_id), 0);
  if v_quota_left and not private.letters_allowed(v_form.owner_id, v_email)
     and not private.letter_unsubscribed(v_form.owner_id, v_email) then
    if private.ask_mail_consent(v_email, v_form.owner_id, null, v_form.id, v_form.language) = 'suppressed' then
      return jsonb_build_object('skip', 'the address is suppressed');
    end if;
    return jsonb_build_object('skip', 'the address has not confirmed yet', 'awaiting', v_email);
  end if;

  -- the letter's automatic send for this form, carrying the letter as it is now
  insert into public.publishes (block_id, user_id, trigger_block_id, subject, html, text,
                                mail_from, mail_name, reply_to)
    values (v_letter.id, v_letter.owner_id, v_form.id,
            left(coalesce(nullif(v_private.mail_title, ''), v_letter.name), 200),
            v_private.mail_html, v_private.mail_text, p_sender ->> 'from',
            left(nullif(p_sender ->> 'from_name', ''), 100), nullif(p_sender ->> 'reply_to', ''))
    on conflict (block_id, trigger_block_id) where trigger_block_id is not null do update
      set subject = excluded.subject, html = excluded.html, text = excluded.text,
          mail_from = excluded.mail_from, mail_name = excluded.mail_name, reply_to = excluded.reply_to
    returning id into v_publish_id;

  select id into v_member_id from public.audience_members
    where user_id = v_letter.owner_id and lower(email) = v_email
    order by created_at limit 1;
  insert into public.deliveries (publish_id, user_id, audience_member_id, email)
    values (v_publish_id, v_letter.owner_id, v_member_id, v_email)
    on conflict (publish_id, email) do nothing
    returning id into v_delivery_id;
  if v_delivery_id is null then
    return jsonb_build_object('skip', 'the letter already went to this address', 'publish_id', v_publish_id);
  end if;

  -- the reasons are prepare_letter_jobs' and DELIVERY_SKIP_REASONS'; a suppressed address is
  -- reserved, and bounces at the send (prepare_letter_jobs)
  v_skip := case
    when private.letter_unsubscribed(v_letter.owner_id, v_email) then 'the address unsubscribed'
    -- (its own branch: the take must not run then, and an OR's operands have no set order)
    when not v_quota_left then 'the monthly email quota is used up'
    when not private.take_response_quota(v_letter.owner_id, 1)
      then 'the monthly email quota is used up'
  end;
  if v_skip is not null then
    -- leaving `reserved` counts it in the send's skipped_count (deliveries_after_status)
    update public.deliveries set status = 'skipped', reason = v_skip where id = v_delivery_id;
    return jsonb_build_object('delivery_id', v_delivery_id, 'publish_id', v_publish_id, 'skipped', v_skip);
  end if;

  update public.publishes set reserved_count = reserved_count + 1 where id = v_publish_id;
  insert into private.jobs (kind, payload, dedupe_key, rate_bucket)
    values ('letter', jsonb_build_object('delivery_id', v_delivery_id, 'publish_id', v_publish_id),
            'letter:' || v_delivery_id, 'mail');
  update public.blocks
    set response_count = response_count + 1, new_response_count = new_response_count + 1
    where id = v_letter.id;
  return jsonb_build_object('delivery_id', v_delivery_id, 'publish_id', v_publish_id);
end;
$$;
comment on function public.reserve_trigger_letter(bigint, jsonb) is
  'Reserves the letter a form response sends by itself (one running letter.trigger job). Service role only.';
revoke execute on function public.reserve_trigger_letter(bigint, jsonb) from public, anon, authenticated;

-- The owner's letter blocks a form question may send, with what keeps one from being picked:
-- no saved letter (HTML) yet, or no verified sender address. RLS decides whose rows are read.
create function public.trigger_letter_choices()
returns table (id uuid, name text, type public.block_type, has_html boolean, sender_verified boolean)
language plpgsql stable set search_path = '' as $$
begin
  return query
    select b.id, b.name, b.type, public.letter_has_content(p.mail_html),
           exists (select 1 from public.sender_emails s
                   where s.user_id = b.owner_id and s.email = lower(p.mail_from) and s.status = 'verified')
    from public.blocks b
    left join public.block_private p on p.block_id = b.id
    where b.owner_id = (select auth.uid()) and b.type in ('notion_letter', 'typedream_letter', 'brunch_letter')
    order by b.created_at desc;
end;
$$;
comment on function public.trigger_letter_choices() is
  'The caller''s letter blocks with has_html and sender_verified: what a form question may send.';
revoke execute on function public.trigger_letter_choices() from public, anon;
grant execute on function public.trigger_letter_choices() to authenticated;

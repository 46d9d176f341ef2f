-- The notification mails of blocks (mailTo for the owner, allowCreatorEmail for a commenter who
-- gets replies). They are jobs (jobs.sql) enqueued by triggers in the visitor's transaction: one
-- job per new message or response, grouped per block (owner) or per thread (commenter), so the
-- worker sends the first at once and folds a burst into one digest per window (setting
-- jobs.group_window_seconds, default 60). The worker prepares a whole batch in one call.
--
-- A block's mail_to is typed by its owner, so it gets the rule of the addresses a visitor types
-- (docs/security.md "Notification addresses"): it is mailed only when it is the owner's sign-in
-- address, one of their verified sender addresses, or an address that confirmed this owner's
-- notifications through the link mailed to it (mail-consent.sql, for_notifications). Saving
-- another address asks it once (ask_notification_consent); until it says yes its digests are
-- skipped. An unsubscribe from one owner digest stops all of that owner's digests to the address
-- (private.mail_optouts keeps the owner: deleting that block does not undo it).

-- Enqueues the notifications of a new message: notify.owner for the block's owner (mailTo), and
-- notify.reply for a commenter who asked for replies, which waits for a published reply (the owner is told of held messages: that is how they learn to approve).
create or replace function private.messages_enqueue_notifications()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_mail_to text;
  v_allow_email boolean;
  v_parent_creator uuid;
begin
  select b.owner_id, bp.mail_to, b.allow_creator_email into v_owner, v_mail_to, v_allow_email
    from public.blocks b left join public.block_private bp on bp.block_id = b.id
    where b.id = new.block_id;
  if tg_op = 'INSERT' and v_mail_to is not null and new.creator_id is distinct from v_owner then
    perform public.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'message_id', new.id),
      'notify.owner:message:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  if new.parent_id is not null and v_allow_email and new.status = 'published' then
    select m.creator_id into v_parent_creator
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = new.parent_id;
    if found and v_parent_creator is distinct from new.creator_id then
      perform public.enqueue_job('notify.reply',
        jsonb_build_object('block_id', new.block_id, 'parent_id', new.parent_id, 'message_id', new.id),
        'notify.reply:' || new.id, null, 'notify.reply:' || new.parent_id, 'mail');
    end if;
  end if;
  return null;
end;
$$;

-- A new response (form, ab vote, like, button click): the owner's digest when mailTo is set.
create function private.responses_enqueue_notifications()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from public.block_private bp join public.blocks b on b.id = bp.block_id
             where bp.block_id = new.block_id and bp.mail_to is not null
               and b.owner_id is distinct from new.creator_id) then
    perform public.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'response_id', new.id),
      'notify.owner:response:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  return null;
end;
$$;

-- What a notification mail needs, for the payloads of one (merged) job: the recipient, the
-- language, the block and the items, newest last (at most 50 with the total). Answers
-- {skip: reason} when nothing is to be sent: the setting was turned off, the address opted out
-- or is suppressed, the items are gone.
create function public.notification_context(p_kind text, p_payloads jsonb)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
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
  v_commenter uuid;
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
    if not private.notification_address_allowed(v_block.owner_id, v_to) then
      return jsonb_build_object('skip', 'the address has not confirmed notifications');
    end if;
  elsif p_kind = 'notify.reply' then
    v_scope := 'reply';
    if not v_block.allow_creator_email then
      return jsonb_build_object('skip', 'the block no longer asks for emails');
    end if;
    select mp.creator_email, m.creator_id,
           jsonb_build_object('id', m.id, 'content', m.content, 'creator_name', m.creator_name,
                              'created_at', m.created_at)
      into v_to, v_commenter, v_parent
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = (p_payloads -> 0 ->> 'parent_id')::uuid;
    if v_to is null then
      return jsonb_build_object('skip', 'the message or its email is gone');
    end if;
    -- double opt-in (mail-consent.sql): replies are mailed only when the address confirmed them
    -- for the comment's writer on this owner's blocks; replies before that are not mailed, then
    -- or later (the page shows them)
    if not private.mail_confirmed(v_to, v_block.owner_id, v_commenter) then
      return jsonb_build_object('skip', 'the address has not confirmed reply notifications');
    end if;
    v_language := v_block.language::text;
  else
    raise exception 'not a notification kind: %', p_kind using errcode = 'P0001';
  end if;

  -- an owner digest's unsubscribe counts for all of that owner's blocks, deleted ones too (one
  -- yes, one no: the opt-out keeps the owner); a reply one for the block's replies
  if (case when v_scope = 'owner'
           then exists (select 1 from private.mail_optouts o
                        where o.owner_id = v_block.owner_id and o.email = lower(v_to) and o.scope = 'owner')
           else exists (select 1 from private.mail_optouts o
                        where o.email = lower(v_to) and o.scope = 'reply' and o.block_id = v_block_id) end) then
    return jsonb_build_object('skip', 'the address unsubscribed');
  end if;
  if private.mailbox_suppressed(v_to) then
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
revoke execute on function public.notification_context(text, jsonb) from public, anon, authenticated;

-- For each claimed notification job: the merged payloads and what the mail needs, or when to
-- run instead, or why nothing is sent. Answers [{id, defer_until} | {id, context}] in the order
-- of p_job_ids; a job that is not running any more is left out.
create function public.prepare_notification_jobs(p_job_ids bigint[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
  v_kind text;
  v_merged jsonb;
  v_out jsonb := '[]'::jsonb;
begin
  foreach v_id in array coalesce(p_job_ids, '{}') loop
    select kind into v_kind from private.jobs where id = v_id and status = 'running';
    continue when not found;
    v_merged := public.merge_job_group(v_id);
    if v_merged ->> 'defer_until' is not null then
      v_out := v_out || jsonb_build_object('id', v_id, 'defer_until', v_merged -> 'defer_until');
    else
      v_out := v_out || jsonb_build_object('id', v_id,
        'context', public.notification_context(v_kind, v_merged -> 'payloads'));
    end if;
  end loop;
  return v_out;
end;
$$;
revoke execute on function public.prepare_notification_jobs(bigint[]) from public, anon, authenticated;

create trigger messages_enqueue_notifications after insert on public.messages
  for each row execute function private.messages_enqueue_notifications();
create trigger responses_enqueue_notifications after insert on public.responses
  for each row execute function private.responses_enqueue_notifications();
create trigger messages_enqueue_approved_reply after update of status on public.messages
  for each row when (old.status = 'held' and new.status = 'published' and new.parent_id is not null)
  execute function private.messages_enqueue_notifications();

-- Saving a block's mail_to that may not be mailed yet asks it (once a day at most: the
-- confirm.mail job's dedupe key) in the owner's language. security definer: save_block runs as
-- the service role, the consent tables and the queue are the definer's.
create function private.ask_notification_consent(p_block public.blocks, p_email text)
returns text language plpgsql security definer set search_path = '' as $$
begin
  if p_email is null or private.notification_address_allowed(p_block.owner_id, p_email) then
    return 'allowed';
  end if;
  return private.ask_mail_consent(p_email, p_block.owner_id, null, p_block.id,
    (select p.language from public.profiles p where p.id = p_block.owner_id), true);
end;
$$;
revoke execute on function private.ask_notification_consent(public.blocks, text) from public;
grant execute on function private.ask_notification_consent(public.blocks, text) to service_role;

-- The state of a block's notification address, for the workspace: {email, state, mailed_at}
-- with state none (no address), allowed (own, verified sender or confirmed: nothing to show) or
-- waiting (a link was or will be mailed; notifications start once it is confirmed). An address
-- on the platform's suppression list reads as waiting: whether someone else's mailbox refused
-- the platform's mail is not the owner's to learn (docs/security.md). Owner only.
create function public.notification_address_status(p_block_id uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_to text;
begin
  select b.owner_id, bp.mail_to into v_owner, v_to
    from public.blocks b left join public.block_private bp on bp.block_id = b.id
    where b.id = p_block_id and b.owner_id = (select auth.uid());
  if v_owner is null then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if v_to is null then
    return jsonb_build_object('email', null, 'state', 'none');
  end if;
  if private.notification_address_allowed(v_owner, v_to) then
    return jsonb_build_object('email', v_to, 'state', 'allowed');
  end if;
  return jsonb_build_object('email', v_to, 'state', 'waiting',
    'mailed_at', (select c.mailed_at from private.mail_consents c
                  where c.email = lower(btrim(v_to)) and c.owner_id = v_owner
                    and c.commenter_id is null and c.for_notifications));
end;
$$;
revoke all on function public.notification_address_status(uuid) from public, anon;
grant execute on function public.notification_address_status(uuid) to authenticated;

-- "Send the link again" in the workspace: asks the block's waiting address again. Limited like
-- every confirmation mail (one per address and owner a day, one per address a day, the owner's
-- daily cap): answers {sent: false} when a link went in the last 24 hours or was asked today,
-- else {sent: true} (the queue sends it; the caps may still keep it back). Owner only.
create function public.resend_notification_confirmation(p_block_id uuid)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_block public.blocks;
  v_to text;
  v_email text;
begin
  select b.* into v_block from public.blocks b
    where b.id = p_block_id and b.owner_id = (select auth.uid());
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  select mail_to into v_to from public.block_private where block_id = p_block_id;
  v_email := lower(btrim(v_to));
  if v_to is null or private.notification_address_allowed(v_block.owner_id, v_to) then
    return jsonb_build_object('sent', false);
  end if;
  if exists (select 1 from private.mail_consents c
             where c.email = v_email and c.owner_id = v_block.owner_id and c.commenter_id is null
               and c.for_notifications and c.mailed_at > now() - interval '24 hours')
     or private.consent_asked_today(v_email, v_block.owner_id, null, true) then
    return jsonb_build_object('sent', false);
  end if;
  return jsonb_build_object('sent', private.ask_notification_consent(v_block, v_to) = 'pending');
end;
$$;
revoke all on function public.resend_notification_confirmation(uuid) from public, anon;
grant execute on function public.resend_notification_confirmation(uuid) to authenticated;

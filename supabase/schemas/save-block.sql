-- The workspace's save path: one call saves a block's settings, its private settings and, for
-- form and ab blocks, the complete question and ending lists, all in one transaction.
--
-- public.save_block is executable by the service role only. The save-block edge function calls
-- it after validating the body with the same zod schema the dashboard uses (ZSaveBlock in
-- supabase/functions/_shared/schemas.ts), passing the verified caller as p_owner_id. Client roles
-- cannot call it, so nothing reaches the tables by this route without that validation.
--
-- It runs as the caller (the service role, which bypasses RLS), so every rule RLS would have
-- given is checked here explicitly: the block belongs to p_owner_id, every id in the lists is
-- this block's or new, a question's letter trigger is one of the owner's letter blocks, a
-- condition names a question of this block. Triggers that only guard client roles (option
-- counts, the default-ending flag) do not fire for the service role, so the statements below
-- never write response_count or is_default from the payload. The question-count trigger does
-- fire: 'Too many questions (at most N)'.
--
-- Paid-only features (spec: workspace section 6) are refused for owners without a paid plan
-- with 'Paid plan required (<field>)' when the save would turn them on or change them; values
-- that stay as stored (say, from an earlier paid period) and switching a feature back off are
-- allowed. See docs/data-model.md, "Saving a block".

-- The block as the workspace reads it: the row, its private settings, the not-deleted questions
-- with their not-deleted options, the endings with their conditions (the shape of
-- get_block_view, plus the owner-only fields).
create function private.block_editor_json(p_block_id uuid)
returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'block', (select to_jsonb(b) from public.blocks b where b.id = p_block_id),
    'private', (select to_jsonb(p) from public.block_private p where p.block_id = p_block_id),
    'questions', coalesce((
      select jsonb_agg(
               to_jsonb(q) || jsonb_build_object('options', coalesce((
                 select jsonb_agg(to_jsonb(o) order by o.index, o.created_at)
                 from public.options o where o.question_id = q.id and not o.deleted), '[]'::jsonb))
               order by q.index, q.created_at)
      from public.questions q where q.block_id = p_block_id and not q.deleted), '[]'::jsonb),
    'endings', coalesce((
      select jsonb_agg(
               to_jsonb(e) || jsonb_build_object('conditions', coalesce((
                 select jsonb_agg(to_jsonb(c) order by c.index, c.created_at)
                 from public.ending_conditions c where c.ending_id = e.id), '[]'::jsonb))
               order by e.index, e.created_at)
      from public.endings e where e.block_id = p_block_id), '[]'::jsonb));
$$;
revoke execute on function private.block_editor_json(uuid) from public;
grant execute on function private.block_editor_json(uuid) to service_role;

-- A settings object of the save: an object of the given keys only.
create function private.check_setting_keys(p_settings jsonb, p_allowed text[])
returns void language plpgsql set search_path = '' as $$
declare
  v_key text;
begin
  if jsonb_typeof(p_settings) is distinct from 'object' then
    raise exception 'Invalid settings' using errcode = 'P0001';
  end if;
  select k into v_key from jsonb_object_keys(p_settings) k where k <> all (p_allowed) limit 1;
  if v_key is not null then
    raise exception 'Not a block setting (%)', v_key using errcode = 'P0001';
  end if;
end;
$$;
revoke execute on function private.check_setting_keys(jsonb, text[]) from public;
grant execute on function private.check_setting_keys(jsonb, text[]) to service_role;

-- A setting the save gives is one of p_values, or the save fails with p_message.
create function private.check_setting_value(p_settings jsonb, p_key text, p_values text[],
  p_message text)
returns void language plpgsql set search_path = '' as $$
begin
  if p_settings ? p_key and not (p_settings ->> p_key = any (p_values)) then
    raise exception '%', p_message using errcode = 'P0001';
  end if;
end;
$$;
revoke execute on function private.check_setting_value(jsonb, text, text[], text) from public;
grant execute on function private.check_setting_value(jsonb, text, text[], text) to service_role;

-- Writes the settings p_columns of p_table's row whose p_key is p_id, from p_new (the row as the
-- save made it): those columns only, so what other writes changed meanwhile (counters) stays.
create function private.update_settings(p_table regclass, p_key text, p_id uuid, p_new jsonb, p_columns text[])
returns void language plpgsql set search_path = '' as $$
begin
  execute format('update %1$s set (%2$s) = (select %3$s from jsonb_populate_record(null::%1$s, $1) n) where %4$I = $2',
                 p_table, (select string_agg(format('%I', c), ', ') from unnest(p_columns) c),
                 (select string_agg(format('n.%I', c), ', ') from unnest(p_columns) c), p_key)
    using p_new, p_id;
end;
$$;
revoke execute on function private.update_settings(regclass, text, uuid, jsonb, text[]) from public;
grant execute on function private.update_settings(regclass, text, uuid, jsonb, text[]) to service_role;

-- The ids of the p_key lists of a list's items (a question's options, an ending's conditions),
-- checked as payload_ids checks a list's own.
create function private.payload_child_ids(p_items jsonb, p_key text, p_what text)
returns uuid[] language sql immutable set search_path = '' as $$
  select private.payload_ids(coalesce((
    select jsonb_agg(c) from jsonb_array_elements(p_items) i,
      jsonb_array_elements(coalesce(i -> p_key, '[]'::jsonb)) c), '[]'::jsonb), p_what);
$$;
revoke execute on function private.payload_child_ids(jsonb, text, text) from public;
grant execute on function private.payload_child_ids(jsonb, text, text) to service_role;

-- Ids of a save's list that name rows of p_table are this block's (the others are new), or the
-- save fails with p_message.
create function private.check_block_ids(p_table regclass, p_ids uuid[], p_block_id uuid, p_message text)
returns void language plpgsql stable set search_path = '' as $$
declare
  v_other boolean;
begin
  execute format('select exists (select 1 from %s t where t.id = any ($1) and t.block_id <> $2)', p_table)
    into v_other using p_ids, p_block_id;
  if v_other then
    raise exception '%', p_message using errcode = 'P0001';
  end if;
end;
$$;
revoke execute on function private.check_block_ids(regclass, uuid[], uuid, text) from public;
grant execute on function private.check_block_ids(regclass, uuid[], uuid, text) to service_role;

create or replace function private.save_block_settings(p_block public.blocks, p_settings jsonb,
  p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  -- the settings an owner may change: never counters, owner, type, deactivated or the preview's
  -- mode / ending_mode
  v_allowed constant text[] := array[
    'name', 'theme', 'custom_color', 'custom_label_color', 'custom_label_name', 'embeded_url',
    'welcome_message', 'placeholder', 'submit_button_text', 'language', 'block_anonymous',
    'allow_reaction', 'allow_reply', 'admin_only_reply', 'show_count', 'show_profile', 'owner_name',
    'owner_photo_url', 'qna_subject', 'align', 'button_text', 'url_to_open', 'open_graph',
    'allow_creator_email', 'hold_messages', 'honeypot', 'captcha'];
  v_old public.blocks := p_block;
  v_new public.blocks;
begin
  perform private.check_setting_keys(p_settings, v_allowed);
  perform private.check_setting_value(p_settings, 'theme',
    enum_range(null::public.block_theme)::text[], 'Invalid theme');
  perform private.check_setting_value(p_settings, 'align',
    enum_range(null::public.block_align)::text[], 'Invalid align');
  perform private.check_setting_value(p_settings, 'language',
    enum_range(null::public.language_code)::text[], 'Language must be en or ko');
  perform private.check_setting_value(p_settings, 'hold_messages',
    array['off', 'all', 'first_time', 'links'], 'Invalid hold_messages');

  -- keys present replace the stored value, absent keys keep it
  v_new := jsonb_populate_record(v_old, p_settings);

  if not p_paid then
    -- style customizing
    perform private.require_paid('theme', v_new.theme = 'custom' and v_old.theme <> 'custom');
    perform private.require_paid('custom_color',
      v_new.custom_color is distinct from v_old.custom_color and v_new.custom_color is not null);
    perform private.require_paid('custom_label_color',
      v_new.custom_label_color is distinct from v_old.custom_label_color
      and v_new.custom_label_color is not null);
    -- open graph customizing (an empty override is no override)
    perform private.require_paid('open_graph',
      v_new.open_graph is distinct from v_old.open_graph
      and coalesce(v_new.open_graph ->> 'title', '') || coalesce(v_new.open_graph ->> 'description', '')
          || coalesce(v_new.open_graph ->> 'image_url', '') <> '');
    -- the creator email option
    perform private.require_paid('allow_creator_email',
      v_new.allow_creator_email and not v_old.allow_creator_email);
    -- comment toggles: blocking anonymous visitors, likes and replies off, the count
    perform private.require_paid('block_anonymous',
      v_old.type = 'comment' and v_new.block_anonymous and not v_old.block_anonymous);
    perform private.require_paid('allow_reaction',
      v_old.type = 'comment' and not v_new.allow_reaction and v_old.allow_reaction);
    perform private.require_paid('allow_reply',
      v_old.type = 'comment' and not v_new.allow_reply and v_old.allow_reply);
    perform private.require_paid('show_count',
      v_old.type in ('comment', 'qna') and v_new.show_count and not v_old.show_count);
    -- like button position
    perform private.require_paid('align',
      v_old.type = 'like' and v_new.align <> 'center' and v_new.align is distinct from v_old.align);
    -- visitor trust: holding messages for approval, the honeypot, the captcha
    perform private.require_paid('hold_messages',
      v_new.hold_messages <> 'off' and v_new.hold_messages is distinct from v_old.hold_messages);
    perform private.require_paid('honeypot', v_new.honeypot and not v_old.honeypot);
    perform private.require_paid('captcha', v_new.captcha and not v_old.captcha);
  end if;

  perform private.update_settings('public.blocks', 'id', v_old.id, to_jsonb(v_new), v_allowed);
end;
$$;
revoke execute on function private.save_block_settings(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_settings(public.blocks, jsonb, boolean) to service_role;

create function private.save_block_private(p_block public.blocks, p_private jsonb, p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  v_allowed constant text[] := array['mail_to', 'notion_database', 'notion_page', 'notion_database_title'];
  v_old public.block_private;
  v_new public.block_private;
  v_connected boolean := true;
  v_unlisted boolean := false;
begin
  perform private.check_setting_keys(p_private, v_allowed);

  -- A link goes to the owner's connected Notion: a workspace open in another tab may still offer
  -- a database of a connection removed meanwhile (remove_notion_connection unlinks every block).
  -- The connection's row is locked for share before the block's row, in the order the removal
  -- takes them: a removal under way waits for this save and then unlinks it too, and a save
  -- after the removal finds no connection.
  if coalesce(p_private ->> 'notion_database', '') <> ''
     or coalesce(p_private ->> 'notion_page', '') <> '' then
    perform 1 from public.integrations
      where user_id = p_block.owner_id and provider = 'notion' for share;
    v_connected := found;
  end if;

  -- the row is created with the block; a missing one (older data) is created here
  insert into public.block_private (block_id, owner_id) values (p_block.id, p_block.owner_id)
    on conflict (block_id) do nothing;
  select * into v_old from public.block_private where block_id = p_block.id for update;
  v_new := jsonb_populate_record(v_old, p_private);
  v_new.mail_to := nullif(btrim(v_new.mail_to), '');

  -- checked when it changes: an address saved under the older rule (private.is_valid_email, before
  -- 2026-11-29) does not stop the block's other settings from saving
  if v_new.mail_to is distinct from v_old.mail_to and v_new.mail_to is not null
     and not private.is_valid_email(v_new.mail_to) then
    raise exception 'Invalid email address.' using errcode = 'P0001';
  end if;
  -- a new address that is not the owner's own is asked first (notifications.sql): its digests
  -- are skipped until it confirms
  if v_new.mail_to is distinct from v_old.mail_to then
    perform private.ask_notification_consent(p_block, v_new.mail_to);
  end if;

  -- Notion integration
  if not p_paid then
    perform private.require_paid('notion_database',
      nullif(v_new.notion_database, '') is distinct from nullif(v_old.notion_database, '')
      and coalesce(v_new.notion_database, '') <> '');
    perform private.require_paid('notion_page',
      nullif(v_new.notion_page, '') is distinct from nullif(v_old.notion_page, '')
      and coalesce(v_new.notion_page, '') <> '');
    perform private.require_paid('notion_database_title',
      v_new.notion_database_title is distinct from v_old.notion_database_title
      and v_new.notion_database_title <> 'response_id');
  end if;
  if not v_connected then
    raise exception 'Notion is not connected: connect it again, then choose' using errcode = 'P0001';
  end if;
  -- a new target is one the current connection listed (notion.sql, private.notion_listed): a tab
  -- still holding the list of a connection replaced since (connected again) is refused, and
  -- reads the list again. The link is kept as Notion spelled the id (private.notion_listed_id).
  if nullif(v_new.notion_database, '') is distinct from nullif(v_old.notion_database, '')
     and coalesce(v_new.notion_database, '') <> '' then
    v_new.notion_database := private.notion_listed_id(p_block.owner_id, v_new.notion_database, 'data_source');
    v_unlisted := v_new.notion_database is null;
  end if;
  if nullif(v_new.notion_page, '') is distinct from nullif(v_old.notion_page, '')
     and coalesce(v_new.notion_page, '') <> '' then
    v_new.notion_page := private.notion_listed_id(p_block.owner_id, v_new.notion_page, 'page');
    v_unlisted := v_unlisted or v_new.notion_page is null;
  end if;
  if v_unlisted then
    raise exception 'This Notion database or page is not in the connected workspace: choose again'
      using errcode = 'P0001';
  end if;

  perform private.update_settings('public.block_private', 'block_id', p_block.id, to_jsonb(v_new), v_allowed);
end;
$$;
revoke execute on function private.save_block_private(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_private(public.blocks, jsonb, boolean) to service_role;

create function private.save_block_questions(p_block public.blocks, p_questions jsonb, p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  v_ids uuid[] := private.payload_ids(p_questions, 'question');
  v_option_ids uuid[];
  v_item jsonb;
  v_option jsonb;
  v_old public.questions;
  v_row public.questions;
  v_old_option public.options;
  v_option_row public.options;
  v_live_options bigint;
  v_letter_types constant public.block_type[] := array['notion_letter', 'typedream_letter', 'brunch_letter'];
begin
  -- the block's type after the list is read (declare): a bad list answers with its own fault
  if p_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_block_ids('public.questions', v_ids, p_block.id, 'Not valid question');
  -- option ids: unique across the payload, and each one new or already this question's
  v_option_ids := private.payload_child_ids(p_questions, 'options', 'option');
  if exists (
    select 1 from jsonb_array_elements(p_questions) q,
      jsonb_array_elements(coalesce(q -> 'options', '[]'::jsonb)) o
      join public.options s on s.id = (o ->> 'id')::uuid
    where s.question_id <> (q ->> 'id')::uuid) then
    raise exception 'Invalid option' using errcode = 'P0001';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_questions) q
    where not (q ->> 'type' = any (enum_range(null::public.question_type)::text[]))) then
    raise exception 'Not valid type' using errcode = 'P0001';
  end if;

  -- Soft deletes first, so the question-count trigger sees the room they free. A question
  -- missing from the list is deleted as well (soft: responses keep naming it).
  update public.questions q set deleted = true
    where q.block_id = p_block.id and not q.deleted
      and (not (q.id = any (v_ids)) or exists (
        select 1 from jsonb_array_elements(p_questions) e
        where (e ->> 'id')::uuid = q.id and coalesce((e ->> 'deleted')::boolean, false)));

  for v_item in
    select e from jsonb_array_elements(p_questions) e
    order by coalesce((e ->> 'deleted')::boolean, false) desc, (e ->> 'index')::integer
  loop
    v_old := null;
    select * into v_old from public.questions where id = (v_item ->> 'id')::uuid;
    v_row := jsonb_populate_record(null::public.questions, v_item);
    v_row.block_id := p_block.id;
    -- a soft delete is final
    v_row.deleted := coalesce(v_row.deleted, false) or coalesce(v_old.deleted, false);

    if v_old.id is null and v_row.deleted then
      -- created and deleted before it was ever saved: nothing to keep
      continue;
    end if;

    if not v_row.deleted then
      -- capture of respondent email or name
      perform private.require_paid('as_visitor_info',
        not p_paid and v_row.as_visitor_info is not null
        and v_row.as_visitor_info is distinct from v_old.as_visitor_info);
      -- a letter the form sends by itself: paid, from a mail question (letter-triggers.sql)
      if v_row.trigger_letter_block is not null
         and v_row.trigger_letter_block is distinct from v_old.trigger_letter_block then
        perform private.require_paid('trigger_letter_block', not p_paid);
        if v_row.type <> 'mail' then
          raise exception 'Not valid letter block' using errcode = 'P0001';
        end if;
      end if;
      if v_row.trigger_letter_block is not null
         and v_row.trigger_letter_block is distinct from v_old.trigger_letter_block
         and not exists (
           select 1 from public.blocks l
           where l.id = v_row.trigger_letter_block and l.owner_id = p_block.owner_id
             and l.type = any (v_letter_types)) then
        raise exception 'Not valid letter block' using errcode = 'P0001';
      end if;
    end if;

    if v_old.id is null then
      insert into public.questions (id, block_id, type, title, required, index, placeholder,
                                    allow_multi_select, as_visitor_info, trigger_letter_block,
                                    content, image_src, deleted)
        values (v_row.id, p_block.id, v_row.type, v_row.title, v_row.required, v_row.index,
                v_row.placeholder, v_row.allow_multi_select, v_row.as_visitor_info,
                v_row.trigger_letter_block, v_row.content, v_row.image_src, false);
    else
      update public.questions set
        type = v_row.type, title = v_row.title, required = v_row.required, index = v_row.index,
        placeholder = v_row.placeholder, allow_multi_select = v_row.allow_multi_select,
        as_visitor_info = v_row.as_visitor_info, trigger_letter_block = v_row.trigger_letter_block,
        content = v_row.content, image_src = v_row.image_src, deleted = v_row.deleted
      where id = v_row.id;
    end if;

    if v_row.type not in ('poll', 'ab') then
      -- spec: options of questions that are not poll or ab are removed on save
      delete from public.options where question_id = v_row.id;
      continue;
    end if;

    -- options: the complete list of this question; missing ones are soft deleted
    update public.options o set deleted = true
      where o.question_id = v_row.id and not o.deleted
        and not exists (
          select 1 from jsonb_array_elements(coalesce(v_item -> 'options', '[]'::jsonb)) e
          where (e ->> 'id')::uuid = o.id and not coalesce((e ->> 'deleted')::boolean, false));
    for v_option in select e from jsonb_array_elements(coalesce(v_item -> 'options', '[]'::jsonb)) e
    loop
      v_old_option := null;
      select * into v_old_option from public.options where id = (v_option ->> 'id')::uuid;
      v_option_row := jsonb_populate_record(null::public.options, v_option);
      v_option_row.deleted := coalesce(v_option_row.deleted, false) or coalesce(v_old_option.deleted, false);
      if v_old_option.id is null then
        if not v_option_row.deleted then
          -- a new option starts with no responses whatever the payload says
          insert into public.options (id, question_id, block_id, value, index, deleted)
            values (v_option_row.id, v_row.id, p_block.id, v_option_row.value, v_option_row.index, false);
        end if;
      else
        update public.options set value = v_option_row.value, index = v_option_row.index,
                                  deleted = v_option_row.deleted
          where id = v_option_row.id;
      end if;
    end loop;

    if v_row.type in ('ab', 'poll') and not v_row.deleted then
      select count(*) into v_live_options from public.options where question_id = v_row.id and not deleted;
      if v_row.type = 'ab' and v_live_options <> 2 then
        raise exception 'An A/B question has exactly two options' using errcode = 'P0001';
      elsif v_row.type = 'poll' and v_live_options = 0 then
        raise exception 'A poll question has at least one option' using errcode = 'P0001';
      end if;
    end if;
  end loop;
end;
$$;
revoke execute on function private.save_block_questions(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_questions(public.blocks, jsonb, boolean) to service_role;

create function private.save_block_endings(p_block public.blocks, p_endings jsonb, p_paid boolean)
returns void language plpgsql set search_path = '' as $$
declare
  v_ids uuid[] := private.payload_ids(p_endings, 'ending');
  v_condition_ids uuid[];
  v_default public.endings;
  v_item jsonb;
  v_condition jsonb;
  v_old public.endings;
  v_row public.endings;
  v_cond public.ending_conditions;
  v_question public.questions;
begin
  if p_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_block_ids('public.endings', v_ids, p_block.id, 'Not valid ending');
  v_condition_ids := private.payload_child_ids(p_endings, 'conditions', 'condition');
  perform private.check_block_ids('public.ending_conditions', v_condition_ids, p_block.id, 'Not valid condition');

  -- the default ending stays, and stays the default; no other ending becomes one
  select * into v_default from public.endings where block_id = p_block.id and is_default;
  if v_default.id is not null and not (v_default.id = any (v_ids)) then
    raise exception 'The default ending cannot be deleted' using errcode = 'P0001';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_endings) e
    where coalesce((e ->> 'is_default')::boolean, false)
          is distinct from coalesce((e ->> 'id')::uuid = v_default.id, false)) then
    raise exception 'The default ending cannot be changed' using errcode = 'P0001';
  end if;

  -- multiple endings: an owner without a paid plan adds no custom ending (ones kept from a paid
  -- period may still be edited or deleted)
  perform private.require_paid('endings', not p_paid and exists (
    select 1 from jsonb_array_elements(p_endings) e
    where not exists (select 1 from public.endings s where s.id = (e ->> 'id')::uuid)));

  delete from public.endings e
    where e.block_id = p_block.id and not e.is_default and not (e.id = any (v_ids));
  -- conditions are replaced as a whole
  delete from public.ending_conditions where block_id = p_block.id;

  for v_item in select e from jsonb_array_elements(p_endings) e order by (e ->> 'index')::integer
  loop
    v_old := null;
    select * into v_old from public.endings where id = (v_item ->> 'id')::uuid;
    v_row := jsonb_populate_record(null::public.endings, v_item);
    if v_row.open_link_type not in ('submit', 'button') then
      raise exception 'Not valid type' using errcode = 'P0001';
    end if;
    -- opening a link on submission
    perform private.require_paid('open_url',
      not p_paid and coalesce(v_row.open_url, '') <> '' and v_row.open_link_type = 'submit'
      and (v_old.open_url is distinct from v_row.open_url
           or v_old.open_link_type is distinct from v_row.open_link_type));

    if v_old.id is null then
      insert into public.endings (id, block_id, is_default, index, title, closing_text, open_url,
                                  open_link_type, open_url_text, resubmit_text, block_submit_another)
        values (v_row.id, p_block.id, false, v_row.index, v_row.title, v_row.closing_text,
                v_row.open_url, v_row.open_link_type, v_row.open_url_text, v_row.resubmit_text,
                v_row.block_submit_another);
    else
      update public.endings set
        index = v_row.index, title = v_row.title, closing_text = v_row.closing_text,
        open_url = v_row.open_url, open_link_type = v_row.open_link_type,
        open_url_text = v_row.open_url_text, resubmit_text = v_row.resubmit_text,
        block_submit_another = v_row.block_submit_another
      where id = v_row.id;
    end if;

    for v_condition in select c from jsonb_array_elements(coalesce(v_item -> 'conditions', '[]'::jsonb)) c
    loop
      if not (v_condition ->> 'type' = any (enum_range(null::public.condition_type)::text[])) then
        raise exception 'Not valid type' using errcode = 'P0001';
      end if;
      v_cond := jsonb_populate_record(null::public.ending_conditions, v_condition);
      v_question := null;
      select * into v_question from public.questions
        where id = v_cond.question_id and block_id = p_block.id;
      if v_question.id is null then
        raise exception 'Not valid question' using errcode = 'P0001';
      end if;
      if v_question.deleted then
        raise exception 'A condition refers to a deleted question' using errcode = 'P0001';
      end if;
      if v_cond.type in ('equal', 'include') and coalesce(v_cond.value, '') = '' then
        raise exception 'Please complete the condition' using errcode = 'P0001';
      end if;
      insert into public.ending_conditions (id, ending_id, block_id, index, question_id, type, value)
        values (v_cond.id, v_row.id, p_block.id, v_cond.index, v_cond.question_id, v_cond.type,
                v_cond.value);
    end loop;
  end loop;
end;
$$;
revoke execute on function private.save_block_endings(public.blocks, jsonb, boolean) from public;
grant execute on function private.save_block_endings(public.blocks, jsonb, boolean) to service_role;

create function public.save_block(p_owner_id uuid, p_block_id uuid, p_payload jsonb)
returns jsonb language plpgsql set search_path = '' as $$
declare
  v_block public.blocks;
  v_paid boolean;
  v_settings jsonb := nullif(p_payload -> 'settings', 'null'::jsonb);
  v_private jsonb := nullif(p_payload -> 'privateSettings', 'null'::jsonb);
  v_questions jsonb := nullif(p_payload -> 'questions', 'null'::jsonb);
  v_endings jsonb := nullif(p_payload -> 'endings', 'null'::jsonb);
begin
  -- The block row is locked for the whole save: concurrent saves of one block run one after
  -- the other, each seeing the other's complete result.
  select * into v_block from public.blocks
    where id = p_block_id and owner_id = p_owner_id
    for update;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if jsonb_typeof(p_payload) is distinct from 'object'
     or (coalesce(v_settings, '{}'::jsonb) = '{}'::jsonb
         and coalesce(v_private, '{}'::jsonb) = '{}'::jsonb
         and v_questions is null and v_endings is null) then
    raise exception 'nothing to update' using errcode = 'P0001';
  end if;
  select coalesce(p.paid, false) into v_paid from public.profiles p where p.id = p_owner_id;
  v_paid := coalesce(v_paid, false);

  if coalesce(v_settings, '{}'::jsonb) <> '{}'::jsonb then
    perform private.save_block_settings(v_block, v_settings, v_paid);
  end if;
  if coalesce(v_private, '{}'::jsonb) <> '{}'::jsonb then
    perform private.save_block_private(v_block, v_private, v_paid);
  end if;
  -- questions before endings: conditions may name questions created by this save
  if v_questions is not null then
    perform private.save_block_questions(v_block, v_questions, v_paid);
  end if;
  if v_endings is not null then
    perform private.save_block_endings(v_block, v_endings, v_paid);
  end if;

  return private.block_editor_json(p_block_id);
end;
$$;
comment on function public.save_block(uuid, uuid, jsonb) is
  'Saves a block from the workspace in one transaction (settings, private settings, complete question and ending lists). Service role only: the save-block edge function validates the payload first. Errors: block doesn''t exists, nothing to update, Not valid type, Too many questions (at most N), Paid plan required (field), and the messages in docs/data-model.md.';
revoke execute on function public.save_block(uuid, uuid, jsonb) from public, anon, authenticated;

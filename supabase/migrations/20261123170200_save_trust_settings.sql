-- The workspace saves the visitor trust settings of issue 9 (blocks.hold_messages, honeypot,
-- captcha) with the other settings, through save-block (ZBlockSettings). Paid, like the other
-- paid features: refused for a free owner when turned on or changed, accepted when kept or turned
-- off.
--
-- private.save_block_settings as in 20261121000900_save_block.sql, with the three keys added to
-- the allowed list, their paid checks and their columns in the update.

create or replace function private.save_block_settings(p_block public.blocks, p_settings jsonb, p_paid boolean)
returns void
language plpgsql
set search_path = ''
as $$
declare
  -- the settings an owner may change: never counters, owner, type, deactivated or the preview's
  -- mode / ending_mode
  v_allowed constant text[] := array[
    'name', 'theme', 'custom_color', 'custom_label_color', 'custom_label_name', 'embeded_url',
    'welcome_message', 'placeholder', 'submit_button_text', 'language', 'block_anonymous',
    'allow_reaction', 'allow_reply', 'admin_only_reply', 'show_count', 'show_profile', 'owner_name',
    'owner_photo_url', 'qna_subject', 'align', 'button_text', 'url_to_open', 'open_graph',
    'allow_creator_email', 'hold_messages', 'honeypot', 'captcha'];
  v_key text;
  v_old public.blocks := p_block;
  v_new public.blocks;
begin
  if jsonb_typeof(p_settings) is distinct from 'object' then
    raise exception 'Invalid settings' using errcode = 'P0001';
  end if;
  select k into v_key from jsonb_object_keys(p_settings) k where k <> all (v_allowed) limit 1;
  if v_key is not null then
    raise exception 'Not a block setting (%)', v_key using errcode = 'P0001';
  end if;
  if p_settings ? 'theme' and not (p_settings ->> 'theme' = any (enum_range(null::public.block_theme)::text[])) then
    raise exception 'Invalid theme' using errcode = 'P0001';
  end if;
  if p_settings ? 'align' and not (p_settings ->> 'align' = any (enum_range(null::public.block_align)::text[])) then
    raise exception 'Invalid align' using errcode = 'P0001';
  end if;
  if p_settings ? 'language' and not (p_settings ->> 'language' = any (enum_range(null::public.language_code)::text[])) then
    raise exception 'Language must be en or ko' using errcode = 'P0001';
  end if;

  if p_settings ? 'hold_messages'
     and not (p_settings ->> 'hold_messages' = any (array['off', 'all', 'first_time', 'links'])) then
    raise exception 'Invalid hold_messages' using errcode = 'P0001';
  end if;

  -- keys present replace the stored value, absent keys keep it
  v_new := jsonb_populate_record(v_old, p_settings);

  if not p_paid then
    -- style customizing
    if v_new.theme = 'custom' and v_old.theme <> 'custom' then
      perform private.raise_paid_required('theme');
    end if;
    if v_new.custom_color is distinct from v_old.custom_color and v_new.custom_color is not null then
      perform private.raise_paid_required('custom_color');
    end if;
    if v_new.custom_label_color is distinct from v_old.custom_label_color
       and v_new.custom_label_color is not null then
      perform private.raise_paid_required('custom_label_color');
    end if;
    -- open graph customizing (an empty override is no override)
    if v_new.open_graph is distinct from v_old.open_graph
       and coalesce(v_new.open_graph ->> 'title', '') || coalesce(v_new.open_graph ->> 'description', '')
           || coalesce(v_new.open_graph ->> 'image_url', '') <> '' then
      perform private.raise_paid_required('open_graph');
    end if;
    -- the creator email option
    if v_new.allow_creator_email and not v_old.allow_creator_email then
      perform private.raise_paid_required('allow_creator_email');
    end if;
    -- comment toggles: blocking anonymous visitors, likes and replies off, the count
    if v_old.type = 'comment' then
      if v_new.block_anonymous and not v_old.block_anonymous then
        perform private.raise_paid_required('block_anonymous');
      end if;
      if not v_new.allow_reaction and v_old.allow_reaction then
        perform private.raise_paid_required('allow_reaction');
      end if;
      if not v_new.allow_reply and v_old.allow_reply then
        perform private.raise_paid_required('allow_reply');
      end if;
    end if;
    if v_old.type in ('comment', 'qna') and v_new.show_count and not v_old.show_count then
      perform private.raise_paid_required('show_count');
    end if;
    -- like button position
    if v_old.type = 'like' and v_new.align <> 'center' and v_new.align is distinct from v_old.align then
      perform private.raise_paid_required('align');
    end if;
    -- visitor trust: holding messages for approval, the honeypot, the captcha
    if v_new.hold_messages <> 'off' and v_new.hold_messages is distinct from v_old.hold_messages then
      perform private.raise_paid_required('hold_messages');
    end if;
    if v_new.honeypot and not v_old.honeypot then
      perform private.raise_paid_required('honeypot');
    end if;
    if v_new.captcha and not v_old.captcha then
      perform private.raise_paid_required('captcha');
    end if;
  end if;

  update public.blocks set
    name = v_new.name,
    theme = v_new.theme,
    custom_color = v_new.custom_color,
    custom_label_color = v_new.custom_label_color,
    custom_label_name = v_new.custom_label_name,
    embeded_url = v_new.embeded_url,
    welcome_message = v_new.welcome_message,
    placeholder = v_new.placeholder,
    submit_button_text = v_new.submit_button_text,
    language = v_new.language,
    block_anonymous = v_new.block_anonymous,
    allow_reaction = v_new.allow_reaction,
    allow_reply = v_new.allow_reply,
    admin_only_reply = v_new.admin_only_reply,
    show_count = v_new.show_count,
    show_profile = v_new.show_profile,
    owner_name = v_new.owner_name,
    owner_photo_url = v_new.owner_photo_url,
    qna_subject = v_new.qna_subject,
    align = v_new.align,
    button_text = v_new.button_text,
    url_to_open = v_new.url_to_open,
    open_graph = v_new.open_graph,
    allow_creator_email = v_new.allow_creator_email,
    hold_messages = v_new.hold_messages,
    honeypot = v_new.honeypot,
    captcha = v_new.captcha
  where id = v_old.id;
end;
$$;

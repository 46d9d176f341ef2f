-- Blocks: the public settings and counters of a block, its owner-only settings (block_private), and
-- the owner's RPCs to create and duplicate one. Block content and settings are written through
-- the save-block edge function only (save-block.sql); owners may write directly only what needs no
-- validation: delete a block, update `tags` (checked here with the dashboard's rule) and reset
-- `new_response_count`. The triggers keep block_count right under concurrent creates.

-- Tags are written directly (the block list's tag dialog), so the database holds them to the
-- dashboard's rule (ZUpdateBlockTagsInput): at most 50 labels, each 1..50 characters with no
-- leading or trailing whitespace (the characters JavaScript's trim() strips, as in
-- private.trim_whitespace, inlined: the check runs as the client role, which may not use schema
-- private by name). Defined before the table, whose check constraint calls it; a check runs with
-- the writer's rights, so the roles that write blocks may execute it.
create function private.block_tags_are_valid(p_tags text[])
returns boolean language sql immutable parallel safe set search_path = '' as $$
  select coalesce(bool_and(
           t is not null and char_length(t) between 1 and 50
           and t !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'),
         true)
  from unnest(p_tags) t;
$$;
revoke execute on function private.block_tags_are_valid(text[]) from public;
grant execute on function private.block_tags_are_valid(text[]) to authenticated, service_role;
comment on function private.block_tags_are_valid(text[]) is
  'Every tag is 1..50 characters without leading or trailing whitespace (blocks.tags check).';

create table public.blocks (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  type public.block_type not null,
  name text not null default 'Untitled' check (char_length(name) <= 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  response_count integer not null default 0 check (response_count >= 0),
  new_response_count integer not null default 0 check (new_response_count >= 0),
  like_count integer not null default 0 check (like_count >= 0),
  tags text[] not null default '{}' check (cardinality(tags) <= 50),
  deactivated boolean not null default false,
  theme public.block_theme not null default 'light',
  custom_color jsonb check (custom_color is null or jsonb_typeof(custom_color) = 'object'),
  custom_label_color jsonb check (custom_label_color is null or jsonb_typeof(custom_label_color) = 'object'),
  custom_label_name jsonb not null default '{"admin": "Admin", "me": "Me"}'::jsonb
    check (jsonb_typeof(custom_label_name) = 'object'
           and char_length(coalesce(custom_label_name ->> 'admin', '')) <= 100
           and char_length(coalesce(custom_label_name ->> 'me', '')) <= 100),
  embeded_url text check (char_length(embeded_url) <= 2000),
  welcome_message text check (char_length(welcome_message) <= 1000),
  placeholder text check (char_length(placeholder) <= 500),
  submit_button_text text check (char_length(submit_button_text) <= 100),
  language public.language_code not null default 'en',
  block_anonymous boolean not null default false,
  allow_reaction boolean not null default true,
  allow_reply boolean not null default true,
  admin_only_reply boolean not null default false,
  show_count boolean not null default false,
  show_profile boolean not null default false,
  owner_name text check (char_length(owner_name) <= 100),
  owner_photo_url text check (char_length(owner_photo_url) <= 500),
  qna_subject text check (char_length(qna_subject) <= 500),
  align public.block_align not null default 'center',
  button_text text check (char_length(button_text) <= 100),
  url_to_open text check (char_length(url_to_open) <= 2000),
  open_graph jsonb check (
    open_graph is null or (
      jsonb_typeof(open_graph) = 'object'
      and char_length(coalesce(open_graph ->> 'title', '')) < 100
      and char_length(coalesce(open_graph ->> 'description', '')) < 500
      and char_length(coalesce(open_graph ->> 'image_url', '')) < 500
    )
  ),
  allow_creator_email boolean not null default false,
  mode text check (mode in ('ending')),
  ending_mode text check (char_length(ending_mode) <= 10),
  -- visitor trust (issue 9)
  hold_messages text not null default 'off'
    check (hold_messages in ('off', 'all', 'first_time', 'links')),
  honeypot boolean not null default false,
  captcha boolean not null default false,
  rate_limits jsonb check (rate_limits is null or jsonb_typeof(rate_limits) = 'object'),
  unique (id, owner_id),
  constraint blocks_tags_are_labels check (private.block_tags_are_valid(tags))
)
-- counter updates stay HOT (heap-only tuples): room on the page for the new row version
with (fillfactor = 70);
comment on table public.blocks is
  'A reaction or letter block owned by a user: settings and counters. Readable by its owner; visitors read the public settings through get_block_view.';
comment on column public.blocks.custom_color is 'Custom theme colours: {"--PRIMARY","--SECONDARY","--TERTIARY","--BACKGROUND"}.';
comment on column public.blocks.custom_label_color is 'Label colours: {"--ADMIN_LABEL","--ME_LABEL"}.';
comment on column public.blocks.open_graph is 'Open Graph override: {title (<100), description (<500), image_url (<500)}.';
comment on column public.blocks.ending_mode is 'Index (as text) of the ending shown in the editor preview, or null.';
comment on column public.blocks.hold_messages is
  'Hold new comments and questions for the owner''s approval: off, all, first_time (writers without a published message here), links (messages with a link). Paid.';
comment on column public.blocks.honeypot is
  'The elements add a hidden field people never fill; a write without it empty is refused. Paid.';
comment on column public.blocks.captcha is
  'A visitor who trips a rate limit may continue after a captcha (Turnstile) instead of waiting. Paid.';
comment on column public.blocks.rate_limits is
  'Operator override of the visitor rate limits for this block: {"<action>": {"visitor_per_minute", "visitor_burst", "block_per_minute", "block_burst"}}. Not writable by owners.';
alter table public.blocks enable row level security;
-- anon (the bare anon key) holds nothing on a table no policy lets it read, so the API document
-- anon is shown lists only what anon may read (rls-catalogue.test.ts checks every table)
revoke all on public.blocks from anon;
revoke insert, update on public.blocks from authenticated;
grant update (new_response_count, tags) on public.blocks to authenticated;
create index blocks_owner_id_created_at_idx on public.blocks (owner_id, created_at desc);

create policy "Owners can update their blocks" on public.blocks
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));

create policy "Owners can delete their blocks" on public.blocks
  for delete to authenticated using (owner_id = (select auth.uid()));

create policy "Owners can read their blocks" on public.blocks
  for select to authenticated using (owner_id = (select auth.uid()));

create table public.block_private (
  block_id uuid primary key,
  owner_id uuid not null,
  mail_to text check (char_length(mail_to) <= 100),
  notion_database text check (char_length(notion_database) <= 100),
  notion_page text check (char_length(notion_page) <= 100),
  notion_database_title text not null default 'response_id'
    check (notion_database_title in ('response_id', 'block_name', 'creator', 'content')),
  mail_from text check (char_length(mail_from) <= 60),
  mail_name text check (char_length(mail_name) <= 100),
  mail_html text check (char_length(mail_html) <= 1000000),
  template_mode text not null default 'default' check (char_length(template_mode) <= 50),
  brunch_profile_page text check (char_length(brunch_profile_page) <= 500),
  publish_mode text check (char_length(publish_mode) <= 50),
  updated_at timestamptz not null default now(),
  -- letters (issue 11)
  -- the subject of the letter's mails: one line (a line break in a header makes SES refuse the send)
  mail_title text check (char_length(mail_title) <= 200)
    constraint block_private_mail_title_one_line check (mail_title !~ '[\r\n]'),
  mail_text text check (char_length(mail_text) <= 300000),
  page_url text check (char_length(page_url) <= 2000),
  -- the block model the editor deletes rows from: {version, source, blocks, cta, image_button}
  letter jsonb check (letter is null or (jsonb_typeof(letter) = 'object'
                                         and octet_length(letter::text) <= 2000000)),
  foreign key (block_id, owner_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.block_private is
  'Owner-only settings of a block (notification mail, Notion, letter sender and template). One row per block, created with it.';
comment on column public.block_private.letter is
  'The letter as a block model (headings, paragraphs, lists, images, ...), from which save-letter renders mail_html and mail_text.';
call private.clients_read('public.block_private', 'Owners can read their blocks'' private settings',
  'owner_id = (select auth.uid())');
create index block_private_owner_id_idx on public.block_private (owner_id);

create or replace function private.blocks_before_insert()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_profile public.profiles;
begin
  if (select auth.role()) in ('anon', 'authenticated')
     and new.owner_id is distinct from (select auth.uid()) then
    raise exception 'new row violates row-level security policy for table "blocks"'
      using errcode = '42501';
  end if;
  select * into v_profile from public.profiles where id = new.owner_id for update;
  if not found then
    raise exception 'Please sign in to create a block' using errcode = 'P0001';
  end if;
  if v_profile.block_limit - v_profile.block_count < 1 then
    raise exception 'Block limit reached!' using errcode = 'P0001';
  end if;
  update public.profiles set block_count = block_count + 1 where id = new.owner_id;
  -- a new block starts clean whatever the caller sent
  new.created_at := now();
  new.updated_at := now();
  new.response_count := 0;
  new.new_response_count := 0;
  new.like_count := 0;
  new.deactivated := false;
  return new;
end;
$$;

-- The texts a new block starts with, in its language: name, the suffix of a duplicate's name, the
-- default ending's text and the ab question's two options. The same table as BLOCK_DEFAULTS in
-- @reaction-blocks/contracts/block-defaults (what the dashboard shows), tied by
-- tests/functions.test.ts for every language_code.
create function private.block_defaults(p_language public.language_code)
returns jsonb language sql immutable parallel safe set search_path = '' as $$
  select case p_language
    when 'ko' then '{"name": "제목 없음", "copySuffix": " 사본", "ending": "감사합니다",
                     "abOptions": ["좋아요", "별로예요"]}'::jsonb
    else '{"name": "Untitled", "copySuffix": " Copy", "ending": "Thank you",
           "abOptions": ["Good", "Bad"]}'::jsonb
  end;
$$;
revoke execute on function private.block_defaults(public.language_code) from public;

-- Creates what every block needs: its private settings row and, for form and ab, the default
-- ending; for ab also the ab question with its two options (texts in the block's language,
-- private.block_defaults).
-- duplicate_block sets private.skip_block_defaults to copy these instead.
-- security definer: the default ending may not be inserted by clients.
create function private.blocks_after_insert()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_question_id uuid;
  v_defaults jsonb;
begin
  insert into public.block_private (block_id, owner_id) values (new.id, new.owner_id);
  if coalesce(current_setting('private.skip_block_defaults', true), '') = 'on' then
    return new;
  end if;
  v_defaults := private.block_defaults(new.language);
  if new.type in ('form', 'ab') then
    insert into public.endings (block_id, is_default, index, closing_text)
      values (new.id, true, 0, v_defaults ->> 'ending');
  end if;
  if new.type = 'ab' then
    insert into public.questions (block_id, type, title, required, index)
      values (new.id, 'ab', '', true, 0)
      returning id into v_question_id;
    insert into public.options (question_id, block_id, value, index)
      values (v_question_id, new.id, v_defaults -> 'abOptions' ->> 0, 0),
             (v_question_id, new.id, v_defaults -> 'abOptions' ->> 1, 1);
  end if;
  return new;
end;
$$;

create function private.blocks_after_delete()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set block_count = greatest(block_count - 1, 0) where id = old.owner_id;
  return old;
end;
$$;

-- Clients may only reset new_response_count ("mark as read"), not raise it.
create function private.blocks_guard_update()
returns trigger language plpgsql set search_path = '' as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.new_response_count is distinct from old.new_response_count
     and new.new_response_count <> 0 then
    raise exception 'new_response_count can only be reset to 0' using errcode = '42501';
  end if;
  return new;
end;
$$;

-- security definer: a visitor may not read public.blocks (tags, counters), but the policies of
-- messages and of the form content must know whether the block is published.
create function private.block_is_published(p_block_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.blocks where id = p_block_id and not deactivated);
$$;
revoke execute on function private.block_is_published(uuid) from public;
grant execute on function private.block_is_published(uuid) to anon, authenticated, service_role;

-- security definer: as above, for "the caller owns this block" (policies of other tables).
create function private.is_block_owner(p_block_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.blocks where id = p_block_id and owner_id = (select auth.uid()));
$$;
revoke execute on function private.is_block_owner(uuid) from public;
grant execute on function private.is_block_owner(uuid) to anon, authenticated, service_role;

-- A published block; raises 'block doesn't exists' when missing or deactivated. A visitor's
-- write names the block types it serves (p_types: 'Not supported block' for another) and its
-- writer (p_uid: refused when the owner blocked them, private.check_writer, called only when a
-- blocked_writers row exists): the opening checks of the write RPCs, in one place, in the call
-- they make anyway.
create function private.visible_block(p_block_id uuid, p_uid uuid default null,
                                      p_types public.block_type[] default null)
returns public.blocks language plpgsql stable set search_path = '' as $$
declare
  v_block public.blocks;
begin
  select * into v_block from public.blocks where id = p_block_id and not deactivated;
  if not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if p_types is not null and not (v_block.type = any (p_types)) then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  if p_uid is not null
     and exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = p_uid) then
    perform private.check_writer(v_block, p_uid);
  end if;
  return v_block;
end;
$$;
revoke execute on function private.visible_block(uuid, uuid, public.block_type[]) from public;

-- A new block of the caller's with the defaults of its type, named and worded in the caller's
-- language (private.block_defaults). security definer: clients hold no
-- insert on public.blocks (the settings columns are written by save_block only). The owner is the caller (auth.uid()), checked below; the blocks
-- triggers still refuse a row for anyone else, enforce the block limit and add the defaults.
create or replace function public.create_block(p_block_type text)
returns public.blocks language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_profile public.profiles;
  v_block public.blocks;
begin
  if v_uid is null then
    raise exception 'Please sign in to create a block' using errcode = 'PT401';
  end if;
  if p_block_type is null
     or not (p_block_type = any (enum_range(null::public.block_type)::text[])) then
    raise exception 'Invalid block' using errcode = 'P0001';
  end if;
  select * into v_profile from public.profiles where id = v_uid;
  if not found then
    raise exception 'Please sign in to create a block' using errcode = 'PT401';
  end if;
  insert into public.blocks (owner_id, type, name, language, owner_name, owner_photo_url)
    values (v_uid, p_block_type::public.block_type,
            private.block_defaults(v_profile.language) ->> 'name', v_profile.language,
            nullif(v_profile.name, ''), v_profile.photo_url)
    returning * into v_block;
  return v_block;
end;
$$;
comment on function public.create_block(text) is
  'Creates a block of a type (comment, qna, like, button, ab, form, notion_letter, typedream_letter, brunch_letter). Errors: Invalid block, Block limit reached!';
revoke execute on function public.create_block(text) from public, anon;

-- Copies a block of the caller: settings, private settings, questions and options (option
-- counts reset), endings and their conditions; name + ' Copy' (in the block's language,
-- private.block_defaults), created now, counters reset.
-- security definer: the copy of the default ending may not be inserted by clients; ownership
-- is checked explicitly below.
create function public.duplicate_block(p_block_id uuid)
returns public.blocks language plpgsql security definer set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
  v_src public.blocks;
  v_new public.blocks;
  v_question_map jsonb;
  v_ending_map jsonb;
  v_suffix text;
  v_paid boolean;
begin
  select * into v_src from public.blocks where id = p_block_id and owner_id = v_uid;
  if v_uid is null or not found then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;

  v_new := v_src;
  v_new.id := gen_random_uuid();
  v_suffix := private.block_defaults(v_src.language) ->> 'copySuffix';
  v_new.name := left(v_src.name, 200 - char_length(v_suffix)) || v_suffix;
  -- the insert trigger resets counters, created_at and deactivated and checks the limit
  perform set_config('private.skip_block_defaults', 'on', true);
  insert into public.blocks select (v_new).* returning * into v_new;
  perform set_config('private.skip_block_defaults', 'off', true);

  -- the copy's Notion link is a new link: kept only as save_block_private would take it (a paid
  -- owner, a target the current connection listed), else the copy is unlinked
  select coalesce(p.paid, false) into v_paid from public.profiles p where p.id = v_uid;
  update public.block_private d
    set mail_to = s.mail_to,
        notion_database = case when coalesce(v_paid, false) and coalesce(s.notion_database, '') <> ''
          then private.notion_listed_id(v_uid, s.notion_database, 'data_source') end,
        notion_page = case when coalesce(v_paid, false) and coalesce(s.notion_page, '') <> ''
          then private.notion_listed_id(v_uid, s.notion_page, 'page') end,
        notion_database_title = case when coalesce(v_paid, false) then s.notion_database_title
          else 'response_id' end,
        mail_from = s.mail_from,
        mail_name = s.mail_name, mail_html = s.mail_html, template_mode = s.template_mode,
        brunch_profile_page = s.brunch_profile_page, publish_mode = s.publish_mode,
        -- a letter's copy is the whole letter: the model the workspace edits and send-letter
        -- checks, the subject, the text part and the page address with the mail
        mail_title = s.mail_title, mail_text = s.mail_text, page_url = s.page_url,
        letter = s.letter
    from public.block_private s
    where s.block_id = v_src.id and d.block_id = v_new.id;

  -- questions (not deleted) and endings under new ids; the maps (old id -> new id) point the
  -- options and conditions at the copies
  select coalesce(jsonb_object_agg(id, gen_random_uuid()), '{}') into v_question_map
    from public.questions where block_id = v_src.id and not deleted;
  insert into public.questions
    select (jsonb_populate_record(q, jsonb_build_object(
              'id', v_question_map -> q.id::text, 'block_id', v_new.id, 'created_at', now()))).*
    from public.questions q where q.block_id = v_src.id and v_question_map ? q.id::text
    order by q.index, q.created_at;

  insert into public.options (question_id, block_id, value, index)
    select (v_question_map ->> o.question_id::text)::uuid, v_new.id, o.value, o.index
    from public.options o
    where o.block_id = v_src.id and not o.deleted and v_question_map ? o.question_id::text;

  select coalesce(jsonb_object_agg(id, gen_random_uuid()), '{}') into v_ending_map
    from public.endings where block_id = v_src.id;
  insert into public.endings
    select (jsonb_populate_record(e, jsonb_build_object(
              'id', v_ending_map -> e.id::text, 'block_id', v_new.id, 'created_at', now()))).*
    from public.endings e where e.block_id = v_src.id
    order by e.index, e.created_at;

  insert into public.ending_conditions (ending_id, block_id, index, question_id, type, value)
    select (v_ending_map ->> c.ending_id::text)::uuid, v_new.id, c.index,
           (v_question_map ->> c.question_id::text)::uuid, c.type, c.value
    from public.ending_conditions c
    where c.block_id = v_src.id and v_ending_map ? c.ending_id::text
      and v_question_map ? c.question_id::text;

  return v_new;
end;
$$;
comment on function public.duplicate_block(uuid) is
  'Copies one of the caller''s blocks (name + '' Copy'' in the block''s language, counters reset). Errors: block doesn''t exists, Block limit reached!';
revoke execute on function public.duplicate_block(uuid) from public, anon;

create trigger blocks_set_updated_at before update on public.blocks
  for each row execute function private.set_updated_at();
create trigger blocks_before_insert before insert on public.blocks
  for each row execute function private.blocks_before_insert();
create trigger blocks_after_delete after delete on public.blocks
  for each row execute function private.blocks_after_delete();
create trigger blocks_guard_update before update of new_response_count on public.blocks
  for each row execute function private.blocks_guard_update();
create trigger block_private_set_updated_at before update on public.block_private
  for each row execute function private.set_updated_at();
create trigger blocks_after_insert after insert on public.blocks
  for each row execute function private.blocks_after_insert();

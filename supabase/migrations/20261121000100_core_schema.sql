-- Core schema: enums, profiles (created from auth.users), the owner's tag list, blocks with their
-- public settings, owner-private block settings, and the form content of a block (questions,
-- options, endings, ending conditions). Row-level security on every table.
--
-- Conventions: internal functions (triggers, helpers) live in schema `private`, which PostgREST
-- does not expose and no client role may use. Counters and limits are kept by triggers so they
-- hold whoever writes: a client through PostgREST, an RPC, or an edge function.

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to service_role;

-- ---------------------------------------------------------------------------------------------
-- enums
-- ---------------------------------------------------------------------------------------------

create type public.block_type as enum (
  'comment', 'qna', 'like', 'button', 'ab', 'form', 'notion_letter', 'typedream_letter', 'brunch_letter'
);
create type public.block_theme as enum ('light', 'dark', 'custom');
create type public.block_align as enum ('left', 'center', 'right');
create type public.question_type as enum (
  'poll', 'ab', 'short_text', 'long_text', 'number', 'phone', 'mail', 'description', 'image'
);
create type public.condition_type as enum ('equal', 'empty', 'not_empty', 'include');
create type public.response_kind as enum ('form', 'ab', 'like', 'button');
create type public.language_code as enum ('en', 'ko');
create type public.payment_type as enum ('custom', 'basic', 'coupon', 'promote_coupon', 'subscription');
create type public.payment_method as enum ('iamport', 'paypal');
create type public.delivery_status as enum (
  'reserved', 'sent', 'delivered', 'opened', 'bounced', 'rejected', 'complaint'
);
create type public.sender_email_status as enum ('pending', 'not_verified', 'verified');
create type public.integration_status as enum ('granted', 'not_granted');

-- ---------------------------------------------------------------------------------------------
-- shared trigger helpers
-- ---------------------------------------------------------------------------------------------

create function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- profiles
-- ---------------------------------------------------------------------------------------------

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text not null default '' check (char_length(name) <= 100),
  email text check (char_length(email) <= 255),
  photo_url text check (char_length(photo_url) <= 500),
  home_url text check (char_length(home_url) <= 500),
  language public.language_code not null default 'en',
  agree boolean not null default false,
  domain_list text[] not null default '{}' check (cardinality(domain_list) <= 100),
  paid boolean not null default false,
  block_limit integer not null default 3 check (block_limit >= 0),
  block_count integer not null default 0 check (block_count >= 0),
  response_monthly_limit integer not null default 100 check (response_monthly_limit >= 0),
  response_monthly_count integer not null default 0 check (response_monthly_count >= 0),
  -- first day of the month response_monthly_count belongs to; a new month resets the count
  response_month date not null default (date_trunc('month', now()))::date,
  deactivated_mode boolean not null default false,
  group_mode text check (char_length(group_mode) <= 100),
  email_only boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.profiles is
  'One row per signed-in (non-anonymous) user: profile fields, consent, plan limits and usage counters.';
comment on column public.profiles.group_mode is 'Audience group selected on the audience page (null: all).';

alter table public.profiles enable row level security;

create policy "Users can read their own profile" on public.profiles
  for select to authenticated using (id = (select auth.uid()));
create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- Rows come from the auth.users trigger and go with the auth user; owners may change only
-- their profile fields, never consent, plan, limits or counters (edge functions do that).
revoke insert, update, delete, truncate on public.profiles from anon, authenticated;
grant update (name, photo_url, home_url, language, domain_list, deactivated_mode, group_mode, email_only)
  on public.profiles to authenticated;

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function private.set_updated_at();

-- Creates the profile (and the reserved audience groups, once that table exists) for a new
-- non-anonymous auth user. security definer: runs as the auth server's role, which has no
-- rights on public tables.
create function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_language text := v_meta ->> 'language';
begin
  if coalesce(new.is_anonymous, false) then
    return new;
  end if;
  insert into public.profiles (id, name, email, photo_url, language)
  values (
    new.id,
    left(coalesce(nullif(v_meta ->> 'full_name', ''), nullif(v_meta ->> 'name', ''),
                  split_part(coalesce(new.email, ''), '@', 1)), 100),
    new.email,
    left(coalesce(nullif(v_meta ->> 'avatar_url', ''), nullif(v_meta ->> 'picture', '')), 500),
    (case when v_language in ('en', 'ko') then v_language else 'en' end)::public.language_code
  )
  on conflict (id) do nothing;
  return new;
end;
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_user();
-- an anonymous user who links Google or Apple becomes a regular user and gets a profile then
create trigger on_auth_user_upgraded after update of is_anonymous on auth.users
  for each row when (old.is_anonymous and not new.is_anonymous)
  execute function private.handle_new_user();

-- ---------------------------------------------------------------------------------------------
-- user_tags
-- ---------------------------------------------------------------------------------------------

create table public.user_tags (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  label text not null check (char_length(label) between 1 and 50),
  active boolean not null default false,
  created_at timestamptz not null default now(),
  unique (user_id, label)
);
comment on table public.user_tags is 'The owner''s tag list (label and active flag) used to filter block cards.';

alter table public.user_tags enable row level security;

create policy "Users can read their own tags" on public.user_tags
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users can add their own tags" on public.user_tags
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Users can update their own tags" on public.user_tags
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Users can delete their own tags" on public.user_tags
  for delete to authenticated using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- blocks: everything here is public once the block is published; private settings live in
-- block_private.
-- ---------------------------------------------------------------------------------------------

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
  unique (id, owner_id)
);
comment on table public.blocks is
  'A reaction or letter block owned by a user: public settings and counters. Readable by anyone unless deactivated.';
comment on column public.blocks.custom_color is 'Custom theme colours: {"--PRIMARY","--SECONDARY","--TERTIARY","--BACKGROUND"}.';
comment on column public.blocks.custom_label_color is 'Label colours: {"--ADMIN_LABEL","--ME_LABEL"}.';
comment on column public.blocks.open_graph is 'Open Graph override: {title (<100), description (<500), image_url (<500)}.';
comment on column public.blocks.ending_mode is 'Index (as text) of the ending shown in the editor preview, or null.';

create index blocks_owner_id_created_at_idx on public.blocks (owner_id, created_at desc);

alter table public.blocks enable row level security;

create policy "Anyone can read published blocks" on public.blocks
  for select to anon using (not deactivated);
create policy "Users can read published blocks and their own" on public.blocks
  for select to authenticated using (not deactivated or owner_id = (select auth.uid()));
create policy "Users can create their own blocks" on public.blocks
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "Owners can update their blocks" on public.blocks
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "Owners can delete their blocks" on public.blocks
  for delete to authenticated using (owner_id = (select auth.uid()));

-- Owners change settings only: never the owner, the type, the creation time, the counters
-- (except resetting new_response_count to 0) or deactivated (set by plan expiry).
revoke insert, update, truncate on public.blocks from anon, authenticated;
grant insert (
  owner_id, type, name, tags, theme, custom_color, custom_label_color, custom_label_name, embeded_url,
  welcome_message, placeholder, submit_button_text, language, block_anonymous, allow_reaction,
  allow_reply, admin_only_reply, show_count, show_profile, owner_name, owner_photo_url, qna_subject,
  align, button_text, url_to_open, open_graph, allow_creator_email, mode, ending_mode
) on public.blocks to authenticated;
grant update (
  name, new_response_count, tags, theme, custom_color, custom_label_color, custom_label_name,
  embeded_url, welcome_message, placeholder, submit_button_text, language, block_anonymous,
  allow_reaction, allow_reply, admin_only_reply, show_count, show_profile, owner_name,
  owner_photo_url, qna_subject, align, button_text, url_to_open, open_graph, allow_creator_email,
  mode, ending_mode
) on public.blocks to authenticated;

create trigger blocks_set_updated_at before update on public.blocks
  for each row execute function private.set_updated_at();

-- Block limit and block_count. The profile row is locked, so concurrent creates by one owner
-- run one after another and the count stays exact. security definer: the owner may not write
-- block_count themselves.
create function private.blocks_before_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_profile public.profiles;
begin
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

create trigger blocks_before_insert before insert on public.blocks
  for each row execute function private.blocks_before_insert();

create function private.blocks_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set block_count = greatest(block_count - 1, 0) where id = old.owner_id;
  return old;
end;
$$;

create trigger blocks_after_delete after delete on public.blocks
  for each row execute function private.blocks_after_delete();

-- Clients may only reset new_response_count ("mark as read"), not raise it.
create function private.blocks_guard_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.new_response_count is distinct from old.new_response_count
     and new.new_response_count <> 0 then
    raise exception 'new_response_count can only be reset to 0' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger blocks_guard_update before update of new_response_count on public.blocks
  for each row execute function private.blocks_guard_update();

-- ---------------------------------------------------------------------------------------------
-- block_private: owner-only settings (notification, integrations, letters)
-- ---------------------------------------------------------------------------------------------

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
  foreign key (block_id, owner_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.block_private is
  'Owner-only settings of a block (notification mail, Notion, letter sender and template). One row per block, created with it.';

create index block_private_owner_id_idx on public.block_private (owner_id);

alter table public.block_private enable row level security;

create policy "Owners can read their blocks' private settings" on public.block_private
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "Owners can update their blocks' private settings" on public.block_private
  for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.block_private from anon, authenticated;
grant update (
  mail_to, notion_database, notion_page, notion_database_title, mail_from, mail_name, mail_html,
  template_mode, brunch_profile_page, publish_mode
) on public.block_private to authenticated;

create trigger block_private_set_updated_at before update on public.block_private
  for each row execute function private.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- questions, options, endings, ending_conditions
-- ---------------------------------------------------------------------------------------------

create table public.questions (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  type public.question_type not null,
  title text not null default '' check (char_length(title) <= 500),
  required boolean not null default true,
  index integer not null default 0,
  placeholder text check (char_length(placeholder) <= 500),
  allow_multi_select boolean not null default false,
  as_visitor_info text check (as_visitor_info in ('email', 'name')),
  trigger_letter_block uuid references public.blocks (id) on delete set null,
  content text check (char_length(content) <= 10000),
  image_src text check (char_length(image_src) <= 2000),
  deleted boolean not null default false,
  created_at timestamptz not null default now(),
  unique (id, block_id)
);
comment on table public.questions is
  'Questions of a form or ab block, ordered by index; deleted marks a soft delete.';

create index questions_block_id_index_idx on public.questions (block_id, index);
create index questions_trigger_letter_block_idx on public.questions (trigger_letter_block);

create table public.options (
  id uuid primary key default gen_random_uuid(),
  question_id uuid not null,
  block_id uuid not null,
  value text not null default '' check (char_length(value) <= 500),
  response_count integer not null default 0 check (response_count >= 0),
  index integer not null default 0,
  deleted boolean not null default false,
  created_at timestamptz not null default now(),
  foreign key (question_id, block_id) references public.questions (id, block_id) on delete cascade
);
comment on table public.options is
  'Choices of a poll or ab question with their response counts; deleted marks a soft delete.';

create index options_question_id_index_idx on public.options (question_id, index);
create index options_block_id_idx on public.options (block_id);

create table public.endings (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  is_default boolean not null default false,
  index integer not null default 0,
  title text not null default '' check (char_length(title) <= 200),
  closing_text text not null default '' check (char_length(closing_text) <= 1000),
  open_url text check (char_length(open_url) <= 2000),
  open_link_type text not null default 'submit' check (open_link_type in ('submit', 'button')),
  open_url_text text check (char_length(open_url_text) < 100),
  resubmit_text text check (char_length(resubmit_text) <= 100),
  block_submit_another boolean not null default false,
  created_at timestamptz not null default now(),
  unique (id, block_id)
);
comment on table public.endings is
  'Endings (closing logic) of a form or ab block; exactly one default ending per such block, created with it.';

create unique index endings_one_default_per_block_idx on public.endings (block_id) where is_default;
create index endings_block_id_index_idx on public.endings (block_id, index);

create table public.ending_conditions (
  id uuid primary key default gen_random_uuid(),
  ending_id uuid not null,
  block_id uuid not null,
  index integer not null default 0,
  question_id uuid not null,
  type public.condition_type not null,
  value text check (char_length(value) <= 1000),
  created_at timestamptz not null default now(),
  foreign key (ending_id, block_id) references public.endings (id, block_id) on delete cascade,
  foreign key (question_id, block_id) references public.questions (id, block_id) on delete cascade,
  check (type in ('empty', 'not_empty') or coalesce(value, '') <> '')
);
comment on table public.ending_conditions is
  'Conditions of an ending: all must hold for the ending to be chosen (equal, empty, not_empty, include).';

create index ending_conditions_ending_id_index_idx on public.ending_conditions (ending_id, index);
create index ending_conditions_block_id_idx on public.ending_conditions (block_id);
create index ending_conditions_question_id_idx on public.ending_conditions (question_id);

alter table public.questions enable row level security;
alter table public.options enable row level security;
alter table public.endings enable row level security;
alter table public.ending_conditions enable row level security;

-- Form content is public with its block; only the block owner writes it.
create policy "Anyone can read questions of published blocks" on public.questions
  for select to anon using (exists (
    select 1 from public.blocks b where b.id = questions.block_id and not b.deactivated));
create policy "Users can read questions of published blocks and their own" on public.questions
  for select to authenticated using (exists (
    select 1 from public.blocks b where b.id = questions.block_id
      and (not b.deactivated or b.owner_id = (select auth.uid()))));
create policy "Owners can add questions to their blocks" on public.questions
  for insert to authenticated with check (exists (
    select 1 from public.blocks b where b.id = questions.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can update questions of their blocks" on public.questions
  for update to authenticated
  using (exists (
    select 1 from public.blocks b where b.id = questions.block_id and b.owner_id = (select auth.uid())))
  with check (exists (
    select 1 from public.blocks b where b.id = questions.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can delete questions of their blocks" on public.questions
  for delete to authenticated using (exists (
    select 1 from public.blocks b where b.id = questions.block_id and b.owner_id = (select auth.uid())));

create policy "Anyone can read options of published blocks" on public.options
  for select to anon using (exists (
    select 1 from public.blocks b where b.id = options.block_id and not b.deactivated));
create policy "Users can read options of published blocks and their own" on public.options
  for select to authenticated using (exists (
    select 1 from public.blocks b where b.id = options.block_id
      and (not b.deactivated or b.owner_id = (select auth.uid()))));
create policy "Owners can add options to their blocks" on public.options
  for insert to authenticated with check (exists (
    select 1 from public.blocks b where b.id = options.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can update options of their blocks" on public.options
  for update to authenticated
  using (exists (
    select 1 from public.blocks b where b.id = options.block_id and b.owner_id = (select auth.uid())))
  with check (exists (
    select 1 from public.blocks b where b.id = options.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can delete options of their blocks" on public.options
  for delete to authenticated using (exists (
    select 1 from public.blocks b where b.id = options.block_id and b.owner_id = (select auth.uid())));

create policy "Anyone can read endings of published blocks" on public.endings
  for select to anon using (exists (
    select 1 from public.blocks b where b.id = endings.block_id and not b.deactivated));
create policy "Users can read endings of published blocks and their own" on public.endings
  for select to authenticated using (exists (
    select 1 from public.blocks b where b.id = endings.block_id
      and (not b.deactivated or b.owner_id = (select auth.uid()))));
-- the default ending is created with the block and goes with it
create policy "Owners can add custom endings to their blocks" on public.endings
  for insert to authenticated with check (not is_default and exists (
    select 1 from public.blocks b where b.id = endings.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can update endings of their blocks" on public.endings
  for update to authenticated
  using (exists (
    select 1 from public.blocks b where b.id = endings.block_id and b.owner_id = (select auth.uid())))
  with check (exists (
    select 1 from public.blocks b where b.id = endings.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can delete custom endings of their blocks" on public.endings
  for delete to authenticated using (not is_default and exists (
    select 1 from public.blocks b where b.id = endings.block_id and b.owner_id = (select auth.uid())));

create policy "Anyone can read ending conditions of published blocks" on public.ending_conditions
  for select to anon using (exists (
    select 1 from public.blocks b where b.id = ending_conditions.block_id and not b.deactivated));
create policy "Users can read ending conditions of published or own blocks" on public.ending_conditions
  for select to authenticated using (exists (
    select 1 from public.blocks b where b.id = ending_conditions.block_id
      and (not b.deactivated or b.owner_id = (select auth.uid()))));
create policy "Owners can add ending conditions to their blocks" on public.ending_conditions
  for insert to authenticated with check (exists (
    select 1 from public.blocks b where b.id = ending_conditions.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can update ending conditions of their blocks" on public.ending_conditions
  for update to authenticated
  using (exists (
    select 1 from public.blocks b where b.id = ending_conditions.block_id and b.owner_id = (select auth.uid())))
  with check (exists (
    select 1 from public.blocks b where b.id = ending_conditions.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can delete ending conditions of their blocks" on public.ending_conditions
  for delete to authenticated using (exists (
    select 1 from public.blocks b where b.id = ending_conditions.block_id and b.owner_id = (select auth.uid())));

-- Rows never move between blocks or questions; counts are kept by submit_response.
revoke update, truncate on public.questions, public.options, public.endings, public.ending_conditions
  from anon, authenticated;
revoke insert on public.options from anon, authenticated;
grant insert (id, question_id, block_id, value, index, deleted) on public.options to authenticated;
grant update (type, title, required, index, placeholder, allow_multi_select, as_visitor_info,
              trigger_letter_block, content, image_src, deleted) on public.questions to authenticated;
grant update (value, index, deleted) on public.options to authenticated;
grant update (index, title, closing_text, open_url, open_link_type, open_url_text, resubmit_text,
              block_submit_another) on public.endings to authenticated;
grant update (index, question_id, type, value) on public.ending_conditions to authenticated;

-- Question count: 20 per block, 5 for owners without a paid plan (spec limits questionCountMax,
-- questionCountMaxFree). The block row is locked so concurrent inserts count right.
create function private.questions_check_count()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_paid boolean;
  v_count integer;
  v_max integer;
begin
  if new.deleted then
    return new;
  end if;
  if tg_op = 'UPDATE' and not old.deleted then
    return new;
  end if;
  select p.paid into v_paid
    from public.blocks b join public.profiles p on p.id = b.owner_id
    where b.id = new.block_id
    for update of b;
  v_max := case when coalesce(v_paid, false) then 20 else 5 end;
  select count(*) into v_count from public.questions
    where block_id = new.block_id and not deleted and id <> new.id;
  if v_count >= v_max then
    raise exception 'Too many questions (at most %)', v_max using errcode = 'P0001';
  end if;
  return new;
end;
$$;

create trigger questions_check_count before insert or update of deleted on public.questions
  for each row execute function private.questions_check_count();

-- Creates what every block needs: its private settings row and, for form and ab, the default
-- ending ('Thank you'); for ab also the ab question with options Good and Bad.
-- duplicate_block sets private.skip_block_defaults to copy these instead.
-- security definer: the default ending may not be inserted by clients.
create function private.blocks_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_question_id uuid;
begin
  insert into public.block_private (block_id, owner_id) values (new.id, new.owner_id);
  if coalesce(current_setting('private.skip_block_defaults', true), '') = 'on' then
    return new;
  end if;
  if new.type in ('form', 'ab') then
    insert into public.endings (block_id, is_default, index, closing_text)
      values (new.id, true, 0, 'Thank you');
  end if;
  if new.type = 'ab' then
    insert into public.questions (block_id, type, title, required, index)
      values (new.id, 'ab', '', true, 0)
      returning id into v_question_id;
    insert into public.options (question_id, block_id, value, index)
      values (v_question_id, new.id, 'Good', 0), (v_question_id, new.id, 'Bad', 1);
  end if;
  return new;
end;
$$;

create trigger blocks_after_insert after insert on public.blocks
  for each row execute function private.blocks_after_insert();

-- Account, billing, letters and audience: sender emails, integrations (tokens in schema private),
-- payments and plan history, coupons, audience groups and members, letter templates, publish
-- records, per-recipient deliveries, unsubscribes. Writes that involve an outside service
-- (mail, payment, Notion) are made by edge functions with the service role.

-- ---------------------------------------------------------------------------------------------
-- sender_emails
-- ---------------------------------------------------------------------------------------------

create table public.sender_emails (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  email text not null check (char_length(email) <= 60 and email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  status public.sender_email_status not null default 'pending',
  spf_verified boolean not null default false,
  dkim_verified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, email)
);
comment on table public.sender_emails is
  'Addresses a user sends letters from, with verification, SPF and DKIM state (set by the mail edge functions).';

alter table public.sender_emails enable row level security;

create policy "Users can read their own sender emails" on public.sender_emails
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users can delete their own sender emails" on public.sender_emails
  for delete to authenticated using (user_id = (select auth.uid()));

revoke insert, update, truncate on public.sender_emails from anon, authenticated;

create trigger sender_emails_set_updated_at before update on public.sender_emails
  for each row execute function private.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- integrations and their tokens
-- ---------------------------------------------------------------------------------------------

create table public.integrations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  provider text not null check (provider in ('notion', 'cafe24')),
  status public.integration_status not null default 'granted',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, provider)
);
comment on table public.integrations is
  'Connected outside services of a user (Notion, Cafe24) and whether access is granted; tokens are in private.integration_tokens.';

alter table public.integrations enable row level security;

create policy "Users can read their own integrations" on public.integrations
  for select to authenticated using (user_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.integrations from anon, authenticated;

create trigger integrations_set_updated_at before update on public.integrations
  for each row execute function private.set_updated_at();

create table private.integration_tokens (
  integration_id uuid primary key references public.integrations (id) on delete cascade,
  access_token text not null,
  refresh_token text,
  token_data jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now()
);
comment on table private.integration_tokens is
  'OAuth tokens of integrations. Schema private: not exposed by PostgREST, no grants to anon or authenticated.';

alter table private.integration_tokens enable row level security;
revoke all on private.integration_tokens from public, anon, authenticated;
grant select, insert, update, delete on private.integration_tokens to service_role;

-- ---------------------------------------------------------------------------------------------
-- payments (plan history)
-- ---------------------------------------------------------------------------------------------

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  type public.payment_type not null,
  price numeric(10, 2) not null default 3 check (price >= 0),
  method public.payment_method,
  start_date date not null default current_date,
  end_date date,
  is_active boolean not null default true,
  -- {planName, blockLimit, responseMonthlyLimit}
  content jsonb not null default '{}'::jsonb check (jsonb_typeof(content) = 'object'),
  provider_payment_id text check (char_length(provider_payment_id) <= 200),
  created_at timestamptz not null default now(),
  check (end_date is null or end_date >= start_date)
);
comment on table public.payments is
  'Plan history of a user (basic, custom, coupon, subscription). Owner reads; only the service role writes.';

create index payments_user_id_created_at_idx on public.payments (user_id, created_at desc);

alter table public.payments enable row level security;

create policy "Users can read their own payments" on public.payments
  for select to authenticated using (user_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.payments from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- coupons
-- ---------------------------------------------------------------------------------------------

create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (char_length(code) between 1 and 99),
  type public.payment_type not null default 'coupon' check (type in ('coupon', 'promote_coupon')),
  -- the plan it grants: {planName, blockLimit, responseMonthlyLimit}
  content jsonb not null default '{}'::jsonb check (jsonb_typeof(content) = 'object'),
  duration_days integer not null default 30 check (duration_days > 0),
  max_redemptions integer check (max_redemptions > 0),
  redemption_count integer not null default 0 check (redemption_count >= 0),
  valid_until timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.coupons is 'Coupon codes and the plan they grant. No client access: the use-coupon edge function redeems them.';

create table public.coupon_redemptions (
  id uuid primary key default gen_random_uuid(),
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (coupon_id, user_id)
);
comment on table public.coupon_redemptions is 'Which user redeemed which coupon (once each). No client access.';

create index coupon_redemptions_user_id_idx on public.coupon_redemptions (user_id);

alter table public.coupons enable row level security;
alter table public.coupon_redemptions enable row level security;
revoke all on public.coupons, public.coupon_redemptions from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- audience groups and members
-- ---------------------------------------------------------------------------------------------

create table public.audience_groups (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  -- 'activated' and 'deactivated' count members by state; other groups count their members
  count integer not null default 0 check (count >= 0),
  created_at timestamptz not null default now(),
  unique (user_id, name)
);
comment on table public.audience_groups is
  'Audience groups of a user with member counts; the reserved groups activated and deactivated count members by state.';

alter table public.audience_groups enable row level security;

create policy "Users can read their own audience groups" on public.audience_groups
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users can create their own audience groups" on public.audience_groups
  for insert to authenticated
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));
create policy "Users can rename their own audience groups" on public.audience_groups
  for update to authenticated
  using (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'))
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));
create policy "Users can delete their own audience groups" on public.audience_groups
  for delete to authenticated
  using (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));

revoke insert, update, truncate on public.audience_groups from anon, authenticated;
grant insert (user_id, name) on public.audience_groups to authenticated;
grant update (name) on public.audience_groups to authenticated;

create table public.audience_members (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  creator_id uuid,
  creator_name text not null default '' check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  email text check (email is null or (char_length(email) <= 100 and email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$')),
  group_name text,
  created_at timestamptz not null default now(),
  last_updated timestamptz not null default now(),
  deactivated boolean not null default false,
  has_email boolean generated always as (coalesce(email, '') <> '') stored,
  -- events [{id, type, created_at}], newest last
  history jsonb not null default '[]'::jsonb check (jsonb_typeof(history) = 'array'),
  first_event jsonb check (first_event is null or jsonb_typeof(first_event) = 'object'),
  info jsonb not null default '{}'::jsonb check (jsonb_typeof(info) = 'object'),
  sent_count integer not null default 0 check (sent_count >= 0),
  delivered_count integer not null default 0 check (delivered_count >= 0),
  opened_count integer not null default 0 check (opened_count >= 0),
  bounced_count integer not null default 0 check (bounced_count >= 0),
  rejected_count integer not null default 0 check (rejected_count >= 0),
  complaint_count integer not null default 0 check (complaint_count >= 0),
  unique (user_id, email),
  unique (user_id, creator_id),
  foreign key (user_id, group_name) references public.audience_groups (user_id, name)
    on update cascade on delete set null (group_name),
  check (group_name is null or group_name not in ('activated', 'deactivated'))
);
comment on table public.audience_members is
  'A user''s audience: visitors who reacted and imported contacts, with group, state, event history and mail counts.';

create index audience_members_user_id_created_at_idx on public.audience_members (user_id, deactivated, created_at desc);
create index audience_members_user_id_group_name_idx on public.audience_members (user_id, group_name);

alter table public.audience_members enable row level security;

create policy "Users can read their own audience" on public.audience_members
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users can add to their own audience" on public.audience_members
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Users can update their own audience" on public.audience_members
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Users can delete from their own audience" on public.audience_members
  for delete to authenticated using (user_id = (select auth.uid()));

-- mail counters are written by the delivery functions only
revoke insert, update, truncate on public.audience_members from anon, authenticated;
grant insert (user_id, creator_id, creator_name, creator_photo_url, color, email, group_name,
              deactivated, history, first_event, info) on public.audience_members to authenticated;
grant update (creator_name, creator_photo_url, color, email, group_name, deactivated, last_updated,
              info) on public.audience_members to authenticated;

create function private.bump_audience_group(p_user_id uuid, p_name text, p_delta integer)
returns void
language sql
set search_path = ''
as $$
  update public.audience_groups set count = greatest(count + p_delta, 0)
    where user_id = p_user_id and name = p_name;
$$;

-- group counts follow the members. security definer: clients may not write counts.
create function private.audience_members_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.bump_audience_group(old.user_id,
      case when old.deactivated then 'deactivated' else 'activated' end, -1);
    if old.group_name is not null then
      perform private.bump_audience_group(old.user_id, old.group_name, -1);
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.bump_audience_group(new.user_id,
      case when new.deactivated then 'deactivated' else 'activated' end, 1);
    if new.group_name is not null then
      perform private.bump_audience_group(new.user_id, new.group_name, 1);
    end if;
    return new;
  end if;
  return old;
end;
$$;

create trigger audience_members_after_change
  after insert or delete or update of deactivated, group_name on public.audience_members
  for each row execute function private.audience_members_after_change();

create function private.audience_members_touch()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.last_updated := now();
  return new;
end;
$$;

create trigger audience_members_touch before update on public.audience_members
  for each row execute function private.audience_members_touch();

-- Every profile gets the reserved groups. security definer: runs inside the auth.users trigger.
create function private.profiles_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.audience_groups (user_id, name) values (new.id, 'activated'), (new.id, 'deactivated')
    on conflict (user_id, name) do nothing;
  return new;
end;
$$;

create trigger profiles_after_insert after insert on public.profiles
  for each row execute function private.profiles_after_insert();

-- ---------------------------------------------------------------------------------------------
-- letters: templates, publish records, deliveries, unsubscribes
-- ---------------------------------------------------------------------------------------------

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

create index letter_templates_block_id_idx on public.letter_templates (block_id);
create index letter_templates_user_id_idx on public.letter_templates (user_id);

alter table public.letter_templates enable row level security;

create policy "Owners can read their letter templates" on public.letter_templates
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Owners can add letter templates" on public.letter_templates
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "Owners can update their letter templates" on public.letter_templates
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Owners can delete their letter templates" on public.letter_templates
  for delete to authenticated using (user_id = (select auth.uid()));

revoke update on public.letter_templates from anon, authenticated;
grant update (mail_html, mail_title, mail_text, mail_name, cta, cta_link, cta_text, image_link, page_url)
  on public.letter_templates to authenticated;

create trigger letter_templates_set_updated_at before update on public.letter_templates
  for each row execute function private.set_updated_at();

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
  foreign key (block_id, user_id) references public.blocks (id, owner_id) on delete cascade
);
comment on table public.publishes is 'One letter send (publish) of a letter block with its delivery counts. Written by the send functions.';

create index publishes_block_id_created_at_idx on public.publishes (block_id, created_at desc);
create index publishes_user_id_idx on public.publishes (user_id);

alter table public.publishes enable row level security;

create policy "Owners can read their publishes" on public.publishes
  for select to authenticated using (user_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.publishes from anon, authenticated;

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
  unique (publish_id, email)
);
comment on table public.deliveries is 'Per-recipient state of a letter send (reserved, sent, delivered, opened, bounced, ...).';

create index deliveries_user_id_idx on public.deliveries (user_id);
create index deliveries_provider_message_id_idx on public.deliveries (provider_message_id);
create index deliveries_audience_member_id_idx on public.deliveries (audience_member_id);

alter table public.deliveries enable row level security;

create policy "Owners can read their deliveries" on public.deliveries
  for select to authenticated using (user_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.deliveries from anon, authenticated;

create trigger deliveries_set_updated_at before update on public.deliveries
  for each row execute function private.set_updated_at();

create table public.unsubscribes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  block_id uuid references public.blocks (id) on delete set null,
  email text not null check (char_length(email) <= 100),
  response_id text check (char_length(response_id) <= 100),
  created_at timestamptz not null default now(),
  unique (user_id, email)
);
comment on table public.unsubscribes is
  'Addresses that unsubscribed from a user''s letters; sends skip them. Written by the unsubscribe function.';

create index unsubscribes_block_id_idx on public.unsubscribes (block_id);

alter table public.unsubscribes enable row level security;

create policy "Owners can read their unsubscribes" on public.unsubscribes
  for select to authenticated using (user_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.unsubscribes from anon, authenticated;

-- An owner's audience: groups (the reserved `activated` and `deactivated` count members by state)
-- and members. Visitors join by writing on the owner's blocks (record_audience_event); owners add
-- people by hand or by CSV import up to audience.max_members. Group counts go through
-- counters.sql when the group row is busy.

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
revoke insert, update on public.audience_groups from anon, authenticated;
revoke all on public.audience_groups from anon;
grant insert (user_id, name) on public.audience_groups to authenticated;
grant update (name) on public.audience_groups to authenticated;

create policy "Users can read their own audience groups" on public.audience_groups
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users can rename their own audience groups" on public.audience_groups
  for update to authenticated
  using (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'))
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));

create policy "Users can delete their own audience groups" on public.audience_groups
  for delete to authenticated
  using (user_id = (select auth.uid()) and name not in ('activated', 'deactivated'));

create policy "Paid users can create their own audience groups" on public.audience_groups
  for insert to authenticated
  with check (user_id = (select auth.uid()) and name not in ('activated', 'deactivated')
              and coalesce((select p.paid from public.profiles p where p.id = (select auth.uid())), false));

create table public.audience_members (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  creator_id uuid,
  creator_name text not null default '' check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  -- the address rule on write: private.check_email_written (audience_members_email_rule)
  email text check (email is null or char_length(email) <= 100),
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
  -- a visitor typed the address (a form's email answer, a comment's notification email): no
  -- letter goes to it until it confirms the owner's letters (mail-consent.sql). Members the owner
  -- adds by hand or by CSV are the owner's responsibility and active at once. Not writable by
  -- clients (no column grant): an owner cannot mark a typed address confirmed.
  awaiting_confirmation boolean not null default false,
  unique (user_id, email),
  unique (user_id, creator_id),
  foreign key (user_id, group_name) references public.audience_groups (user_id, name)
    on update cascade on delete set null (group_name),
  check (group_name is null or group_name not in ('activated', 'deactivated'))
);
comment on table public.audience_members is
  'A user''s audience: visitors who reacted and imported contacts, with group, state, event history and mail counts.';
alter table public.audience_members enable row level security;
revoke insert, update on public.audience_members from anon, authenticated;
revoke all on public.audience_members from anon;
-- Column grants (all columns) instead of table-wide ones, so an upsert from the dashboard works:
-- PostgREST's upsert needs insert and update on the columns it names.
grant insert (id, user_id, creator_id, creator_name, creator_photo_url, color, email, group_name, created_at, last_updated, deactivated, history, first_event, info, sent_count, delivered_count, opened_count, bounced_count, rejected_count, complaint_count) on public.audience_members to authenticated;
grant update (id, user_id, creator_id, creator_name, creator_photo_url, color, email, group_name, created_at, last_updated, deactivated, history, first_event, info, sent_count, delivered_count, opened_count, bounced_count, rejected_count, complaint_count) on public.audience_members to authenticated;
create index audience_members_user_id_created_at_idx on public.audience_members (user_id, deactivated, created_at desc);
create index audience_members_user_id_group_name_idx on public.audience_members (user_id, group_name);
-- One member per address, case aside (Ann@Example.com and ann@example.com are one person's
-- mailbox): the key the audience keeps. It also serves the lookups of an owner's member by address:
-- the insert trigger audience_members_take_awaiting (once per inserted row: a CSV import),
-- letters_allowed, a confirmed address (confirm_mail), a trigger letter's member and a manual
-- send's recipients. unique (user_id, email) above stays as the arbiter of the dashboard's
-- upserts by address: PostgREST's on_conflict names columns, never an expression.
create unique index audience_members_user_id_lower_email_idx on public.audience_members (user_id, lower(email));

create policy "Users can read their own audience" on public.audience_members
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Users can update their own audience" on public.audience_members
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

create policy "Users can delete from their own audience" on public.audience_members
  for delete to authenticated using (user_id = (select auth.uid()));

create policy "Paid users can add to their own audience" on public.audience_members
  for insert to authenticated
  with check (user_id = (select auth.uid()) and coalesce((select p.paid from public.profiles p where p.id = (select auth.uid())), false));

-- group counts follow the members. security definer: clients may not write counts. A group's
-- rename reaches its members through the foreign key (on update cascade), after the group row has
-- its new name: the member stays in the same group, so its count stays (the old name is no group
-- any more: without this the -1 found nothing and the +1 counted every member again).
create function private.audience_members_after_change()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_renamed boolean := tg_op = 'UPDATE' and old.group_name is distinct from new.group_name
    and old.group_name is not null and new.group_name is not null
    and not exists (select 1 from public.audience_groups g
                    where g.user_id = old.user_id and g.name = old.group_name);
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.bump_audience_group(old.user_id,
      case when old.deactivated then 'deactivated' else 'activated' end, -1);
    if old.group_name is not null and not v_renamed then
      perform private.bump_audience_group(old.user_id, old.group_name, -1);
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.bump_audience_group(new.user_id,
      case when new.deactivated then 'deactivated' else 'activated' end, 1);
    if new.group_name is not null and not v_renamed then
      perform private.bump_audience_group(new.user_id, new.group_name, 1);
    end if;
    return new;
  end if;
  return old;
end;
$$;

-- last_updated is when the member itself changed (the owner's edit, a visitor's event), not when
-- a mail to it was counted: an update that changes only the *_count columns leaves it as it was.
-- Stamped on every update, it told a suppressed address from a real bounce (rev-mail3 D1): the
-- suppressed member's equalled the send's preparation time (prepare_letter_jobs counts its
-- bounce in that transaction), a real bounce's came later with the SES event, and the owner
-- reads the column at any time afterwards (docs/security.md, "What an owner learns of a
-- suppressed address").
create function private.audience_members_touch()
returns trigger language plpgsql set search_path = '' as $$
declare
  -- has_email too: a generated column is null in a before trigger's new row
  v_counts constant text[] := array['sent_count', 'delivered_count', 'opened_count', 'bounced_count',
                                    'rejected_count', 'complaint_count', 'last_updated', 'has_email'];
begin
  if (to_jsonb(new) - v_counts) = (to_jsonb(old) - v_counts)
     and (to_jsonb(new) - v_counts[7:8]) <> (to_jsonb(old) - v_counts[7:8]) then
    new.last_updated := old.last_updated;
  else
    new.last_updated := now();
  end if;
  return new;
end;
$$;

-- An owner's audience has a ceiling: adding people by hand or by CSV import stops at
-- audience.max_members (private.settings, default 100,000), so a loop of imports cannot fill the
-- database. People who join by writing on the owner's blocks (record_audience_event, as the
-- visitor) are not counted against it here: that growth is the product working, and checking it
-- would cost every visitor's first write a count.
create function private.audience_members_cap()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid := (select auth.uid());
  v_cap integer;
begin
  if v_owner is null or not exists (select 1 from inserted where user_id = v_owner) then
    return null;
  end if;
  -- one of the owner's adds counts at a time: without it, adds in two tabs (or N requests at
  -- once) each counted what was committed and their own rows, and all passed the ceiling together
  -- (break7 F1: 30 stored under a ceiling of 10). The count below is a new statement, so it sees
  -- what an add that held the lock committed; the lock is held to the end of the transaction.
  perform pg_advisory_xact_lock(hashtextextended('audience_members_cap:' || v_owner, 0));
  v_cap := coalesce((private.setting('audience.max_members', '100000'::jsonb) #>> '{}')::integer, 100000);
  if (select count(*) from public.audience_members where user_id = v_owner) > v_cap then
    raise exception 'Your audience is full' using errcode = 'PT403',
      detail = format('at most %s people', v_cap),
      hint = 'Remove people who no longer read your letters, then add again.';
  end if;
  return null;
end;
$$;
revoke execute on function private.audience_members_cap() from public;

-- An owner who adds by hand, or imports by CSV, an address a visitor typed and that is still
-- awaiting confirmation takes it on as their own (as any address they add): that member becomes
-- active and the added row is not inserted (it would be a second member for the address; an
-- import's conflict would leave it waiting). Only the owner's own inserts (auth.uid() is the
-- audience's owner: the dashboard), never a visitor's write (record_audience_event).
-- security definer: awaiting_confirmation has no client grant.
create function private.audience_members_take_awaiting()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.email is null or new.user_id is distinct from (select auth.uid()) then
    return new;
  end if;
  update public.audience_members set awaiting_confirmation = false
    where user_id = new.user_id and lower(email) = lower(btrim(new.email)) and awaiting_confirmation;
  if found then
    return null;
  end if;
  return new;
end;
$$;
revoke execute on function private.audience_members_take_awaiting() from public;

-- Records a visitor's reaction in the owner's audience (one member per visitor, last 20 events).
-- An email is attached only when no other member of the owner has it. The visitor typed it, so
-- it waits for confirmation (awaiting_confirmation) unless the address already confirmed this
-- owner's letters; a form's answer asks the address to confirm (a `confirm.mail` job,
-- mail-consent.sql) when the owner can send letters to their audience (a paid plan: an audience
-- send, letter-triggers.sql and reserve_letter's group send all need one). An unpaid owner's
-- member is kept, awaiting, and asked nothing: the mail would ask for letters that cannot come
-- (docs/data-model.md, "A typed address is asked when letters can follow"); it is asked when the
-- address is next given once the owner is paid, as a capped ask is. A comment's address is asked
-- about reply notifications instead (post_message) and stays awaiting here until it confirms the
-- owner's letters through one of their forms.
-- One visitor's member row of the owner's audience, added or brought up to date with this event
-- (record_audience_event).
create function private.upsert_audience_member(p_block public.blocks, p_uid uuid, p_name text,
  p_photo_url text, p_color text, p_email text, p_awaiting boolean, p_event jsonb)
returns void language sql set search_path = '' as $$
  insert into public.audience_members as a
      (user_id, creator_id, creator_name, creator_photo_url, color, email, history, first_event,
       awaiting_confirmation)
    values (p_block.owner_id, p_uid, coalesce(left(p_name, 100), ''), left(p_photo_url, 500),
            left(p_color, 32), p_email, jsonb_build_array(p_event), p_event, p_awaiting)
    on conflict (user_id, creator_id) do update
      set history = (case when jsonb_array_length(a.history) >= 20 then a.history - 0 else a.history end)
                    || excluded.history,
          creator_name = case when excluded.creator_name <> '' then excluded.creator_name else a.creator_name end,
          creator_photo_url = coalesce(excluded.creator_photo_url, a.creator_photo_url),
          color = coalesce(excluded.color, a.color),
          email = coalesce(a.email, excluded.email),
          awaiting_confirmation = case when a.email is null and excluded.email is not null
                                       then excluded.awaiting_confirmation
                                       else a.awaiting_confirmation end;
$$;
revoke execute on function private.upsert_audience_member(public.blocks, uuid, text, text, text, text, boolean, jsonb) from public;

create function private.record_audience_event(p_block public.blocks, p_uid uuid, p_name text,
                                               p_photo_url text, p_color text, p_email text)
returns void language plpgsql set search_path = '' as $$
declare
  v_event jsonb := jsonb_build_object('id', p_block.id, 'type', p_block.type, 'created_at', now());
  v_email text := nullif(btrim(p_email), '');
  v_awaiting boolean := false;
begin
  if p_uid = p_block.owner_id then
    return;
  end if;
  if v_email is not null and (char_length(v_email) > 100 or not private.is_valid_email(v_email)
      or exists (select 1 from public.audience_members
                 where user_id = p_block.owner_id and lower(email) = lower(v_email)
                   and creator_id is distinct from p_uid)) then
    v_email := null;
  end if;
  if v_email is not null then
    v_awaiting := not private.mail_confirmed(v_email, p_block.owner_id, null);
    -- no ask to an address that unsubscribed from the owner: its yes would lead to no letter
    -- (every letter skips it), and a stranger could make the owner mail it (rev-mission D1);
    -- none for an owner who cannot send letters to their audience (not paid): no letter follows
    if v_awaiting and p_block.type = 'form'
       and coalesce((select p.paid from public.profiles p where p.id = p_block.owner_id), false)
       and not private.letter_unsubscribed(p_block.owner_id, v_email) then
      perform private.ask_mail_consent(v_email, p_block.owner_id, null, p_block.id,
                                       private.request_locale(p_block.language));
    end if;
  end if;
  if v_email is null then
    perform private.upsert_audience_member(p_block, p_uid, p_name, p_photo_url, p_color, null, false, v_event);
    return;
  end if;
  -- two visitors naming the same address at once both passed the check above: the second
  -- insert meets the (user_id, lower(email)) key, and that visitor joins without it (as the check would
  -- have had it) instead of their write failing
  begin
    perform private.upsert_audience_member(p_block, p_uid, p_name, p_photo_url, p_color, v_email, v_awaiting, v_event);
  exception when unique_violation then
    perform private.upsert_audience_member(p_block, p_uid, p_name, p_photo_url, p_color, null, false, v_event);
  end;
end;
$$;
revoke execute on function private.record_audience_event(public.blocks, uuid, text, text, text, text) from public;

create trigger audience_members_after_change
  after insert or delete or update of deactivated, group_name on public.audience_members
  for each row execute function private.audience_members_after_change();
create trigger audience_members_email_rule before insert or update of email on public.audience_members
  for each row execute function private.check_email_written();
create trigger audience_members_take_awaiting before insert on public.audience_members
  for each row execute function private.audience_members_take_awaiting();
create trigger audience_members_touch before update on public.audience_members
  for each row execute function private.audience_members_touch();
create trigger audience_members_keep_counts before insert or update on public.audience_members
  for each row execute function private.keep_from_clients('sent_count', 'delivered_count', 'opened_count',
                                                          'bounced_count', 'rejected_count', 'complaint_count');
create trigger audience_members_cap
  after insert on public.audience_members
  referencing new table as inserted
  for each statement execute function private.audience_members_cap();

-- What many files use: the tunable settings of background work and limits (private.settings and
-- private.setting), and small helpers (updated_at, JSON numbers, trimming as JavaScript's trim()
-- does, e-mail shape, the caller's id).

create table private.settings (
  key text primary key check (key ~ '^[a-z][a-z0-9_.]{0,99}$'),
  value jsonb not null,
  updated_at timestamptz not null default now()
);
comment on table private.settings is
  'Tunable settings of background work and limits (key -> JSON value). Only the database owner and definer functions read them.';
alter table private.settings enable row level security;

-- The setting's value, or the default when unset.
create function private.setting(p_key text, p_default jsonb)
returns jsonb language sql stable set search_path = '' as $$
  select coalesce((select value from private.settings where key = p_key), p_default);
$$;
revoke execute on function private.setting(text, jsonb) from public;

-- A table clients may read but never write (their writes go through RPCs, edge functions and
-- triggers): RLS on, no insert, update or delete for anon and authenticated, and the policy by
-- which a signed-in user reads rows, named p_policy, `for select to authenticated using
-- (p_using)`, p_using written as Supabase recommends ((select auth.uid())). anon reads through
-- p_anon_policy `for select to anon using (p_anon_using)`, or, without one, holds nothing on the
-- table. Called once per table right after it in its schema file, so the call is where the
-- table's access reads (docs/data-model.md, "Reading a table's access"); a table with any other
-- access writes its grants and policies out.
create procedure private.clients_read(p_table regclass, p_policy text, p_using text,
                                      p_anon_policy text default null, p_anon_using text default null)
language plpgsql set search_path = '' as $$
begin
  execute format('alter table %s enable row level security', p_table);
  execute format('revoke insert, update, delete on %s from anon, authenticated', p_table);
  execute format('create policy %I on %s for select to authenticated using (%s)', p_policy, p_table, p_using);
  if p_anon_policy is null then
    execute format('revoke all on %s from anon', p_table);
  else
    execute format('create policy %I on %s for select to anon using (%s)', p_anon_policy, p_table, p_anon_using);
  end if;
end;
$$;
revoke execute on procedure private.clients_read(regclass, text, text, text, text) from public;

-- A table its owners write themselves through the API, each their own rows (user_id): RLS on,
-- nothing for anon, and for a signed-in user the four policies "Owners can read|add|update|delete
-- their <p_what>" with user_id = (select auth.uid()) (Supabase's recommended form). Called as
-- clients_read is; column grants, if any, follow the call.
create procedure private.owners_write(p_table regclass, p_what text)
language plpgsql set search_path = '' as $$
begin
  execute format('alter table %s enable row level security', p_table);
  execute format('revoke all on %s from anon', p_table);
  execute format('create policy %I on %s for select to authenticated using (user_id = (select auth.uid()))',
                 'Owners can read their ' || p_what, p_table);
  execute format('create policy %I on %s for insert to authenticated with check (user_id = (select auth.uid()))',
                 'Owners can add their ' || p_what, p_table);
  execute format('create policy %I on %s for update to authenticated using (user_id = (select auth.uid())) '
                 'with check (user_id = (select auth.uid()))', 'Owners can update their ' || p_what, p_table);
  execute format('create policy %I on %s for delete to authenticated using (user_id = (select auth.uid()))',
                 'Owners can delete their ' || p_what, p_table);
end;
$$;
revoke execute on procedure private.owners_write(regclass, text) from public;

create function private.set_updated_at()
returns trigger language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- The columns named in the trigger's arguments are the database's to write (counters, flags a
-- function sets): a client role (anon, authenticated) that inserts a row gets them at 0, one that
-- updates a row keeps them as they were. Other roles (definer functions, the service role) write
-- them. For example `before insert or update ... execute function
-- private.keep_from_clients('response_count')`.
create function private.keep_from_clients()
returns trigger language plpgsql set search_path = '' as $$
declare
  v_old jsonb;
  v_kept jsonb := '{}';
  v_column text;
begin
  -- clients only; inline because client roles have no usage on schema private
  if current_user in ('anon', 'authenticated') and tg_nargs > 0 then
    if tg_op <> 'INSERT' then
      v_old := to_jsonb(old); -- once per row, not once per column
    end if;
    foreach v_column in array tg_argv loop
      v_kept[v_column] := case when tg_op = 'INSERT' then to_jsonb(0) else v_old -> v_column end;
    end loop;
    new := jsonb_populate_record(new, v_kept);
  end if;
  return new;
end;
$$;

-- An integer member of a JSON object, or null when it is missing or not a whole number.
create function private.jsonb_int(p_value jsonb, p_key text)
returns integer language sql immutable set search_path = '' as $$
  select case when jsonb_typeof(p_value -> p_key) = 'number'
                   and (p_value ->> p_key) ~ '^-?[0-9]{1,9}(\.0+)?$'
              then (p_value ->> p_key)::numeric::integer end;
$$;
revoke execute on function private.jsonb_int(jsonb, text) from public;

-- The characters of JavaScript's String.prototype.trim: tab, line tab, form feed, LF, CR,
-- space, NBSP, U+1680, U+2000..U+200A, line and paragraph separators, U+202F, U+205F, U+3000
-- and the BOM.
create function private.trim_whitespace(p_text text)
returns text language sql immutable parallel safe set search_path = '' as $$
  select regexp_replace(
    p_text,
    '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g');
$$;
revoke execute on function private.trim_whitespace(text) from public;
comment on function private.trim_whitespace(text) is
  'p_text without leading and trailing whitespace, as JavaScript''s String.prototype.trim().';

-- The address rule (contracts/limits.ts EMAIL_RE is the same rule, written shorter, and
-- supabase/tests/contracts.test.ts holds them to the same verdicts), what SES takes: ASCII only; a
-- local part of 1 to 64 letters, digits and . _ % + ' - with no dot first, last or twice in a
-- row; a domain of at most 253 characters in labels of 1 to 63 letters, digits and hyphens, none
-- starting or ending with a hyphen, the last one letters only (2 to 63). Until 2026-11-29 it
-- was local@domain.tld with any dots and hyphens (a..b@x.com, .a@x.com, a@-x.com passed and SES
-- refused the mail after the send was counted). The RPCs run it on what they are given; the two
-- email columns (audience_members, sender_emails) through private.check_email_written, on an
-- address written, so a row kept from the older rule is not refused its other updates. The
-- service role runs it in save_block (an invoker); owners no longer need it since their writes
-- of audience_members are checked by that trigger (a definer), not by a check constraint.
create function private.is_valid_email(p_email text)
returns boolean language sql immutable set search_path = '' as $$
  select p_email ~* '^(?=[^@]{1,64}@[^@]{1,253}$)[A-Z0-9_%+''-]+(?:\.[A-Z0-9_%+''-]+)*@(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+[A-Z]{2,63}$';
$$;
revoke execute on function private.is_valid_email(text) from public;
grant execute on function private.is_valid_email(text) to service_role;

-- The email columns' rule on write (audience_members, sender_emails): a new row's address, or a
-- changed one, must pass private.is_valid_email, or the write fails as a check constraint does
-- (23514, "Email address is invalid"). An update that leaves the address as it was (counts, a
-- name, a group, a status) is not checked: rows written under the older rule keep their address
-- and their updates (docs/data-model.md). A definer: an owner writing their audience has no
-- USAGE on schema private to name the rule from an invoker.
create function private.check_email_written()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.email is not null and (tg_op = 'INSERT' or new.email is distinct from old.email)
     and not private.is_valid_email(new.email) then
    raise exception 'Email address is invalid'
      using errcode = 'check_violation', schema = tg_table_schema, table = tg_table_name,
            column = 'email';
  end if;
  return new;
end;
$$;

create function private.require_uid()
returns uuid language plpgsql stable set search_path = '' as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception 'Please sign in' using errcode = 'PT401';
  end if;
  return v_uid;
end;
$$;
revoke execute on function private.require_uid() from public;

create function private.is_anonymous_caller()
returns boolean language sql stable set search_path = '' as $$
  select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false);
$$;
revoke execute on function private.is_anonymous_caller() from public;

-- Whether the caller may read what is p_user_id's: that user, or the service role and internal
-- callers (no API role). The computed fields that add private rows to a row (member_count,
-- live_*_count, response_monthly_count) answer null for anyone else's row.
create function private.may_read_as(p_user_id uuid)
returns boolean language sql stable set search_path = '' as $$
  select p_user_id = (select auth.uid())
         or coalesce((select auth.role()), 'service_role') not in ('anon', 'authenticated');
$$;
revoke execute on function private.may_read_as(uuid) from public;

-- A save that turns on or changes a paid-only feature (p_change) by an owner without a paid plan
-- fails: 'Paid plan required (<field>)'.
create function private.require_paid(p_field text, p_change boolean)
returns void language plpgsql set search_path = '' as $$
begin
  if p_change then
    raise exception 'Paid plan required (%)', p_field using errcode = 'PT403';
  end if;
end;
$$;
revoke execute on function private.require_paid(text, boolean) from public;
grant execute on function private.require_paid(text, boolean) to service_role;

-- ids of the objects of a jsonb array, refusing duplicates
create function private.payload_ids(p_items jsonb, p_what text)
returns uuid[] language plpgsql immutable set search_path = '' as $$
declare
  v_ids uuid[];
begin
  if jsonb_typeof(p_items) is distinct from 'array' then
    raise exception 'Invalid % list', p_what using errcode = 'P0001';
  end if;
  select coalesce(array_agg((e ->> 'id')::uuid), '{}') into v_ids
    from jsonb_array_elements(p_items) e;
  if exists (select 1 from unnest(v_ids) i where i is null) then
    raise exception 'Invalid id' using errcode = 'P0001';
  end if;
  if cardinality(v_ids) <> (select count(distinct i) from unnest(v_ids) i) then
    raise exception 'Duplicate % id', p_what using errcode = 'P0001';
  end if;
  return v_ids;
end;
$$;
revoke execute on function private.payload_ids(jsonb, text) from public;
grant execute on function private.payload_ids(jsonb, text) to service_role;

-- An owner's audience has a ceiling: adding people by hand or by CSV import stops at
-- audience.max_members (private.settings, default 100,000), so a loop of imports cannot fill the
-- database. People who join by writing on the owner's blocks (record_audience_event, as the
-- visitor) are not counted against it here: that growth is the product working, and checking it
-- would cost every visitor's first write a count.
create function private.audience_members_cap()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid := (select auth.uid());
  v_cap integer;
begin
  if v_owner is null or not exists (select 1 from inserted where user_id = v_owner) then
    return null;
  end if;
  v_cap := coalesce((private.setting('audience.max_members', '100000'::jsonb) #>> '{}')::integer, 100000);
  if (select count(*) from public.audience_members where user_id = v_owner) > v_cap then
    raise exception 'Your audience is full' using errcode = 'PT403',
      detail = format('at most %s people', v_cap),
      hint = 'Remove people who no longer read your letters, then add again.';
  end if;
  return null;
end;
$$;
revoke all on function private.audience_members_cap() from public;

create trigger audience_members_cap
  after insert on public.audience_members
  referencing new table as inserted
  for each statement execute function private.audience_members_cap();

-- Unsubscribes and opt-outs: letters' unsubscribes (per owner and mailbox) and one-click
-- opt-outs from notification mails, and what the unsubscribe page asks of them.

create table public.unsubscribes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  block_id uuid references public.blocks (id) on delete set null,
  email text not null check (char_length(email) <= 100),
  response_id text check (char_length(response_id) <= 100),
  created_at timestamptz not null default now(),
  -- private.mailbox_key(email): an unsubscribe is the mailbox's own word, as a complaint is; it
  -- stops the owner's letters to every spelling of it (victim+news@ after victim@)
  mailbox text generated always as (private.mailbox_key(email)) stored,
  unique (user_id, email)
);
comment on table public.unsubscribes is
  'Addresses that unsubscribed from a user''s letters; sends skip them. Written by the unsubscribe function.';
call private.clients_read('public.unsubscribes', 'Owners can read their unsubscribes',
  'user_id = (select auth.uid())');
create index unsubscribes_block_id_idx on public.unsubscribes (block_id);
-- Every read asks by the owner and the mailbox (is_unsubscribed per member of the audience list
-- and of a CSV import's answer, letter_send_groups, reserve_letter, prepare_letter_jobs, a form's
-- letter: private.letter_unsubscribed); the unique key above is on the address as written.
create index unsubscribes_user_id_mailbox_idx on public.unsubscribes (user_id, mailbox);

-- Whether an address's mailbox unsubscribed from an owner's letters: the one check of every
-- letter path. Not security definer: its callers are.
create function private.letter_unsubscribed(p_owner_id uuid, p_email text)
returns boolean language sql stable set search_path = '' as $$
  select exists (select 1 from public.unsubscribes u
                 where u.user_id = p_owner_id and u.mailbox = private.mailbox_key(p_email));
$$;
revoke execute on function private.letter_unsubscribed(uuid, text) from public;

-- Whether the member's address unsubscribed from the owner's letters (computed field of
-- audience_members: `audience_members?select=*,is_unsubscribed`), so the audience list says
-- Unsubscribed instead of Active and a CSV import can say which new members letters will skip.
-- security definer, and the caller's own rows by auth.uid(): under RLS the index on
-- (user_id, mailbox) could not serve the read (mailbox_key() is not leakproof, so Postgres
-- applies the policy first and then filters every unsubscribe of the owner's, for each member).
create function public.is_unsubscribed(p_member public.audience_members)
returns boolean language sql stable security definer set search_path = '' as $$
  select p_member.email is not null and p_member.user_id = (select auth.uid())
    and private.letter_unsubscribed(p_member.user_id, p_member.email);
$$;
comment on function public.is_unsubscribed(public.audience_members) is
  'Computed field of audience_members: the member''s address unsubscribed from the owner''s letters.';
revoke execute on function public.is_unsubscribed(public.audience_members) from public, anon;
grant execute on function public.is_unsubscribed(public.audience_members) to authenticated;

-- One-click unsubscribes from notification mails: scope owner (mailTo: all of the owner's block
-- digests to the address, looked up by owner) or reply (replies to the commenter's message on
-- that block). The owner is written at unsubscribe time from the block's owner, so deleting the
-- block keeps the opt-out (block_id names the block the link came from; no foreign key).
-- Letters use public.unsubscribes.
create table private.mail_optouts (
  email text not null check (char_length(email) <= 320 and email = lower(email)),
  scope text not null check (scope in ('owner', 'reply')),
  block_id uuid not null,
  created_at timestamptz not null default now(),
  -- the block's owner when the address unsubscribed
  owner_id uuid not null references public.profiles (id) on delete cascade,
  primary key (email, scope, block_id)
);
comment on table private.mail_optouts is 'Notification unsubscribes (signed one-click links): no more owner digests of that block''s owner (scope owner), or replies on that block (scope reply), to that address.';
alter table private.mail_optouts enable row level security;
-- notification_context's owner-scope lookup, and the owner's cascade
create index mail_optouts_owner_email_scope_idx on private.mail_optouts (owner_id, email, scope);

-- The owner a notification unsubscribe link (owner or reply scope, p_block_id, p_owner_id: the
-- signed link's `u`) stops mails of: the block's owner while the block exists; once it is gone,
-- only an owner the mail log proves mailed the address that owner's digests (owner scope: the
-- link's `u`, and an outbound_mails row of a notify.owner mail from them to the address). Null:
-- nothing left to stop (a reply opt-out is the deleted block's; a link without an owner, or of an
-- owner whose account went or who never mailed the address).
create function private.optout_owner(p_email text, p_scope text, p_block_id uuid, p_owner_id uuid)
returns uuid language sql stable set search_path = '' as $$
  select coalesce(
    (select b.owner_id from public.blocks b where b.id = p_block_id),
    (select o.user_id from private.outbound_mails o
     where p_scope = 'owner' and o.kind = 'notify.owner' and o.user_id = p_owner_id
       and lower(o.to_email) = lower(btrim(p_email))
     limit 1));
$$;
revoke execute on function private.optout_owner(text, text, uuid, uuid) from public;

-- Records a one-click unsubscribe from notification mails (the unsubscribe function checks the
-- signed token first), with its owner (private.optout_owner): an owner-scope opt-out then holds
-- for all of that owner's blocks, deleted ones too. Answers 'recorded' (or it was already), or
-- 'gone' when there is nothing left to stop (nothing is recorded: the block is deleted and the
-- mail log proves no owner). Until rev-mail2's review the link's owner was taken on its word and
-- the page said "unsubscribed" when nothing was recorded.
create function public.record_mail_optout(p_email text, p_scope text, p_block_id uuid,
                                          p_owner_id uuid default null)
returns text language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid := private.optout_owner(p_email, p_scope, p_block_id, p_owner_id);
begin
  if v_owner is null then
    return 'gone';
  end if;
  insert into private.mail_optouts (email, scope, block_id, owner_id)
    values (lower(btrim(p_email)), p_scope, p_block_id, v_owner)
    on conflict do nothing;
  return 'recorded';
end;
$$;
revoke execute on function public.record_mail_optout(text, text, uuid, uuid) from public, anon, authenticated;

-- What an unsubscribe link would do now, for the unsubscribe page: 'out' (the address already
-- left these mails: that block's, or in owner scope any of its owner's digests), 'in' (it can
-- leave them), 'gone' (nothing left to stop: record_mail_optout would record nothing).
-- security definer: private.mail_optouts is not readable through the API.
create function public.mail_optout_state(p_email text, p_scope text, p_block_id uuid,
                                         p_owner_id uuid default null)
returns text language sql stable security definer set search_path = '' as $$
  select case
    when exists (select 1 from private.mail_optouts
                 where email = lower(btrim(p_email)) and scope = p_scope and block_id = p_block_id)
      then 'out'
    when o.id is null then 'gone'
    when p_scope = 'owner' and exists (
           select 1 from private.mail_optouts m
           where m.owner_id = o.id and m.email = lower(btrim(p_email)) and m.scope = 'owner')
      then 'out'
    else 'in' end
  from (select private.optout_owner(p_email, p_scope, p_block_id, p_owner_id) as id) o;
$$;
revoke execute on function public.mail_optout_state(text, text, uuid, uuid) from public, anon, authenticated;

-- Whether an address's mailbox already left an owner's letters (private.letter_unsubscribed, the
-- check every letter path makes): the unsubscribe page says so instead of asking again, for
-- another spelling of the mailbox too (a letter to name+news@ once name@ unsubscribed). security
-- definer: the service role's unsubscribe function asks through PostgREST, which has no private.
create function public.letter_optout_exists(p_owner_id uuid, p_email text)
returns boolean language sql stable security definer set search_path = '' as $$
  select private.letter_unsubscribed(p_owner_id, p_email);
$$;
revoke execute on function public.letter_optout_exists(uuid, text) from public, anon, authenticated;

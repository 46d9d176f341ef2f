-- Visitor trust (issue 9): what the database needs to refuse abuse and to let owners moderate.
--
-- - Rate limits: token buckets in an UNLOGGED table, one row per (block, visitor, action) and a
--   few shard rows per (block, action), taken with one upsert each on the write paths (no scan).
--   Tunables in private.settings (`limits.<action>`, `limits.block_shards`, `limits.enabled`),
--   an operator's per-block override in blocks.rate_limits. The defaults and the checks are in
--   private.check_rate_limit, called by the visitor RPCs (20261123170100_visitor_rpcs_with_limits.sql).
-- - Per-block trust settings (paid, through save-block): hold new messages for approval, a
--   honeypot field, a captcha once the limits trip.
-- - Message states (published, held, hidden), pins, the owner-imitation mark; reports; writers
--   blocked from a block; captcha passes; the owner's quota notices (80 % and 100 %).
-- - Reading: blocks are readable by their owner only (visitors read the public settings through
--   get_block_view); messages others may read are the published ones of published blocks.
--   Policies that must look at a block for a client that cannot read it call two security
--   definer predicates in schema private (executable by the client roles, but private has no
--   usage grant, so they are reachable from policies only, never by name from a client).

-- ---------------------------------------------------------------------------------------------
-- blocks: trust settings and the operator's limit override
-- ---------------------------------------------------------------------------------------------

alter table public.blocks
  add column hold_messages text not null default 'off'
    check (hold_messages in ('off', 'all', 'first_time', 'links')),
  add column honeypot boolean not null default false,
  add column captcha boolean not null default false,
  add column rate_limits jsonb check (rate_limits is null or jsonb_typeof(rate_limits) = 'object');

comment on column public.blocks.hold_messages is
  'Hold new comments and questions for the owner''s approval: off, all, first_time (writers without a published message here), links (messages with a link). Paid.';
comment on column public.blocks.honeypot is
  'The elements add a hidden field people never fill; a write without it empty is refused. Paid.';
comment on column public.blocks.captcha is
  'A visitor who trips a rate limit may continue after a captcha (Turnstile) instead of waiting. Paid.';
comment on column public.blocks.rate_limits is
  'Operator override of the visitor rate limits for this block: {"<action>": {"visitor_per_minute", "visitor_burst", "block_per_minute", "block_burst"}}. Not writable by owners.';

comment on table public.blocks is
  'A reaction or letter block owned by a user: settings and counters. Readable by its owner; visitors read the public settings through get_block_view.';

-- ---------------------------------------------------------------------------------------------
-- RLS predicates on blocks for clients that cannot read the block row
-- ---------------------------------------------------------------------------------------------

-- security definer: a visitor may not read public.blocks (tags, counters), but the policies of
-- messages and of the form content must know whether the block is published.
create function private.block_is_published(p_block_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.blocks where id = p_block_id and not deactivated);
$$;

-- security definer: as above, for "the caller owns this block" (policies of other tables).
create function private.is_block_owner(p_block_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.blocks where id = p_block_id and owner_id = (select auth.uid()));
$$;

revoke execute on function private.block_is_published(uuid), private.is_block_owner(uuid) from public;
grant execute on function private.block_is_published(uuid), private.is_block_owner(uuid)
  to anon, authenticated, service_role;

-- blocks: the owner only (the dashboard reads its own blocks; visitors use get_block_view)
drop policy "Anyone can read published blocks" on public.blocks;
drop policy "Users can read published blocks and their own" on public.blocks;
create policy "Owners can read their blocks" on public.blocks
  for select to authenticated using (owner_id = (select auth.uid()));

-- form content stays readable with a published block, through the predicates
drop policy "Anyone can read questions of published blocks" on public.questions;
drop policy "Users can read questions of published blocks and their own" on public.questions;
create policy "Anyone can read questions of published blocks" on public.questions
  for select to anon using (private.block_is_published(block_id));
create policy "Users can read questions of published blocks and their own" on public.questions
  for select to authenticated using (private.block_is_published(block_id) or private.is_block_owner(block_id));

drop policy "Anyone can read options of published blocks" on public.options;
drop policy "Users can read options of published blocks and their own" on public.options;
create policy "Anyone can read options of published blocks" on public.options
  for select to anon using (private.block_is_published(block_id));
create policy "Users can read options of published blocks and their own" on public.options
  for select to authenticated using (private.block_is_published(block_id) or private.is_block_owner(block_id));

drop policy "Anyone can read endings of published blocks" on public.endings;
drop policy "Users can read endings of published blocks and their own" on public.endings;
create policy "Anyone can read endings of published blocks" on public.endings
  for select to anon using (private.block_is_published(block_id));
create policy "Users can read endings of published blocks and their own" on public.endings
  for select to authenticated using (private.block_is_published(block_id) or private.is_block_owner(block_id));

drop policy "Anyone can read ending conditions of published blocks" on public.ending_conditions;
drop policy "Users can read ending conditions of published or own blocks" on public.ending_conditions;
create policy "Anyone can read ending conditions of published blocks" on public.ending_conditions
  for select to anon using (private.block_is_published(block_id));
create policy "Users can read ending conditions of published or own blocks" on public.ending_conditions
  for select to authenticated using (private.block_is_published(block_id) or private.is_block_owner(block_id));

-- ---------------------------------------------------------------------------------------------
-- messages: states, pins, the imitation mark
-- ---------------------------------------------------------------------------------------------

alter table public.messages
  add column status text not null default 'published' check (status in ('published', 'held', 'hidden')),
  add column pinned_at timestamptz,
  add column imitates_owner boolean not null default false;

comment on column public.messages.status is
  'published (everyone), held (waiting for the owner''s approval: the writer and the owner), hidden (the owner only).';
comment on column public.messages.pinned_at is 'Pinned to the top by the owner (top-level messages), or null.';
comment on column public.messages.imitates_owner is
  'The writer''s name reads like the owner''s label or name (set by post_message for anyone but the owner); the elements mark it.';

alter table public.messages add constraint messages_pins_top_level_only
  check (pinned_at is null or parent_id is null);

-- The messages the read paths must treat apart (held, hidden, pinned): an entry only for those,
-- so a block without any answers "none" from an empty range (get_block_view's fast path).
create index messages_block_id_special_idx on public.messages (block_id, created_at desc)
  where status <> 'published' or pinned_at is not null;
create index messages_block_id_pinned_idx on public.messages (block_id, pinned_at desc)
  where pinned_at is not null;

-- Who may read a message: the published ones of published blocks; the writer their own held
-- ones; the owner all of their blocks' (the moderation view). Realtime applies the same.
drop policy "Anyone can read messages of published blocks" on public.messages;
drop policy "Users can read messages of published blocks and their own" on public.messages;
create policy "Anyone can read published messages of published blocks" on public.messages
  for select to anon using (status = 'published' and private.block_is_published(block_id));
create policy "Users can read published messages, their own held ones and all of their blocks'" on public.messages
  for select to authenticated using (
    ((status = 'published' or (status = 'held' and creator_id = (select auth.uid())))
       and private.block_is_published(block_id))
    or private.is_block_owner(block_id));

comment on table public.messages is
  'Comment and Q&A messages; parent_id makes a reply (one level only). Published ones are public with the block; held and hidden ones are not served to others. No email here.';

-- ---------------------------------------------------------------------------------------------
-- reports
-- ---------------------------------------------------------------------------------------------

create table public.message_reports (
  message_id uuid not null,
  block_id uuid not null,
  user_id uuid not null,
  reason text check (char_length(reason) <= 200),
  created_at timestamptz not null default now(),
  primary key (message_id, user_id),
  foreign key (message_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.message_reports is
  'A visitor''s report of a message (once per visitor and message), for the block owner. Written by report_message.';

create index message_reports_block_id_idx on public.message_reports (block_id, created_at desc);
create index message_reports_user_id_idx on public.message_reports (user_id, block_id);

alter table public.message_reports enable row level security;
create policy "Owners read their blocks' reports and visitors their own" on public.message_reports
  for select to authenticated using (user_id = (select auth.uid()) or private.is_block_owner(block_id));
revoke insert, update, delete, truncate on public.message_reports from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- writers blocked from a block
-- ---------------------------------------------------------------------------------------------

create table public.blocked_writers (
  block_id uuid not null references public.blocks (id) on delete cascade,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (block_id, user_id)
);
comment on table public.blocked_writers is
  'Visitors the block owner blocked: every later write of theirs to the block is refused. Written by block_writer.';

create index blocked_writers_user_id_idx on public.blocked_writers (user_id);

alter table public.blocked_writers enable row level security;
create policy "Owners read the writers they blocked" on public.blocked_writers
  for select to authenticated using (private.is_block_owner(block_id));
revoke insert, update, delete, truncate on public.blocked_writers from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- rate limits: token buckets
-- ---------------------------------------------------------------------------------------------

-- UNLOGGED: a bucket is worth nothing after a crash (all buckets start full again), and the
-- visitor's write should not pay a WAL record for it. fillfactor leaves room on each page so
-- the updates stay HOT (no indexed column changes).
create unlogged table private.rate_limits (
  block_id uuid not null,
  -- the visitor's uid, or for the block-wide buckets a shard id (0000...000N)
  subject uuid not null,
  action text not null,
  tokens double precision not null,
  -- the bucket's refill rate and size when it was last taken from
  per_minute double precision not null,
  burst double precision not null,
  updated_at timestamptz not null,
  -- when the bucket is full again: from then on the row is worth nothing (purged)
  full_at timestamptz not null,
  primary key (block_id, subject, action)
) with (fillfactor = 50);
comment on table private.rate_limits is
  'Token buckets of the visitor rate limits, per (block, visitor, action) and per (block, shard, action). Unlogged: lost on a crash, which only refills them.';

alter table private.rate_limits enable row level security;
revoke all on private.rate_limits from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- captcha passes
-- ---------------------------------------------------------------------------------------------

-- A solved captcha lets the visitor past the limits of one block a few more times.
create table private.captcha_passes (
  block_id uuid not null references public.blocks (id) on delete cascade,
  user_id uuid not null,
  uses_left integer not null check (uses_left >= 0),
  expires_at timestamptz not null,
  primary key (block_id, user_id)
);
comment on table private.captcha_passes is
  'What a solved captcha buys: uses_left writes past the rate limits of one block until expires_at (settings captcha.pass_uses, captcha.pass_minutes).';
alter table private.captcha_passes enable row level security;
revoke all on private.captcha_passes from public, anon, authenticated;

-- Tokens already used (by hash): a replayed token is refused even if the provider took it.
create table private.captcha_tokens (
  token_hash text primary key check (char_length(token_hash) = 64),
  created_at timestamptz not null default now()
);
comment on table private.captcha_tokens is 'SHA-256 of the captcha tokens already spent (purged after a day).';
alter table private.captcha_tokens enable row level security;
revoke all on private.captcha_tokens from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- the owner's quota notices
-- ---------------------------------------------------------------------------------------------

create table private.quota_notices (
  user_id uuid not null references public.profiles (id) on delete cascade,
  month date not null,
  level integer not null check (level in (80, 100)),
  created_at timestamptz not null default now(),
  primary key (user_id, month, level)
);
comment on table private.quota_notices is
  'The monthly response quota mails sent to an owner: once per month at 80 % and once at 100 %.';
alter table private.quota_notices enable row level security;
revoke all on private.quota_notices from public, anon, authenticated;

-- When a submit moves the monthly count across 80 % or onto the limit, the owner gets a mail
-- (job quota.notice). A trigger, so it follows the count wherever it is changed.
create function private.profiles_quota_notice()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limit integer := new.response_monthly_limit;
  v_warn integer := ceil(new.response_monthly_limit * 0.8);
  v_level integer;
begin
  if v_limit <= 0 or new.response_monthly_count <= coalesce(old.response_monthly_count, 0)
     and new.response_month = old.response_month then
    return null;
  end if;
  if new.response_monthly_count >= v_limit then
    v_level := 100;
  elsif new.response_monthly_count >= v_warn then
    v_level := 80;
  else
    return null;
  end if;
  insert into private.quota_notices (user_id, month, level) values (new.id, new.response_month, v_level)
    on conflict do nothing;
  if found then
    perform private.enqueue_job('quota.notice',
      jsonb_build_object('user_id', new.id, 'month', new.response_month, 'level', v_level,
                         'count', new.response_monthly_count, 'limit', v_limit),
      'quota.notice:' || new.id || ':' || new.response_month || ':' || v_level, null, null, 'mail');
  end if;
  return null;
end;
$$;

-- WHEN: below 80 % (nearly every submit) the function is not even called.
create trigger profiles_quota_notice after update of response_monthly_count on public.profiles
  for each row when (new.response_monthly_count is distinct from old.response_monthly_count
                     and new.response_monthly_count >= new.response_monthly_limit * 0.8)
  execute function private.profiles_quota_notice();

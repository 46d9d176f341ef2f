-- Visitor reactions: responses (form, ab, like, button), comment and Q&A messages with one level
-- of replies, the commenter's private notification email, and per-user message likes.
-- Visitors write only through the RPCs of a later migration; counters are kept by triggers here
-- with relative updates, so they stay right under concurrency and when the owner deletes rows.

-- ---------------------------------------------------------------------------------------------
-- responses
-- ---------------------------------------------------------------------------------------------

create table public.responses (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  kind public.response_kind not null,
  -- the visitor's auth uid (often an anonymous Supabase user); not a foreign key, so a response
  -- outlives the visitor's session user
  creator_id uuid not null,
  creator_name text check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  is_like boolean not null default false,
  timezone text check (char_length(timezone) <= 64),
  -- keyed by question id: {index, title, type, value, option_ids, as_visitor_info}
  answers jsonb not null default '{}'::jsonb check (jsonb_typeof(answers) = 'object'),
  created_at timestamptz not null default now(),
  check (is_like = (kind = 'like'))
);
comment on table public.responses is
  'A visitor''s response to a block: a form or ab submission, a like (one per visitor) or a button click.';

create unique index responses_one_like_per_visitor_idx on public.responses (block_id, creator_id)
  where kind = 'like';
create unique index responses_one_ab_vote_per_visitor_idx on public.responses (block_id, creator_id)
  where kind = 'ab';
create index responses_block_id_created_at_idx on public.responses (block_id, created_at desc);
create index responses_creator_id_idx on public.responses (creator_id);

alter table public.responses enable row level security;

create policy "Owners read their blocks' responses and visitors their own like" on public.responses
  for select to authenticated using (
    (kind = 'like' and creator_id = (select auth.uid()))
    or exists (select 1 from public.blocks b
               where b.id = responses.block_id and b.owner_id = (select auth.uid())));
create policy "Owners can delete responses to their blocks" on public.responses
  for delete to authenticated using (exists (
    select 1 from public.blocks b where b.id = responses.block_id and b.owner_id = (select auth.uid())));

revoke insert, update, truncate on public.responses from anon, authenticated;

-- block counters: every response counts; a like also counts in like_count
create function private.responses_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.blocks
    set response_count = response_count + 1,
        new_response_count = new_response_count + 1,
        like_count = like_count + (new.kind = 'like')::integer
    where id = new.block_id;
  return new;
end;
$$;

create trigger responses_after_insert after insert on public.responses
  for each row execute function private.responses_after_insert();

-- deleting a response (owner delete, unlike) takes it out of the block and option counters
create function private.responses_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_option_ids uuid[];
begin
  update public.blocks
    set response_count = greatest(response_count - 1, 0),
        new_response_count = greatest(new_response_count - 1, 0),
        like_count = greatest(like_count - (old.kind = 'like')::integer, 0)
    where id = old.block_id;
  if old.kind in ('form', 'ab') then
    select coalesce(array_agg(o.value::uuid), '{}') into v_option_ids
      from jsonb_each(old.answers) a,
           jsonb_array_elements_text(case when jsonb_typeof(a.value -> 'option_ids') = 'array'
                                          then a.value -> 'option_ids' else '[]'::jsonb end) o;
    if cardinality(v_option_ids) > 0 then
      update public.options set response_count = greatest(response_count - 1, 0)
        where id = any (v_option_ids) and block_id = old.block_id;
    end if;
  end if;
  return old;
end;
$$;

create trigger responses_after_delete after delete on public.responses
  for each row execute function private.responses_after_delete();

-- ---------------------------------------------------------------------------------------------
-- messages
-- ---------------------------------------------------------------------------------------------

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  parent_id uuid,
  creator_id uuid not null,
  creator_name text not null default '' check (char_length(creator_name) <= 100),
  creator_photo_url text check (char_length(creator_photo_url) <= 500),
  color text check (char_length(color) <= 32),
  home_url text check (char_length(home_url) <= 500),
  content text not null check (char_length(btrim(content)) > 0 and char_length(content) <= 500),
  is_edited boolean not null default false,
  resolved boolean not null default false,
  like_count integer not null default 0 check (like_count >= 0),
  reply_count integer not null default 0 check (reply_count >= 0),
  timezone text check (char_length(timezone) <= 64),
  created_at timestamptz not null default now(),
  unique (id, block_id),
  foreign key (parent_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.messages is
  'Comment and Q&A messages; parent_id makes a reply (one level only). Public with the block; no email here.';

create index messages_block_id_top_level_idx on public.messages (block_id, created_at desc)
  where parent_id is null;
create index messages_parent_id_created_at_idx on public.messages (parent_id, created_at);
create index messages_creator_id_idx on public.messages (creator_id);

alter table public.messages enable row level security;

-- readable by anyone who can see the block (also what Realtime checks before sending a change)
create policy "Anyone can read messages of published blocks" on public.messages
  for select to anon using (exists (
    select 1 from public.blocks b where b.id = messages.block_id and not b.deactivated));
create policy "Users can read messages of published blocks and their own" on public.messages
  for select to authenticated using (exists (
    select 1 from public.blocks b where b.id = messages.block_id
      and (not b.deactivated or b.owner_id = (select auth.uid()))));

revoke insert, update, delete, truncate on public.messages from anon, authenticated;

-- one level of replies; a reply has no resolved state
create function private.messages_before_insert()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.parent_id is not null then
    if exists (select 1 from public.messages where id = new.parent_id and parent_id is not null) then
      raise exception 'Replies nest one level only' using errcode = 'P0001';
    end if;
    new.resolved := false;
  end if;
  return new;
end;
$$;

create trigger messages_before_insert before insert on public.messages
  for each row execute function private.messages_before_insert();

-- Every message (top-level or reply) counts as a response of the block.
create function private.messages_after_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.blocks
    set response_count = response_count + 1, new_response_count = new_response_count + 1
    where id = new.block_id;
  if new.parent_id is not null then
    update public.messages set reply_count = reply_count + 1 where id = new.parent_id;
  end if;
  return new;
end;
$$;

create trigger messages_after_insert after insert on public.messages
  for each row execute function private.messages_after_insert();

create function private.messages_after_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.blocks
    set response_count = greatest(response_count - 1, 0),
        new_response_count = greatest(new_response_count - 1, 0)
    where id = old.block_id;
  if old.parent_id is not null then
    update public.messages set reply_count = greatest(reply_count - 1, 0) where id = old.parent_id;
  end if;
  return old;
end;
$$;

create trigger messages_after_delete after delete on public.messages
  for each row execute function private.messages_after_delete();

alter publication supabase_realtime add table public.messages;

-- ---------------------------------------------------------------------------------------------
-- message_private: the commenter's notification email
-- ---------------------------------------------------------------------------------------------

create table public.message_private (
  message_id uuid primary key,
  block_id uuid not null,
  creator_email text not null check (char_length(creator_email) <= 50),
  foreign key (message_id, block_id) references public.messages (id, block_id) on delete cascade
);
comment on table public.message_private is
  'Notification email a commenter left with a top-level message; readable by the block owner and the author only.';

create index message_private_block_id_idx on public.message_private (block_id);

alter table public.message_private enable row level security;

create policy "Block owners and authors can read commenter emails" on public.message_private
  for select to authenticated using (
    exists (select 1 from public.blocks b
            where b.id = message_private.block_id and b.owner_id = (select auth.uid()))
    or exists (select 1 from public.messages m
               where m.id = message_private.message_id and m.creator_id = (select auth.uid())));

revoke insert, update, delete, truncate on public.message_private from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- message_likes
-- ---------------------------------------------------------------------------------------------

create table public.message_likes (
  message_id uuid not null references public.messages (id) on delete cascade,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (message_id, user_id)
);
comment on table public.message_likes is 'One like per user and message; messages.like_count follows it.';

create index message_likes_user_id_idx on public.message_likes (user_id);

alter table public.message_likes enable row level security;

create policy "Users can read their own message likes" on public.message_likes
  for select to authenticated using (user_id = (select auth.uid()));

revoke insert, update, delete, truncate on public.message_likes from anon, authenticated;

create function private.message_likes_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.messages set like_count = like_count + 1 where id = new.message_id;
    return new;
  end if;
  update public.messages set like_count = greatest(like_count - 1, 0) where id = old.message_id;
  return old;
end;
$$;

create trigger message_likes_after_change after insert or delete on public.message_likes
  for each row execute function private.message_likes_after_change();

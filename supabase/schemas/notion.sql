-- Notion integration: an owner connects a Notion workspace (OAuth; the token only in
-- private.integration_tokens), links a block to a data source (form, ab, button, comment, qna) or
-- a page (like), and every new response, comment or question of a linked block becomes a Notion
-- page through the jobs queue: a trigger enqueues a `notion` job in the visitor's transaction,
-- the jobs-worker's notion handler writes it. What went wrong is kept as integration notes the
-- owner reads in the workspace and on /profile/integration.

create table public.integrations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  provider text not null check (provider in ('notion', 'cafe24')),
  status public.integration_status not null default 'granted',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  workspace_name text check (char_length(workspace_name) <= 200),
  workspace_icon text check (char_length(workspace_icon) <= 500),
  status_reason text check (char_length(status_reason) <= 500),
  unique (user_id, provider)
);
comment on table public.integrations is
  'Connected outside services of a user (Notion, Cafe24) and whether access is granted; tokens are in private.integration_tokens.';
comment on column public.integrations.status_reason is
  'Why the status is not_granted (Notion refused the token: the owner removed the integration in Notion).';
call private.clients_read('public.integrations', 'Users can read their own integrations',
  'user_id = (select auth.uid())');

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
grant select, insert, update, delete on private.integration_tokens to service_role;

-- What the owner's Notion connection listed to choose from: every data source and page
-- search-notion-objects answered, with the workspace it listed them in. A block is linked only to
-- one of them (save_block_private): a workspace tab still holding the list of a connection replaced
-- since (removed and another workspace connected, or connected again to another workspace) cannot
-- link a block to a database the current token cannot reach. The database cannot ask Notion what
-- a token reaches; what the connection listed is what it knows (docs/data-model.md, Notion).
-- Ids are matched as private.notion_id writes them (object_id); listed_id keeps the id as Notion
-- answered it, the spelling a block is linked with. The rows go with the integration; connecting
-- again (a new token, whose pages may be fewer) drops them all (save_notion_connection).
create table private.notion_listed (
  integration_id uuid not null references public.integrations (id) on delete cascade,
  object_id text not null check (char_length(object_id) <= 100),
  object text not null check (object in ('data_source', 'page')),
  workspace_id text not null check (char_length(workspace_id) <= 100),
  listed_at timestamptz not null default now(),
  listed_id text check (char_length(listed_id) <= 100),
  primary key (integration_id, object_id)
);
comment on table private.notion_listed is
  'The data sources and pages each Notion connection listed (search-notion-objects): what a block may be linked to.';
alter table private.notion_listed enable row level security;
revoke all on private.notion_listed from public, anon, authenticated;
grant select, insert, update, delete on private.notion_listed to service_role;

-- A Notion id as kept: Notion takes an id with or without its dashes, in either case.
create function private.notion_id(p_id text)
returns text language sql immutable set search_path = '' as $$
  select replace(lower(btrim(p_id)), '-', '');
$$;
revoke execute on function private.notion_id(text) from public;
grant execute on function private.notion_id(text) to service_role;

-- The id `p_object_id` as the owner's current connection listed it as a `p_object` (data_source |
-- page) in the workspace its token is for (Notion's spelling), or null when it did not list it.
-- A block is linked with this spelling, so the dashboard finds its link among the listed objects
-- and Notion gets the id it answered.
create function private.notion_listed_id(p_user_id uuid, p_object_id text, p_object text)
returns text language sql stable set search_path = '' as $$
  select coalesce(l.listed_id, btrim(p_object_id))
    from public.integrations i
      join private.integration_tokens t on t.integration_id = i.id
      join private.notion_listed l on l.integration_id = i.id
    where i.user_id = p_user_id and i.provider = 'notion'
      and l.object_id = private.notion_id(p_object_id) and l.object = p_object
      and l.workspace_id = coalesce(t.token_data ->> 'workspace_id', '');
$$;
revoke execute on function private.notion_listed_id(uuid, text, text) from public;
grant execute on function private.notion_listed_id(uuid, text, text) to service_role;

-- Keeps what a search listed ([{id, object}]) for the connection `p_integration_id`, when it is
-- still the owner's connection to workspace `p_workspace_id` (a search that ran while the
-- connection was replaced keeps nothing). Answers how many were kept.
create function public.keep_notion_listed(p_integration_id uuid, p_workspace_id text, p_objects jsonb)
returns integer language sql security definer set search_path = '' as $$
  with kept as (
    insert into private.notion_listed (integration_id, object_id, listed_id, object, workspace_id)
      select distinct on (private.notion_id(o ->> 'id'))
             p_integration_id, private.notion_id(o ->> 'id'), left(btrim(o ->> 'id'), 100),
             o ->> 'object', p_workspace_id
      from jsonb_array_elements(coalesce(p_objects, '[]'::jsonb)) o
      where o ->> 'object' in ('data_source', 'page') and coalesce(o ->> 'id', '') <> ''
        and exists (select 1 from private.integration_tokens t
                    where t.integration_id = p_integration_id
                      and t.token_data ->> 'workspace_id' = p_workspace_id)
    on conflict (integration_id, object_id) do update
      set object = excluded.object, listed_id = excluded.listed_id,
          workspace_id = excluded.workspace_id, listed_at = now()
    returning 1
  )
  select count(*)::integer from kept;
$$;
revoke execute on function public.keep_notion_listed(uuid, text, jsonb) from public, anon, authenticated;
grant execute on function public.keep_notion_listed(uuid, text, jsonb) to service_role;

-- OAuth states are spent once (Notion and Cafe24; functions/_shared/oauth-state.ts).
-- The nonce of every OAuth state a connection used, until the state would have expired anyway:
-- a state that leaked after use (browser history, a log) cannot carry another code in.
create table private.oauth_states (
  nonce text primary key check (char_length(nonce) between 8 and 64),
  expires_at timestamptz not null
);
comment on table private.oauth_states is 'Nonces of the OAuth states already used (purged once expired).';
alter table private.oauth_states enable row level security;

-- True the first time a state's nonce is spent, false after (and for an expired one).
create function public.spend_oauth_state(p_nonce text, p_expires_at timestamptz)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  delete from private.oauth_states where expires_at < now();
  if p_expires_at < now() then
    return false;
  end if;
  insert into private.oauth_states (nonce, expires_at) values (p_nonce, p_expires_at)
    on conflict (nonce) do nothing;
  return found;
end;
$$;

revoke all on function public.spend_oauth_state(text, timestamptz) from public, anon, authenticated;
grant execute on function public.spend_oauth_state(text, timestamptz) to service_role;

create table public.integration_notes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- null for a note about the connection itself (unauthorized)
  block_id uuid references public.blocks (id) on delete cascade,
  provider text not null default 'notion' check (provider in ('notion', 'cafe24')),
  -- column_type: a column cannot take the value mapped to it (the page was written without it)
  -- target_missing: the data source or page is gone or no longer shared (the block was unlinked)
  -- unauthorized: Notion refused the token (the integration is not granted any more)
  -- write_failed: a response could not be written after every retry
  -- write_uncertain: after every retry it is not known whether a response was written (Notion
  -- did not answer an attempt that may have written it: a lost answer, a 5xx)
  -- cafe24_unauthorized: the mall refused our tokens; cafe24_loader_failed: the loader could not be
  -- installed or removed after every retry; cafe24_taken_over: the mall refused our tokens and
  -- another account then connected it (detail.mall_id) (schemas/cafe24.sql)
  code text not null check (code in ('column_type', 'target_missing', 'unauthorized', 'write_failed',
                                     'write_uncertain', 'cafe24_unauthorized', 'cafe24_loader_failed',
                                     'cafe24_taken_over')),
  -- the column's name for column_type ('' otherwise)
  property text not null default '' check (char_length(property) <= 200),
  detail jsonb not null default '{}'::jsonb check (jsonb_typeof(detail) = 'object'),
  count integer not null default 1 check (count >= 1),
  first_at timestamptz not null default now(),
  last_at timestamptz not null default now(),
  unique nulls not distinct (user_id, block_id, code, property)
);
comment on table public.integration_notes is
  'What an integration could not do, for the owner to read (and dismiss): a column that cannot take a value, a target gone, access revoked, a write that failed. Written by the jobs worker and the integration functions only.';
alter table public.integration_notes enable row level security;
revoke select, insert, update, delete, references, trigger, maintain on public.integration_notes from anon;
revoke insert, update, references, trigger on public.integration_notes from authenticated;
create index integration_notes_user_id_idx on public.integration_notes (user_id);
create index integration_notes_block_id_idx on public.integration_notes (block_id);

create policy "Owners can read their integration notes" on public.integration_notes
  for select to authenticated using (user_id = (select auth.uid()));

create policy "Owners can dismiss their integration notes" on public.integration_notes
  for delete to authenticated using (user_id = (select auth.uid()));

-- A block linked to another target starts with a clean slate: the old target's notes go.
create function private.block_private_notion_target_changed()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.notion_database is distinct from old.notion_database or new.notion_page is distinct from old.notion_page then
    delete from public.integration_notes
      where block_id = new.block_id
        and code in ('column_type', 'target_missing', 'write_failed', 'write_uncertain');
  end if;
  return null;
end;
$$;

-- The last page a like block's jobs wrote under its Notion page (kept by finish_jobs from a done
-- job's result {page_id, under}). A job's first attempt keeps it in its payload (`anchor`,
-- prepare_notion_jobs): Notion lists a page's children in the order they were added, so a retry
-- that looks for the page an uncertain attempt may have written lists them from that page on,
-- one call for the pages added since, instead of every child page from the first (100 calls for
-- 10,000 likes). One row per block, written once per page written.
create table private.notion_last_pages (
  block_id uuid primary key references public.blocks (id) on delete cascade,
  -- the Notion page it was written under (a block linked to another page starts again)
  parent_id text not null check (char_length(parent_id) <= 100),
  page_id text not null check (char_length(page_id) <= 100),
  written_at timestamptz not null default now()
);
comment on table private.notion_last_pages is
  'The last page each like block''s Notion jobs wrote under its page: where a retry''s lookup of a page that may have been written starts listing the children.';
alter table private.notion_last_pages enable row level security;
revoke all on private.notion_last_pages from public, anon, authenticated;

-- A done `notion` job that wrote (or found) a page under a page: it is the block's last page.
-- Called by finish_jobs (jobs.sql).
create function private.keep_notion_page(p_job private.jobs, p_result jsonb)
returns void language sql set search_path = '' as $$
  insert into private.notion_last_pages (block_id, parent_id, page_id)
    select b.id, p_result ->> 'under', p_result ->> 'page_id'
    from public.blocks b
    where b.id = (p_job.payload ->> 'block_id')::uuid
      and coalesce(p_result ->> 'under', '') <> '' and coalesce(p_result ->> 'page_id', '') <> ''
  on conflict (block_id) do update
    set parent_id = excluded.parent_id, page_id = excluded.page_id, written_at = now();
$$;
revoke execute on function private.keep_notion_page(private.jobs, jsonb) from public;

-- A new response (form, ab vote, like, button click) or message (comment, question, reply) of a
-- block linked to Notion, whose owner has connected Notion: one `notion` job. The owner's jobs
-- share a group, so they run one at a time (Notion allows an integration about three requests a
-- second) and a 429 delays them all. 40 attempts with the queue's backoff (capped at an hour)
-- ride out an outage of more than a day; a job parked while access is revoked does not count
-- attempts and runs when the owner connects again.
create function private.enqueue_notion_write()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_target text;
begin
  select b.owner_id, case when b.type = 'like' then bp.notion_page else bp.notion_database end
    into v_owner, v_target
    from public.blocks b join public.block_private bp on bp.block_id = b.id
    where b.id = new.block_id;
  if coalesce(v_target, '') = '' then
    return null;
  end if;
  if not exists (select 1 from public.integrations where user_id = v_owner and provider = 'notion') then
    return null;
  end if;
  perform public.enqueue_job('notion',
    jsonb_build_object('block_id', new.block_id,
                       case when tg_table_name = 'messages' then 'message_id' else 'response_id' end, new.id),
    'notion:' || tg_table_name || ':' || new.id, null, 'notion:' || v_owner, null, 40);
  return null;
end;
$$;

-- The owner's Notion connection with its token (null when not connected).
create function public.notion_connection(p_user_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object('id', i.id, 'status', i.status, 'workspace_name', i.workspace_name,
                            'workspace_id', t.token_data ->> 'workspace_id', 'access_token', t.access_token)
  from public.integrations i join private.integration_tokens t on t.integration_id = i.id
  where i.user_id = p_user_id and i.provider = 'notion';
$$;
revoke execute on function public.notion_connection(uuid) from public, anon, authenticated;

-- Stores a new token (connect or reconnect): granted again, the access note gone, the jobs
-- parked while access was revoked released, and what another workspace listed forgotten.
create function public.save_notion_connection(p_user_id uuid, p_access_token text, p_token_data jsonb,
                                              p_workspace_name text, p_workspace_icon text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_integration public.integrations;
begin
  if coalesce(p_access_token, '') = '' then
    raise exception 'access token required' using errcode = 'P0001';
  end if;
  insert into public.integrations (user_id, provider, status, workspace_name, workspace_icon, status_reason)
    values (p_user_id, 'notion', 'granted', left(p_workspace_name, 200), left(p_workspace_icon, 500), null)
    on conflict (user_id, provider) do update
      set status = 'granted', workspace_name = excluded.workspace_name,
          workspace_icon = excluded.workspace_icon, status_reason = null
    returning * into v_integration;
  insert into private.integration_tokens (integration_id, access_token, refresh_token, token_data, updated_at)
    values (v_integration.id, p_access_token, null, coalesce(p_token_data, '{}'::jsonb), now())
    on conflict (integration_id) do update
      set access_token = excluded.access_token, token_data = excluded.token_data, updated_at = now();
  -- a new token (another workspace, or the same one with other pages shared): what the previous
  -- one listed may not be reachable any more; the section lists again before choosing
  delete from private.notion_listed where integration_id = v_integration.id;
  delete from public.integration_notes where user_id = p_user_id and code = 'unauthorized';
  update private.jobs set run_at = now(), updated_at = now()
    where kind = 'notion' and group_key = 'notion:' || p_user_id and status = 'queued' and run_at > now();
  return jsonb_build_object('id', v_integration.id, 'status', v_integration.status,
                            'workspace_name', v_integration.workspace_name);
end;
$$;
revoke execute on function public.save_notion_connection(uuid, text, jsonb, text, text) from public, anon, authenticated;

-- Disconnects: answers the token (to revoke at Notion), unlinks every block of the owner, drops
-- the notes and settles the owner's queued notion jobs (nothing to write them to any more).
create function public.remove_notion_connection(p_user_id uuid)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_token text;
  v_unlinked integer;
  v_settled integer;
begin
  select t.access_token into v_token
    from public.integrations i join private.integration_tokens t on t.integration_id = i.id
    where i.user_id = p_user_id and i.provider = 'notion';
  delete from public.integrations where user_id = p_user_id and provider = 'notion';
  update public.block_private bp set notion_database = null, notion_page = null
    from public.blocks b
    where b.id = bp.block_id and b.owner_id = p_user_id
      and (bp.notion_database is not null or bp.notion_page is not null);
  get diagnostics v_unlinked = row_count;
  delete from public.integration_notes where user_id = p_user_id and provider = 'notion';
  update private.jobs
    set status = 'done', finished_at = now(), updated_at = now(), locked_until = null,
        result = jsonb_build_object('skipped', 'Notion was disconnected')
    where kind = 'notion' and group_key = 'notion:' || p_user_id and status = 'queued';
  get diagnostics v_settled = row_count;
  return jsonb_build_object('access_token', v_token, 'unlinked', v_unlinked, 'settled', v_settled);
end;
$$;
revoke execute on function public.remove_notion_connection(uuid) from public, anon, authenticated;

-- One more of an integration's problems for the owner to read (integration_notes): counted, with
-- the time and detail of the latest (the Notion worker's batch of notes: record_notion_notes).
create function private.note_integration(p_user_id uuid, p_block_id uuid, p_provider text,
  p_code text, p_detail jsonb)
returns void language sql set search_path = '' as $$
  insert into public.integration_notes (user_id, block_id, provider, code, property, detail)
    values (p_user_id, p_block_id, p_provider, p_code, '', p_detail)
    on conflict (user_id, block_id, code, property) do update
      set count = public.integration_notes.count + 1, last_at = now(), detail = excluded.detail;
$$;
revoke execute on function private.note_integration(uuid, uuid, text, text, jsonb) from public;

-- Notion refused the token (401): not granted, with a note for the owner.
create function public.mark_notion_not_granted(p_user_id uuid, p_reason text)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update public.integrations set status = 'not_granted', status_reason = left(p_reason, 500)
    where user_id = p_user_id and provider = 'notion' and status = 'granted';
  if found then
    perform private.note_integration(p_user_id, null, 'notion', 'unauthorized',
                                     jsonb_build_object('reason', left(p_reason, 500)));
  end if;
end;
$$;
revoke execute on function public.mark_notion_not_granted(uuid, text) from public, anon, authenticated;

-- The block's data source or page is gone (404): unlink it (when still the same target) and say so.
create function public.unlink_notion_target(p_block_id uuid, p_target_id text, p_reason text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_unlinked boolean := false;
begin
  select owner_id into v_owner from public.blocks where id = p_block_id;
  if not found then
    return false;
  end if;
  update public.block_private
    set notion_database = case when notion_database = p_target_id then null else notion_database end,
        notion_page = case when notion_page = p_target_id then null else notion_page end
    where block_id = p_block_id and (notion_database = p_target_id or notion_page = p_target_id);
  v_unlinked := found;
  if v_unlinked then
    perform private.note_integration(v_owner, p_block_id, 'notion', 'target_missing',
      jsonb_build_object('target_id', left(p_target_id, 100), 'reason', left(p_reason, 500)));
  end if;
  return v_unlinked;
end;
$$;
revoke execute on function public.unlink_notion_target(uuid, text, text) from public, anon, authenticated;

-- Records notes: [{user_id, block_id, code, property, detail}], counted when seen again.
create function public.record_notion_notes(p_notes jsonb)
returns void language sql security definer set search_path = '' as $$
  insert into public.integration_notes (user_id, block_id, code, property, detail)
  select (n ->> 'user_id')::uuid, (n ->> 'block_id')::uuid, n ->> 'code', left(coalesce(n ->> 'property', ''), 200),
         coalesce(n -> 'detail', '{}'::jsonb)
  from jsonb_array_elements(coalesce(p_notes, '[]'::jsonb)) n
  where exists (select 1 from public.blocks b where b.id = (n ->> 'block_id')::uuid and b.owner_id = (n ->> 'user_id')::uuid)
  on conflict (user_id, block_id, code, property) do update
    set count = public.integration_notes.count + excluded.count, last_at = now(), detail = excluded.detail;
$$;
revoke execute on function public.record_notion_notes(jsonb) from public, anon, authenticated;

-- Notion asked to wait (429 Retry-After): the owner's queued notion jobs wait that long too.
create function public.delay_notion_jobs(p_user_id uuid, p_until timestamptz)
returns integer language sql security definer set search_path = '' as $$
  with moved as (
    update private.jobs set run_at = p_until, updated_at = now()
      where kind = 'notion' and group_key = 'notion:' || p_user_id and status = 'queued' and run_at < p_until
      returning 1
  )
  select count(*)::integer from moved;
$$;
revoke execute on function public.delay_notion_jobs(uuid, timestamp with time zone) from public, anon, authenticated;

-- What the worker needs to write each claimed notion job: the owner's token, the target, the
-- title column's choice, the block and the item (a response with its answers in question order,
-- or a message), `anchor` (a like's: the block's last page under the target when the job first
-- ran, private.notion_last_pages, kept in the job's payload at its first attempt: a retry's
-- lookup lists the children from it) and `maybe_written` (the previous attempt got no answer to
-- a write that may have been carried out: its error starts 'uncertain:'). Answers per job {id,
-- context} or {id, skip} (nothing to write any more) or {id, defer_until} (access revoked:
-- parked until the owner connects again).
create function public.prepare_notion_jobs(p_job_ids bigint[])
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_job private.jobs;
  v_block public.blocks;
  v_private public.block_private;
  v_integration public.integrations;
  v_token text;
  v_target text;
  v_item jsonb;
  v_out jsonb := '[]'::jsonb;
begin
  for v_job in select * from private.jobs where id = any(p_job_ids) and status = 'running' order by id loop
    select * into v_block from public.blocks where id = (v_job.payload ->> 'block_id')::uuid;
    if not found then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'the block was deleted');
      continue;
    end if;
    select * into v_private from public.block_private where block_id = v_block.id;
    v_target := case when v_block.type = 'like' then v_private.notion_page else v_private.notion_database end;
    if coalesce(v_target, '') = '' then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'the block is no longer linked to Notion');
      continue;
    end if;
    select * into v_integration from public.integrations where user_id = v_block.owner_id and provider = 'notion';
    if not found then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'Notion was disconnected');
      continue;
    end if;
    if v_integration.status = 'not_granted' then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'defer_until', now() + interval '1 day');
      continue;
    end if;
    select access_token into v_token from private.integration_tokens where integration_id = v_integration.id;
    -- a like's first attempt: the page its write will come after (one job per owner runs at a
    -- time, so every kept page was written before this job's). Kept once: a deferred first
    -- attempt (429, access revoked) runs again as the first, with the same anchor
    if v_block.type = 'like' and v_job.attempts = 1 and not v_job.payload ? 'anchor' then
      v_job.payload := v_job.payload || jsonb_build_object('anchor',
        (select to_jsonb(l.page_id) from private.notion_last_pages l
         where l.block_id = v_block.id and l.parent_id = v_target));
      update private.jobs set payload = v_job.payload where id = v_job.id;
    end if;

    if v_job.payload ? 'response_id' then
      select jsonb_build_object(
               'kind', 'response', 'id', r.id, 'response_kind', r.kind, 'creator_id', r.creator_id,
               'creator_name', r.creator_name, 'created_at', r.created_at, 'timezone', r.timezone,
               'answers', coalesce((
                 select jsonb_agg(jsonb_build_object(
                          'question_id', a.key,
                          'title', coalesce(case when not q.deleted then q.title end, a.value ->> 'title', ''),
                          'type', a.value ->> 'type', 'value', a.value -> 'value')
                        order by coalesce(q.index, (a.value ->> 'index')::integer), a.key)
                 from jsonb_each(r.answers) a
                   left join public.questions q on q.id::text = a.key and q.block_id = r.block_id), '[]'::jsonb))
        into v_item
        from public.responses r
        where r.id = (v_job.payload ->> 'response_id')::uuid and r.block_id = v_block.id;
    else
      select jsonb_build_object(
               'kind', 'message', 'id', m.id, 'content', m.content, 'creator_id', m.creator_id,
               'creator_name', m.creator_name, 'created_at', m.created_at, 'parent_id', m.parent_id,
               'is_owner', m.creator_id = v_block.owner_id,
               'parent_content', (select left(p.content, 200) from public.messages p where p.id = m.parent_id))
        into v_item
        from public.messages m
        where m.id = (v_job.payload ->> 'message_id')::uuid and m.block_id = v_block.id;
    end if;
    if v_item is null then
      v_out := v_out || jsonb_build_object('id', v_job.id, 'skip', 'the response or message was deleted');
      continue;
    end if;

    v_out := v_out || jsonb_build_object('id', v_job.id, 'context', jsonb_build_object(
      'user_id', v_block.owner_id,
      'access_token', v_token,
      'target', jsonb_build_object('kind', case when v_block.type = 'like' then 'page' else 'data_source' end,
                                   'id', v_target),
      'title_mode', coalesce(v_private.notion_database_title, 'response_id'),
      'block', jsonb_build_object('id', v_block.id, 'name', v_block.name, 'type', v_block.type,
                                  'language', v_block.language),
      'item', v_item,
      'anchor', v_job.payload -> 'anchor',
      'maybe_written', coalesce(v_job.last_error, '') like 'uncertain:%'));
    v_item := null;
  end loop;
  return v_out;
end;
$$;
revoke execute on function public.prepare_notion_jobs(bigint[]) from public, anon, authenticated;

create trigger integrations_set_updated_at before update on public.integrations
  for each row execute function private.set_updated_at();
create trigger block_private_notion_target_changed after update of notion_database, notion_page
  on public.block_private for each row execute function private.block_private_notion_target_changed();
create trigger responses_enqueue_notion after insert on public.responses
  for each row execute function private.enqueue_notion_write();
create trigger messages_enqueue_notion after insert on public.messages
  for each row execute function private.enqueue_notion_write();

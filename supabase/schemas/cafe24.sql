-- Cafe24 shops (issue 18, docs/cafe24.md): an owner connects a Cafe24 mall with Cafe24's OAuth
-- (the tokens only in private.integration_tokens), places blocks on the mall's screens (product
-- pages, the main page), and our loader is installed in the mall as a script tag through Cafe24's
-- Admin API by the jobs queue; it comes off when the owner disconnects or the plan ends.
--   public.cafe24_shops        the connected mall and the state of our script tag in it
--   public.cafe24_placements   which block shows on which screen (per product or not)
--   jobs cafe24.sync           make the mall's script tags match what should be there
--   jobs cafe24.refresh        keep the refresh token alive (it lasts two weeks)
--   public.get_cafe24_embed    what the loader shows on the mall's pages (cacheable GET)
-- Integrations are a paid feature: connecting and placing need a paid plan, the loader shows
-- nothing for an owner without one, and the tag is removed when the plan ends.

-- ---------------------------------------------------------------------------------------------
-- tables
-- ---------------------------------------------------------------------------------------------

create table public.cafe24_shops (
  -- the loader's ?shop=: names the shop without naming the mall or the owner
  id uuid primary key default gen_random_uuid(),
  integration_id uuid not null unique references public.integrations (id) on delete cascade,
  user_id uuid not null unique references public.profiles (id) on delete cascade,
  -- one owner per mall: the loader shows one owner's blocks
  mall_id text not null unique check (mall_id ~ '^[a-z0-9]{4,16}$'),
  shop_no integer not null default 1 check (shop_no between 1 and 1000),
  scopes text[] not null default '{}',
  -- the owner disconnected: the tag comes off, then the row (and the tokens) go
  removing boolean not null default false,
  -- our script tag in the mall as last synced (null: none)
  script_no text check (char_length(script_no) <= 40),
  script_locations text[] not null default '{}',
  loader_synced_at timestamptz,
  sync_requested_at timestamptz,
  loader_error text check (char_length(loader_error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.cafe24_shops is
  'A connected Cafe24 mall (one per owner, one owner per mall) and the state of our loader''s script tag in it. Tokens are in private.integration_tokens. Written by the cafe24 functions and the jobs worker only.';

create trigger cafe24_shops_set_updated_at before update on public.cafe24_shops
  for each row execute function private.set_updated_at();

alter table public.cafe24_shops enable row level security;
create policy "Owners can read their Cafe24 shop" on public.cafe24_shops
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.cafe24_shops from anon, authenticated;
grant select on public.cafe24_shops to authenticated;

create table public.cafe24_placements (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  block_id uuid not null references public.blocks (id) on delete cascade,
  -- the mall's screen: product_detail (each product page) or main (the home page)
  location text not null check (location in ('product_detail', 'main')),
  -- comment, qna and like on product pages: a thread per product (page key cafe24:product:<no>)
  per_product boolean not null default false,
  -- where on the page (a CSS selector the block goes after); '' for the loader's default place
  selector text not null default '' check (char_length(selector) <= 200),
  position smallint not null default 0 check (position between 0 and 99),
  created_at timestamptz not null default now(),
  unique (block_id, location)
);
comment on table public.cafe24_placements is
  'Which of the owner''s blocks the Cafe24 loader shows on which screen of the mall. Written through save-cafe24-placements only.';
create index cafe24_placements_user_id_idx on public.cafe24_placements (user_id, location, position);

alter table public.cafe24_placements enable row level security;
create policy "Owners can read their Cafe24 placements" on public.cafe24_placements
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on public.cafe24_placements from anon, authenticated;
grant select on public.cafe24_placements to authenticated;

-- ---------------------------------------------------------------------------------------------
-- the sync job: asked for whenever what should be in the mall may have changed
-- ---------------------------------------------------------------------------------------------

-- One cafe24.sync job at a time per owner (the group), and at most one waiting: a change while
-- one runs queues the next, which reads the state as it is then.
create function private.request_cafe24_sync(p_user_id uuid)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update public.cafe24_shops set sync_requested_at = now() where user_id = p_user_id;
  if not found then
    return;
  end if;
  if not exists (select 1 from private.jobs
                 where group_key = 'cafe24:' || p_user_id and kind = 'cafe24.sync' and status = 'queued') then
    perform public.enqueue_job('cafe24.sync', jsonb_build_object('user_id', p_user_id), null, null,
                               'cafe24:' || p_user_id, null, 20);
  end if;
end;
$$;

-- The next keep-alive of the refresh token: a day after it was issued (13 days to spare), one
-- waiting job per owner.
create function private.schedule_cafe24_refresh(p_user_id uuid, p_run_at timestamptz)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update private.jobs set run_at = p_run_at, updated_at = now()
    where group_key = 'cafe24:' || p_user_id and kind = 'cafe24.refresh' and status = 'queued';
  if not found then
    perform public.enqueue_job('cafe24.refresh', jsonb_build_object('user_id', p_user_id), null, p_run_at,
                               'cafe24:' || p_user_id, null, 20);
  end if;
end;
$$;

-- the plan ended (or started again): the loader comes off (or goes back on)
create function private.profiles_paid_changed()
returns trigger language plpgsql security definer set search_path = '' as $$
begin
  perform private.request_cafe24_sync(new.id);
  return null;
end;
$$;

create trigger profiles_paid_changed after update of paid on public.profiles
  for each row when (old.paid is distinct from new.paid)
  execute function private.profiles_paid_changed();

-- a placement gone with its block: the tag may need fewer screens
create function private.cafe24_placements_deleted()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_user uuid;
begin
  for v_user in select distinct user_id from old_rows loop
    perform private.request_cafe24_sync(v_user);
  end loop;
  return null;
end;
$$;

create trigger cafe24_placements_deleted after delete on public.cafe24_placements
  referencing old table as old_rows for each statement
  execute function private.cafe24_placements_deleted();

revoke all on function private.request_cafe24_sync(uuid) from public;
revoke all on function private.schedule_cafe24_refresh(uuid, timestamptz) from public;

-- ---------------------------------------------------------------------------------------------
-- service-role functions (the cafe24 edge functions and the jobs worker)
-- ---------------------------------------------------------------------------------------------

-- Stores a new connection (or a reconnection of the same mall): granted, tokens kept, the
-- loader synced, the keep-alive scheduled. The caller has just completed Cafe24's sign-in for the
-- mall (set-cafe24 exchanged the mall's code), so they control it. A mall another owner holds:
--   - whose connection is not granted (the mall refused that owner's tokens: the app was deleted
--     there, or its refresh token ran out) is handed over: the other owner loses it (their shop
--     row and tokens go, their loader read serves nothing, a cafe24_taken_over note says why) and
--     the caller connects it;
--   - whose connection is granted is refused: answers {other_account: true} without raising, so
--     the sync it queues for the holder commits. That sync asks the mall with the holder's
--     tokens; if the app was deleted there it turns the holder not granted, and the caller's next
--     try takes the mall. A live connection is never taken.
create function public.save_cafe24_connection(p_user_id uuid, p_mall_id text, p_shop_no integer,
                                              p_scopes text[], p_access_token text, p_refresh_token text,
                                              p_token_data jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_integration public.integrations;
  v_shop public.cafe24_shops;
  v_holder public.cafe24_shops;
  v_holder_status public.integration_status;
begin
  if coalesce(p_access_token, '') = '' or coalesce(p_refresh_token, '') = '' then
    raise exception 'tokens required' using errcode = 'P0001';
  end if;
  -- the holder's row locked: a sync marking it not granted (or a reconnection) waits for this
  select s.* into v_holder from public.cafe24_shops s
    where s.mall_id = p_mall_id and s.user_id <> p_user_id for update;
  if found then
    select i.status into v_holder_status from public.integrations i
      where i.id = v_holder.integration_id for update;
    if v_holder_status is distinct from 'not_granted' or v_holder.removing then
      perform private.request_cafe24_sync(v_holder.user_id);
      return jsonb_build_object('other_account', true);
    end if;
    -- the mall refused the holder's tokens: the holder loses the mall (the shop and tokens go
    -- with the integration; their placements stay theirs for another shop)
    delete from public.integration_notes
      where user_id = v_holder.user_id and provider = 'cafe24';
    delete from public.integrations where id = v_holder.integration_id;
    perform private.skip_cafe24_jobs(v_holder.user_id, 'The Cafe24 shop was connected by another account');
    perform private.note_integration(v_holder.user_id, null, 'cafe24', 'cafe24_taken_over',
                                     jsonb_build_object('mall_id', p_mall_id));
  end if;
  -- another mall of the same owner: the old one is being replaced; its tag must come off first
  if exists (select 1 from public.cafe24_shops where user_id = p_user_id and mall_id <> p_mall_id) then
    raise exception 'Disconnect your other Cafe24 shop first' using errcode = 'P0409';
  end if;
  insert into public.integrations (user_id, provider, status, workspace_name, status_reason)
    values (p_user_id, 'cafe24', 'granted', p_mall_id, null)
    on conflict (user_id, provider) do update
      set status = 'granted', workspace_name = excluded.workspace_name, status_reason = null
    returning * into v_integration;
  insert into public.cafe24_shops (integration_id, user_id, mall_id, shop_no, scopes, removing)
    values (v_integration.id, p_user_id, p_mall_id, coalesce(p_shop_no, 1), coalesce(p_scopes, '{}'), false)
    on conflict (user_id) do update
      set scopes = excluded.scopes, shop_no = excluded.shop_no, removing = false, loader_error = null
    returning * into v_shop;
  insert into private.integration_tokens (integration_id, access_token, refresh_token, token_data, updated_at)
    values (v_integration.id, p_access_token, p_refresh_token, coalesce(p_token_data, '{}'::jsonb), now())
    on conflict (integration_id) do update
      set access_token = excluded.access_token, refresh_token = excluded.refresh_token,
          token_data = excluded.token_data, updated_at = now();
  delete from public.integration_notes
    where user_id = p_user_id and provider = 'cafe24' and code in ('cafe24_unauthorized', 'cafe24_taken_over');
  perform private.request_cafe24_sync(p_user_id);
  perform private.schedule_cafe24_refresh(p_user_id, now() + interval '1 day');
  return jsonb_build_object('id', v_integration.id, 'shop_id', v_shop.id, 'mall_id', v_shop.mall_id,
                            'status', v_integration.status);
end;
$$;

-- What the worker needs for a shop: the mall, the tokens, whether the loader should be there and
-- where (null when the owner has no shop any more).
create function public.cafe24_shop_context(p_user_id uuid)
returns jsonb language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'shop_id', s.id, 'user_id', s.user_id, 'mall_id', s.mall_id, 'shop_no', s.shop_no,
    'removing', s.removing, 'script_no', s.script_no, 'status', i.status,
    'paid', coalesce(p.paid, false),
    'access_token', t.access_token, 'refresh_token', t.refresh_token,
    'expires_at', t.token_data ->> 'expires_at',
    'refresh_token_expires_at', t.token_data ->> 'refresh_token_expires_at',
    'locations', coalesce((
      select jsonb_agg(distinct pl.location order by pl.location)
      from public.cafe24_placements pl join public.blocks b on b.id = pl.block_id
      where pl.user_id = s.user_id), '[]'::jsonb))
  from public.cafe24_shops s
    join public.integrations i on i.id = s.integration_id
    left join private.integration_tokens t on t.integration_id = i.id
    left join public.profiles p on p.id = s.user_id
  where s.user_id = p_user_id;
$$;

-- New tokens from a refresh (the old refresh token is spent at Cafe24): kept at once, and the
-- next keep-alive scheduled.
create function public.save_cafe24_tokens(p_user_id uuid, p_access_token text, p_refresh_token text,
                                          p_token_data jsonb)
returns void language plpgsql security definer set search_path = '' as $$
begin
  update private.integration_tokens t
    set access_token = p_access_token, refresh_token = p_refresh_token,
        token_data = coalesce(p_token_data, '{}'::jsonb), updated_at = now()
    from public.integrations i
    where i.id = t.integration_id and i.user_id = p_user_id and i.provider = 'cafe24';
  perform private.schedule_cafe24_refresh(p_user_id, now() + interval '1 day');
end;
$$;

-- A refresh is about to spend the refresh token: marked on the tokens (save_cafe24_tokens clears
-- it with the new pair). A refresh that finds the mark of one before it follows a refresh whose
-- answer never came (lost on the way, or its worker died): that one may have spent the refresh
-- token this one sends, so a refusal now may be our own doing, not the mall's
-- (`refresh_lost`, mark_cafe24_not_granted).
create function public.mark_cafe24_refreshing(p_user_id uuid)
returns void language sql security definer set search_path = '' as $$
  update private.integration_tokens t
    set token_data = t.token_data || case when t.token_data ? 'refreshing_since'
                                          then jsonb_build_object('refresh_lost', true)
                                          else jsonb_build_object('refreshing_since', now()) end,
        updated_at = now()
    from public.integrations i
    where i.id = t.integration_id and i.user_id = p_user_id and i.provider = 'cafe24';
$$;

-- The owner's queued Cafe24 jobs end unrun, saying why.
create function private.skip_cafe24_jobs(p_user_id uuid, p_reason text)
returns void language sql set search_path = '' as $$
  update private.jobs
    set status = 'done', finished_at = now(), updated_at = now(), locked_until = null,
        result = jsonb_build_object('skipped', p_reason)
    where group_key = 'cafe24:' || p_user_id and status = 'queued';
$$;
revoke execute on function private.skip_cafe24_jobs(uuid, text) from public;

-- A disconnect is finished: the connection goes with its notes (the shop and its tokens with
-- it), and what was queued for the mall is not run. Answers {removed: true}.
create function private.finish_cafe24_removal(p_shop public.cafe24_shops)
returns jsonb language plpgsql set search_path = '' as $$
begin
  delete from public.integration_notes where user_id = p_shop.user_id and provider = 'cafe24';
  delete from public.integrations where id = p_shop.integration_id;
  perform private.skip_cafe24_jobs(p_shop.user_id, 'Cafe24 was disconnected');
  return jsonb_build_object('removed', true);
end;
$$;
revoke execute on function private.finish_cafe24_removal(public.cafe24_shops) from public;

-- What the sync did: the tag now in the mall (null: none) on these screens, or why it failed.
-- A disconnect is finished once nothing of ours is left: the shop, tokens and notes go.
create function public.record_cafe24_sync(p_user_id uuid, p_script_no text, p_locations text[], p_error text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_shop public.cafe24_shops;
begin
  update public.cafe24_shops
    set script_no = case when p_error is null then p_script_no else script_no end,
        script_locations = case when p_error is null then coalesce(p_locations, '{}') else script_locations end,
        loader_synced_at = case when p_error is null then now() else loader_synced_at end,
        loader_error = left(p_error, 500)
    where user_id = p_user_id
    returning * into v_shop;
  if not found then
    return jsonb_build_object('gone', true);
  end if;
  if p_error is not null then
    perform private.note_integration(p_user_id, null, 'cafe24', 'cafe24_loader_failed',
                                     jsonb_build_object('reason', left(p_error, 500)));
  else
    delete from public.integration_notes
      where user_id = p_user_id and provider = 'cafe24' and code = 'cafe24_loader_failed';
  end if;
  if v_shop.removing and v_shop.script_no is null and p_error is null then
    return private.finish_cafe24_removal(v_shop);
  end if;
  return jsonb_build_object('removed', false);
end;
$$;

-- The mall refused our tokens (the operator deleted the app, or the refresh token ran out): not
-- granted, with a note. A shop being disconnected needs nothing more from the mall (deleting
-- the app removes its script tags), so it goes. A refusal after a refresh whose answer never came
-- (mark_cafe24_refreshing's `refresh_lost`: the retry's refresh token was the one it spent) may
-- be our own doing, not the mall's: the connection stays granted, so
-- its blocks are still served and no other account is handed the mall (save_cafe24_connection),
-- and the owner is asked to connect again (rev-fixes2 D4).

create function public.mark_cafe24_not_granted(p_user_id uuid, p_reason text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_shop public.cafe24_shops;
begin
  select * into v_shop from public.cafe24_shops where user_id = p_user_id;
  if not found then
    return jsonb_build_object('gone', true);
  end if;
  if v_shop.removing then
    return private.finish_cafe24_removal(v_shop);
  end if;
  if not exists (select 1 from private.integration_tokens t
                 where t.integration_id = v_shop.integration_id and t.token_data ? 'refresh_lost') then
    update public.integrations set status = 'not_granted', status_reason = left(p_reason, 500)
      where id = v_shop.integration_id;
  end if;
  perform private.note_integration(p_user_id, null, 'cafe24', 'cafe24_unauthorized',
                                   jsonb_build_object('reason', left(p_reason, 500)));
  -- nothing can reach the mall until the owner connects again (which syncs)
  perform private.skip_cafe24_jobs(p_user_id, 'Cafe24 refused our access');
  return jsonb_build_object('removed', false);
end;
$$;

-- The owner disconnects: the loader stops showing at once (get_cafe24_embed) and comes off the
-- mall through the queue, which then deletes the shop and its tokens. Answers whether there was
-- a shop.
create function public.remove_cafe24_connection(p_user_id uuid)
returns boolean language plpgsql security definer set search_path = '' as $$
begin
  update public.cafe24_shops set removing = true where user_id = p_user_id;
  if not found then
    -- a connection without a shop row (should not be): nothing to take off the mall
    delete from public.integrations where user_id = p_user_id and provider = 'cafe24';
    return false;
  end if;
  delete from public.cafe24_placements where user_id = p_user_id;
  perform private.request_cafe24_sync(p_user_id);
  return true;
end;
$$;

-- The owner's placements, replaced as a whole: [{block_id, location, per_product, selector,
-- position}] (checked by the function with the dashboard's zod schema first). Own reaction
-- blocks only; a thread per product only for comment, qna and like on product pages.
create function public.save_cafe24_placements(p_user_id uuid, p_placements jsonb)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_item jsonb;
  v_block public.blocks;
begin
  if not exists (select 1 from public.cafe24_shops where user_id = p_user_id and not removing) then
    raise exception 'Connect a Cafe24 shop first' using errcode = 'PT404';
  end if;
  if jsonb_typeof(p_placements) <> 'array' or jsonb_array_length(p_placements) > 20 then
    raise exception 'At most 20 placements' using errcode = 'P0001';
  end if;
  delete from public.cafe24_placements where user_id = p_user_id;
  for v_item in select * from jsonb_array_elements(p_placements) loop
    select * into v_block from public.blocks
      where id = (v_item ->> 'block_id')::uuid and owner_id = p_user_id;
    if not found then
      raise exception 'block doesn''t exists' using errcode = 'PT404';
    end if;
    if v_block.type not in ('comment', 'qna', 'like', 'button', 'ab', 'form') then
      raise exception 'Not supported block' using errcode = 'P0001';
    end if;
    insert into public.cafe24_placements (user_id, block_id, location, per_product, selector, position)
      values (p_user_id, v_block.id, v_item ->> 'location',
              coalesce((v_item ->> 'per_product')::boolean, false)
                and v_item ->> 'location' = 'product_detail' and v_block.type in ('comment', 'qna', 'like'),
              coalesce(v_item ->> 'selector', ''), coalesce((v_item ->> 'position')::smallint, 0))
      on conflict (block_id, location) do update
        set per_product = excluded.per_product, selector = excluded.selector, position = excluded.position;
  end loop;
  perform private.request_cafe24_sync(p_user_id);
  return coalesce((select jsonb_agg(to_jsonb(p) order by p.location, p.position, p.created_at)
                   from public.cafe24_placements p where p.user_id = p_user_id), '[]'::jsonb);
end;
$$;

revoke all on function public.save_cafe24_connection(uuid, text, integer, text[], text, text, jsonb) from public, anon, authenticated;
revoke all on function public.cafe24_shop_context(uuid) from public, anon, authenticated;
revoke all on function public.save_cafe24_tokens(uuid, text, text, jsonb) from public, anon, authenticated;
revoke all on function public.mark_cafe24_refreshing(uuid) from public, anon, authenticated;
revoke all on function public.record_cafe24_sync(uuid, text, text[], text) from public, anon, authenticated;
revoke all on function public.mark_cafe24_not_granted(uuid, text) from public, anon, authenticated;
revoke all on function public.remove_cafe24_connection(uuid) from public, anon, authenticated;
revoke all on function public.save_cafe24_placements(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.save_cafe24_connection(uuid, text, integer, text[], text, text, jsonb) to service_role;
grant execute on function public.cafe24_shop_context(uuid) to service_role;
grant execute on function public.save_cafe24_tokens(uuid, text, text, jsonb) to service_role;
grant execute on function public.mark_cafe24_refreshing(uuid) to service_role;
grant execute on function public.record_cafe24_sync(uuid, text, text[], text) to service_role;
grant execute on function public.mark_cafe24_not_granted(uuid, text) to service_role;
grant execute on function public.remove_cafe24_connection(uuid) to service_role;
grant execute on function public.save_cafe24_placements(uuid, jsonb) to service_role;

-- ---------------------------------------------------------------------------------------------
-- the loader's read (anon, cacheable)
-- ---------------------------------------------------------------------------------------------

-- What the loader in the mall shows: the owner and, per screen, the blocks in order. Empty when
-- the shop is being disconnected, the owner has no paid plan (so a tag that could not be
-- removed yet shows nothing), or the mall refused the owner's tokens (not granted: we can no
-- longer change or remove the tag, and whoever runs the mall now may hand it to another owner;
-- connecting again serves them again). Reads no auth.uid(): the same answer for every visitor, so a CDN
-- may keep it a minute.
-- security definer: anon cannot read shops, placements or blocks (owners only); only what the
-- loader needs comes out.
create function public.get_cafe24_embed(p_shop uuid)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  v_result jsonb;
begin
  select jsonb_build_object(
    'owner_id', s.user_id,
    'placements', coalesce((
      select jsonb_agg(jsonb_build_object('block_id', b.id, 'type', b.type, 'location', pl.location,
                                          'per_product', pl.per_product, 'selector', pl.selector)
                       order by pl.location, pl.position, pl.created_at)
      from public.cafe24_placements pl join public.blocks b on b.id = pl.block_id
      where pl.user_id = s.user_id and not b.deactivated), '[]'::jsonb))
    into v_result
    from public.cafe24_shops s join public.profiles p on p.id = s.user_id
      join public.integrations i on i.id = s.integration_id
    where s.id = p_shop and not s.removing and p.paid and i.status = 'granted';
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=60, stale-while-revalidate=300"}]', true);
  return coalesce(v_result, jsonb_build_object('owner_id', null, 'placements', '[]'::jsonb));
end;
$$;

comment on function public.get_cafe24_embed(uuid) is
  'The Cafe24 loader''s read (cacheable GET, Cache-Control public max-age=60): {owner_id, placements: [{block_id, type, location, per_product, selector}]} of a connected (granted) shop whose owner has a paid plan; no placements otherwise.';
revoke all on function public.get_cafe24_embed(uuid) from public;
grant execute on function public.get_cafe24_embed(uuid) to anon, authenticated, service_role;

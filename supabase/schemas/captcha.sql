-- Captcha passes (issue 9): once a visitor trips the limits (or a block under pressure escalates),
-- the elements show the platform's captcha; a solved one buys a few writes past the limits of
-- one block (trust.sql private.check_rate_limit spends them). The site key and script are
-- settings (`captcha.site_key`, `captcha.script_url`); the secret check is the verify-captcha
-- function's.

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

-- Tokens already used (by hash): a replayed token is refused even if the provider took it.
create table private.captcha_tokens (
  token_hash text primary key check (char_length(token_hash) = 64),
  created_at timestamptz not null default now()
);
comment on table private.captcha_tokens is 'SHA-256 of the captcha tokens already spent (purged after a day).';
alter table private.captcha_tokens enable row level security;

-- The captcha the elements show once the limits trip: null until an operator set the site key.
create function private.captcha_config()
returns jsonb language sql stable set search_path = '' as $$
  select case when coalesce(k.site_key, '') <> '' then jsonb_build_object(
           'provider', 'turnstile',
           'site_key', k.site_key,
           'script_url', private.setting('captcha.script_url',
             '"https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit"'::jsonb) #>> '{}')
         end
  from (select private.setting('captcha.site_key', 'null'::jsonb) #>> '{}' as site_key) k;
$$;
revoke execute on function private.captcha_config() from public;

-- Whether a block asks for the captcha: it is active, and either the platform escalates every block
-- to it when a shared budget is spent (limits.escalation, on by default) or a paid block asks for it
-- at a visitor's own limit too (blocks.captcha). verify-captcha asks this before the provider spends
-- the visitor's token, and grant_captcha_pass after it: one rule for both.
create function public.captcha_wanted(p_block_id uuid)
returns boolean language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.blocks
    where id = p_block_id and not deactivated
      and (captcha or coalesce((private.setting('limits.escalation', 'true'::jsonb) #>> '{}')::boolean, true)));
$$;
revoke execute on function public.captcha_wanted(uuid) from public, anon, authenticated;

-- Records a captcha the provider accepted for a visitor on a block: captcha.pass_uses (10)
-- writes past the limits within captcha.pass_minutes (10). A token seen before is refused.
create function public.grant_captcha_pass(p_user_id uuid, p_block_id uuid, p_token_hash text)
returns jsonb language plpgsql security definer set search_path = '' as $$
declare
  v_uses integer := coalesce((private.setting('captcha.pass_uses', '10'::jsonb) #>> '{}')::integer, 10);
  v_minutes integer := coalesce((private.setting('captcha.pass_minutes', '10'::jsonb) #>> '{}')::integer, 10);
  v_expires timestamptz := now() + make_interval(mins => v_minutes);
begin
  if not public.captcha_wanted(p_block_id) then
    raise exception 'This block does not ask for a captcha' using errcode = 'P0001';
  end if;
  if p_token_hash is null or p_token_hash !~ '^[0-9a-f]{64}$' then
    raise exception 'Invalid token' using errcode = 'P0001';
  end if;
  insert into private.captcha_tokens (token_hash) values (p_token_hash) on conflict do nothing;
  if not found then
    raise exception 'This captcha was already used' using errcode = 'P0001';
  end if;
  insert into private.captcha_passes (block_id, user_id, uses_left, expires_at)
    values (p_block_id, p_user_id, v_uses, v_expires)
    on conflict (block_id, user_id) do update set uses_left = excluded.uses_left, expires_at = excluded.expires_at;
  return jsonb_build_object('uses_left', v_uses, 'expires_at', v_expires);
end;
$$;
revoke execute on function public.grant_captcha_pass(uuid, uuid, text) from public, anon, authenticated;

-- Spends one write of the visitor's pass for the block (check_rate_limit): true when they held
-- one with a write left that has not expired.
create function private.use_captcha_pass(p_block_id uuid, p_uid uuid, p_now timestamptz)
returns boolean language sql set search_path = '' as $$
  with used as (
    update private.captcha_passes set uses_left = uses_left - 1
      where block_id = p_block_id and user_id = p_uid and uses_left > 0 and expires_at > p_now
      returning 1
  )
  select exists (select 1 from used);
$$;
revoke execute on function private.use_captcha_pass(uuid, uuid, timestamptz) from public;

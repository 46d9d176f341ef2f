-- The visitor RPCs with the trust rules of issue 9, and the owner's moderation RPCs.
--
-- Every visitor write (comment, reply, edit, like, vote, submit, button click, report) now, in
-- this order after its input checks:
--   1. refuses a writer the owner blocked from the block ('The owner of this block has blocked
--      you from writing here.', PT403);
--   2. refuses a filled or missing honeypot when the block has one (comments and forms; P0001);
--   3. refuses avatar and home URLs visitors may not set ('Invalid avatar URL', 'Invalid home
--      URL'; P0001);
--   4. takes a token from the visitor's bucket and from the block's (sharded) bucket (one
--      upsert), or refuses
--      with 'You''re going too fast, try again in a few seconds.' (PT429, HTTP 429; details
--      'captcha' when the block offers a captcha, else 'rate_limit'). A refusal rolls the whole
--      call back, so only writes that succeed spend tokens.
-- Comments and questions may be held for approval (blocks.hold_messages). Held and hidden
-- messages are never served to others: get_block_view and list_messages return the published
-- ones, the caller's own held ones, and everything to the block's owner, as the messages RLS
-- policies do for Realtime.
--
-- post_message and submit_response gain a defaulted p_honeypot; the other signatures are
-- unchanged. security definer throughout, as in 20261121000500_visitor_functions.sql: visitors
-- have no write rights on these tables; every function reads the caller from auth.uid() only.

-- ---------------------------------------------------------------------------------------------
-- helpers
-- ---------------------------------------------------------------------------------------------

-- The captcha the elements show once the limits trip: null until an operator set the site key.
create function private.captcha_config()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case when coalesce(k.site_key, '') <> '' then jsonb_build_object(
           'provider', 'turnstile',
           'site_key', k.site_key,
           'script_url', private.setting('captcha.script_url',
             '"https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit"'::jsonb) #>> '{}')
         end
  from (select private.setting('captcha.site_key', 'null'::jsonb) #>> '{}' as site_key) k;
$$;

-- The visitor's and the block's token for this action, or a 429. The owner is never limited on
-- their own block. A visitor holding a captcha pass for the block goes through while it lasts.
-- Bucket sizes: the defaults below, then private.settings `limits.<action>`, then the block's
-- rate_limits -> <action>. The block's bucket is split in `limits.block_shards` (4)
-- rows, each with its share of the rate, and a visitor always draws from the same shard: no
-- single row is locked by all of a block's visitors.
-- Both tokens are taken by one upsert on the primary key (the visitor's row first, then the
-- shard's, always in that order: no deadlock between writers); an empty bucket is not updated
-- and returns no row. A refusal raises, which rolls back whatever the statement took. A shard's
-- subject is 00000000-0000-0000-0000-00000000000N: never a user id (those are version 4 UUIDs).
create function private.check_rate_limit(p_block public.blocks, p_uid uuid, p_action text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_now timestamptz := clock_timestamp();
  v_enabled boolean;
  v_shards integer;
  v_cfg jsonb;
  v_visitor_rate double precision;
  v_visitor_burst double precision;
  v_block_rate double precision;
  v_block_burst double precision;
  v_taken integer;
begin
  if p_uid = p_block.owner_id then
    return;
  end if;
  -- the three settings in one index scan
  select coalesce((s -> 'limits.enabled' #>> '{}')::boolean, true),
         greatest(1, least(64, coalesce((s -> 'limits.block_shards' #>> '{}')::integer, 4))),
         -- the defaults: a person never meets them, a script does at once (per minute and burst,
         -- for one visitor on one block and for the whole block); one visitor's form submits:
         -- five at once (Submit again), then three an hour, so one visitor cannot burn the
         -- owner's monthly responses
         case p_action
           when 'message' then '{"visitor_per_minute": 6, "visitor_burst": 8, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'edit' then '{"visitor_per_minute": 10, "visitor_burst": 10, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'like' then '{"visitor_per_minute": 60, "visitor_burst": 30, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'vote' then '{"visitor_per_minute": 10, "visitor_burst": 5, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'submit' then '{"visitor_per_minute": 0.05, "visitor_burst": 5, "block_per_minute": 120, "block_burst": 120}'::jsonb
           when 'click' then '{"visitor_per_minute": 30, "visitor_burst": 20, "block_per_minute": 600, "block_burst": 600}'::jsonb
           when 'report' then '{"visitor_per_minute": 10, "visitor_burst": 10, "block_per_minute": 60, "block_burst": 60}'::jsonb
         end
           || case when jsonb_typeof(s -> ('limits.' || p_action)) = 'object'
                   then s -> ('limits.' || p_action) else '{}'::jsonb end
           || case when jsonb_typeof(p_block.rate_limits -> p_action) = 'object'
                   then p_block.rate_limits -> p_action else '{}'::jsonb end
    into v_enabled, v_shards, v_cfg
    from (select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) as s from private.settings
          where key in ('limits.enabled', 'limits.block_shards', 'limits.' || p_action)) settings;
  if not v_enabled then
    return;
  end if;
  v_visitor_rate := greatest((v_cfg ->> 'visitor_per_minute')::double precision, 0.0001);
  v_visitor_burst := greatest((v_cfg ->> 'visitor_burst')::double precision, 1);
  v_block_rate := greatest((v_cfg ->> 'block_per_minute')::double precision / v_shards, 0.0001);
  v_block_burst := greatest((v_cfg ->> 'block_burst')::double precision / v_shards, 1);

  insert into private.rate_limits as r (block_id, subject, action, tokens, per_minute, burst, updated_at, full_at)
    values (p_block.id, p_uid, p_action, v_visitor_burst - 1, v_visitor_rate, v_visitor_burst, v_now,
            v_now + make_interval(secs => 60 / v_visitor_rate)),
           (p_block.id, ('00000000-0000-0000-0000-' || lpad(to_hex(abs(mod(hashtext(p_uid::text), v_shards))), 12, '0'))::uuid,
            p_action,
            v_block_burst - 1, v_block_rate, v_block_burst, v_now, v_now + make_interval(secs => 60 / v_block_rate))
    on conflict (block_id, subject, action) do update
      set tokens = least(excluded.burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                                    * excluded.per_minute / 60) - 1,
          per_minute = excluded.per_minute,
          burst = excluded.burst,
          updated_at = v_now,
          full_at = v_now + make_interval(secs => (excluded.burst + 1 - least(excluded.burst,
                      r.tokens + extract(epoch from v_now - r.updated_at)::double precision * excluded.per_minute / 60))
                    * 60 / excluded.per_minute)
      where least(excluded.burst, r.tokens + extract(epoch from v_now - r.updated_at)::double precision
                                             * excluded.per_minute / 60) >= 1;
  -- inserted or updated: a bucket that had no token is neither
  get diagnostics v_taken = row_count;
  if v_taken = 2 then
    return;
  end if;

  if p_block.captcha then
    update private.captcha_passes set uses_left = uses_left - 1
      where block_id = p_block.id and user_id = p_uid and uses_left > 0 and expires_at > v_now;
    if found then
      return;
    end if;
  end if;
  raise exception 'You''re going too fast, try again in a few seconds.' using
    errcode = 'PT429',
    detail = case when p_block.captcha and private.captcha_config() is not null then 'captcha' else 'rate_limit' end,
    hint = 'Wait a few seconds, then try again.';
end;
$$;

-- A writer the owner blocked from this block.
create function private.check_writer(p_block public.blocks, p_uid uuid)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if exists (select 1 from public.blocked_writers where block_id = p_block.id and user_id = p_uid) then
    raise exception 'The owner of this block has blocked you from writing here.' using
      errcode = 'PT403', detail = 'blocked';
  end if;
end;
$$;

-- The honeypot: the elements always send the hidden field's value, which people leave empty.
-- A block with the honeypot on refuses a filled one, and a missing one (a script calling the
-- API without the element).
create function private.check_honeypot(p_block public.blocks, p_value text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_block.honeypot and p_value is distinct from '' then
    raise exception 'This was not sent: it looked automated.' using errcode = 'P0001', detail = 'honeypot';
  end if;
end;
$$;

-- An avatar comes only from a signed-in visitor's provider profile (https, the providers' image
-- hosts of setting avatars.hosts, or the project's storage under avatars.storage_prefix);
-- anonymous visitors have none. A home URL is http or https, nothing else. Both without
-- whitespace, control characters or credentials.
create function private.check_visitor_urls(p_photo_url text, p_home_url text)
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  v_host text;
  v_prefix text;
  v_allowed boolean := false;
begin
  if nullif(p_photo_url, '') is not null then
    v_host := lower(substring(p_photo_url from '^https://([^/?#:@[:space:]]+)(?::443)?(?:[/?#]|$)'));
    v_prefix := private.setting('avatars.storage_prefix', 'null'::jsonb) #>> '{}';
    if v_host is not null then
      v_allowed := coalesce(private.setting('avatars.hosts',
        '["lh3.googleusercontent.com", "lh4.googleusercontent.com", "lh5.googleusercontent.com", "lh6.googleusercontent.com"]'::jsonb)
        ? v_host, false);
    end if;
    if not v_allowed and coalesce(v_prefix ~ '^https://[^/]+/', false) then
      v_allowed := left(p_photo_url, char_length(v_prefix)) = v_prefix and position('..' in p_photo_url) = 0;
    end if;
    if private.is_anonymous_caller() or p_photo_url ~ '[[:space:][:cntrl:]]' or not v_allowed then
      raise exception 'Invalid avatar URL' using errcode = 'P0001';
    end if;
  end if;
  if nullif(p_home_url, '') is not null
     and (p_home_url !~* '^https?://[^/?#@[:space:]]+([/?#]|$)' or p_home_url ~ '[[:space:][:cntrl:]]') then
    raise exception 'Invalid home URL' using errcode = 'P0001';
  end if;
end;
$$;

-- A link in a message: a URL with a scheme, www., or a host with a common top-level domain.
create function private.has_link(p_content text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_content ~* '(https?://|www\.)[^[:space:]]'
      or p_content ~* '[a-z0-9-]\.(com|net|org|io|co|kr|xyz|info|biz|ru|cn|top|site|online|shop|app|dev|me|ly|gl|link|click|live|store|vip|club)([/:?#[:space:]]|$)';
$$;

-- The state of a new or edited message under the block's hold setting (the owner's are always
-- published).
create function private.hold_status(p_block public.blocks, p_uid uuid, p_content text)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when p_uid = p_block.owner_id or p_block.hold_messages = 'off' then 'published'
    when p_block.hold_messages = 'all' then 'held'
    when p_block.hold_messages = 'links' then
      case when private.has_link(p_content) then 'held' else 'published' end
    -- first_time: until the owner approved one of the writer's messages here
    when exists (select 1 from public.messages
                 where block_id = p_block.id and creator_id = p_uid and status = 'published') then 'published'
    else 'held'
  end;
$$;

-- Whether a visitor's name reads like the owner. Names are compared after NFKC (full-width
-- letters), lower case, without spaces, punctuation and invisible characters: the same as, or
-- with a word equal to, the block's owner label (default Admin) or a word for an owner ("The
-- Admin", "admin-2", not "badminton"); containing the owner's name as the block shows it (from
-- four characters on) or a Korean word for an owner. plpgsql with the expressions written out: this runs on every
-- comment, and small helper functions with SET search_path are never inlined.
create function private.imitates_owner(p_block public.blocks, p_name text)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
declare
  v_strip constant text := '[[:space:][:punct:][:cntrl:]\u00a0\u00ad\u115f\u1160\u200b-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff·•・]+';
  v_text text := lower(normalize(coalesce(p_name, ''), NFKC));
  v_key text := regexp_replace(v_text, v_strip, '', 'g');
  v_words text[];
  v_other text;
begin
  if v_key = '' then
    return false;
  end if;
  if v_key ~ '(admin|owner|moderator|official|staff|관리자|운영자|운영진)' then
    -- only then the word test: "badminton" contains admin but has no word admin
    v_words := regexp_split_to_array(v_text, '[^[:alnum:]]+');
    if v_key in ('admin', 'administrator', 'owner', 'moderator', 'official', 'staff')
       or v_words && array['admin', 'administrator', 'owner', 'moderator', 'official', 'staff']
       or v_key ~ '(관리자|운영자|운영진)' then
      return true;
    end if;
  end if;
  -- the block's own owner label (when not the default Admin), as a whole name or a word
  if coalesce(lower(p_block.custom_label_name ->> 'admin'), 'admin') <> 'admin' then
    v_other := regexp_replace(lower(normalize(p_block.custom_label_name ->> 'admin', NFKC)), v_strip, '', 'g');
    if v_other <> '' then
      v_words := coalesce(v_words, regexp_split_to_array(v_text, '[^[:alnum:]]+'));
      if v_other = v_key or v_other = any (v_words) then
        return true;
      end if;
    end if;
  end if;
  -- the owner's name as the block shows it (the Q&A header; from the profile when created)
  v_other := regexp_replace(lower(normalize(coalesce(p_block.owner_name, ''), NFKC)), v_strip, '', 'g');
  return v_other <> '' and (v_other = v_key or (char_length(v_other) >= 4 and position(v_other in v_key) > 0));
end;
$$;

-- The public settings of a block: what the elements show a visitor. Never tags, the unread
-- count, timestamps, the trust settings or the operator's overrides.
create function private.public_block_json(p_block public.blocks)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_block.id, 'owner_id', p_block.owner_id, 'type', p_block.type, 'name', p_block.name,
    'theme', p_block.theme, 'custom_color', p_block.custom_color,
    'custom_label_color', p_block.custom_label_color, 'custom_label_name', p_block.custom_label_name,
    'welcome_message', p_block.welcome_message, 'placeholder', p_block.placeholder,
    'submit_button_text', p_block.submit_button_text, 'language', p_block.language,
    'block_anonymous', p_block.block_anonymous, 'allow_reaction', p_block.allow_reaction,
    'allow_reply', p_block.allow_reply, 'admin_only_reply', p_block.admin_only_reply,
    'show_count', p_block.show_count, 'show_profile', p_block.show_profile,
    'owner_name', p_block.owner_name, 'owner_photo_url', p_block.owner_photo_url,
    'qna_subject', p_block.qna_subject, 'response_count', p_block.response_count,
    'like_count', p_block.like_count, 'align', p_block.align, 'button_text', p_block.button_text,
    'url_to_open', p_block.url_to_open, 'open_graph', p_block.open_graph,
    'allow_creator_email', p_block.allow_creator_email, 'deactivated', p_block.deactivated,
    'captcha', case when p_block.captcha then private.captcha_config() end);
$$;

-- ---------------------------------------------------------------------------------------------
-- reading messages: what a caller may see
-- ---------------------------------------------------------------------------------------------

-- A message the caller may see: published, their own held one, or anything for the owner. (The
-- list queries write the same test out: a function with SET search_path is never inlined.)
create function private.message_visible(p_message public.messages, p_uid uuid, p_owner boolean)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_owner or p_message.status = 'published'
      or (p_message.status = 'held' and p_message.creator_id = p_uid);
$$;

-- A top-level message with the replies the caller may see, oldest reply first.
create function private.visible_thread_json(p_message public.messages, p_uid uuid, p_owner boolean)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.message_json(p_message, p_uid) || jsonb_build_object('replies', coalesce((
    select jsonb_agg(private.message_json(r, p_uid) order by r.created_at, r.id)
    from public.messages r
    where r.parent_id = p_message.id
      and (p_owner or r.status = 'published' or (r.status = 'held' and r.creator_id = p_uid))), '[]'::jsonb));
$$;

-- Top-level messages of a block created before p_before, newest first, pinned ones excluded
-- (get_block_view sends them first), each with its replies: those the caller may see.
create function private.visible_threads_json(p_block_id uuid, p_before timestamptz, p_limit integer,
                                             p_uid uuid, p_owner boolean)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce(jsonb_agg(private.visible_thread_json(m, p_uid, p_owner) order by m.created_at desc, m.id desc), '[]'::jsonb)
  from (
    select * from public.messages m
    where m.block_id = p_block_id and m.parent_id is null and m.pinned_at is null
      and (p_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = p_uid))
      and m.created_at < coalesce(p_before, 'infinity'::timestamptz)
    order by m.created_at desc, m.id desc
    limit greatest(1, least(coalesce(p_limit, 5), 50))
  ) m;
$$;

-- A message for a visitor's change (edit, like, reply, report): on a published block and
-- visible to the caller, else 'message doesn''t exists'.
create function private.visible_message(p_message_id uuid, p_uid uuid, p_lock boolean default false)
returns public.messages
language plpgsql
set search_path = ''
as $$
declare
  v_message public.messages;
  v_owner uuid;
begin
  if p_lock then
    select m.* into v_message from public.messages m where m.id = p_message_id for update;
  else
    select m.* into v_message from public.messages m where m.id = p_message_id;
  end if;
  select owner_id into v_owner from public.blocks where id = v_message.block_id and not deactivated;
  if v_message.id is null or v_owner is null
     or not private.message_visible(v_message, p_uid, v_owner = p_uid) then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  return v_message;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- reads
-- ---------------------------------------------------------------------------------------------

-- Everything a viewer needs to render a block in one call: the public settings, the form
-- content, the first threads (pinned first) and the caller's own state.
-- security definer: reads the caller's own likes and reports and the block's content without
-- evaluating RLS per row; it returns public columns only.
create or replace function public.get_block_view(p_block_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_owner boolean := v_uid is not null and v_uid = v_block.owner_id;
  v_questions jsonb := '[]'::jsonb;
  v_endings jsonb := '[]'::jsonb;
  v_messages jsonb := '[]'::jsonb;
  v_vote jsonb;
  v_reported jsonb := '[]'::jsonb;
begin
  if v_block.type in ('form', 'ab') then
    select coalesce(jsonb_agg(
             (to_jsonb(q) - 'trigger_letter_block') || jsonb_build_object('options', coalesce((
               select jsonb_agg(to_jsonb(o) order by o.index, o.created_at)
               from public.options o where o.question_id = q.id and not o.deleted), '[]'::jsonb))
             order by q.index, q.created_at), '[]'::jsonb)
      into v_questions
      from public.questions q where q.block_id = p_block_id and not q.deleted;
    select coalesce(jsonb_agg(
             to_jsonb(e) || jsonb_build_object('conditions', coalesce((
               select jsonb_agg(to_jsonb(c) order by c.index, c.created_at)
               from public.ending_conditions c where c.ending_id = e.id), '[]'::jsonb))
             order by e.index, e.created_at), '[]'::jsonb)
      into v_endings
      from public.endings e where e.block_id = p_block_id;
  elsif v_block.type in ('comment', 'qna') then
    -- Most blocks have nothing held, hidden or pinned: then the plain list of before (one probe
    -- of a partial index that is empty for them says so). Otherwise the pinned threads first (at
    -- most 10) and the five newest others the caller may see, in one statement; the visibility
    -- test is written out (a function with SET search_path is never inlined).
    if not exists (select 1 from public.messages
                   where block_id = p_block_id and (status <> 'published' or pinned_at is not null)) then
      v_messages := private.threads_json(p_block_id, null, 5, v_uid);
    else
      select coalesce(jsonb_agg(private.visible_thread_json(m, v_uid, v_owner)
                                order by m.pinned_at desc nulls last, m.created_at desc, m.id desc), '[]'::jsonb)
        into v_messages
        from ((select * from public.messages m
               where m.block_id = p_block_id and m.pinned_at is not null and m.parent_id is null
                 and (v_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = v_uid))
               order by m.pinned_at desc limit 10)
              union all
              (select * from public.messages m
               where m.block_id = p_block_id and m.parent_id is null and m.pinned_at is null
                 and (v_owner or m.status = 'published' or (m.status = 'held' and m.creator_id = v_uid))
               order by m.created_at desc, m.id desc limit 5)) m;
    end if;
    if v_uid is not null then
      select coalesce(jsonb_agg(r.message_id), '[]'::jsonb) into v_reported
        from public.message_reports r where r.user_id = v_uid and r.block_id = p_block_id;
    end if;
  end if;

  -- the caller's ab response (at most one), by the unique index on (block_id, creator_id)
  if v_block.type = 'ab' and v_uid is not null then
    select coalesce(jsonb_agg(o.id order by o.id), '[]'::jsonb)
      into v_vote
      from public.responses r
      cross join lateral jsonb_each(r.answers) a(question_id, answer)
      cross join lateral jsonb_array_elements_text(
        case when jsonb_typeof(a.answer -> 'option_ids') = 'array' then a.answer -> 'option_ids'
             else '[]'::jsonb end) o(id)
      where r.block_id = p_block_id and r.kind = 'ab' and r.creator_id = v_uid;
    if v_vote = '[]'::jsonb then
      v_vote := null;
    end if;
  end if;

  return jsonb_build_object(
    'block', private.public_block_json(v_block),
    'questions', v_questions,
    'endings', v_endings,
    'messages', v_messages,
    'me', jsonb_build_object(
      'liked', v_uid is not null and exists (
        select 1 from public.responses r
        where r.block_id = p_block_id and r.kind = 'like' and r.creator_id = v_uid),
      'liked_message_ids', coalesce((
        select jsonb_agg(l.message_id)
        from public.message_likes l join public.messages m on m.id = l.message_id
        where l.user_id = v_uid and m.block_id = p_block_id), '[]'::jsonb),
      'reported_message_ids', v_reported,
      'vote', v_vote));
end;
$$;

comment on function public.get_block_view(uuid) is
  'The block''s public settings, questions with options, endings with conditions, the pinned and the first 5 threads the caller may see, and the caller''s own state (me: liked, liked_message_ids, reported_message_ids, vote). Error: block doesn''t exists.';

-- Older top-level messages (before p_before, newest first, not pinned) with their replies: the
-- ones the caller may see. security definer: as get_block_view.
create or replace function public.list_messages(p_block_id uuid, p_before timestamptz default null, p_limit integer default 5)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_block public.blocks := private.visible_block(p_block_id);
begin
  -- the fast path of get_block_view: nothing held, hidden or pinned on the block
  if not exists (select 1 from public.messages
                 where block_id = p_block_id and (status <> 'published' or pinned_at is not null)) then
    return private.threads_json(p_block_id, p_before, p_limit, v_uid);
  end if;
  return private.visible_threads_json(p_block_id, p_before, p_limit, v_uid,
                                      v_uid is not null and v_uid = v_block.owner_id);
end;
$$;

comment on function public.list_messages(uuid, timestamptz, integer) is
  'Top-level messages the caller may see created before p_before (default now), newest first, pinned ones excluded, at most p_limit (1..50, default 5), each with replies.';

-- ---------------------------------------------------------------------------------------------
-- messages
-- ---------------------------------------------------------------------------------------------

drop function public.post_message(uuid, uuid, text, text, text, text, text, text, text);

-- Posts a comment, question or reply. security definer: see the header.
create function public.post_message(
  p_block_id uuid,
  p_parent_id uuid default null,
  p_content text default null,
  p_creator_name text default null,
  p_color text default null,
  p_creator_photo_url text default null,
  p_home_url text default null,
  p_creator_email text default null,
  p_timezone text default null,
  p_honeypot text default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_parent public.messages;
  v_message public.messages;
  v_email text := nullif(btrim(p_creator_email), '');
  v_name text := coalesce(btrim(p_creator_name), '');
begin
  if v_block.type not in ('comment', 'qna') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  if v_block.block_anonymous and private.is_anonymous_caller() then
    raise exception 'Please sign in to leave a message.' using errcode = 'PT403';
  end if;
  -- the trust checks written out where they are cheap (see the header for the order)
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  if v_block.honeypot then
    perform private.check_honeypot(v_block, p_honeypot);
  end if;
  perform private.check_message_content(p_content);
  perform private.check_visitor_fields(p_creator_name, p_color, p_creator_photo_url, p_home_url, p_timezone);
  if nullif(p_creator_photo_url, '') is not null or nullif(p_home_url, '') is not null then
    perform private.check_visitor_urls(p_creator_photo_url, p_home_url);
  end if;

  if p_parent_id is not null then
    select * into v_parent from public.messages where id = p_parent_id and block_id = p_block_id;
    if not found or not private.message_visible(v_parent, v_uid, v_uid = v_block.owner_id) then
      raise exception 'message doesn''t exists' using errcode = 'PT404';
    end if;
    if v_parent.parent_id is not null then
      raise exception 'Replies nest one level only' using errcode = 'P0001';
    end if;
    if not v_block.allow_reply then
      raise exception 'Replies are turned off' using errcode = 'PT403';
    end if;
    if v_block.admin_only_reply and v_uid <> v_block.owner_id then
      raise exception 'Only the owner can reply' using errcode = 'PT403';
    end if;
  end if;

  -- a resubmission of the same content by the same author within 3000 ms is ignored (before
  -- the limits: a double click spends one token)
  perform pg_advisory_xact_lock(hashtextextended(v_uid::text || p_block_id::text, 0));
  select * into v_message from public.messages
    where block_id = p_block_id and creator_id = v_uid and parent_id is not distinct from p_parent_id
      and content = p_content and created_at > clock_timestamp() - interval '3000 milliseconds'
    order by created_at desc limit 1;
  if found then
    return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id);
  end if;

  perform private.check_rate_limit(v_block, v_uid, 'message');

  insert into public.messages (block_id, parent_id, creator_id, creator_name, creator_photo_url, color,
                               home_url, content, timezone, created_at, status, imitates_owner)
    values (p_block_id, p_parent_id, v_uid, v_name, nullif(p_creator_photo_url, ''),
            p_color, nullif(p_home_url, ''), p_content, p_timezone, clock_timestamp(),
            case when v_block.hold_messages = 'off' then 'published'
                 else private.hold_status(v_block, v_uid, p_content) end,
            v_uid <> v_block.owner_id and private.imitates_owner(v_block, v_name))
    returning * into v_message;

  -- the notification email is kept only for top-level messages of blocks that ask for it
  if p_parent_id is null and v_block.allow_creator_email and v_email is not null
     and char_length(v_email) <= 50 and private.is_valid_email(v_email) then
    insert into public.message_private (message_id, block_id, creator_email)
      values (v_message.id, p_block_id, v_email);
  else
    v_email := null;
  end if;

  perform private.record_audience_event(v_block, v_uid, p_creator_name, nullif(p_creator_photo_url, ''), p_color, v_email);
  return private.visible_thread_json(v_message, v_uid, v_uid = v_block.owner_id);
end;
$$;

comment on function public.post_message(uuid, uuid, text, text, text, text, text, text, text, text) is
  'Posts a message or a one-level reply (held for approval when the block says so). Errors: Please sign in to leave a message., Message cannot be empty, Too long message, Invalid avatar URL, Invalid home URL, Replies are turned off, Only the owner can reply, The owner of this block has blocked you from writing here., This was not sent: it looked automated., You''re going too fast, try again in a few seconds. (429), block doesn''t exists.';

-- Author edits their message (a message waiting for approval too). Under the block's hold
-- setting an edit may be held again. security definer: see the header.
create or replace function public.edit_message(p_message_id uuid, p_content text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid, true);
  v_block public.blocks := private.visible_block(v_message.block_id);
begin
  if v_message.creator_id <> v_uid then
    raise exception 'Only the author can edit this message' using errcode = 'PT403';
  end if;
  perform private.check_writer(v_block, v_uid);
  perform private.check_message_content(p_content);
  perform private.check_rate_limit(v_block, v_uid, 'edit');
  update public.messages
    set content = p_content, is_edited = true,
        status = case when status = 'held' then 'held' else private.hold_status(v_block, v_uid, p_content) end
    where id = p_message_id returning * into v_message;
  return private.message_json(v_message, v_uid);
end;
$$;

-- Author or block owner deletes a message (with its replies). security definer: see the header.
create or replace function public.delete_message(p_message_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid, true);
begin
  if v_message.creator_id <> v_uid
     and not exists (select 1 from public.blocks where id = v_message.block_id and owner_id = v_uid) then
    raise exception 'Only the author or the block owner can delete this message' using errcode = 'PT403';
  end if;
  delete from public.messages where id = p_message_id;
  return jsonb_build_object('id', p_message_id, 'deleted', true);
end;
$$;

-- Likes or unlikes a message for the caller; p_liked sets the state instead of toggling. Only a
-- call that changes the state spends a token. security definer: see the header.
create or replace function public.toggle_message_like(p_message_id uuid, p_liked boolean default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid);
  v_block public.blocks := private.visible_block(v_message.block_id);
  v_has boolean;
  v_want boolean;
begin
  if not v_block.allow_reaction then
    raise exception 'Reactions are turned off' using errcode = 'PT403';
  end if;
  perform private.check_writer(v_block, v_uid);
  v_has := exists (select 1 from public.message_likes where message_id = p_message_id and user_id = v_uid);
  v_want := coalesce(p_liked, not v_has);
  if v_want <> v_has then
    perform private.check_rate_limit(v_block, v_uid, 'like');
    if v_want then
      insert into public.message_likes (message_id, user_id) values (p_message_id, v_uid)
        on conflict do nothing;
    else
      delete from public.message_likes where message_id = p_message_id and user_id = v_uid;
    end if;
  end if;

  return jsonb_build_object('liked', v_want,
    'like_count', (select like_count from public.messages where id = p_message_id));
end;
$$;

-- A visitor reports a message to the block owner, once (a second report changes nothing).
-- security definer: see the header.
create function public.report_message(p_message_id uuid, p_reason text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_message public.messages := private.visible_message(p_message_id, v_uid);
  v_block public.blocks := private.visible_block(v_message.block_id);
  v_reason text := nullif(private.trim_whitespace(p_reason), '');
begin
  if v_message.creator_id = v_uid then
    raise exception 'You cannot report your own message' using errcode = 'P0001';
  end if;
  if char_length(v_reason) > 200 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  perform private.check_writer(v_block, v_uid);
  if not exists (select 1 from public.message_reports where message_id = p_message_id and user_id = v_uid) then
    perform private.check_rate_limit(v_block, v_uid, 'report');
    insert into public.message_reports (message_id, block_id, user_id, reason)
      values (p_message_id, v_message.block_id, v_uid, v_reason)
      on conflict do nothing;
  end if;
  return jsonb_build_object('id', p_message_id, 'reported', true);
end;
$$;

comment on function public.report_message(uuid, text) is
  'Reports a message to the block owner (once per visitor; again changes nothing). Errors: You cannot report your own message, Too long message (reason > 200), message doesn''t exists, 429.';

-- ---------------------------------------------------------------------------------------------
-- like, button, form and ab
-- ---------------------------------------------------------------------------------------------

-- One like per visitor and like block; p_liked sets the state instead of toggling. Only a call
-- that changes the state spends a token. like_count is kept by the responses triggers.
-- security definer: see the header.
create or replace function public.toggle_block_like(p_block_id uuid, p_creator_name text default null,
                                                    p_color text default null, p_liked boolean default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_has boolean;
  v_want boolean;
begin
  if v_block.type <> 'like' then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color);
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  v_has := exists (select 1 from public.responses
                   where block_id = p_block_id and kind = 'like' and creator_id = v_uid);
  v_want := coalesce(p_liked, not v_has);
  if v_want <> v_has then
    perform private.check_rate_limit(v_block, v_uid, 'like');
    if v_want then
      insert into public.responses (block_id, kind, creator_id, creator_name, color, is_like)
        values (p_block_id, 'like', v_uid, p_creator_name, p_color, true)
        on conflict (block_id, creator_id) where kind = 'like' do nothing;
      if found then
        perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
      end if;
    else
      delete from public.responses where block_id = p_block_id and kind = 'like' and creator_id = v_uid;
    end if;
  end if;

  return jsonb_build_object('liked', v_want,
    'like_count', (select like_count from public.blocks where id = p_block_id));
end;
$$;

-- Records a click on a button block. security definer: see the header.
create or replace function public.record_button_click(p_block_id uuid, p_creator_name text default null,
                                                      p_color text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
begin
  if v_block.type <> 'button' then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color);
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  perform private.check_rate_limit(v_block, v_uid, 'click');
  insert into public.responses (block_id, kind, creator_id, creator_name, color)
    values (p_block_id, 'button', v_uid, p_creator_name, p_color);
  perform private.record_audience_event(v_block, v_uid, p_creator_name, null, p_color, null);
  return jsonb_build_object('response_count', (select response_count from public.blocks where id = p_block_id));
end;
$$;

drop function public.submit_response(uuid, jsonb, text, text, text);

-- Submits a form or ab response: as in 20261121001000_whitespace_only_text_is_empty.sql, plus
-- the blocked writer, the honeypot and the rate limits (action vote for ab, submit for form)
-- before the owner's monthly quota is counted. security definer: see the header.
create function public.submit_response(p_block_id uuid, p_answers jsonb, p_creator_name text default null,
                                       p_color text default null, p_timezone text default null,
                                       p_honeypot text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_block public.blocks := private.visible_block(p_block_id);
  v_question public.questions;
  v_raw jsonb;
  v_text text;
  v_ids uuid[];
  v_values jsonb;
  v_all_option_ids uuid[] := '{}';
  v_answers jsonb := '{}'::jsonb;
  v_found integer;
  v_email text;
  v_name text;
  v_response_id uuid;
  v_month date := (date_trunc('month', now()))::date;
  v_options jsonb;
begin
  if v_block.type not in ('form', 'ab') then
    raise exception 'Not supported block' using errcode = 'P0001';
  end if;
  if exists (select 1 from public.blocked_writers where block_id = p_block_id and user_id = v_uid) then
    perform private.check_writer(v_block, v_uid);
  end if;
  if v_block.honeypot then
    perform private.check_honeypot(v_block, p_honeypot);
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Please check response' using errcode = 'P0001';
  end if;
  perform private.check_visitor_fields(p_creator_name, p_color, null, null, p_timezone);
  if exists (select 1 from jsonb_object_keys(p_answers) k
             where not exists (select 1 from public.questions q
                               where q.block_id = p_block_id and not q.deleted and q.id::text = k)) then
    raise exception 'Not valid question' using errcode = 'P0001';
  end if;

  for v_question in
    select * from public.questions where block_id = p_block_id and not deleted order by index, created_at
  loop
    continue when v_question.type in ('description', 'image');
    v_raw := p_answers -> v_question.id::text;
    if jsonb_typeof(v_raw) = 'object' then
      v_raw := v_raw -> 'value';
    end if;
    if v_raw is null or jsonb_typeof(v_raw) = 'null' then
      v_raw := null;
    end if;

    if v_question.type in ('poll', 'ab') then
      if v_raw is not null and jsonb_typeof(v_raw) not in ('string', 'array') then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      if jsonb_typeof(v_raw) = 'string' then
        v_raw := jsonb_build_array(v_raw);
      end if;
      v_raw := coalesce(v_raw, '[]'::jsonb);
      if exists (select 1 from jsonb_array_elements(v_raw) e
                 where jsonb_typeof(e) <> 'string' or (e #>> '{}') !~* '^[0-9a-f-]{36}$') then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      select coalesce(array_agg(distinct (e #>> '{}')::uuid), '{}') into v_ids from jsonb_array_elements(v_raw) e;
      if cardinality(v_ids) = 0 then
        if v_question.required then
          raise exception 'Required' using errcode = 'P0001', detail = v_question.id::text;
        end if;
        continue;
      end if;
      if cardinality(v_ids) > 1 and (v_question.type = 'ab' or not v_question.allow_multi_select) then
        raise exception 'Choose one option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      select coalesce(jsonb_agg(o.value order by o.index), '[]'::jsonb), count(*) into v_values, v_found
        from public.options o where o.id = any (v_ids) and o.question_id = v_question.id and not o.deleted;
      if v_found <> cardinality(v_ids) then
        raise exception 'Invalid option' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      v_all_option_ids := v_all_option_ids || v_ids;
      v_answers := v_answers || jsonb_build_object(v_question.id::text, jsonb_build_object(
        'index', v_question.index, 'title', v_question.title, 'type', v_question.type,
        'value', v_values, 'option_ids', to_jsonb(v_ids), 'as_visitor_info', v_question.as_visitor_info));
      continue;
    end if;

    -- text-like questions
    if v_raw is not null and jsonb_typeof(v_raw) not in ('string', 'number') then
      raise exception 'Please check response' using errcode = 'P0001', detail = v_question.id::text;
    end if;
    v_text := nullif(private.trim_whitespace(v_raw #>> '{}'), '');
    if v_text is null then
      if v_question.required then
        raise exception 'Required' using errcode = 'P0001', detail = v_question.id::text;
      end if;
      continue;
    end if;
    case v_question.type
      when 'short_text' then
        if char_length(v_text) > 300 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'long_text' then
        if char_length(v_text) > 1000 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'mail' then
        if char_length(v_text) > 50 then
          raise exception 'Too long message' using errcode = 'P0001', detail = v_question.id::text;
        end if;
        if not private.is_valid_email(v_text) then
          raise exception 'Invalid email address.' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'phone' then
        if v_text !~ '^[0-9 -]{1,20}$' then
          raise exception 'Invalid phone number' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      when 'number' then
        if v_text !~ '^[-+]?[0-9]{1,18}$' then
          raise exception 'Not a number' using errcode = 'P0001', detail = v_question.id::text;
        end if;
      else
        null;
    end case;
    if v_question.as_visitor_info = 'email' and v_question.type = 'mail' then
      v_email := v_text;
    elsif v_question.as_visitor_info = 'name' then
      v_name := left(v_text, 100);
    end if;
    v_answers := v_answers || jsonb_build_object(v_question.id::text, jsonb_build_object(
      'index', v_question.index, 'title', v_question.title, 'type', v_question.type,
      'value', v_text, 'as_visitor_info', v_question.as_visitor_info));
  end loop;

  if v_block.type = 'ab' and exists (
      select 1 from public.responses where block_id = p_block_id and kind = 'ab' and creator_id = v_uid) then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;

  -- before the quota: a refused submit never touches the owner's row
  perform private.check_rate_limit(v_block, v_uid, case when v_block.type = 'ab' then 'vote' else 'submit' end);

  -- the owner's monthly quota; a new calendar month starts from zero
  update public.profiles
    set response_monthly_count = case when response_month < v_month then 1 else response_monthly_count + 1 end,
        response_month = v_month
    where id = v_block.owner_id
      and (response_month < v_month or response_monthly_count < response_monthly_limit);
  if not found then
    raise exception 'Monthly response limit reached' using errcode = 'PT429', detail = 'quota';
  end if;

  insert into public.responses (block_id, kind, creator_id, creator_name, color, timezone, answers)
    values (p_block_id, v_block.type::text::public.response_kind, v_uid,
            coalesce(v_name, p_creator_name), p_color, p_timezone, v_answers)
    on conflict (block_id, creator_id) where kind = 'ab' do nothing
    returning id into v_response_id;
  if v_response_id is null then
    raise exception 'Already voted' using errcode = 'P0001';
  end if;

  with bumped as (
    update public.options set response_count = response_count + 1
      where id = any (v_all_option_ids) and block_id = p_block_id
      returning id, response_count
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'response_count', response_count)), '[]'::jsonb)
    into v_options from bumped;

  perform private.record_audience_event(v_block, v_uid, coalesce(v_name, p_creator_name), null, p_color, v_email);

  return jsonb_build_object(
    'id', v_response_id,
    'response_count', (select response_count from public.blocks where id = p_block_id),
    'options', v_options);
end;
$$;

comment on function public.submit_response(uuid, jsonb, text, text, text, text) is
  'Submits a form or ab response. Errors: Required, Too long message, Invalid email address., Invalid phone number, Not a number, Choose one option, Invalid option, Already voted, The owner of this block has blocked you from writing here., This was not sent: it looked automated., You''re going too fast, try again in a few seconds. (429), Monthly response limit reached (429), block doesn''t exists.';

-- ---------------------------------------------------------------------------------------------
-- moderation (the block owner)
-- ---------------------------------------------------------------------------------------------

-- Every message and reply of one of the caller's blocks, newest first, with its state, the
-- writer (signed in or anonymous, blocked or not, the email they left), the reports and the
-- parent of a reply. Filters: all, held, hidden, pinned, resolved, reported; p_search matches
-- the text or the writer's name. Page with the created_at of the last one.
-- security definer: reads auth.users (anonymous or not) for the owner's block only, checked
-- first.
create function public.moderation_messages(p_block_id uuid, p_filter text default 'all',
                                           p_search text default null, p_before timestamptz default null,
                                           p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_pattern text;
begin
  if not exists (select 1 from public.blocks where id = p_block_id and owner_id = v_uid) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if coalesce(p_filter, 'all') not in ('all', 'held', 'hidden', 'pinned', 'resolved', 'reported') then
    raise exception 'Not a filter' using errcode = 'P0001';
  end if;
  if char_length(p_search) > 200 then
    raise exception 'Too long message' using errcode = 'P0001';
  end if;
  v_pattern := '%' || replace(replace(replace(nullif(private.trim_whitespace(p_search), ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';

  return coalesce((
    select jsonb_agg(to_jsonb(m) || jsonb_build_object(
             'writer_anonymous', coalesce(u.is_anonymous, true),
             'writer_blocked', exists (select 1 from public.blocked_writers w
                                       where w.block_id = m.block_id and w.user_id = m.creator_id),
             'creator_email', (select mp.creator_email from public.message_private mp where mp.message_id = m.id),
             'report_count', (select count(*) from public.message_reports r where r.message_id = m.id),
             'reports', coalesce((select jsonb_agg(jsonb_build_object('reason', r.reason, 'created_at', r.created_at)
                                                   order by r.created_at desc)
                                  from public.message_reports r where r.message_id = m.id), '[]'::jsonb),
             'parent', (select jsonb_build_object('id', p.id, 'creator_name', p.creator_name,
                                                  'content', left(p.content, 140), 'status', p.status)
                        from public.messages p where p.id = m.parent_id))
           order by m.created_at desc, m.id desc)
    from (
      select * from public.messages m
      where m.block_id = p_block_id
        and m.created_at < coalesce(p_before, 'infinity'::timestamptz)
        and case coalesce(p_filter, 'all')
              when 'held' then m.status = 'held'
              when 'hidden' then m.status = 'hidden'
              when 'pinned' then m.pinned_at is not null
              when 'resolved' then m.resolved
              when 'reported' then exists (select 1 from public.message_reports r where r.message_id = m.id)
              else true end
        and (v_pattern is null or m.content ilike v_pattern or m.creator_name ilike v_pattern)
      order by m.created_at desc, m.id desc
      limit greatest(1, least(coalesce(p_limit, 50), 100))
    ) m
    left join auth.users u on u.id = m.creator_id), '[]'::jsonb);
end;
$$;

comment on function public.moderation_messages(uuid, text, text, timestamptz, integer) is
  'The owner''s moderation list of a block: every message and reply, newest first, with state, writer, reports and parent. Filters all, held, hidden, pinned, resolved, reported; search in text and names. Errors: block doesn''t exists, Not a filter.';

-- Approve, hide, unhide, delete, pin, unpin, resolve or unresolve messages of the caller's
-- blocks, several at once (at most 200). All or nothing: one message that is not the caller's
-- refuses the whole call. security definer: clients have no write rights on messages.
create function public.moderate_messages(p_message_ids uuid[], p_action text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_ids uuid[];
  v_count integer;
  v_mine integer;
  v_result jsonb;
begin
  if p_action is null or p_action not in ('approve', 'hide', 'unhide', 'delete', 'pin', 'unpin', 'resolve', 'unresolve') then
    raise exception 'Not a moderation action' using errcode = 'P0001';
  end if;
  select coalesce(array_agg(distinct i), '{}') into v_ids from unnest(p_message_ids) i where i is not null;
  if cardinality(v_ids) = 0 then
    raise exception 'No messages chosen' using errcode = 'P0001';
  end if;
  if cardinality(v_ids) > 200 then
    raise exception 'Too many messages at once (at most 200)' using errcode = 'P0001';
  end if;
  select count(*), count(*) filter (where b.owner_id = v_uid) into v_count, v_mine
    from public.messages m join public.blocks b on b.id = m.block_id
    where m.id = any (v_ids);
  if v_count <> cardinality(v_ids) then
    raise exception 'message doesn''t exists' using errcode = 'PT404';
  end if;
  if v_mine <> v_count then
    raise exception 'Only the block owner can moderate messages' using errcode = 'PT403';
  end if;
  if p_action in ('pin', 'resolve', 'unresolve')
     and exists (select 1 from public.messages where id = any (v_ids) and parent_id is not null) then
    raise exception '%', case when p_action = 'pin' then 'Only top-level messages can be pinned'
                              else 'Only top-level messages can be resolved' end using errcode = 'P0001';
  end if;

  if p_action = 'delete' then
    delete from public.messages where id = any (v_ids);
    return jsonb_build_object('deleted', to_jsonb(v_ids));
  end if;
  with changed as (
    update public.messages m set
      status = case p_action when 'approve' then case when m.status = 'held' then 'published' else m.status end
                             when 'hide' then 'hidden'
                             when 'unhide' then case when m.status = 'hidden' then 'published' else m.status end
                             else m.status end,
      pinned_at = case p_action when 'pin' then coalesce(m.pinned_at, clock_timestamp())
                                when 'unpin' then null else m.pinned_at end,
      resolved = case p_action when 'resolve' then true when 'unresolve' then false else m.resolved end
    where m.id = any (v_ids)
    returning m.*
  )
  select coalesce(jsonb_agg(to_jsonb(c) order by c.created_at desc), '[]'::jsonb) into v_result from changed c;
  return jsonb_build_object('messages', v_result);
end;
$$;

comment on function public.moderate_messages(uuid[], text) is
  'The block owner approves, hides, unhides, deletes, pins, unpins, resolves or unresolves messages (at most 200, all of the caller''s blocks). Errors: Not a moderation action, Only the block owner can moderate messages, Only top-level messages can be pinned/resolved, message doesn''t exists.';

-- The block owner blocks (or unblocks) a writer: their later writes to the block are refused;
-- p_hide_messages also hides what they wrote there. security definer: clients have no write
-- rights on blocked_writers and messages.
create function public.block_writer(p_block_id uuid, p_user_id uuid, p_blocked boolean default true,
                                    p_hide_messages boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := private.require_uid();
  v_hidden integer := 0;
begin
  if not exists (select 1 from public.blocks where id = p_block_id and owner_id = v_uid) then
    raise exception 'block doesn''t exists' using errcode = 'PT404';
  end if;
  if p_user_id is null or p_user_id = v_uid then
    raise exception 'You cannot block yourself' using errcode = 'P0001';
  end if;
  if coalesce(p_blocked, true) then
    insert into public.blocked_writers (block_id, user_id) values (p_block_id, p_user_id)
      on conflict do nothing;
    if p_hide_messages then
      update public.messages set status = 'hidden'
        where block_id = p_block_id and creator_id = p_user_id and status <> 'hidden';
      get diagnostics v_hidden = row_count;
    end if;
  else
    delete from public.blocked_writers where block_id = p_block_id and user_id = p_user_id;
  end if;
  return jsonb_build_object('user_id', p_user_id, 'blocked', coalesce(p_blocked, true), 'hidden', v_hidden);
end;
$$;

comment on function public.block_writer(uuid, uuid, boolean, boolean) is
  'The block owner blocks or unblocks a writer (and may hide their messages). Errors: block doesn''t exists, You cannot block yourself.';

-- ---------------------------------------------------------------------------------------------
-- captcha passes (the verify-captcha edge function, service role)
-- ---------------------------------------------------------------------------------------------

-- Records a captcha the provider accepted for a visitor on a block: captcha.pass_uses (10)
-- writes past the limits within captcha.pass_minutes (10). A token seen before is refused.
create function public.grant_captcha_pass(p_user_id uuid, p_block_id uuid, p_token_hash text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uses integer := coalesce((private.setting('captcha.pass_uses', '10'::jsonb) #>> '{}')::integer, 10);
  v_minutes integer := coalesce((private.setting('captcha.pass_minutes', '10'::jsonb) #>> '{}')::integer, 10);
  v_expires timestamptz := now() + make_interval(mins => v_minutes);
begin
  if not exists (select 1 from public.blocks where id = p_block_id and captcha and not deactivated) then
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

-- ---------------------------------------------------------------------------------------------
-- quota notices (the jobs worker, service role)
-- ---------------------------------------------------------------------------------------------

-- What each quota.notice job's mail needs: the owner's address, language and name, the level,
-- the count and the limit when the threshold was crossed; or {skip} (no address, suppressed,
-- account gone).
create function public.quota_notice_context(p_payloads jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(
    case
      when pr.id is null then jsonb_build_object('skip', 'the account was deleted')
      when nullif(pr.email, '') is null then jsonb_build_object('skip', 'the owner has no email address')
      when exists (select 1 from private.mail_suppressions s where s.email = lower(pr.email))
        then jsonb_build_object('skip', 'the address is suppressed (bounce or complaint)')
      else jsonb_build_object(
        'to', pr.email, 'user_id', pr.id, 'language', pr.language, 'name', pr.name,
        'level', (x ->> 'level')::integer, 'month', x ->> 'month',
        'count', coalesce((x ->> 'count')::integer, pr.response_monthly_count),
        'limit', coalesce((x ->> 'limit')::integer, pr.response_monthly_limit))
    end order by i), '[]'::jsonb)
  from jsonb_array_elements(p_payloads) with ordinality p(x, i)
  left join public.profiles pr on pr.id = (x ->> 'user_id')::uuid;
$$;

-- ---------------------------------------------------------------------------------------------
-- notifications: a held reply is mailed to the commenter only once it is approved
-- ---------------------------------------------------------------------------------------------

-- As in 20261123110100_mail_and_notifications.sql, except that notify.reply waits for a
-- published reply (the owner is told of held messages: that is how they learn to approve).
create or replace function private.messages_enqueue_notifications()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_mail_to text;
  v_allow_email boolean;
  v_parent_creator uuid;
begin
  select b.owner_id, bp.mail_to, b.allow_creator_email into v_owner, v_mail_to, v_allow_email
    from public.blocks b left join public.block_private bp on bp.block_id = b.id
    where b.id = new.block_id;
  if tg_op = 'INSERT' and v_mail_to is not null and new.creator_id is distinct from v_owner then
    perform private.enqueue_job('notify.owner',
      jsonb_build_object('block_id', new.block_id, 'message_id', new.id),
      'notify.owner:message:' || new.id, null, 'notify.owner:' || new.block_id, 'mail');
  end if;
  if new.parent_id is not null and v_allow_email and new.status = 'published' then
    select m.creator_id into v_parent_creator
      from public.messages m join public.message_private mp on mp.message_id = m.id
      where m.id = new.parent_id;
    if found and v_parent_creator is distinct from new.creator_id then
      perform private.enqueue_job('notify.reply',
        jsonb_build_object('block_id', new.block_id, 'parent_id', new.parent_id, 'message_id', new.id),
        'notify.reply:' || new.id, null, 'notify.reply:' || new.parent_id, 'mail');
    end if;
  end if;
  return null;
end;
$$;

create trigger messages_enqueue_approved_reply after update of status on public.messages
  for each row when (old.status = 'held' and new.status = 'published' and new.parent_id is not null)
  execute function private.messages_enqueue_notifications();

-- ---------------------------------------------------------------------------------------------
-- execute rights
-- ---------------------------------------------------------------------------------------------

revoke execute on function
  public.post_message(uuid, uuid, text, text, text, text, text, text, text, text),
  public.submit_response(uuid, jsonb, text, text, text, text),
  public.report_message(uuid, text),
  public.moderation_messages(uuid, text, text, timestamptz, integer),
  public.moderate_messages(uuid[], text),
  public.block_writer(uuid, uuid, boolean, boolean),
  public.grant_captcha_pass(uuid, uuid, text),
  public.quota_notice_context(jsonb)
from public, anon;

grant execute on function
  public.post_message(uuid, uuid, text, text, text, text, text, text, text, text),
  public.submit_response(uuid, jsonb, text, text, text, text),
  public.report_message(uuid, text),
  public.moderation_messages(uuid, text, text, timestamptz, integer),
  public.moderate_messages(uuid[], text),
  public.block_writer(uuid, uuid, boolean, boolean)
to authenticated, service_role;

revoke execute on function public.grant_captcha_pass(uuid, uuid, text), public.quota_notice_context(jsonb)
  from authenticated;
grant execute on function public.grant_captcha_pass(uuid, uuid, text), public.quota_notice_context(jsonb)
  to service_role;

-- ---------------------------------------------------------------------------------------------
-- purge
-- ---------------------------------------------------------------------------------------------

-- Buckets full again are worth nothing (a missing row is a full bucket); passes and tokens
-- expire. Every 10 minutes; a sequential scan of a small unlogged table. SKIP LOCKED: a bucket a
-- visitor's write holds is left for the next run, so the purge never waits for a visitor and can
-- never deadlock with one (a write locks its visitor's row, then its block's shard).
create function private.purge_trust()
returns void
language sql
set search_path = ''
as $$
  delete from private.rate_limits r
    using (select block_id, subject, action from private.rate_limits
           where full_at < now() for update skip locked) x
    where r.block_id = x.block_id and r.subject = x.subject and r.action = x.action;
  delete from private.captcha_passes where expires_at < now();
  delete from private.captcha_tokens where created_at < now() - interval '1 day';
$$;

select cron.schedule('trust-purge', '*/10 * * * *', $$ select private.purge_trust(); $$);

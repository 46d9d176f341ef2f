-- The checks a visitor's write passes besides the rate limits (trust.sql): a writer the owner
-- blocked, the honeypot, the avatar and home URL rules, links, the hold setting, and a name that
-- imitates the owner's.

-- A writer the owner blocked from this block.
create function private.check_writer(p_block public.blocks, p_uid uuid)
returns void language plpgsql stable set search_path = '' as $$
begin
  if exists (select 1 from public.blocked_writers where block_id = p_block.id and user_id = p_uid) then
    raise exception 'The owner of this block has blocked you from writing here.' using
      errcode = 'PT403', detail = 'blocked';
  end if;
end;
$$;
revoke execute on function private.check_writer(public.blocks, uuid) from public;

-- The honeypot: the elements always send the hidden field's value, which people leave empty.
-- A block with the honeypot on refuses a filled one, and a missing one (a script calling the
-- API without the element).
create function private.check_honeypot(p_block public.blocks, p_value text)
returns void language plpgsql immutable set search_path = '' as $$
begin
  if p_block.honeypot and p_value is distinct from '' then
    raise exception 'This was not sent: it looked automated.' using errcode = 'P0001', detail = 'honeypot';
  end if;
end;
$$;
revoke execute on function private.check_honeypot(public.blocks, text) from public;

-- The rules of a visitor's short fields, one definition each, as the contracts write them
-- (contracts/limits.ts VISITOR_COLOR_RE and BIDI_CONTROL_RE; supabase/tests/contracts.test.ts
-- runs both on the same cases). A colour is #rgb or #rrggbb (what the elements draw an avatar
-- with).
create function private.is_visitor_color(p_color text)
returns boolean language sql immutable set search_path = '' as $$
  select p_color ~ '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$';
$$;
revoke execute on function private.is_visitor_color(text) from public;

-- A bidi embedding, override or isolate (U+202A-U+202E, U+2066-U+2069): in a name or a link it
-- makes the text read as something else (a visitor's name as another's, a link's end reversed).
create function private.has_bidi_control(p_text text)
returns boolean language sql immutable set search_path = '' as $$
  select p_text ~ '[\u202A-\u202E\u2066-\u2069]';
$$;
revoke execute on function private.has_bidi_control(text) from public;

-- An avatar comes only from a signed-in visitor's provider profile (https, the providers' image
-- hosts of setting avatars.hosts, or the project's storage under avatars.storage_prefix);
-- anonymous visitors have none. A home URL is http or https, nothing else. Both without
-- whitespace, control characters or credentials.
create function private.check_visitor_urls(p_photo_url text, p_home_url text)
returns void language plpgsql stable set search_path = '' as $$
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
    if private.is_anonymous_caller() or p_photo_url ~ '[[:space:][:cntrl:]]' or not v_allowed
       or private.has_bidi_control(p_photo_url) then
      raise exception 'Invalid avatar URL' using errcode = 'P0001', detail = 'invalid_input';
    end if;
  end if;
  if nullif(p_home_url, '') is not null
     and (p_home_url !~* '^https?://[^/?#@[:space:]]+([/?#]|$)' or p_home_url ~ '[[:space:][:cntrl:]]'
          or private.has_bidi_control(p_home_url)) then
    raise exception 'Invalid home URL' using errcode = 'P0001', detail = 'invalid_input';
  end if;
end;
$$;
revoke execute on function private.check_visitor_urls(text, text) from public;

-- A link in a message: a URL with a scheme, www., or a host with a common top-level domain.
create function private.has_link(p_content text)
returns boolean language sql immutable set search_path = '' as $$
  select p_content ~* '(https?://|www\.)[^[:space:]]'
      or p_content ~* '[a-z0-9-]\.(com|net|org|io|co|kr|xyz|info|biz|ru|cn|top|site|online|shop|app|dev|me|ly|gl|link|click|live|store|vip|club)([/:?#[:space:]]|$)';
$$;
revoke execute on function private.has_link(text) from public;

-- The state of a new or edited message under the block's hold setting (the owner's are always
-- published).
create function private.hold_status(p_block public.blocks, p_uid uuid, p_content text)
returns text language sql stable set search_path = '' as $$
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
revoke execute on function private.hold_status(public.blocks, uuid, text) from public;

-- Whether a visitor's name reads like the owner. Both sides are compared on a skeleton: NFKC
-- (full-width, circled, math letters), lower case, the letters of other scripts that look like
-- Latin ones read as those (v_from, v_to: Cyrillic, Greek, Cherokee, Latin small capitals, Lisu,
-- Armenian, Canadian syllabics, dotless i, alpha; NFKC keeps them apart), then as Unicode's
-- confusables skeleton (TR39) reads Latin: i, l, I, 1 and | one letter, 0 an o, m as rn; without
-- spaces, punctuation and invisible characters. Marked: a word for an owner
-- (admin/administrator/owner/moderator/official/staff) as the whole name or a word of it, where a
-- CamelCase join or digits also end a word ("The Admin", "SiteAdmin", "Admin2"; "admin" and
-- "moderator" also at the start or end: "sysadmin"; not "badminton", "Stafford", "Downer"); a
-- Korean word for an owner anywhere; the block's own owner label (when not the default Admin) as
-- the name or a word of it, a label of several words anywhere ("The Site Team"); the owner's
-- name, as the block shows it or as the profile says now, as the name, contained from four
-- letters on (rn counted as the m it reads as), or a Korean name of two or three syllables with
-- no other Hangul beside it ("이지은2", not "김이지은"). plpgsql with the expressions written
-- out: this runs on every comment, and small helper functions with SET search_path are never
-- inlined.
create function private.imitates_owner(p_block public.blocks, p_name text)
returns boolean language plpgsql stable set search_path = '' as $$
declare
  v_strip constant text := '[[:space:][:punct:][:cntrl:]\u00a0\u00ad\u115f\u1160\u200b-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff·•・]+';
  v_from constant text := 'АаВвЕеЁёКкМмНнОоРрСсТтУуХхІіЇїЈјЅѕԀԁԚԛԜԝҺһӀӏΑαΒβΕεΖζΗηΙιΚκΜμΝνΟοΡρΤτΥυΧχϹϲᎪꭺᏴᏟꮯᎠꭰᎬꭼᏀꮐᎻꮋᎥꭵᎫꭻᏦꮶᏞꮮᎷꮇᏢꮲᎡꭱᏚꮪᎢꭲᏙꮩᎳꮃᏃꮓᏼ'
                                 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢꓐꓑꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴıɑՕօՍսԼհոցᗅᗩᗞᗪᗷᑕᑭᒪᕼᗯᔕᖇᐯᒍᘔᑌᗰ|';
  v_to constant text := 'aabbeeeekkmmhhooppccttyyxxiiiijjssddqqwwhhllaabbeezzhhiikkmmnnooppttyyxxccaabccddeegghhiijjkkllmmpprrssttvvwwzzb'
                               'abcdefghijklmnoprstuvwyzbpdtgkjczfmnlsrvhwxyaeiouiaoouulhngaaddbcplhwsrvjzuml';
  -- the words for an owner, as skeletons
  v_owner_words constant text[] := array['adrnln', 'adrnlnlstrator', 'owner', 'rnoderator', 'offlclal', 'staff'];
  v_text text;
  v_key text;
  v_words text[];
  v_other text;
  v_name text;
begin
  -- a lower-case letter before a capital ends a word ("SiteAdmin"); then the look-alikes
  v_text := replace(translate(translate(lower(regexp_replace(normalize(coalesce(p_name, ''), NFKC),
                                                            '([a-z])([A-Z])', '\1 \2', 'g')),
                                        v_from, v_to), 'i', 'l'), 'm', 'rn');
  v_key := regexp_replace(translate(v_text, '10', 'lo'), v_strip, '', 'g');
  if v_key = '' then
    return false;
  end if;
  -- the words: digits end one ("Admin2"), or read as letters ("Adm1n", "0wner")
  v_words := regexp_split_to_array(v_text, '[^[:alpha:]]+')
             || regexp_split_to_array(translate(v_text, '10', 'lo'), '[^[:alnum:]]+');
  if v_key ~ '(adrnln|owner|rnoderator|offlclal|staff)' then
    -- only then the word test: "badminton" contains admin but has no word admin
    if v_words && v_owner_words
       or regexp_replace(v_key, '[0-9]+', '', 'g') ~ '^(adrnln|rnoderator)|(adrnln|rnoderator)$' then
      return true;
    end if;
  end if;
  if v_key ~ '(관리자|관리인|운영자|운영진|운영팀|어드민|오너|스태프|공식|모더레이터|매니저)' then
    return true;
  end if;
  -- the block's own owner label (when not the default Admin)
  if coalesce(lower(p_block.custom_label_name ->> 'admin'), 'admin') <> 'admin' then
    v_name := replace(translate(translate(lower(normalize(p_block.custom_label_name ->> 'admin', NFKC)),
                                          v_from, v_to), 'i', 'l'), 'm', 'rn');
    v_other := regexp_replace(translate(v_name, '10', 'lo'), v_strip, '', 'g');
    if v_other <> '' and (v_other = v_key or v_other = any (v_words)
                          or (v_name ~ '[[:alnum:]][^[:alnum:]]+[[:alnum:]]' and position(v_other in v_key) > 0)) then
      return true;
    end if;
  end if;
  -- the owner's name as the block shows it (the Q&A header; from the profile when created) and
  -- as the profile says now
  foreach v_name in array array[p_block.owner_name,
                                (select pr.name from public.profiles pr where pr.id = p_block.owner_id)] loop
    v_other := regexp_replace(translate(replace(translate(translate(lower(normalize(coalesce(v_name, ''), NFKC)),
                                                                    v_from, v_to), 'i', 'l'), 'm', 'rn'), '10', 'lo'),
                              v_strip, '', 'g');
    if v_other <> '' and (v_other = v_key
                          or (char_length(replace(v_other, 'rn', 'm')) >= 4 and position(v_other in v_key) > 0)
                          or (v_other ~ '^[가-힣]{2,3}$' and position(v_other in v_key) > 0
                              and replace(v_key, v_other, '') !~ '[가-힣]')) then
      return true;
    end if;
  end loop;
  return false;
end;
$$;
revoke execute on function private.imitates_owner(public.blocks, text) from public;

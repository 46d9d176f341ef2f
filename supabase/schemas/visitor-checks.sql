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

-- Whether a visitor's name reads like the owner. Both sides are compared on a skeleton: NFKD
-- without combining marks, then NFKC ("Owneŕ", "Ow̶ner", full-width, circled, math letters), the
-- negative circled and squared letters and regional indicators as letters ("🅰dmin"), lower case,
-- the letters of other scripts that look like Latin ones read as those (v_from, v_to: Cyrillic,
-- Greek, Cherokee, Latin small capitals, Lisu, Armenian, Canadian syllabics, dotless i, alpha;
-- NFKC keeps them apart), then as Unicode's confusables skeleton (TR39) reads Latin: i, l, I, 1,
-- | and a ! between letters one letter, 0 an o, rn as m; without spaces, punctuation and
-- invisible characters. Marked: a word for an owner (admin/administrator/owner/moderator/
-- official/staff/manager/support) as the whole name or a word of it, where a CamelCase join or
-- digits also end a word ("The Admin", "SiteAdmin", "Admin2"), punctuation inside a word and
-- single letters apart join one ("A.d.m.i.n", "O w n e r"), and a word also counts with a letter
-- doubled ("Adminn") or one character more inside it ("Ad0min"); "admin" and "moderator" also
-- at the start or end ("sysadmin"; not "badminton", "Stafford", "Downer", "Staf"); a Korean word
-- for an owner anywhere, but 공식 and 오너 only as a word of their own or at the start or end of
-- four syllables or more (공식계정, 블로그오너; not the names 김공식, 공식환, 박오너); the block's
-- own owner label (when not the default Admin) as the name or a word of it, a label of several
-- words anywhere ("The Site Team"); the owner's name, as the block shows it or as the profile
-- says now, as the name (also with letters doubled: "Billl Kim"), contained from four letters
-- on (rn read as the m), or a Korean name of two or three syllables with no other Hangul beside
-- it ("이지은2", not "김이지은"). Not words for an owner: "team" and "root" (names: "Team Kim",
-- Joe Root). plpgsql with the expressions written out: this runs on every comment, small helper
-- functions with SET search_path are never inlined, and an expression without a query is
-- evaluated without the executor; so the four texts take the skeleton in one pass, a line each.
create function private.imitates_owner(p_block public.blocks, p_name text)
returns boolean language plpgsql stable set search_path = '' as $$
declare
  v_strip constant text := '[[:space:][:punct:][:cntrl:]\u00a0\u00ad\u115f\u1160\u200b-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff·•・]+';
  v_marks constant text := '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]';
  -- negative circled A-Z, negative squared A-Z, regional indicators A-Z (NFKC keeps them)
  v_enclosed constant text := '🅐🅑🅒🅓🅔🅕🅖🅗🅘🅙🅚🅛🅜🅝🅞🅟🅠🅡🅢🅣🅤🅥🅦🅧🅨🅩🅰🅱🅲🅳🅴🅵🅶🅷🅸🅹🅺🅻🅼🅽🅾🅿🆀🆁🆂🆃🆄🆅🆆🆇🆈🆉🇦🇧🇨🇩🇪🇫🇬🇭🇮🇯🇰🇱🇲🇳🇴🇵🇶🇷🇸🇹🇺🇻🇼🇽🇾🇿';
  v_from constant text := 'АаВвЕеЁёКкМмНнОоРрСсТтУуХхІіЇїЈјЅѕԀԁԚԛԜԝҺһӀӏΑαΒβΕεΖζΗηΙιΚκΜμΝνΟοΡρΤτΥυΧχϹϲᎪꭺᏴᏟꮯᎠꭰᎬꭼᏀꮐᎻꮋᎥꭵᎫꭻᏦꮶᏞꮮᎷꮇᏢꮲᎡꭱᏚꮪᎢꭲᏙꮩᎳꮃᏃꮓᏼ'
                                 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢꓐꓑꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴıɑՕօՍսԼհոցᗅᗩᗞᗪᗷᑕᑭᒪᕼᗯᔕᖇᐯᒍᘔᑌᗰ|ωѡɯ';
  v_to constant text := 'aabbeeeekkmmhhooppccttyyxxiiiijjssddqqwwhhllaabbeezzhhiikkmmnnooppttyyxxccaabccddeegghhiijjkkllmmpprrssttvvwwzzb'
                               'abcdefghijklmnoprstuvwyzbpdtgkjczfmnlsrvhwxyaeiouiaoouulhngaaddbcplhwsrvjzumlwww';
  -- the words for an owner as skeletons, each letter also doubled or more ("Adminn", "Staaff";
  -- not "Staf")
  v_owner_words constant text := 'a+d+m+l+n+|a+d+m+l+n+l+s+t+r+a+t+o+r+|o+w+n+e+r+|m+o+d+e+r+a+t+o+r+|o+f+f+l+d+a+l+|s+t+a+f+f+'
                                 '|m+a+n+a+g+e+r+|s+u+p+p+o+r+t+|w+e+b+m+a+s+t+e+r+';
  v_owner_list constant text[] := array['admln', 'admlnlstrator', 'owner', 'moderator', 'offldal', 'staff', 'manager',
                                        'support', 'webmaster'];
  -- the Korean words for an owner anywhere in the name
  v_ko_words constant text := '관리자|관리쟈|관리인|운영자|운영진|운영팀|어드민|스태프|모더레이터|매니저|주인장|쥔장|작성자|사장님';
  -- final consonants (jongseong) as the initial ones, to read jamo spelt out ("ㄱㅘㄴㄹㅣㅈㅏ")
  v_jong constant text := E'\u11a8\u11a9\u11ab\u11ae\u11af\u11b7\u11b8\u11ba\u11bb\u11bc\u11bd\u11be\u11bf\u11c0\u11c1\u11c2';
  v_cho constant text := E'\u1100\u1101\u1102\u1103\u1105\u1106\u1107\u1109\u110a\u110b\u110c\u110e\u110f\u1110\u1111\u1112';
  v_profile_name text;
  v_sk text[];
  v_key text;
  v_squeezed text;
  v_words text[];
  v_label text;
  v_leet text;
begin
  select pr.name into v_profile_name from public.profiles pr where pr.id = p_block.owner_id;
  -- the skeletons, spaces kept, of the name, the owner label (empty when the default Admin), the
  -- owner's name as the block shows it (the Q&A header; from the profile when created) and as the
  -- profile says now: one line each, in one pass. A lower-case letter before a capital ends a
  -- word ("SiteAdmin").
  v_sk := string_to_array(replace(replace(replace(translate(translate(lower(regexp_replace(regexp_replace(translate(
            normalize(regexp_replace(normalize(concat_ws(E'\n', translate(coalesce(p_name, ''), E'\n', ' '),
              translate(coalesce(nullif(lower(p_block.custom_label_name ->> 'admin'), 'admin'), ''), E'\n', ' '),
              translate(coalesce(p_block.owner_name, ''), E'\n', ' '), translate(coalesce(v_profile_name, ''), E'\n', ' ')),
            NFKD), v_marks, '', 'g'), NFKC), v_enclosed, repeat('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 3)),
            '([[:alpha:]])[!¡](?=[[:alpha:]])', '\1i', 'g'), '([a-z])([A-Z])', '\1 \2', 'g')),
            v_from, v_to), 'i', 'l'), 'rn', 'm'), 'cl', 'd'), 'vv', 'w'), E'\n');
  v_key := regexp_replace(translate(v_sk[1], '10', 'lo'), v_strip, '', 'g');
  if v_key = '' then
    return false;
  end if;
  v_squeezed := regexp_replace(v_key, '([a-z])\1+', '\1', 'g');
  -- 3, 4, 5 and 7 as e, a, s and t: only a word or key that then reads as an owner word counts
  v_leet := translate(v_sk[1], '104357', 'loaest');
  -- the words: digits end one ("Admin2") or read as letters ("Adm1n", "0wner"); punctuation
  -- inside a word, and single letters with spaces between, join one ("Ad.min", "A d m i n")
  v_words := regexp_split_to_array(v_sk[1], '[^[:alpha:]]+')
             || regexp_split_to_array(translate(v_sk[1], '10', 'lo'), '[^[:alnum:]]+')
             || regexp_split_to_array(regexp_replace(regexp_replace(translate(v_sk[1], '10', 'lo'),
                                                                    '([[:alnum:]])[[:punct:]]+(?=[[:alnum:]])', '\1', 'g'),
                                                     '(?<![[:alnum:]])([[:alnum:]])[[:space:]]+(?=[[:alnum:]](?![[:alnum:]]))', '\1', 'g'),
                                      '[^[:alnum:]]+')
             || regexp_split_to_array(v_leet, '[^[:alpha:]]+');
  v_label := regexp_replace(translate(v_sk[2], '10', 'lo'), v_strip, '', 'g');
  return ' ' || array_to_string(v_words, ' ') || ' ' ~ (' (' || v_owner_words || ') ')
      -- "badminton" contains admin but neither starts nor ends with it
      or regexp_replace(v_key, '[0-9]+', '', 'g') ~ '^(admln|moderator)|(admln|moderator)$'
      or regexp_replace(v_leet, v_strip, '', 'g') ~ '^(admln|moderator)|(admln|moderator)$'
      -- author, host and mod(s) only as the whole name ("The Host"; not "Host Kim", "Ghost")
      or regexp_replace(v_key, '[0-9]+', '', 'g') ~ '^(the|blog|site|post|page)?(author|host|mods?)$'
      or v_key ~ v_ko_words
      -- Hangul spelt out in jamo: NFKC makes initial-vowel pairs syllables, not the final consonant
      or (v_key ~ '[\u1100-\u11ff]'
          and translate(normalize(v_key, NFD), v_jong, v_cho) ~ translate(normalize(v_ko_words, NFD), v_jong, v_cho))
      -- 공식, 오너 and 주인 as a word, or starting or ending one of four syllables or more
      or v_sk[1] ~ '(^|[^가-힣])(공식|오너|주인)([^가-힣]|$|[가-힣]{2})|[가-힣]{2}(공식|오너|주인)([^가-힣]|$)'
      or (v_label <> '' and (v_label = v_key or v_label = any (v_words)
                             or (v_sk[2] ~ '[[:alnum:]][^[:alnum:]]+[[:alnum:]]' and position(v_label in v_key) > 0)))
      -- one character more inside a word ("Ad0min"; not "Downer", "Owners")
      or exists (select 1 from unnest(v_words) w, unnest(v_owner_list) r
                  where char_length(w) = char_length(r) + 1 and left(w, 1) = left(r, 1) and right(w, 1) = right(r, 1)
                    and exists (select 1 from generate_series(2, char_length(r)) i
                                 where overlay(w placing '' from i for 1) = r))
      or exists (select 1 from unnest(v_sk[3:4]) s,
                               lateral (select regexp_replace(translate(s, '10', 'lo'), v_strip, '', 'g') as k) o,
                               lateral (select regexp_replace(o.k, '([a-z])\1+', '\1', 'g') as k) q
                  where o.k <> ''
                    and (o.k = v_key or q.k = v_squeezed
                         or (char_length(o.k) >= 4 and position(o.k in v_key) > 0)
                         or (char_length(q.k) >= 4 and position(q.k in v_squeezed) > 0)
                         or (o.k ~ '^[가-힣]{2,3}$' and position(o.k in v_key) > 0
                             and replace(v_key, o.k, '') !~ '[가-힣]')));
end;
$$;
revoke execute on function private.imitates_owner(public.blocks, text) from public;

-- The client's address (issue 17): who is writing, as far as the network says, for the shares
-- of a block's budget (trust.sql) and of the owner's quota (quota.sql) that one address may take.

-- An address as an X-Forwarded-For entry gives it, read as the local servers read one
-- (supabase/local/http.ts normaliseAddress): spaces and [brackets] dropped, and an IPv6 zone id
-- (`fe80::1%eth0`: it names a link of the sender's machine, not another address); an IPv4-mapped
-- IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address. Null when it is no single address (a
-- range with a mask is none).
create function private.parse_address(p_text text)
returns inet language plpgsql immutable set search_path = '' as $$
declare
  v_text text := split_part(regexp_replace(btrim(p_text), '^\[|\]$', '', 'g'), '%', 1);
  v_address inet;
begin
  if not pg_input_is_valid(v_text, 'inet') or position('/' in v_text) > 0 then
    return null;
  end if;
  v_address := v_text::inet;
  if masklen(v_address) <> (case family(v_address) when 4 then 32 else 128 end) then
    return null;
  end if;
  if family(v_address) = 6 and v_address <<= '::ffff:0.0.0.0/96'::inet then
    return regexp_replace(host(v_address), '^.*:', '')::inet;
  end if;
  return v_address;
end;
$$;
revoke execute on function private.parse_address(text) from public;

-- The client's address as the API saw it (issue 17): the right-most X-Forwarded-For entry that is
-- not a trusted proxy (`network.trusted_proxies`: addresses or CIDR ranges, none by default), the
-- rule the local auth server follows for sign-ups (supabase/local/auth/rate-limit.ts
-- clientAddress). The local gateway appends the peer it saw, so a client's own X-Forwarded-For
-- only adds entries left of its real address; behind a CDN or load balancer that appends too,
-- name its addresses in the setting (docs/self-hosting.md). An entry that is no address ends the
-- chain (the hop right of it stands). Null outside an API request (no request.headers).
-- Where the platform's own edge sets one header to the address it saw and drops what a client
-- sent in it (`network.client_address_header`, e.g. `x-envoy-external-address` on hosted
-- Supabase, docs/data-model.md), that header alone is the address (null when it is missing or no
-- address); callers pass the two settings when they have read them already.
create function private.client_address(p_trusted jsonb default null, p_header text default null)
returns inet language plpgsql stable set search_path = '' as $$
declare
  v_headers text := nullif(current_setting('request.headers', true), '');
  v_chain text[];
  v_hop inet;
  v_address inet;
  v_trusted jsonb := coalesce(p_trusted, private.setting('network.trusted_proxies', '[]'::jsonb));
  v_header text := lower(nullif(coalesce(p_header, case when p_trusted is null
                     then private.setting('network.client_address_header', 'null'::jsonb) #>> '{}' end), ''));
begin
  if v_headers is null then
    return null;
  end if;
  if v_header is not null then
    return private.parse_address(v_headers::jsonb ->> v_header);
  end if;
  v_chain := string_to_array(v_headers::jsonb ->> 'x-forwarded-for', ',');
  for i in reverse coalesce(array_length(v_chain, 1), 0) .. 1 loop
    v_hop := private.parse_address(v_chain[i]);
    if v_hop is null then
      return v_address;
    end if;
    v_address := v_hop;
    if jsonb_typeof(v_trusted) is distinct from 'array' or not exists (
         select 1 from jsonb_array_elements_text(v_trusted) t(range)
         where pg_input_is_valid(t.range, 'cidr') and v_address <<= t.range::cidr) then
      return v_address;
    end if;
  end loop;
  return v_address;
end;
$$;
revoke execute on function private.client_address(jsonb, text) from public;

-- What an address's limits count under: an IPv4 address itself (an IPv4-mapped IPv6 one too),
-- or an IPv6 address's /64 (one host gets a whole /64 to pick addresses from), written as
-- `2001:db8:1:2::/64`. The same rule as the local auth server's per-address limits
-- (supabase/local/auth/rate-limit.ts addressGroup; address-group.test.ts checks both agree).
-- p_v6_bits widens an IPv6 group (reserve_key: a site's /48).
create function private.address_group(p_address inet, p_v6_bits integer default 64)
returns text language sql immutable set search_path = '' as $$
  select case when family(a) = 6 then host(network(set_masklen(a, p_v6_bits))) || '/' || p_v6_bits
              else host(a) end
  from (select private.parse_address(host(p_address)) as a) x;
$$;
revoke execute on function private.address_group(inet, integer) from public;

-- The key of what a site takes of a block's reserve (check_rate_limit): an IPv4 address's group,
-- an IPv6 address's /48, the most one site is usually given (a home connection gets a /56: 256
-- /64s, each a group of its own for the shares; the eighth hostile review spent the reserve
-- with 24 /64s of one /56). Hashed, as address_key.
create function private.reserve_key(p_address inet)
returns uuid language sql immutable set search_path = '' as $$
  select md5('reserve:' || private.address_group(p_address, 48))::uuid;
$$;
revoke execute on function private.reserve_key(inet) from public;

-- The key of an address's bucket: its group (above), hashed. Never a user id: not a version 4
-- UUID.
create function private.address_key(p_address inet)
returns uuid language sql immutable set search_path = '' as $$
  select case when p_address is not null then md5('address:' || private.address_group(p_address))::uuid end;
$$;
revoke execute on function private.address_key(inet) from public;

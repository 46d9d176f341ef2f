-- The client's address (issue 17): who is writing, as far as the network says, for the shares
-- of a block's budget (trust.sql) and of the owner's quota (quota.sql) that one address may take.

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
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  v_headers text := nullif(current_setting('request.headers', true), '');
  v_chain text[];
  v_hop text;
  v_address inet;
  v_trusted jsonb := coalesce(p_trusted, private.setting('network.trusted_proxies', '[]'::jsonb));
  v_header text := lower(nullif(coalesce(p_header, case when p_trusted is null
                     then private.setting('network.client_address_header', 'null'::jsonb) #>> '{}' end), ''));
begin
  if v_headers is null then
    return null;
  end if;
  if v_header is not null then
    v_hop := btrim(v_headers::jsonb ->> v_header);
    return case when pg_input_is_valid(v_hop, 'inet') then v_hop::inet end;
  end if;
  v_chain := string_to_array(v_headers::jsonb ->> 'x-forwarded-for', ',');
  for i in reverse coalesce(array_length(v_chain, 1), 0) .. 1 loop
    v_hop := btrim(v_chain[i]);
    if not pg_input_is_valid(v_hop, 'inet') then
      return v_address;
    end if;
    v_address := v_hop::inet;
    if jsonb_typeof(v_trusted) is distinct from 'array' or not exists (
         select 1 from jsonb_array_elements_text(v_trusted) t(range)
         where pg_input_is_valid(t.range, 'cidr') and v_address <<= t.range::cidr) then
      return v_address;
    end if;
  end loop;
  return v_address;
end;
$$;

-- The key of an address's bucket: an IPv4 address, or an IPv6 address's /64 (one host gets a
-- whole /64 to pick addresses from). Never a user id: not a version 4 UUID.
create function private.address_key(p_address inet)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case when p_address is not null then md5('address:' || case when family(p_address) = 6
           then host(network(set_masklen(p_address, 64))) || '/64' else host(p_address) end)::uuid end;
$$;

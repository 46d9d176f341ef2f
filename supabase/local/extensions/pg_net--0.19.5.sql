-- LOCAL-ONLY stand-in for pg_net 0.19.5 (https://github.com/supabase/pg_net), written in SQL and
-- PL/pgSQL for the embedded PostgreSQL of the local stack, which has no C extensions to load.
-- Never installed on a Supabase project: hosted Supabase has the real pg_net.
-- Same tables, types and functions as the real one (see README.md here for the differences).
-- The real extension's background worker is replaced by supabase/local/background/ (a Node loop
-- in the local stack) that takes rows from net.http_request_queue, sends them with fetch and
-- writes the outcome to net._http_response.

\echo Use "create extension pg_net" to load this file. \quit

create schema if not exists net;

create domain net.http_method as text
  check (value ilike 'get' or value ilike 'post' or value ilike 'delete');

-- Requests waiting for the worker (API: private). Unlogged, as in pg_net.
create unlogged table net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb,
  body bytea,
  timeout_milliseconds int not null
);

-- One row per finished request, kept for pg_net.ttl (6 hours) (API: private).
create unlogged table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out bool,
  error_msg text,
  created timestamptz not null default now()
);
create index on net._http_response (created);

-- The real net.wake() signals the worker from C. Here it NOTIFYs the local runner, which LISTENs on
-- this channel: PostgreSQL delivers a notification only when the transaction commits and drops it
-- on rollback, so, as with pg_net, a request queued in a transaction that rolls back is never sent
-- (its queue row is rolled back too).
create function net.wake()
returns void
language sql
set search_path = ''
as $$
  select pg_catalog.pg_notify('pg_net_wake', '')
$$;

-- Wakes the runner for every committed insert, whichever way the row got there.
create function net._wake_on_insert()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform net.wake();
  return null;
end
$$;

create trigger wake_worker
  after insert on net.http_request_queue
  for each statement execute function net._wake_on_insert();

-- The local runner's connection says application_name = 'pg_net worker'.
create function net.check_worker_is_up()
returns void
language plpgsql
set search_path = ''
as $$
begin
  if not exists (
    select from pg_catalog.pg_stat_activity where application_name = 'pg_net worker'
  ) then
    raise exception using
      message = 'the pg_net background worker is not up',
      detail = 'the local stack runs it (supabase/local/background/); is the stack running?',
      hint = 'make sure that you didn''t modify any of pg_net internal tables';
  end if;
end
$$;
comment on function net.check_worker_is_up()
  is 'raises an exception if the pg_net background worker is not up, otherwise it doesn''t return anything';

create function net.worker_restart()
returns boolean
language sql
set search_path = ''
as $$
  select pg_catalog.pg_notify('pg_net_wake', ''), true
$$;

create function net.wait_until_running()
returns void
language plpgsql
set search_path = ''
as $$
begin
  while not exists (
    select from pg_catalog.pg_stat_activity where application_name = 'pg_net worker'
  ) loop
    perform pg_catalog.pg_sleep(0.05);
  end loop;
end
$$;
comment on function net.wait_until_running() is 'waits until the worker is running';

-- URL encoding as curl_easy_escape does it: every byte but A-Z a-z 0-9 - . _ ~ as %XX.
create function net._urlencode_string(string varchar)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when string is null then null else coalesce((
    select pg_catalog.string_agg(
      case when ch ~ '^[A-Za-z0-9._~-]$' then ch
           else pg_catalog.upper(pg_catalog.regexp_replace(
             pg_catalog.encode(pg_catalog.convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\1', 'g'))
      end, '' order by n)
    from pg_catalog.regexp_split_to_table(string, '') with ordinality as t(ch, n)
  ), '') end
$$;

-- Appends key=value pairs (already encoded) to the query string of url.
create function net._encode_url_with_params_array(url text, params_array text[])
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when url is null or params_array is null then null
    when pg_catalog.cardinality(params_array) = 0 then url
    else url || case when pg_catalog.strpos(url, '?') > 0 then '&' else '?' end
             || pg_catalog.array_to_string(params_array, '&')
  end
$$;

-- One request queued for the worker, its params added to the url's query string: what each of
-- http_get, http_post and http_delete does once it has checked its arguments (not in pg_net's
-- API; pg_net writes the same steps in each).
create function net._queue_request(
  method text,
  url text,
  params jsonb,
  headers jsonb,
  body bytea,
  timeout_milliseconds int
)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  request_id bigint;
  params_array text[];
begin
  select coalesce(pg_catalog.array_agg(net._urlencode_string(key) || '=' || net._urlencode_string(value)), '{}')
  into params_array
  from pg_catalog.jsonb_each_text(params);

  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (method, net._encode_url_with_params_array(url, params_array), headers, body,
          timeout_milliseconds)
  returning id into request_id;
  return request_id;
end
$$;

-- Interface to make an async request (API: public)
create function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000
)
returns bigint
language sql
set search_path = ''
as $$
  select net._queue_request('GET', url, params, headers, null, timeout_milliseconds)
$$;

create function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds int default 5000
)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  content_type text;
begin
  select header_value into content_type
  from pg_catalog.jsonb_each_text(coalesce(headers, '{}'::jsonb)) as h(header_name, header_value)
  where pg_catalog.lower(header_name) = 'content-type'
  limit 1;

  -- as in pg_net: JSON only, and the header is added when missing
  if content_type is null then
    headers := headers || '{"Content-Type": "application/json"}'::jsonb;
  elsif content_type <> 'application/json' then
    raise exception 'Content-Type header must be "application/json"';
  end if;

  return net._queue_request('POST', url, params, headers,
                            pg_catalog.convert_to(body::text, 'UTF8'), timeout_milliseconds);
end
$$;

create function net.http_delete(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds int default 5000,
  body jsonb default null
)
returns bigint
language sql
set search_path = ''
as $$
  select net._queue_request('DELETE', url, params, headers,
                            pg_catalog.convert_to(body::text, 'UTF8'), timeout_milliseconds)
$$;

-- Responses (API: public types, private functions), as in pg_net.
create type net.request_status as enum ('PENDING', 'SUCCESS', 'ERROR');
create type net.http_response as (status_code integer, headers jsonb, body text);
create type net.http_response_result as (
  status net.request_status,
  message text,
  response net.http_response
);

create function net._await_response(request_id bigint)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  while not exists (select from net._http_response as r where r.id = request_id) loop
    perform pg_catalog.pg_sleep(0.05);
  end loop;
  return true;
end
$$;

create function net._http_collect_response(request_id bigint, async boolean default true)
returns net.http_response_result
language plpgsql
set search_path = ''
as $$
declare
  rec net._http_response;
begin
  if not async then
    perform net._await_response(request_id);
  end if;
  select * into rec from net._http_response as r where r.id = request_id;
  if rec is null or rec.error_msg is not null then
    return ('ERROR', coalesce(rec.error_msg, 'request matching request_id not found'), null)::net.http_response_result;
  end if;
  return ('SUCCESS', 'ok', (rec.status_code, rec.headers, rec.content)::net.http_response)::net.http_response_result;
end
$$;

create function net.http_collect_response(request_id bigint, async boolean default true)
returns net.http_response_result
language plpgsql
set search_path = ''
as $$
begin
  raise notice 'The net.http_collect_response function is deprecated.';
  return net._http_collect_response(request_id, async);
end
$$;

-- Privileges. pg_net grants the schema, its tables and functions to PUBLIC, and Supabase adds
-- usage for anon and authenticated; this stand-in is stricter (README.md): only postgres and
-- service_role get in, the client roles cannot read queued requests (which carry secrets in their
-- headers) or the responses, nor send requests.
revoke all on all functions in schema net from public;
do $$
declare
  grantee text;
begin
  foreach grantee in array array['postgres', 'service_role'] loop
    if exists (select from pg_catalog.pg_roles where rolname = grantee) then
      execute pg_catalog.format('grant usage on schema net to %I', grantee);
      execute pg_catalog.format('grant all on all tables in schema net to %I', grantee);
      execute pg_catalog.format('grant all on all sequences in schema net to %I', grantee);
      execute pg_catalog.format('grant execute on all functions in schema net to %I', grantee);
    end if;
  end loop;
end
$$;

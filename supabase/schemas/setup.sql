-- What every other file builds on: the schema `private`, the default privileges of the API
-- roles, and the extensions of background work. Roles, `auth`, `extensions` and `realtime` are
-- Supabase's own (on hosted projects; locally supabase/local/bootstrap.sql gives them).
--
-- Conventions: internal functions (triggers, helpers) live in schema `private`, which PostgREST
-- does not expose and no client role may use. Counters and limits are kept by triggers so they
-- hold whoever writes: a client through PostgREST, an RPC, or an edge function.
--
-- Every function revokes PostgreSQL's default EXECUTE for PUBLIC where it is defined and grants it
-- by name to the roles whose statements run it. Schema private's lack of usage keeps clients from
-- naming its functions, but not a policy, a check constraint or an invoker the service role calls
-- from reaching one, as the caller. Written per function because default privileges cannot do it
-- for one schema (a per-schema revoke does not take away the built-in PUBLIC grant) and a global
-- one would reach the functions of every extension created later. Trigger functions are exempt
-- (a trigger runs its function without the check). rls-catalogue.test.ts lists what clients may run.

-- Function bodies are checked when they first run, not when they are created (as pg_dump's output
-- does): a file holds a table with the functions that serve it, and those may read tables of a
-- file further down. The files are applied over one connection, so this holds for all of them.
set check_function_bodies = off;

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to service_role;

-- Hosted Supabase grants the API roles every privilege on new tables in public and relies on
-- RLS. Truncate ignores RLS, so the client roles never get it.
alter default privileges in schema public revoke truncate on tables from anon, authenticated;

-- Background work: pg_cron (schedules), pg_net (HTTP requests from SQL) and Vault (secrets such as
-- the URL and key a schedule posts to), the way Supabase's docs enable them. On a Supabase project
-- these are the real extensions (Vault is already installed there, so its line is a no-op). On the
-- local stack they are SQL-only stand-ins with the same names and SQL surface
-- (supabase/local/extensions/, LOCAL-ONLY), whose background work supabase/local/background/ does.
-- The schedules themselves are data (`cron.schedule` calls), so they live in a hand-written
-- migration (see docs/getting-started.md, "Changing the database schema").
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;
create extension if not exists supabase_vault with schema vault;

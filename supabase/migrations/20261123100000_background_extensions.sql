-- Background work: pg_cron (schedules), pg_net (HTTP requests from SQL) and Vault (secrets such as
-- the URL and key a schedule posts to), the way Supabase's docs enable them. On a Supabase project
-- these are the real extensions (Vault is already installed there, so its line is a no-op). On the
-- local stack they are SQL-only stand-ins with the same names and SQL surface
-- (supabase/local/extensions/, LOCAL-ONLY), whose background work supabase/local/background/ does.
-- Schedules themselves live in the migrations of the features that need them.

create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;
create extension if not exists supabase_vault with schema vault;

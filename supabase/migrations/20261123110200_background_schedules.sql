-- Schedules of background work, declared with pg_cron as on hosted Supabase. The worker is an edge
-- function called through pg_net; its URL and shared secret are read from Vault at each tick, so
-- this migration holds no project-specific value (docs/self-hosting.md: create the two secrets
-- `jobs_worker_url` and `jobs_worker_secret`; the local stack creates them at start).
--
-- Locally the three extensions are SQL-only stand-ins with the same surface and a runner in the
-- stack (supabase/local/extensions/); this file is the same on both.

-- Every few seconds, only while jobs are due: an idle project makes no function calls. The
-- worker drains for a few seconds and hands over to a fresh run when more is waiting; functions
-- that enqueue also kick it at once, so this tick is the safety net and the path of the jobs
-- that visitors' writes enqueue (notifications).
select cron.schedule(
  'jobs-worker',
  '5 seconds',
  $$
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'jobs_worker_url'),
    headers := jsonb_build_object(
      'content-type', 'application/json',
      'authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'jobs_worker_secret')),
    body := '{"source":"cron"}'::jsonb,
    timeout_milliseconds := 30000)
  where private.jobs_are_due()
    and exists (select 1 from vault.decrypted_secrets where name = 'jobs_worker_url');
  $$
);

-- Finished jobs are kept a week (failed and unknown ones a month) to read what happened.
select cron.schedule('jobs-purge', '17 3 * * *', $$ select private.purge_jobs(); $$);

-- The monthly response counts start again on the first of each month (UTC). The visitor path
-- also restarts a count it finds from an earlier month, so a missed run changes nothing but the
-- number the dashboard shows until the owner's next response.
select cron.schedule(
  'monthly-response-reset',
  '0 0 1 * *',
  $$
  update public.profiles
    set response_monthly_count = 0, response_month = date_trunc('month', now())::date
    where response_month < date_trunc('month', now())::date;
  $$
);

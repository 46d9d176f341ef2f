-- Hand-written: what a declarative schema cannot hold (supabase/schemas/ has the tables and
-- functions; `npm run db:diff` compares only those). The pg_cron schedules are rows of cron.job,
-- written by `cron.schedule`, which replaces a job of the same name: running this file again on a
-- database that has these jobs changes nothing (a project continuing from the squashed history
-- does, docs/data-model.md "Migrations"). A schedule changes in a new hand-written migration of
-- its own (docs/getting-started.md, "Changing the database schema"). The second squash gathered
-- here the first baseline's schedules and the two added after it (cron-history-purge,
-- block-changes-purge), as they were; the third squash moved the file after its baseline and
-- took in the one schedule changed since (fold-counters looks at option deltas too); the fourth
-- moved it after its baseline again and took in the one schedule added since (mail-consents-purge,
-- 20261126235529); the fifth to the twenty-first moved it after their baselines again (no
-- schedule changed meanwhile); the twenty-second moved it after its baseline and took in the one
-- schedule changed since (fold-counters looks at message deltas too, 20261129220346); the
-- twenty-third moved it after its baseline again (no schedule changed since); the twenty-fourth
-- moved it after its baseline again (no schedule changed since).
--
-- Each job calls SQL only; the worker is an edge function reached through pg_net with its URL and
-- shared secret read from Vault at each tick, so this file holds no project-specific value
-- (docs/self-hosting.md: create the two secrets `jobs_worker_url` and `jobs_worker_secret`; the
-- local stack creates them at start). Locally the three extensions are SQL-only stand-ins with the
-- same surface and a runner in the stack (supabase/local/extensions/); this file is the same on
-- both.

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

-- A month's response count shards start at zero by themselves, so the run on the first of the
-- month only drops the rows of earlier months.
select cron.schedule(
  'monthly-response-reset',
  '0 0 1 * *',
  $$ delete from private.response_counts where month < date_trunc('month', now())::date; $$
);

-- Plans past their end date: ended, checked with the provider, or their owners warned
-- (private.expire_plans), once a day after midnight UTC.
select cron.schedule('plan-expiry', '10 0 * * *', $$ select private.expire_plans(); $$);

-- Letter deliveries whose job ended unknown or failed get their final state.
select cron.schedule('letter-settle', '30 seconds', $$ select private.settle_letter_jobs(); $$);

-- Rate-limit buckets, captcha passes and spent captcha tokens that can no longer matter.
select cron.schedule('trust-purge', '*/10 * * * *', $$ select private.purge_trust(); $$);

-- Daily, in batches of 10,000 (a backlog clears over a few days without one long transaction).
select cron.schedule(
  'anonymous-users-purge',
  '43 3 * * *',
  $$ select private.purge_idle_anonymous_users(); $$
);

-- Quota levels reached that no write saw (two writes crossing a level together): every minute.
select cron.schedule('quota-notices', '* * * * *', $$ select private.sweep_quota_notices(); $$);

-- Counter deltas written while another write held a block, option, group or message row, folded
-- into the row. An option's delta is looked at too: one that waited beside its row alone (a
-- response deleted while another write held the option's row, the block's row free) would
-- otherwise stay a delta on a quiet block until some block or group delta came; so is a message's
-- (a like that waited beside its message's row on an otherwise quiet block).
select cron.schedule('fold-counters', '5 seconds',
  $$ select private.fold_counters() where exists (select 1 from private.block_count_deltas)
                                          or exists (select 1 from private.option_count_deltas)
                                          or exists (select 1 from private.audience_group_deltas)
                                          or exists (select 1 from private.message_count_deltas); $$);

-- pg_cron records every run of every job in cron.job_run_details and never deletes one; with the
-- 5-second schedules (jobs-worker, fold-counters) and the 30-second and one-minute ones, that is
-- about 39,000 rows a day, which nothing removed on a Supabase project. A week of them is kept to
-- read what happened, as the jobs queue keeps its finished jobs a week. Daily, at an hour no other
-- schedule uses.
select cron.schedule(
  'cron-history-purge',
  '31 4 * * *',
  $$ delete from cron.job_run_details where end_time < now() - interval '7 days' $$
);

-- The changes live updates name (private.block_changes, supabase/schemas/realtime.sql) are read
-- within a minute of their hint; every ten minutes those older than ten minutes go.
select cron.schedule('block-changes-purge', '*/10 * * * *', $$ select private.purge_block_changes(); $$);

-- Daily, the consent rows of addresses a visitor typed that never confirmed go once their link
-- expired (private.purge_mail_consents, supabase/schemas/mail-consent.sql).
select cron.schedule('mail-consents-purge', '23 3 * * *', $$ select private.purge_mail_consents(); $$);

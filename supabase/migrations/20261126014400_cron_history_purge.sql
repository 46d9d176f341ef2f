-- Hand-written (a schedule is data: a row of cron.job). pg_cron records every run of every job in
-- cron.job_run_details and never deletes one; with the 5-second schedules (jobs-worker,
-- fold-counters) and the 30-second and one-minute ones, that is about 39,000 rows a day, which
-- nothing removed on a Supabase project. A week of them is kept to read what happened, as the
-- jobs queue keeps its finished jobs a week. Daily, at an hour no other schedule uses.
select cron.schedule(
  'cron-history-purge',
  '31 4 * * *',
  $$ delete from cron.job_run_details where end_time < now() - interval '7 days' $$
);

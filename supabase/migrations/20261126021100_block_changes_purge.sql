-- Hand-written (a schedule is data: a row of cron.job). The changes live updates name
-- (private.block_changes, supabase/schemas/realtime.sql) are read within a minute of their hint;
-- every ten minutes those older than ten minutes go.
select cron.schedule('block-changes-purge', '*/10 * * * *', $$ select private.purge_block_changes(); $$);

-- Hand-written (a pg_cron schedule, as 20261126170739_schedules.sql): daily, the consent rows of
-- addresses a visitor typed that never confirmed go once their link expired
-- (private.purge_mail_consents, schemas/mail-consent.sql). cron.schedule replaces a job of the
-- same name, so running this again changes nothing.
select cron.schedule('mail-consents-purge', '23 3 * * *', $$ select private.purge_mail_consents(); $$);

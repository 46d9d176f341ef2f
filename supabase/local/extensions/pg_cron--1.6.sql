-- LOCAL-ONLY stand-in for pg_cron 1.6 (https://github.com/citusdata/pg_cron), written in SQL and
-- PL/pgSQL for the embedded PostgreSQL of the local stack, which has no C extensions to load.
-- Never installed on a Supabase project: hosted Supabase has the real pg_cron.
-- Same tables, functions and errors as the real one, as far as our migrations use them (see
-- README.md here for the differences). The real extension's background worker is replaced by
-- supabase/local/background/ (a Node loop in the local stack) that reads cron.job, runs due
-- commands as the job's user and writes cron.job_run_details.

\echo Use "create extension pg_cron" to load this file. \quit

create schema cron;

create sequence cron.jobid_seq;
create sequence cron.runid_seq;

-- Schedules ---------------------------------------------------------------------------------------

-- One field of a cron expression as the sorted list of values it allows, or null when invalid.
-- Values: numbers, names (months, weekdays; case-insensitive), `*`, `a-b` ranges, `/step` after
-- `*` or a range, comma lists. Like pg_cron, `5/10` (a step without a range) is refused.
create function cron._parse_field(field text, low int, high int, names text[])
returns int[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  item text;
  parts text[];
  first_value int;
  last_value int;
  step int;
  result int[] := '{}';
begin
  foreach item in array pg_catalog.string_to_array(field, ',') loop
    parts := pg_catalog.regexp_match(
      item, '^(?:(\*)|([0-9]{1,4}|[a-z]{3})(?:-([0-9]{1,4}|[a-z]{3}))?)(?:/([0-9]{1,4}))?$');
    if parts is null then
      return null;
    end if;
    if parts[1] is not null then
      first_value := low;
      last_value := high;
    else
      if parts[3] is null and parts[4] is not null then
        return null;
      end if;
      first_value := coalesce(
        pg_catalog.array_position(names, parts[2]) - 1 + low,
        case when parts[2] ~ '^[0-9]+$' then parts[2]::int end);
      last_value := case
        when parts[3] is null then first_value
        else coalesce(
          pg_catalog.array_position(names, parts[3]) - 1 + low,
          case when parts[3] ~ '^[0-9]+$' then parts[3]::int end)
      end;
    end if;
    step := coalesce(parts[4]::int, 1);
    -- stricter than pg_cron, which accepts a reversed range (`5-1`) as a job that never runs
    if first_value is null or last_value is null or first_value < low or last_value > high
       or first_value > last_value or step < 1 or step > high then
      return null;
    end if;
    result := result || array(select pg_catalog.generate_series(first_value, last_value, step));
  end loop;
  return array(select distinct v from pg_catalog.unnest(result) as v order by v);
end
$$;

-- A schedule as the local runner uses it, or the error pg_cron gives for an invalid one:
--   {"seconds": n}                      for '[1-59] seconds'
--   {"reboot": true}                    for '@reboot'
--   {"minutes": [..], "hours": [..], "days": [..], "months": [..], "weekdays": [0-6],
--    "lastDay": bool, "daysStar": bool, "weekdaysStar": bool}  for a cron expression
-- Day of month and day of week combine as in Vixie cron: when either field starts with `*` both
-- must match, otherwise either. `$` as day of month is the last day of the month. Times are UTC
-- (pg_cron's default cron.timezone, and Supabase's).
create function cron._parse_schedule(schedule text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  spec text := pg_catalog.lower(pg_catalog.btrim(schedule, E' \t\r\n'));
  seconds text[];
  fields text[];
  minutes int[];
  hours int[];
  days int[];
  months int[];
  weekdays int[];
begin
  seconds := pg_catalog.regexp_match(spec, '^([0-9]{1,4}) *seconds?$');
  if seconds is not null and seconds[1]::int between 1 and 59 then
    return pg_catalog.jsonb_build_object('seconds', seconds[1]::int);
  end if;
  if spec in ('@reboot', '@restart') then
    return '{"reboot": true}';
  end if;
  spec := case spec
    when '@yearly' then '0 0 1 1 *'
    when '@annually' then '0 0 1 1 *'
    when '@monthly' then '0 0 1 * *'
    when '@weekly' then '0 0 * * 0'
    when '@daily' then '0 0 * * *'
    when '@midnight' then '0 0 * * *'
    when '@hourly' then '0 * * * *'
    else spec
  end;
  fields := pg_catalog.regexp_split_to_array(spec, '\s+');
  if pg_catalog.cardinality(fields) = 5 then
    minutes := cron._parse_field(fields[1], 0, 59, null);
    hours := cron._parse_field(fields[2], 0, 23, null);
    days := case when fields[3] = '$' then '{}'
                 else cron._parse_field(fields[3], 1, 31, null) end;
    months := cron._parse_field(fields[4], 1, 12,
      array['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']);
    weekdays := cron._parse_field(fields[5], 0, 7,
      array['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']);
    if minutes is not null and hours is not null and days is not null and months is not null
       and weekdays is not null then
      return pg_catalog.jsonb_build_object(
        'minutes', minutes,
        'hours', hours,
        'days', days,
        'months', months,
        -- Sunday is 0 or 7
        'weekdays', array(select distinct d % 7 from pg_catalog.unnest(weekdays) as d order by 1),
        'lastDay', fields[3] = '$',
        'daysStar', pg_catalog.left(fields[3], 1) = '*',
        'weekdaysStar', pg_catalog.left(fields[5], 1) = '*');
    end if;
  end if;
  raise exception using
    errcode = 'invalid_parameter_value',
    message = pg_catalog.format('invalid schedule: %s', schedule),
    hint = 'Use cron format (e.g. 5 4 * * *), or interval format ''[1-59] seconds''';
end
$$;

-- Jobs ----------------------------------------------------------------------------------------------

create table cron.job (
  jobid bigint primary key default pg_catalog.nextval('cron.jobid_seq'),
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport int not null default pg_catalog.current_setting('port')::int,
  database text not null default pg_catalog.current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text
);
create unique index jobname_username_idx on cron.job (jobname, username);
alter table cron.job add constraint jobname_username_uniq unique using index jobname_username_idx;
alter table cron.job enable row level security;
create policy cron_job_policy on cron.job using (username = current_user);

create table cron.job_run_details (
  jobid bigint,
  runid bigint primary key default pg_catalog.nextval('cron.runid_seq'),
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
alter table cron.job_run_details enable row level security;
create policy cron_job_run_details_policy on cron.job_run_details
  using (username = current_user);

select pg_catalog.pg_extension_config_dump('cron.job', '');
select pg_catalog.pg_extension_config_dump('cron.jobid_seq', '');
select pg_catalog.pg_extension_config_dump('cron.job_run_details', '');
select pg_catalog.pg_extension_config_dump('cron.runid_seq', '');

-- pg_cron checks the schedule when a job is written; so does this trigger, for every path.
create function cron._check_schedule()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform cron._parse_schedule(new.schedule);
  return new;
end
$$;

create trigger cron_job_check_schedule
  before insert or update of schedule on cron.job
  for each row execute function cron._check_schedule();

-- pg_cron's trigger of this name tells its worker to reload the jobs; here it tells the local
-- runner, which LISTENs on this channel (a NOTIFY is delivered only when the transaction commits).
create function cron.job_cache_invalidate()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.pg_notify('cron_job_cache_invalidate', '');
  return null;
end
$$;

create trigger cron_job_cache_invalidate
  after insert or update or delete or truncate on cron.job
  for each statement execute function cron.job_cache_invalidate();

-- API -----------------------------------------------------------------------------------------------

create function cron.schedule(schedule text, command text)
returns bigint
language plpgsql
strict
set search_path = ''
as $$
declare
  new_id bigint;
begin
  insert into cron.job (schedule, command) values ($1, $2) returning jobid into new_id;
  return new_id;
end
$$;
comment on function cron.schedule(text, text) is 'schedule a pg_cron job';

-- Scheduling a name the caller already uses replaces that job's schedule and command, as pg_cron
-- does (its `active` flag stays as it was).
create function cron.schedule(job_name text, schedule text, command text)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  new_id bigint;
begin
  if $1 is null then
    raise exception 'job_name can not be NULL';
  elsif $2 is null then
    raise exception 'schedule can not be NULL';
  elsif $3 is null then
    raise exception 'command can not be NULL';
  end if;
  insert into cron.job (jobname, schedule, command) values ($1, $2, $3)
  on conflict on constraint jobname_username_uniq do update
    set schedule = excluded.schedule, command = excluded.command, database = excluded.database
  returning jobid into new_id;
  return new_id;
end
$$;
comment on function cron.schedule(text, text, text) is 'schedule a pg_cron job';

create function cron.unschedule(job_id bigint)
returns boolean
language plpgsql
strict
set search_path = ''
as $$
begin
  delete from cron.job where jobid = $1;
  if not found then
    raise exception 'could not find valid entry for job %', $1;
  end if;
  return true;
end
$$;
comment on function cron.unschedule(bigint) is 'unschedule a pg_cron job';

create function cron.unschedule(job_name text)
returns boolean
language plpgsql
strict
set search_path = ''
as $$
declare
  job_id bigint := (select j.jobid from cron.job as j where j.jobname = $1 and j.username = current_user);
begin
  if job_id is null then
    raise exception 'could not find valid entry for job ''%''', $1;
  end if;
  return cron.unschedule(job_id);
end
$$;
comment on function cron.unschedule(text) is 'unschedule a pg_cron job';

create function cron.alter_job(
  job_id bigint,
  schedule text default null,
  command text default null,
  database text default null,
  username text default null,
  active boolean default null
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if $1 is null then
    raise exception 'job_id can not be NULL';
  end if;
  if $2 is null and $3 is null and $4 is null and $5 is null and $6 is null then
    raise exception 'no updates specified'
      using hint = 'You must specify at least one job attribute to change when calling alter_job';
  end if;
  if $5 is not null
     and not (select r.rolsuper from pg_catalog.pg_roles as r where r.rolname = current_user) then
    raise exception 'must be superuser to alter username';
  end if;
  update cron.job as j
  set schedule = coalesce($2, j.schedule),
      command = coalesce($3, j.command),
      database = coalesce($4, j.database),
      username = coalesce($5, j.username),
      active = coalesce($6, j.active)
  where j.jobid = $1;
  if not found then
    raise exception 'Job % does not exist or you don''t own it', $1;
  end if;
end
$$;
comment on function cron.alter_job(bigint, text, text, text, text, boolean)
  is 'Alter the job identified by job_id. Any option left as NULL will not be modified.';

-- Privileges. pg_cron grants SELECT on its tables to PUBLIC (behind a schema nobody else may use)
-- and writes cron.job from C functions that switch to the extension's owner. The functions here run
-- as their caller, who therefore writes its own rows of cron.job (the policies above). As on
-- Supabase, only postgres (a superuser locally) gets the schema; anon, authenticated and
-- service_role get nothing. Another role that is to schedule jobs needs usage on schema cron,
-- select/insert/update/delete on cron.job and usage on cron.jobid_seq.
-- as in pg_cron: an administrator decides who may call alter_job
revoke all on function cron.alter_job(bigint, text, text, text, text, boolean) from public;
do $$
begin
  if exists (select from pg_catalog.pg_roles where rolname = 'postgres') then
    grant usage on schema cron to postgres with grant option;
    grant all on all functions in schema cron to postgres with grant option;
    grant all privileges on all tables in schema cron to postgres with grant option;
    grant all on all sequences in schema cron to postgres with grant option;
    revoke trigger on cron.job_run_details from postgres;
  end if;
end
$$;

-- The worker prepares a whole batch of notification jobs in one call instead of two calls per
-- job (merge the group, read the context): measured by `npm run bench:mail`, the per-job calls
-- were most of the worker's time.

-- For each claimed notification job: the merged payloads and what the mail needs, or when to
-- run instead, or why nothing is sent. Answers [{id, defer_until} | {id, context}] in the order
-- of p_job_ids; a job that is not running any more is left out.
create function public.prepare_notification_jobs(p_job_ids bigint[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
  v_kind text;
  v_merged jsonb;
  v_out jsonb := '[]'::jsonb;
begin
  foreach v_id in array coalesce(p_job_ids, '{}') loop
    select kind into v_kind from private.jobs where id = v_id and status = 'running';
    continue when not found;
    v_merged := public.merge_job_group(v_id);
    if v_merged ->> 'defer_until' is not null then
      v_out := v_out || jsonb_build_object('id', v_id, 'defer_until', v_merged -> 'defer_until');
    else
      v_out := v_out || jsonb_build_object('id', v_id,
        'context', public.notification_context(v_kind, v_merged -> 'payloads'));
    end if;
  end loop;
  return v_out;
end;
$$;

revoke all on function public.prepare_notification_jobs(bigint[]) from public, anon, authenticated;
grant execute on function public.prepare_notification_jobs(bigint[]) to service_role;

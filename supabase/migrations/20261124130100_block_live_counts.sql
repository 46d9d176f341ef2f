-- The owner's block list reads exact counts. Since 20261124120000 a block's counters may sit in
-- private.block_count_deltas for up to the 5 s fold while the row is busy; the dashboard read the
-- row's columns and could show a count a few seconds behind under a burst. These computed fields
-- (`blocks?select=response_count:live_response_count,...`) add the deltas not folded yet, like
-- member_count does for audience groups. security definer: the deltas are in schema private; a
-- block the caller cannot read (RLS: owners only) is never handed to them by PostgREST, and for
-- another owner's block the answer is null.
create function public.live_response_count(p_block public.blocks)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when p_block.owner_id = (select auth.uid())
                or coalesce((select auth.role()), 'service_role') not in ('anon', 'authenticated')
              then (private.with_live_counts(p_block)).response_count end;
$$;

create function public.live_new_response_count(p_block public.blocks)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when p_block.owner_id = (select auth.uid())
                or coalesce((select auth.role()), 'service_role') not in ('anon', 'authenticated')
              then (private.with_live_counts(p_block)).new_response_count end;
$$;

comment on function public.live_response_count(public.blocks) is
  'The block''s exact response count (computed field: the row plus the changes not folded yet). Null for another owner''s block.';
comment on function public.live_new_response_count(public.blocks) is
  'The block''s exact count of new responses (computed field: the row plus the changes not folded yet). Null for another owner''s block.';

revoke execute on function public.live_response_count(public.blocks) from public, anon;
revoke execute on function public.live_new_response_count(public.blocks) from public, anon;
grant execute on function public.live_response_count(public.blocks) to authenticated, service_role;
grant execute on function public.live_new_response_count(public.blocks) to authenticated, service_role;

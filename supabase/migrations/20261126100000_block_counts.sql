-- Counts for many pages in one request (issue 18, "beyond the spec").
--
-- A blog's index page shows "12 comments" under every post: one cacheable GET for up to 100
-- blocks instead of one get_block_public per post.
--   GET /rest/v1/rpc/get_block_counts?p_block_ids={id,id,...}
-- answers, in the order asked, one entry per active visitor block (comment, qna, like, button,
-- ab, form): {id, type, comments, likes, responses}, the counts get_block_public already shows
-- (comments: messages and replies of a comment or Q&A block; likes: a like block's likes;
-- responses: a form's, A/B's or button's responses), null where a count does not apply to the
-- type. A missing, deactivated or letter block is left out, so the answer says nothing about it
-- (not even that the id exists). Like get_block_public it reads no auth.uid() and sets
-- Cache-Control public, so a shared cache may give the same bytes to every caller.

create function public.get_block_counts(p_block_ids uuid[])
returns jsonb
language plpgsql
stable
-- security definer: anon cannot read blocks (RLS: owners only); only public counts come out
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  if cardinality(p_block_ids) > 100 then
    raise exception 'At most 100 blocks at once' using errcode = '22023';
  end if;
  with asked as (
    -- the first place of each id: a repeated id is answered once
    select id, min(n) as n
    from unnest(coalesce(p_block_ids, '{}')) with ordinality u(id, n)
    where id is not null
    group by id
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', b.id,
           'type', b.type,
           'comments', case when b.type in ('comment', 'qna') then c.response_count end,
           'likes', case when b.type = 'like' then c.like_count end,
           'responses', case when b.type in ('button', 'ab', 'form') then c.response_count end)
           order by a.n), '[]'::jsonb)
    into v_result
    from asked a
    join public.blocks b on b.id = a.id
    cross join lateral private.with_live_counts(b) c
    where not b.deactivated
      and b.type in ('comment', 'qna', 'like', 'button', 'ab', 'form');
  -- the same bytes for every caller: a CDN or proxy may keep it 10 s and serve it stale for 60 s
  -- more while it fetches it again, as get_block_public
  perform set_config('response.headers',
    '[{"Cache-Control": "public, max-age=10, stale-while-revalidate=60"}]', true);
  return v_result;
end;
$$;

comment on function public.get_block_counts(uuid[]) is
  'The public counts of up to 100 blocks in one cacheable GET (Cache-Control public max-age=10 stale-while-revalidate=60), in the order asked: [{id, type, comments, likes, responses}], null where a count does not apply to the type. Missing, deactivated and letter blocks are left out. Error: At most 100 blocks at once.';

revoke all on function public.get_block_counts(uuid[]) from public;
grant execute on function public.get_block_counts(uuid[]) to anon, authenticated, service_role;

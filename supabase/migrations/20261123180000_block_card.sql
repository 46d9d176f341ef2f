-- The public card of a block: the fields a link preview (Open Graph tags of /block) needs.
-- Visitor trust (20261123170000) made public.blocks readable by its owner only, so crawlers'
-- previews read this instead: one published block by id and owner, nothing else (no tags,
-- counts or settings beyond the preview's). STABLE, so PostgREST answers it on GET and a
-- shared cache may keep it for a minute.
create function public.get_block_card(p_owner_id uuid, p_block_id uuid)
returns table (
  id uuid,
  owner_id uuid,
  type text,
  name text,
  language text,
  open_graph jsonb
)
language sql
stable
security definer
set search_path = ''
as $$
  select
    b.id,
    b.owner_id,
    b.type::text,
    b.name,
    b.language::text,
    b.open_graph
  from public.blocks b
  where b.id = p_block_id
    and b.owner_id = p_owner_id
    and not b.deactivated
    and set_config(
      'response.headers',
      '[{"Cache-Control": "public, max-age=60, stale-while-revalidate=300"}]',
      true
    ) is not null;
$$;

revoke all on function public.get_block_card(uuid, uuid) from public;
grant execute on function public.get_block_card(uuid, uuid) to anon, authenticated, service_role;

comment on function public.get_block_card(uuid, uuid) is
  'The link preview fields of one published block (Open Graph); cacheable GET.';

-- Hand-written data step (rev-break3 N2), as docs/data-model.md allows: blocks linked to a Notion
-- target while their owner has no Notion connection are unlinked. Before
-- 20261129022958_notion_link_needs_connection, a workspace open in another tab could save such a
-- link after the connection was removed (rev-uncov3 D4); every response of the block then queued
-- a Notion write with no token to write it. remove_notion_connection unlinks the same way. No
-- schema change: `npm run db:diff -- --check` still agrees.
update public.block_private bp
  set notion_database = null, notion_page = null
  from public.blocks b
  where b.id = bp.block_id
    and (bp.notion_database is not null or bp.notion_page is not null)
    and not exists (
      select 1 from public.integrations i
      where i.user_id = b.owner_id and i.provider = 'notion'
    );

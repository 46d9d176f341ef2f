-- Hand-written data step (notion leftovers; docs/data-model.md, "Notion"). Before 6b74bfc8
-- (20261129065638_notion_link_check_everywhere, in the baseline since), save_block kept a link
-- as it was sent: upper case, without dashes or with spaces around it. The Integration section
-- compares its link with the ids Notion lists (lower case, with dashes), so it showed such a link
-- as missing, and the worker sent Notion the id as kept, spaces and all. So:
-- 1. a linked id that is a Notion id (32 hex digits once spaces, dashes and case are set aside)
--    is written as Notion spells it, lower case with dashes. The block's notes are about its
--    target, which does not change: their trigger is off for this step only. A like block's last
--    written page (private.notion_last_pages, a retry's anchor) follows its page's spelling;
-- 2. a listing recorded before it had listed_id is given Notion's spelling of its id (kept as the
--    32 hex digits, so the dashed form is known): a duplicated block keeps its link as before the
--    step (breaker BRK-7: forgetting the listing unlinked every copy made before the section was
--    opened again). One whose id is not 32 hex digits has no spelling to link with and is
--    forgotten; the Integration section lists again when it is opened.
-- No schema change: `npm run db:diff -- --check` still agrees.
alter table public.block_private disable trigger block_private_notion_target_changed;

with linked as (
  select bp.block_id, t.old_id,
         regexp_replace(private.notion_id(t.old_id),
                        '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\1-\2-\3-\4-\5') as new_id
    from public.block_private bp
      cross join lateral (values (bp.notion_database), (bp.notion_page)) as t (old_id)
    where private.notion_id(t.old_id) ~ '^[0-9a-f]{32}$'
),
respelled as (
  select distinct block_id, old_id, new_id from linked where new_id <> old_id
),
anchors as (
  update private.notion_last_pages l set parent_id = r.new_id
    from respelled r
    where l.block_id = r.block_id and l.parent_id = r.old_id
  returning l.block_id
)
update public.block_private bp
  set notion_database = coalesce((select r.new_id from respelled r
                                  where r.block_id = bp.block_id and r.old_id = bp.notion_database),
                                 bp.notion_database),
      notion_page = coalesce((select r.new_id from respelled r
                              where r.block_id = bp.block_id and r.old_id = bp.notion_page),
                             bp.notion_page)
  where bp.block_id in (select block_id from respelled);

alter table public.block_private enable trigger block_private_notion_target_changed;

update private.notion_listed
  set listed_id = regexp_replace(object_id, '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\1-\2-\3-\4-\5')
  where listed_id is null and object_id ~ '^[0-9a-f]{32}$';

delete from private.notion_listed where listed_id is null;

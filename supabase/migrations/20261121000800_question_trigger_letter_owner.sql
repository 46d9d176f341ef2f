-- Fix forward: a question's trigger_letter_block must be one of the owner's own letter blocks.
-- Foreign keys are checked without RLS, so the insert/update policies now say so explicitly.

drop policy "Owners can add questions to their blocks" on public.questions;
create policy "Owners can add questions to their blocks" on public.questions
  for insert to authenticated with check (
    exists (
      select 1 from public.blocks b
      where b.id = questions.block_id and b.owner_id = (select auth.uid()))
    and (questions.trigger_letter_block is null or exists (
      select 1 from public.blocks l
      where l.id = questions.trigger_letter_block
        and l.owner_id = (select auth.uid())
        and l.type in ('notion_letter', 'typedream_letter', 'brunch_letter'))));

drop policy "Owners can update questions of their blocks" on public.questions;
create policy "Owners can update questions of their blocks" on public.questions
  for update to authenticated
  using (exists (
    select 1 from public.blocks b
    where b.id = questions.block_id and b.owner_id = (select auth.uid())))
  with check (
    exists (
      select 1 from public.blocks b
      where b.id = questions.block_id and b.owner_id = (select auth.uid()))
    and (questions.trigger_letter_block is null or exists (
      select 1 from public.blocks l
      where l.id = questions.trigger_letter_block
        and l.owner_id = (select auth.uid())
        and l.type in ('notion_letter', 'typedream_letter', 'brunch_letter'))));

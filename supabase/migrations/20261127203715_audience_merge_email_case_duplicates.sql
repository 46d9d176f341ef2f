-- Hand-written data step before 20261127203938_audience_email_unique_any_case (which makes
-- audience_members_user_id_lower_email_idx unique): an owner's members whose addresses differ
-- only in case (dup@example.com, DUP@EXAMPLE.COM) become one, the oldest row (created_at, then
-- id), which keeps its name, group and state. From the newer rows it takes their mail counts and
-- their deliveries (deliveries.audience_member_id would otherwise be set null), a group when it
-- had none, and its confirmation when one of them had confirmed; then they are deleted (the
-- group counts follow through audience_members_after_change).
create temporary table audience_email_duplicates on commit drop as
  select m.id, first_value(m.id) over w as keep_id
  from public.audience_members m
  where m.email is not null
    and exists (select 1 from public.audience_members o
                where o.user_id = m.user_id and lower(o.email) = lower(m.email) and o.id <> m.id)
  window w as (partition by m.user_id, lower(m.email) order by m.created_at, m.id);
delete from audience_email_duplicates where id = keep_id;

update public.deliveries d set audience_member_id = x.keep_id
  from audience_email_duplicates x where d.audience_member_id = x.id;

update public.audience_members k
  set sent_count = k.sent_count + s.sent_count,
      delivered_count = k.delivered_count + s.delivered_count,
      opened_count = k.opened_count + s.opened_count,
      bounced_count = k.bounced_count + s.bounced_count,
      rejected_count = k.rejected_count + s.rejected_count,
      complaint_count = k.complaint_count + s.complaint_count,
      group_name = coalesce(k.group_name, s.group_name),
      awaiting_confirmation = k.awaiting_confirmation and s.awaiting_confirmation
  from (select x.keep_id,
               sum(m.sent_count) as sent_count, sum(m.delivered_count) as delivered_count,
               sum(m.opened_count) as opened_count, sum(m.bounced_count) as bounced_count,
               sum(m.rejected_count) as rejected_count, sum(m.complaint_count) as complaint_count,
               (array_agg(m.group_name order by m.created_at, m.id)
                  filter (where m.group_name is not null))[1] as group_name,
               bool_and(m.awaiting_confirmation) as awaiting_confirmation
        from audience_email_duplicates x join public.audience_members m on m.id = x.id
        group by x.keep_id) s
  where k.id = s.keep_id;

delete from public.audience_members m using audience_email_duplicates x where m.id = x.id;

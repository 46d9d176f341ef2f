-- Hand-written (a schedule is data: a row of cron.job). fold-counters ran only while block or
-- audience group deltas waited, so an option's count that waited beside its row alone (a
-- response deleted while another write held the option's row, the block's row free) stayed a
-- delta until some block or group delta came: exact to read (row plus deltas), but never folded
-- on a quiet block. The schedule now looks at the option deltas too.
select cron.schedule('fold-counters', '5 seconds',
  $$ select private.fold_counters() where exists (select 1 from private.block_count_deltas)
                                          or exists (select 1 from private.option_count_deltas)
                                          or exists (select 1 from private.audience_group_deltas); $$);

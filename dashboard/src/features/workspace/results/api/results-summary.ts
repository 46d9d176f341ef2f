// The summary above a block's results, computed by the database in one call
// (`block_results_summary`, supabase/schemas/results.sql): totals,
// responses over time, and per question the options' counts, number figures or latest answers.
// The answer is parsed, so a shape the screen does not expect fails here, loudly, not in a chart.
import { z } from 'zod';
import { supabase } from '../../../../lib/supabase';

const count = z.number().int().min(0);
const moment = z.string();

export const ZSummaryOption = z.object({
  id: z.string(),
  value: z.string(),
  deleted: z.boolean(),
  count,
});

export const ZSummaryQuestion = z.object({
  id: z.string(),
  index: z.number(),
  title: z.string(),
  type: z.string(),
  multi: z.boolean(),
  answered: count,
  options: z.array(ZSummaryOption).optional(),
  number: z
    .object({
      count,
      mean: z.number().nullable(),
      median: z.number().nullable(),
      min: z.number().nullable(),
      max: z.number().nullable(),
    })
    .optional(),
  latest: z.array(z.object({ value: z.string(), created_at: moment })).optional(),
});
export type TSummaryQuestion = z.infer<typeof ZSummaryQuestion>;

export const ZTimelineUnit = z.enum(['day', 'week', 'month']);
export type TTimelineUnit = z.infer<typeof ZTimelineUnit>;

export const ZResultsSummary = z.object({
  block: z.object({ id: z.string(), type: z.string(), response_count: count, like_count: count }),
  timezone: z.string(),
  totals: z.object({
    responses: count,
    last_7_days: count,
    first_at: moment.nullable(),
    last_at: moment.nullable(),
    // held by escalation, left out of every other figure until approved (issue 17)
    held: count.default(0),
  }),
  timeline: z.object({
    unit: ZTimelineUnit,
    points: z.array(z.object({ t: z.string(), n: count })),
  }),
  questions: z.array(ZSummaryQuestion),
});
export type TResultsSummary = z.infer<typeof ZResultsSummary>;

export const ZResultsSummaryInput = z.strictObject({
  blockId: z.guid(),
  timeZone: z.string().min(1).max(64),
});
export type TResultsSummaryInput = z.infer<typeof ZResultsSummaryInput>;

/** The browser's time zone (buckets are days in it), UTC when it cannot tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export async function getResultsSummary(
  input: TResultsSummaryInput,
  signal: AbortSignal,
): Promise<TResultsSummary> {
  const { blockId, timeZone } = ZResultsSummaryInput.parse(input);
  const { data, error } = await supabase
    .rpc('block_results_summary', { p_block_id: blockId, p_timezone: timeZone })
    .abortSignal(signal);
  if (error) throw error;
  return ZResultsSummary.parse(data);
}

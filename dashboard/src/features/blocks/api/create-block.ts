import { z } from 'zod';
import { LETTER_TYPES, REACTION_TYPES } from '../../../lib/db-types';
import { invokeFunction } from '../../../lib/supabase';

export const ZCreateBlockInput = z.object({
  blockType: z.enum([...REACTION_TYPES, ...LETTER_TYPES], { message: 'Invalid block' }),
});
export type TCreateBlockInput = z.infer<typeof ZCreateBlockInput>;

export const ZCreateBlockResult = z.object({ blockId: z.string().min(1) }).loose();
export type TCreateBlockResult = z.infer<typeof ZCreateBlockResult>;

/** Creates a block through the edge function create-block; the database enforces the limit. */
export async function createBlock(input: TCreateBlockInput): Promise<TCreateBlockResult> {
  const body = ZCreateBlockInput.parse(input);
  const data = await invokeFunction<unknown>('create-block', body);
  return ZCreateBlockResult.parse(data);
}

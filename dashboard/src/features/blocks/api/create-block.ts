import { z } from 'zod';
import { ZCreateBlock, type TCreateBlock } from '@reaction-blocks/contracts/schemas';
import { invokeFunction } from '../../../lib/supabase';

/** The payload schema shared with the edge function create-block. */
export const ZCreateBlockInput = ZCreateBlock;
export type TCreateBlockInput = TCreateBlock;

export const ZCreateBlockResult = z.object({ blockId: z.string().min(1) }).loose();
export type TCreateBlockResult = z.infer<typeof ZCreateBlockResult>;

/** Creates a block through the edge function create-block; the database enforces the limit. */
export async function createBlock(input: TCreateBlockInput): Promise<TCreateBlockResult> {
  const body = ZCreateBlockInput.parse(input);
  const data = await invokeFunction<unknown>('create-block', body);
  return ZCreateBlockResult.parse(data);
}

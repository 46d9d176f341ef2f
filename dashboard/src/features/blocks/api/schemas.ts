// The input schemas of the block dashboard's writes, a chunk of their own. The dashboard's first
// paint validates nothing, so each write loads this module where it parses (parseInput in
// parse-input.ts: `await import('./schemas')`) and zod (about 25 KB of gzip JS) loads with the
// first write instead of with the page (docs/dashboard.md, Size). One definition each.
import { z } from 'zod';

/** The payload schema shared with the edge function create-block. */
export {
  ZCreateBlock as ZCreateBlockInput,
  type TCreateBlock as TCreateBlockInput,
} from '@reaction-blocks/contracts/schemas';

export const ZCreateBlockResult = z.object({ blockId: z.string().min(1) }).loose();
export type TCreateBlockResult = z.infer<typeof ZCreateBlockResult>;

export const ZDeleteBlockInput = z.object({ id: z.string().min(1) });
export type TDeleteBlockInput = z.infer<typeof ZDeleteBlockInput>;

export const ZDuplicateBlockInput = z.object({ blockId: z.string().min(1) });
export type TDuplicateBlockInput = z.infer<typeof ZDuplicateBlockInput>;

// Tags are the one block setting written straight through PostgREST (everything else goes through
// save-block); the database holds them to this same rule (blocks.tags check constraints).
export const ZUpdateBlockTagsInput = z.object({
  id: z.string().min(1),
  tags: z.array(z.string().trim().min(1).max(50)).max(50),
});
export type TUpdateBlockTagsInput = z.infer<typeof ZUpdateBlockTagsInput>;

export const ZCreateTagInput = z.object({
  userId: z.string().min(1),
  label: z.string().trim().min(1).max(50),
});
export type TCreateTagInput = z.infer<typeof ZCreateTagInput>;

export const ZSetTagActiveInput = z.object({ id: z.string().min(1), active: z.boolean() });
export type TSetTagActiveInput = z.infer<typeof ZSetTagActiveInput>;

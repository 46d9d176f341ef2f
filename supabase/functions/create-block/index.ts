// Creates a block of the given type for the caller. The limit, the counter and the defaults
// live in the database (public.create_block); this validates the type and shapes the answer.
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { MESSAGES, ZCreateBlock } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  ownerHandler(ZCreateBlock, async ({ body, db }) => {
    const { data, error, status } = await db.rpc('create_block', { p_block_type: body.blockType });
    if (error) {
      if (error.message === MESSAGES.blockLimitReached) {
        throw new HttpError(403, 'block_limit_reached', MESSAGES.blockLimitReached);
      }
      if (error.message === MESSAGES.invalidBlock)
        throw new HttpError(400, 'invalid_block', MESSAGES.invalidBlock);
      throw dbError(error, status, new HttpError(400, 'create_failed', error.message));
    }
    const block = data as { id: string };
    return {
      status: true,
      message: 'created',
      blockId: block.id,
      blockPath: `/work/${block.id}`,
      fields: block,
    };
  }),
);

// Places blocks on the connected mall's screens (docs/cafe24.md): the owner's whole list at once,
// checked with the dashboard's schema, then by save_cafe24_placements (own reaction blocks; a
// thread per product only for comment, qna and like on product pages). The jobs queue then
// installs, changes or removes the loader's script tag to match. Paid owners only.
import { ZSaveCafe24Placements } from '@reaction-blocks/contracts/cafe24';
import { kickWorker } from '../_shared/background.ts';
import { serviceClient } from '../_shared/clients.ts';
import { requirePaid } from '../_shared/paid.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';

Deno.serve(
  ownerHandler(ZSaveCafe24Placements, async ({ body, user }) => {
    const db = serviceClient();
    await requirePaid(user.id);
    const { data, error, status } = await db.rpc('save_cafe24_placements', {
      p_user_id: user.id,
      p_placements: body.placements.map((p) => ({
        block_id: p.blockId,
        location: p.location,
        per_product: p.perProduct,
        selector: p.selector,
        position: p.position,
      })),
    });
    if (error) {
      if (error.code === 'PT404') throw new HttpError(404, 'not_found', error.message);
      if (error.code === 'P0001') throw new HttpError(400, 'invalid_input', error.message);
      throw dbError(error, status);
    }
    kickWorker();
    return { placements: data };
  }),
);

// Found from a clean clone in the fifth hostile review (breaker, 2026-11-26), as an attacker with
// the anon key and a few accounts would try it.
//
// Live hints are public (issue 19): anyone may hear a hint on one page's topic and send it again
// on another's. get_block_change checks the block, not the page, so what keeps a message of one
// product page out of another's list is the change's row, which must say its page (the client
// drops a change whose page_key is not its topic's: sdk/src/core/live.ts, live.test.ts).
import { describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, sql } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';

describe('a live hint replayed on another page of the same block', () => {
  it("reads a change whose row names its own page, so another page's viewer can drop it", async () => {
    const owner = await newUser('replay-owner');
    const block = await createBlock(owner, 'comment');
    const visitor = await newGuest();
    const posted = await visitor.client.rpc('post_message', {
      p_block_id: block,
      p_content: 'a comment on product p2',
      p_creator_name: 'Quiet Otter',
      p_page_key: 'p2',
    });
    expect(posted.error).toBeNull();
    const own = await visitor.client.rpc('post_message', {
      p_block_id: block,
      p_content: "on the block's own thread",
      p_creator_name: 'Quiet Otter',
    });
    expect(own.error).toBeNull();
    const changes = await sql<{ id: string; page: string | null }>(
      `select id, payload #>> '{row,page_key}' as page from private.block_changes
       where block_id = $1 and event = 'change' order by created_at`,
      [block],
    );
    expect(changes.map((c) => c.page)).toEqual(['p2', '']);
    // what a viewer of page p1 reads for either hint, replayed on block:<id>:page:p1: the same
    // answer as for the page's own viewers (the read is by block and id), with the row's page
    for (const [i, c] of changes.entries()) {
      const read = await anonClient().rpc('get_block_change', { p_block_id: block, p_id: c.id });
      expect(read.error).toBeNull();
      const row = (read.data as { payload: { row: { id: string; page_key: string } } }).payload.row;
      expect(row.id).toBe(([posted.data, own.data][i] as { id: string }).id);
      expect(row.page_key).toBe(c.page);
    }
  });
});

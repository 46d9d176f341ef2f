// Found from a clean clone in the seventh hostile review (breaker, 2026-11-26, main at e85eb7b):
// escalation under a storm covers messages, form responses and A/B votes; every other write of a
// visitor without a track record is "refused as before" (docs/data-model.md, "When a shared
// budget is under pressure"), so a few fresh accounts still turn a block's shared budget of
// likes (600 a minute), clicks, edits or reports against its real visitors. Repro (the body
// below, on the test stack): 20 anonymous visitors of one address toggle a like block's like on
// and off as fast as they can (each within its own 60 a minute, 30 at once: about 670 writes in
// 8 s); meanwhile 10 fresh visitors, one after another, like the block once each: 7 and 10 of
// them were refused in two runs, 429 scope block, Retry-After 1-2 s, and a retry meets the same
// storm. The address's fair share of a block's budget (limits.address_share, 0.25) exists for
// messages only. Ways out (a decision, not made here): the address's share for every action (a storm's
// address then takes at most a quarter of the block's likes; the load and hot-rows benchmarks,
// whose visitors are all the loopback, would need the share widened as storm.test does), or
// likes and clicks kept as they come, with the block's counter bounded instead of the writes.
import { describe, expect, it } from 'vitest';
import { newGuest, newUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { eventually } from './support/providers.ts';

describe("a storm of fresh accounts on a block's likes", () => {
  it.todo("leaves the block's real visitors able to like it", async () => {
    const owner = await newUser('like-storm-owner');
    const block = await createBlock(owner, 'like');
    const storm = await Promise.all(Array.from({ length: 20 }, () => newGuest()));
    const visitors = await Promise.all(Array.from({ length: 10 }, () => newGuest()));
    let stop = false;
    let stormWrites = 0;
    const running = storm.map(async (g, i) => {
      let liked = i % 2 === 0;
      while (!stop) {
        const r = await g.client.rpc('toggle_block_like', { p_block_id: block, p_liked: !liked });
        if (!r.error) {
          liked = !liked;
          stormWrites += 1;
        }
      }
    });
    try {
      // the storm has spent the block's bucket once
      await eventually(async () => stormWrites >= 600 || undefined, 60_000);
      const refused: string[] = [];
      for (const v of visitors) {
        const r = await v.client.rpc('toggle_block_like', { p_block_id: block, p_liked: true });
        if (r.error) refused.push(`${r.status} ${r.error.hint}`);
      }
      // main at e85eb7b: 7 and 10 of 10 refused, 429 {"scope": "block", "action": "like"}
      expect(refused).toEqual([]);
    } finally {
      stop = true;
      await Promise.all(running);
    }
  });
});

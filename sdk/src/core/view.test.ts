import { expect } from '@open-wc/testing';
import { mineArgs, withMine } from './view.js';
import type { Mine } from './base.js';
import type { BlockView, Message } from './types.js';
import { block } from '../test/mock-api.js';
import { message } from '../test/fixtures.js';

const msg = (id: string, created: string, over: Partial<Message> = {}): Message =>
  message(id, { creator_name: id, content: id, created_at: created, ...over });

const page = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => msg('m' + i, `2026-01-0${9 - i}T00:00:00Z`));

const view = (messages: Message[]): BlockView => ({
  block: block({ type: 'comment' }),
  messages,
});

const mine = (over: Partial<Mine> = {}): Mine => ({
  me: { liked: false, liked_message_ids: [], reported_message_ids: [], vote: null },
  messages: [],
  replies: [],
  ...over,
});

describe("block view: public part and the visitor's own part", () => {
  it('asks for the ids on screen and, for a full page only, its lower bound', () => {
    const full = view([
      msg('p', '2020-01-01T00:00:00Z', { pinned_at: '2026-02-01T00:00:00Z' }),
      ...page(5).map((m, i) =>
        i === 0 ? { ...m, replies: [msg('r', m.created_at, { parent_id: m.id })] } : m,
      ),
    ]);
    expect(mineArgs(full)).to.deep.equal({
      p_block_id: 'b1',
      p_message_ids: ['p', 'm0', 'r', 'm1', 'm2', 'm3', 'm4'],
      p_since: '2026-01-05T00:00:00Z',
    });
    // fewer than a page: everything is shown, so no lower bound
    expect(mineArgs(view(page(3)))).to.have.property('p_since', null);
    // a block without a visitor's own part asks nothing
    expect(mineArgs({ block: block({ type: 'form' }) })).to.equal(null);
  });

  it("puts the visitor's own threads and replies in their places, once, and marks likes", () => {
    const v = view(page(5));
    const merged = withMine(
      v,
      mine({
        me: { liked: false, liked_message_ids: ['m1', 'own'], reported_message_ids: ['m2'] },
        messages: [
          msg('own', '2026-01-07T12:00:00Z', { status: 'held', creator_id: 'me' }),
          // already shown (the cache caught up): not twice
          msg('m3', '2026-01-06T00:00:00Z'),
        ],
        replies: [
          msg('late', '2026-01-09T05:00:00Z', { parent_id: 'm0', status: 'held' }),
          msg('early', '2026-01-09T01:00:00Z', { parent_id: 'm0' }),
          // a reply to a thread not on screen has nowhere to go
          msg('lost', '2026-01-09T01:00:00Z', { parent_id: 'elsewhere' }),
        ],
      }),
    );
    expect(merged.messages!.map((m) => m.id)).to.deep.equal(['m0', 'm1', 'own', 'm2', 'm3', 'm4']);
    expect(merged.messages![0]!.replies!.map((r) => r.id)).to.deep.equal(['early', 'late']);
    expect(merged.messages!.filter((m) => m.liked).map((m) => m.id)).to.deep.equal(['m1', 'own']);
    expect(merged.me!.reported_message_ids).to.deep.equal(['m2']);
    // the counts as they are now come with the visitor's part
    expect(
      withMine(v, mine({ block: block({ type: 'comment', response_count: 9 }) })).block
        .response_count,
    ).to.equal(9);
    // the public view itself is not changed
    expect(v.messages!.map((m) => m.id)).to.deep.equal(['m0', 'm1', 'm2', 'm3', 'm4']);
  });
});

// The comment list's pure model: changes and their effect on the message count, and the merge of
// a list read again after a sign-in or log out.
import { expect } from '@open-wc/testing';
import type { Change } from '../../core/live.js';
import type { Message } from '../../core/types.js';
import { applyChange } from './comment.changes.js';
import { mergeThreads } from './comment.read.js';

/** A change applied by an element that has counted nothing out yet. */
const apply = (l: Message[], c: Change, gone = new Set<string>()) => applyChange(l, c, gone);

let t = Date.parse('2024-05-06T10:00:00Z');
const m = (id: string, over: Partial<Message> = {}): Message => ({
  id,
  block_id: 'b1',
  parent_id: null,
  creator_id: 'u',
  creator_name: 'U',
  content: id,
  created_at: new Date((t -= 60000)).toISOString(),
  replies: [],
  ...over,
});

describe('comment model: applyChange', () => {
  const list = () => [m('a', { replies: [m('a1', { parent_id: 'a' })], reply_count: 1 }), m('b')];

  it('an insert adds a thread on top or a reply at the end, and counts one', () => {
    let r = apply(list(), { type: 'INSERT', row: m('n') });
    expect(r.list.map((x) => x.id)).to.deep.equal(['n', 'a', 'b']);
    expect(r.delta).to.equal(1);
    r = apply(list(), { type: 'INSERT', row: m('a2', { parent_id: 'a' }) });
    expect(r.list[0]!.replies!.map((x) => x.id)).to.deep.equal(['a1', 'a2']);
    expect(r.list[0]!.reply_count).to.equal(2);
    expect(r.delta).to.equal(1);
  });

  it('an insert already shown (our own post coming back live) changes nothing and counts nothing', () => {
    const r = apply(list(), { type: 'INSERT', row: m('b', { content: 'b again' }) });
    expect(r.list.map((x) => x.id)).to.deep.equal(['a', 'b']);
    expect(r.delta).to.equal(0);
  });

  it('a reply to a thread not loaded is not shown but counts (the server counts it)', () => {
    const before = list();
    const r = apply(before, { type: 'INSERT', row: m('z1', { parent_id: 'z' }) });
    expect(r.list).to.equal(before);
    expect(r.delta).to.equal(1);
  });

  it('a delete takes a thread with its replies, or one reply, and counts each message out once', () => {
    // the thread counts one: its replies' own DELETEs (the cascade) count theirs
    let r = apply(list(), { type: 'DELETE', row: { id: 'a' } });
    expect(r.list.map((x) => x.id)).to.deep.equal(['b']);
    expect(r.delta).to.equal(-1);
    expect(apply(r.list, { type: 'DELETE', row: { id: 'a1' }, live: true }).delta).to.equal(-1);
    r = apply(list(), { type: 'DELETE', row: { id: 'a1' } });
    expect(r.list[0]!.replies).to.deep.equal([]);
    expect(r.list[0]!.reply_count).to.equal(0);
    expect(r.delta).to.equal(-1);
    // an older message not loaded here (break9 C1: on main 0, the count stayed one too high)
    const gone = new Set<string>();
    expect(apply(list(), { type: 'DELETE', row: { id: 'x' } }, gone).delta).to.equal(-1);
    // the visitor's own delete, from its answer, then heard live: counted once
    expect(apply(list(), { type: 'DELETE', row: m('b') }, gone).delta).to.equal(-1);
    expect(apply(list(), { type: 'DELETE', row: { id: 'b' }, live: true }, gone).delta).to.equal(0);
    // a thread hidden and shown again comes back without its replies, which stay counted: their
    // DELETEs then count (break9 C1's hide, show, delete: on main the count stayed high)
    const hidden = apply(list(), { type: 'REMOVE', row: { id: 'a' }, live: true });
    const shown = apply(hidden.list, {
      type: 'UPDATE',
      row: m('a', { status: 'published' }),
      live: true,
      published: true,
    });
    const reply = apply(shown.list, {
      type: 'DELETE',
      row: { id: 'a1', parent_id: 'a' },
      live: true,
    });
    expect([hidden.delta, shown.delta, reply.delta]).to.deep.equal([-1, 1, -1]);
    // its own held message was never counted
    expect(apply(list(), { type: 'DELETE', row: m('h', { status: 'held' }) }).delta).to.equal(0);
  });

  it('an update of a message not shown is ignored', () => {
    const before = list();
    const r = apply(before, { type: 'UPDATE', row: m('x') });
    expect(r).to.deep.equal({ list: before, delta: 0 });
  });

  it('the block counts published messages: a held one when approved, a removed one no longer', () => {
    // the writer's own held reply shows, but neither the block nor its parent counts it
    const held = apply(list(), {
      type: 'INSERT',
      row: m('h', { parent_id: 'a', status: 'held' }),
    });
    expect(held.delta).to.equal(0);
    expect(held.list[0]!.reply_count).to.equal(1);
    const approved = { ...held.list[0]!.replies![1]!, status: 'published' as const };
    const r = apply(held.list, {
      type: 'UPDATE',
      row: approved,
      live: true,
      published: true,
    });
    expect(r.delta).to.equal(1);
    // approved or shown again while not loaded here: counted all the same
    expect(apply(list(), { type: 'UPDATE', row: m('x'), published: true }).delta).to.equal(1);
    expect(apply(list(), { type: 'REMOVE', row: { id: 'b' }, live: true }).delta).to.equal(-1);
    expect(apply(list(), { type: 'REMOVE', row: { id: 'x' }, live: true }).delta).to.equal(-1);
  });
});

describe('comment model: mergeThreads', () => {
  it('takes the fresh copy of each thread, keeps older held ones, drops those deleted meanwhile', () => {
    const [a, b, c, d] = [m('a'), m('b'), m('c'), m('d')];
    const held = [a, { ...b, content: 'old' }, c, d];
    // Read again: a and b (b edited meanwhile); c was deleted; d is older than the read went.
    const fresh = [{ ...b, content: 'new', liked: true }];
    const merged = mergeThreads([a, fresh[0]!], held);
    expect(merged.map((x) => x.id)).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(merged[1]!.content).to.equal('new');
    expect(mergeThreads([a, b, d], held).map((x) => x.id)).to.deep.equal(['a', 'b', 'd']);
    expect(mergeThreads([], held).map((x) => x.id)).to.deep.equal(['a', 'b', 'c', 'd']);
  });
});

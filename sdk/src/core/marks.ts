// Which blocks the anonymous visitor of this browser wrote to, liked, voted on or reported: their
// own part of a block view (get_block_me) can differ from nothing only there, so their views of
// every other block are the cacheable GET alone. The list starts with the write that made the
// anonymous user (so it is complete) and belongs to that user; it holds a short prefix of each
// block id (a prefix two blocks share costs only a get_block_me that answers nothing), the newest
// 200, sealed like the session (core/storage.ts) and never sent anywhere. A user without such a
// list (made before it was kept, or signed in, who may have written from another browser) reads
// get_block_me on every view, as before. Loaded as a chunk of its own: only with a session, which
// is also when an element asks for its visitor's own part (withOwnPart).
import { pageOf, rpc } from './api.js';
import type { Session } from './session.js';
import type { Project } from './config.js';
import { flush, load, write } from './storage.js';
import type { BlockView } from './types.js';
import type { Mine, MinePart } from './view.js';

interface Marks {
  /** the user the list belongs to */
  u: string;
  /** prefixes of the blocks written to, oldest first */
  b: string[];
}

const key = (p: Project) => 'reaction-blocks.mine:' + p.url;
const short = (blockId: string) => blockId.replace(/-/g, '').slice(0, 12);

async function list(p: Project, userId: string): Promise<Marks | null> {
  const m = await load<Marks>(key(p));
  return m && m.u === userId && Array.isArray(m.b) ? m : null;
}

/** Notes (and keeps) a write of `s`'s user to the block; `first`: the write made the user. */
export async function markWrite(p: Project, s: Session, blockId: string, first: boolean) {
  const m = first ? { u: s.user.id, b: [] } : await list(p, s.user.id);
  if (!m || !blockId) return;
  const b = m.b.filter((x) => x !== short(blockId));
  b.push(short(blockId));
  write(key(p), { u: m.u, b: b.slice(-200) });
  // in storage before the write goes: a reload as it lands must still ask for the visitor's part
  await flush(key(p));
}

/** Whether get_block_me may answer more than nothing for the block (see above). */
export async function mayHaveMine(p: Project, s: Session, blockId: string): Promise<boolean> {
  const m = s.user.is_anonymous ? await list(p, s.user.id) : null;
  return !m || m.b.includes(short(blockId));
}

/**
 * The visitor's own part of a block without messages (like, A/B): `me`, and the counts as they
 * are now, so their own like or vote never shows beside a cached count from before it.
 */
export const meOnly: MinePart = {
  args: (v) => ({ p_block_id: v.block.id, ...pageOf(v.block) }),
  join: (v, m) => ({ ...v, ...m }),
};

/**
 * The view with the visitor's own part joined (get_block_me with their session, `mine` saying
 * what to ask and how it joins), only where it can differ from nothing: most returning views are
 * the cacheable GET alone.
 */
export async function withOwnPart(
  p: Project,
  s: Session,
  view: BlockView,
  mine: () => MinePart | Promise<MinePart>,
): Promise<BlockView> {
  if (!(await mayHaveMine(p, s, view.block.id))) return view;
  const part = await mine();
  const args = part.args(view);
  return args ? part.join(view, await rpc<Mine>(p, 'get_block_me', args)) : view;
}

import { UUID_RE } from '@reaction-blocks/contracts/ids';
// Counts for many pages in one request (<reaction-count>): every count asked for in the same task
// goes out in one cacheable GET of get_block_counts, up to 100 blocks a request.
import { request } from './request.js';
import type { Project } from './config.js';
import { log } from './log.js';

/** One block's public counts, as get_block_counts answers them (null: not this type's count). */
export interface BlockCount {
  id: string;
  type: string;
  comments: number | null;
  likes: number | null;
  responses: number | null;
}

/** The server's limit per request. */
export const COUNTS_MAX = 100;

/**
 * The request for the counts of up to 100 blocks (ids sorted, as the page sends them): a GET with
 * the anon key only, the same for every visitor, so a shared cache may answer it.
 */
export const countsRequest = (p: Project, ids: string[]): [string, RequestInit] =>
  request(p, 'get_block_counts', { p_block_ids: `{${ids}}` }, '', true);

type Done = (count: BlockCount | null) => void;
/** The answer of each block already asked for on this page, by project and id. */
const known = new Map<string, Promise<BlockCount | null>>();
/** Blocks waiting for the next request, by project URL. */
const queued = new Map<string, { p: Project; ids: Map<string, Done> }>();

/**
 * The counts of one block, or null for a block that has none to show (missing, deactivated, a
 * letter, or a failed request). Calls made in the same task share one request per 100 blocks.
 */
export function countOf(p: Project, blockId: string): Promise<BlockCount | null> {
  if (!p.url || !p.key) {
    log('Missing project-url or anon-key');
    return Promise.resolve(null);
  }
  const id = blockId.trim().toLowerCase();
  // a malformed id would make the whole request a 400: it is never sent
  if (!UUID_RE.test(id)) return Promise.resolve(null);
  const key = p.url + ' ' + id;
  let answer = known.get(key);
  if (!answer) known.set(key, (answer = new Promise((done) => ask(p, id, done))));
  return answer;
}

function ask(p: Project, id: string, done: Done): void {
  let q = queued.get(p.url);
  if (!q) {
    queued.set(p.url, (q = { p, ids: new Map() }));
    // a macrotask, so every element defined, parsed or rendered in this task joins the request
    setTimeout(() => send(q!));
  }
  q.ids.set(id, done);
}

function send(q: { p: Project; ids: Map<string, Done> }): void {
  queued.delete(q.p.url);
  // sorted: the same blocks make the same URL, whatever their order on the page (one cache entry)
  const ids = [...q.ids.keys()].sort();
  for (let i = 0; i < ids.length; i += COUNTS_MAX) {
    const part = ids.slice(i, i + COUNTS_MAX);
    const answer = (list: BlockCount[]) => {
      const by = new Map(list.map((c) => [c.id, c]));
      for (const id of part) q.ids.get(id)!(by.get(id) ?? null);
    };
    fetch(...countsRequest(q.p, part))
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error('HTTP ' + res.status))))
      .then(answer, (e) => {
        log('could not load counts', e);
        // asked again by the next element that wants them
        for (const id of part) known.delete(q.p.url + ' ' + id);
        answer([]);
      });
  }
}

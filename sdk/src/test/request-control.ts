// The dev server's request control (web-test-runner.config.mjs): this page's requests for a
// module held or counted, told apart from other pages' by a cookie.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../components/like/like.js';
import type ReactionLike from '../components/like/like.component.js';
import { B1, $, KEY, PROJECT, block, mockApi, until, wait } from './mock-api.js';

const page = Math.random().toString(36).slice(2);
document.cookie = `rb-page=${page}; path=/`;

/** The server path of a module beside `base` (`import.meta.url`), as the dev server serves it. */
export const modulePath = (name: string, base: string): string =>
  new URL(name, base).pathname.replace(/\.js$/, '.ts');

export const requested = (path: string) =>
  executeServerCommand<number, object>('requested', { page, path });
export const holdNext = (path: string) => executeServerCommand('hold-request', { page, path });
export const release = (path: string) => executeServerCommand('release-request', { page, path });

/**
 * Waits for this page's first request for `path` (the visitor's first interaction asks for it),
 * up to 20 s: a bound on a hang, not a measure (a count of polls was one: at CI's start, with three
 * browsers launching and the dev server compiling for all of them, 200 polls passed before the
 * import's request came). `what` names the interaction in the failure.
 */
export async function requestedOnce(path: string, what = 'the first interaction'): Promise<void> {
  try {
    await until(async () => (await requested(path)) >= 1, 20000);
  } catch {
    throw new Error(`${what} did not start loading ${path}`);
  }
  expect(await requested(path), 'requested once').to.equal(1);
}

/** The writer's profile's code (core/identity.ts) and the comment element's write paths. */
const IDENTITY = modulePath('../core/identity.js', import.meta.url);
const PATHS = modulePath('../components/comment/comment.writer.js', import.meta.url);

/**
 * Holds the writer's profile's code and the comment element's write paths, which `start` (the
 * visitor's first interaction) asks for, until releaseWriting.
 */
export async function holdWriting(start: () => void): Promise<void> {
  expect(await requested(IDENTITY), 'a reader loads no profile').to.equal(0);
  await holdNext(IDENTITY);
  await holdNext(PATHS);
  start();
  await requestedOnce(IDENTITY);
  await requestedOnce(PATHS);
}

/**
 * Lets the profile's code come (the composer takes the profile), then the write paths, and waits
 * for `el` to have them.
 */
export async function releaseWriting(el: HTMLElement & { updateComplete: Promise<unknown> }) {
  await release(IDENTITY);
  await wait(100);
  await release(PATHS);
  await until(() => (el as unknown as { paths?: unknown }).paths, 20000);
  await wait(50);
  await el.updateComplete;
}

/** A like block of 7 likes, loaded; the fake server takes the like (8) and its undoing (7). */
export async function mountLike() {
  const api = mockApi({
    get_block_view: () => ({ block: block({ like_count: 7 }), me: { liked: false } }),
    toggle_block_like: (b) => ({ liked: b.p_liked, like_count: b.p_liked ? 8 : 7 }),
  });
  const el = await fixture<ReactionLike>(
    html`<reaction-like block-id=${B1} project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
  );
  await until(() => el['_status'] === 'ready', 20000);
  await el.updateComplete;
  return { el, api, btn: $<HTMLButtonElement>(el, 'button') };
}

/**
 * A test of code that comes late, starting with nothing stored. Up to 60 s, a bound on a hang: it
 * waits for modules held back, each wait bounded at 20 s, and its group runs first at the suite's
 * start, when three browsers launch and the dev server compiles for all of them (the modules
 * come uncached: the group's pages do not use the HTTP cache).
 */
export function itLate(name: string, test: () => Promise<void>): void {
  it(name, async function (this: { timeout(ms: number): void }) {
    this.timeout(60000);
    localStorage.clear();
    try {
      await test();
    } finally {
      await executeServerCommand('release-all', { page });
    }
  });
}

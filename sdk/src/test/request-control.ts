// The dev server's request control (web-test-runner.config.mjs): this page's requests for a
// module held or counted, told apart from other pages' by a cookie.
import { fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../components/like/like.js';
import type ReactionLike from '../components/like/like.component.js';
import { $, KEY, PROJECT, block, mockApi, until } from './mock-api.js';

const page = Math.random().toString(36).slice(2);
document.cookie = `rb-page=${page}; path=/`;

/** The server path of a module beside `base` (`import.meta.url`), as the dev server serves it. */
export const modulePath = (name: string, base: string): string =>
  new URL(name, base).pathname.replace(/\.js$/, '.ts');

export const requested = (path: string) =>
  executeServerCommand<number, object>('requested', { page, path });
export const holdNext = (path: string) => executeServerCommand('hold-request', { page, path });
export const release = (path: string) => executeServerCommand('release-request', { page, path });

/** A like block of 7 likes, loaded; the fake server takes the like (8) and its undoing (7). */
export async function mountLike() {
  const api = mockApi({
    get_block_view: () => ({ block: block({ like_count: 7 }), me: { liked: false } }),
    toggle_block_like: (b) => ({ liked: b.p_liked, like_count: b.p_liked ? 8 : 7 }),
  });
  const el = await fixture<ReactionLike>(
    html`<reaction-like block-id="b1" project-url=${PROJECT} anon-key=${KEY}></reaction-like>`,
  );
  await until(() => el['_status'] === 'ready', 10000);
  await el.updateComplete;
  return { el, api, btn: $<HTMLButtonElement>(el, 'button') };
}

/**
 * A test of code that comes late: up to 30 s (it waits for modules held back), starting with
 * nothing stored.
 */
export function itLate(name: string, test: () => Promise<void>): void {
  it(name, async function (this: { timeout(ms: number): void }) {
    this.timeout(30000);
    localStorage.clear();
    await test();
  });
}

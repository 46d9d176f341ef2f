// Putting an element on the test page the way most element tests start: of block b1 on the test
// project, once it has read its block and drawn it.
import { fixture } from '@open-wc/testing';
import { B1, KEY, PROJECT, until } from './mock-api.js';

const quoted = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * `<tag>` with `attrs` (block-id B1 unless they say otherwise) and the test project's URL and key,
 * once it is ready (its block read) and rendered.
 */
export async function mountReady<T extends HTMLElement & { updateComplete: Promise<unknown> }>(
  tag: string,
  attrs: Record<string, string> = {},
): Promise<T> {
  const all = { 'block-id': B1, ...attrs, 'project-url': PROJECT, 'anon-key': KEY };
  const list = Object.entries(all).map(([name, value]) => `${name}="${quoted(value)}"`);
  const el = await fixture<T>(`<${tag} ${list.join(' ')}></${tag}>`);
  // a bound on a hang, not a measure: on a busy machine, or behind a storage that gives its key up
  // only at vault.ts's 3 s bound (storage.hung), getting ready took over until's 2 s default
  await until(() => (el as unknown as { _status: string })._status === 'ready', 15_000);
  await el.updateComplete;
  return el;
}

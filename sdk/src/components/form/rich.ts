// Owner-written HTML as the form shows it (description questions, endings' closing texts): the
// sanitiser (core/html.ts) and the sanitised HTML as nodes, a chunk of its own. The form loads it
// before it shows a view with a description question, and with the writer's code (an ending shows
// after a submit); a form without a description never loads it before its first data.
import { sanitize } from '../../core/html.js';

export { sanitize };

/** Owner HTML shown at each place of each form (a question's id, an ending's): its text and nodes. */
const shown = new WeakMap<object, Map<string, { clean: string; nodes: Node[] }>>();

/**
 * Owner-written HTML at one place (`at`) of a form, sanitised, as a list of nodes, which the form
 * renders as they are: the same list while the text stays the same, so drawing the form again
 * leaves them in place (Lit moves a node it is given, so a template drawn anew takes them too).
 * Parsed in a template, whose content is inert.
 */
export function richAt(form: object, at: string, input: string | null | undefined): Node[] {
  const clean = sanitize(input);
  let places = shown.get(form);
  if (!places) shown.set(form, (places = new Map()));
  let held = places.get(at);
  if (held?.clean !== clean) {
    const t = document.createElement('template');
    t.innerHTML = clean;
    places.set(at, (held = { clean, nodes: [...t.content.childNodes] }));
  }
  return held.nodes;
}

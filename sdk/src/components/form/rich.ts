// Owner-written HTML as the form shows it (description questions, endings' closing texts): the
// sanitiser (core/html.ts) with Lit's unsafeHTML, a chunk of its own. The form loads it before it
// shows a view with a description question, and with the writer's code (an ending shows after a
// submit); a form without a description never loads it before its first data.
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { sanitize } from '../../core/html.js';

export { sanitize };

/** HTML reduced to the contracts' allow-list (sanitize), to render. */
export const rich = (clean: string) => unsafeHTML(clean);

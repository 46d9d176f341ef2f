/**
 * English texts, the fallback for every language, in groups of one module each (locales/en/):
 * each element names the groups it speaks (`static texts`), so its code carries only its own (a
 * like block does not ship the comment box's forty texts), also where elements share chunks. Keys
 * are unique across groups and follow i18next's `_one`/`_other` plurals.
 */

import type { SERVER_SAID } from './server-said.js';
import { core } from './en/core.js';
import { fields } from './en/fields.js';
import { like } from './en/like.js';
import { button } from './en/button.js';
import { ab } from './en/ab.js';
import { form } from './en/form.js';
import { comment } from './en/comment.js';
import { commentWrite } from './en/comment-write.js';
import { count } from './en/count.js';
import { write } from './en/write.js';

export { core, fields, like, button, ab, form, comment, commentWrite, count, write };

/** Every English text: the shape of a full translation (locales/ko.ts). */
type ServerSaid = Record<(typeof SERVER_SAID)[number], string>;

export type Texts = ServerSaid &
  typeof core &
  typeof fields &
  typeof like &
  typeof button &
  typeof ab &
  typeof form &
  typeof comment &
  typeof commentWrite &
  typeof count &
  typeof write;

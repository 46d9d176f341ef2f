// The server's letter messages (the spec's English wording) in the reader's language.
import type { TFunction } from 'i18next';
import { LEFT_OUT_KINDS, LETTER_MESSAGES, type TLeftOut } from '@reaction-blocks/contracts/letters';
import { MESSAGES } from '@reaction-blocks/contracts/schemas';
import { failureReason, messageOf, withWait } from '../../../lib/errors';

/** The letter messages said in the reader's language, by their name (letters.errors.<name>). */
const TRANSLATED = [
  'invalidAddress',
  'notionError',
  'typedreamError',
  'notYourArticle',
  'verifyBrunchFirst',
  'notSupportedMode',
  'failedToLoad',
  'noSample',
  'verifySenderFirst',
  'subjectLineBreak',
  'noSuchGroup',
  'saveLetterFirst',
  'saveLetterAgain',
  'letterTooLong',
] as const satisfies readonly (keyof typeof LETTER_MESSAGES)[];

/** A server message's name under letters.errors. */
const KEYS: Record<string, string> = {
  ...Object.fromEntries(TRANSLATED.map((name) => [LETTER_MESSAGES[name], name])),
  [MESSAGES.tooManyCalls]: 'tooManyCalls',
};

/** One of the server's letter messages in the reader's language, or undefined. */
function knownLetterMessage(t: TFunction, message: string): string | undefined {
  const key = KEYS[message];
  if (key) return t(`letters.errors.${key}`);
  // "Paid plan required (audience)": the plan ended while the dialog was open
  if (message.startsWith(`${LETTER_MESSAGES.paidPlanRequired} (`))
    return t('letters.errors.paidPlanRequired');
  const writer = /^Please enter link of (.+)'s article\.$/.exec(message)?.[1];
  if (writer) return t('letters.errors.writerArticle', { writer });
  return undefined;
}

/** A message of the shared letter schema (a check made here) in the reader's language. */
export function letterMessage(t: TFunction, message: string): string {
  return knownLetterMessage(t, message) ?? message;
}

/**
 * A failed letter call's reason in the reader's language: one of the server's letter messages
 * (with the wait a refusal says), anything else as failureReason says, never its English.
 */
export function letterReason(
  t: TFunction,
  cause: unknown,
  own: Readonly<Record<string, string>> = {},
): string {
  const message = messageOf(cause);
  const known = Object.hasOwn(own, message) ? t(own[message]!) : knownLetterMessage(t, message);
  return known === undefined ? failureReason(cause) : withWait(t, cause, known);
}

/**
 * What a loaded page had that its letter does not carry, as the lines the workspace shows under
 * the page address: the page cut at N parts, the kinds of parts left out, counted, and the
 * captions and tables kept in part.
 */
export function leftOutLines(t: TFunction, leftOut: TLeftOut | null | undefined): string[] {
  if (!leftOut) return [];
  const lines: string[] = [];
  if (leftOut.cutAt !== null) lines.push(t('letters.leftOut.cut', { count: leftOut.cutAt }));
  const kinds = LEFT_OUT_KINDS.flatMap((kind) => {
    const count = leftOut.kinds[kind] ?? 0;
    return count > 0 ? [t(`letters.leftOut.${kind}`, { count })] : [];
  });
  if (kinds.length) lines.push(t('letters.leftOut.kinds', { list: kinds.join(', ') }));
  if (leftOut.shortened) lines.push(t('letters.leftOut.shortened', { count: leftOut.shortened }));
  return lines;
}

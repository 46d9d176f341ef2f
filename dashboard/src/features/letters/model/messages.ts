// The server's letter messages (the spec's English wording) in the reader's language.
import type { TFunction } from 'i18next';
import { LETTER_MESSAGES } from '@reaction-blocks/contracts/letters';
import { MESSAGES } from '@reaction-blocks/contracts/schemas';

const KEYS: Record<string, string> = {
  [LETTER_MESSAGES.invalidAddress]: 'invalidAddress',
  [LETTER_MESSAGES.notionError]: 'notionError',
  [LETTER_MESSAGES.typedreamError]: 'typedreamError',
  [LETTER_MESSAGES.notYourArticle]: 'notYourArticle',
  [LETTER_MESSAGES.verifyBrunchFirst]: 'verifyBrunchFirst',
  [LETTER_MESSAGES.notSupportedMode]: 'notSupportedMode',
  [LETTER_MESSAGES.failedToLoad]: 'failedToLoad',
  [LETTER_MESSAGES.noSample]: 'noSample',
  [LETTER_MESSAGES.verifySenderFirst]: 'verifySenderFirst',
  [LETTER_MESSAGES.subjectLineBreak]: 'subjectLineBreak',
  [MESSAGES.tooManyCalls]: 'tooManyCalls',
};

export function letterMessage(t: TFunction, message: string): string {
  const key = KEYS[message];
  if (key) return t(`letters.errors.${key}`);
  const writer = /^Please enter link of (.+)'s article\.$/.exec(message)?.[1];
  if (writer) return t('letters.errors.writerArticle', { writer });
  return message;
}

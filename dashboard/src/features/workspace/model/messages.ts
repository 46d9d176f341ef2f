// The shared schemas' messages in the owner's language. The schemas (and save-block, which
// parses with them) word their problems in English; the settings panel, the editor and the top
// bar show them through this one table.
import type { TFunction } from 'i18next';
import { BLOCK_MESSAGES, INTEGRATION_MESSAGES, MESSAGES } from '@reaction-blocks/contracts/schemas';

/** Each schema message with its translation key. */
const KEYS = new Map<string, string>([
  [MESSAGES.tooLong, 'common.tooLong'],
  [MESSAGES.invalidUrl, 'workspace.errors.invalidUrl'],
  [BLOCK_MESSAGES.invalidColor, 'workspace.errors.invalidColor'],
  [BLOCK_MESSAGES.invalidEmail, 'workspace.errors.invalidEmail'],
  [BLOCK_MESSAGES.incompleteCondition, 'editor.errors.incompleteCondition'],
  [BLOCK_MESSAGES.notValidType, 'editor.errors.notValidType'],
  // save_block's refusal of a Notion link once the connection is gone (removed in another tab)
  [INTEGRATION_MESSAGES.notionGone, 'integrations.messages.notionGone'],
  // and of a target the current connection did not list (another workspace connected since)
  [INTEGRATION_MESSAGES.notionNotListed, 'integrations.messages.notionNotListed'],
]);

/** Whether `message` is one of the schema messages the table translates. */
export const isSchemaMessage = (message: string) => KEYS.has(message);

/** `message` in the owner's language; a message the table does not know shows as it is. */
export function translateMessage(t: TFunction, message: string): string {
  const key = KEYS.get(message);
  return key ? t(key) : message;
}

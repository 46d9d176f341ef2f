// The shared schemas' messages in the owner's language. The schemas (and save-block, which
// parses with them) word their problems in English; the settings panel, the editor and the top
// bar show them through this one table.
import type { TFunction } from 'i18next';
import { BLOCK_MESSAGES, MESSAGES } from '@reaction-blocks/contracts/schemas';

export function translateMessage(t: TFunction, message: string): string {
  switch (message) {
    case MESSAGES.tooLong:
      return t('common.tooLong');
    case MESSAGES.invalidUrl:
      return t('workspace.errors.invalidUrl');
    case BLOCK_MESSAGES.invalidColor:
      return t('workspace.errors.invalidColor');
    case BLOCK_MESSAGES.invalidEmail:
      return t('workspace.errors.invalidEmail');
    case BLOCK_MESSAGES.incompleteCondition:
      return t('editor.errors.incompleteCondition');
    case BLOCK_MESSAGES.notValidType:
      return t('editor.errors.notValidType');
    default:
      return message;
  }
}

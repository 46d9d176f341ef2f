// The plan functions answer with the shared English messages (PLAN_MESSAGES); the screens show
// them in the reader's language. Anything else (a network failure, a provider's own text) is
// shown as it came.
import { messageOf } from '../../../lib/errors';
import { PLAN_MESSAGES } from './plans';

const KEYS = new Map<string, string>(
  Object.entries(PLAN_MESSAGES).map(([key, text]) => [text, key]),
);

/** The reason of a failure of a plan call, in the reader's language where it is one of ours. */
export function planReason(t: (key: string) => string, cause: unknown): string {
  const message = messageOf(cause);
  const key = KEYS.get(message);
  return key ? t(`plans.messages.${key}`) : message;
}

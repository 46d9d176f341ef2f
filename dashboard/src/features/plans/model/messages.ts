// The plan functions answer with the shared English messages (PLAN_MESSAGES); the screens show
// them in the reader's language (plans.messages.*).
import { sharedMessageReason } from '../../../lib/errors';
import { PLAN_MESSAGES } from './plans';

/** The reason of a failure of a plan call, in the reader's language where it is one of ours. */
export const planReason = sharedMessageReason(PLAN_MESSAGES, 'plans.messages');

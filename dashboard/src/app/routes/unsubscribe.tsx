// /unsubscribe?token=: a chunk of its own, since it validates with the shared schemas (zod), which
// /login does not need.
export { UnsubscribePage as default } from '../../features/unsubscribe';

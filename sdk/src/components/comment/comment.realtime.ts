// Realtime (core/live.ts) and what a change does to the comment list (comment.changes.ts) as one
// chunk: the element loads it after its first data shows, to watch the block, or with the write
// paths (a change of the visitor's own); one file instead of two for every reader of a comment list.
export { watchBlock } from '../../core/live.js';
export { applyChange, applyCounts } from './comment.changes.js';

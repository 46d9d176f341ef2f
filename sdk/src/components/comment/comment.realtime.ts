// Realtime (core/live.ts) with the list's watcher (comment.watch.ts) and what a change does to the
// comment list (comment.changes.ts) as one chunk: the element loads it after its first data
// shows, to watch the block, or with the write paths (a change of the visitor's own); one file
// instead of two for every reader of a comment list. With them Lit's repeat (0.7 KB gzip), which
// keeps each message's DOM with it when the list moves: only a change can move it (comment.live.ts
// byId).
export { repeat } from 'lit/directives/repeat.js';
export { LiveList } from './comment.watch.js';
export { applyChange, applyCounts } from './comment.changes.js';

// The SDK's size budgets (bytes, gzip -9, what loads before the first data shows), checked by
// `npm run size` on the CDN files and by the consumer test (e2e/consumer.ts) on an app's bundle.
const KB = 1024;
export const BUDGETS = {
  // about 1.2 KB of code and 4.5 KB of the table of its release's files' hashes (sha256, 103
  // files: each element's own file and its chunks, shared/, six.js, block.js), which its import
  // map holds. A new kind of chunk costs it about 0.35 KB: each of the eight elements' own files
  // has its own copy of the chunks it loads later (the writer's, the session's, ...)
  loader: 6.5 * KB,
  // issue 21 wants 9 KB before data for like and button, 15 KB for comment and Q&A and 22 KB for
  // all six: not met (npm run size:parts: Lit alone is 5.66 KB of like.js, the base styles 1.14).
  // These keep what moving the writer's parts out gained (like 10.73, button 10.49; comment and
  // Q&A counted with realtime: 20.50, 20.66, before their first data 17.69, 17.85)
  like: 11 * KB,
  button: 11 * KB,
  comment: 21 * KB,
  qna: 21 * KB,
  /**
   * A page with all six: six.js, what the loader gives it (22.15 KB before data, 24.96 with
   * realtime; its form without a description question, whose sanitiser loads with the writer).
   */
  all: 25.5 * KB,
  /** The viewer's page, <reaction-block>: block.js, all six with the viewer (26.75 with realtime). */
  viewer: 27.25 * KB,
  count: 3 * KB,
  /** The loader installed in Cafe24 malls (cafe24.js); reaction.js and the elements load after it. */
  cafe24: 1.5 * KB,
};

/**
 * The same in an app's bundle (e2e/consumer.ts: the packed package built by esbuild --bundle
 * --splitting --minify, what loads before the element runs): esbuild's minifier and chunks come
 * out above the CDN files (rollup and terser), so an app has budgets of its own. The React row
 * leaves React out (the app's) and counts @lit/react's wrapper.
 */
export const APP_BUDGETS = {
  // measured 12.09 and 12.92 KB (12384 and 13230 B) once the label colours went to the
  // elements with labels (comment, Q&A)
  like: 12.5 * KB,
  reactLike: 13.25 * KB,
};

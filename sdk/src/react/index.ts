// Every React wrapper. Importing one wrapper's own module ('@reaction-blocks/sdk/react/like')
// loads that element only; from here, a bundler that honours `sideEffects` keeps only the
// wrappers the app uses.
export { Comment } from './comment.js';
export { Qna } from './qna.js';
export { Like } from './like.js';
export { Button } from './button.js';
export { Ab } from './ab.js';
export { Form } from './form.js';
export { Block } from './block.js';
export { Count } from './count.js';

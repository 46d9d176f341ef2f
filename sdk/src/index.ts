// Importing the package entry defines all eight elements. Import one element's path
// (e.g. '@reaction-blocks/sdk/like') to load only that one.
export { default as ReactionComment } from './components/comment/comment.js';
export { default as ReactionQna } from './components/qna/qna.js';
export { default as ReactionLike } from './components/like/like.js';
export { default as ReactionButton } from './components/button/button.js';
export { default as ReactionAb } from './components/ab/ab.js';
export { default as ReactionForm } from './components/form/form.js';
export { default as ReactionBlock } from './components/block/block.js';
export { default as ReactionCount } from './components/count/count.js';
export { ReactionElement, BlockElement } from './core/base.js';
export type { ReactionEventMap } from './core/base.js';
export type { ReactionConfig } from './core/config.js';
export type * from './core/types.js';

import ReactionLike from './like.component.js';

export * from './like.component.js';
export default ReactionLike;

ReactionLike.define('reaction-like');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-like': ReactionLike;
  }
}

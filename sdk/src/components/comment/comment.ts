import ReactionComment from './comment.component.js';

export * from './comment.component.js';
export default ReactionComment;

ReactionComment.define('reaction-comment');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-comment': ReactionComment;
  }
}

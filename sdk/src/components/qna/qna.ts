import ReactionQna from './qna.component.js';

export * from './qna.component.js';
export default ReactionQna;

ReactionQna.define('reaction-qna');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-qna': ReactionQna;
  }
}

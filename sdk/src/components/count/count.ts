import ReactionCount from './count.component.js';

export * from './count.component.js';
export default ReactionCount;

ReactionCount.define('reaction-count');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-count': ReactionCount;
  }
}

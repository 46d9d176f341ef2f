import ReactionAb from './ab.component.js';

export * from './ab.component.js';
export default ReactionAb;

ReactionAb.define('reaction-ab');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-ab': ReactionAb;
  }
}

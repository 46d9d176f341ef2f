import ReactionBlock from './block.component.js';

export * from './block.component.js';
export default ReactionBlock;

ReactionBlock.define('reaction-block');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-block': ReactionBlock;
  }
}

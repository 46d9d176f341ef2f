import ReactionButton from './button.component.js';

export * from './button.component.js';
export default ReactionButton;

ReactionButton.define('reaction-button');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-button': ReactionButton;
  }
}

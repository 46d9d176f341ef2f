import ReactionForm from './form.component.js';

export * from './form.component.js';
export default ReactionForm;

ReactionForm.define('reaction-form');

declare global {
  interface HTMLElementTagNameMap {
    'reaction-form': ReactionForm;
  }
}

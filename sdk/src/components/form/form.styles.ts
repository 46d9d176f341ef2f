import { css } from '../../core/element.js';

export default css`
  /* The height a page holds for its form (--reaction-form-height, set by the page; default
     SKELETON_HEIGHTS.form: three short questions). Loading: the skeleton is exactly that high,
     as many questions as fit and Submit at the bottom. Loaded: the form is at least the height
     the page set, so a form no taller than that moves nothing under it (docs/embedding.md), and
     its ending fills the same room. */
  [part~='base']:not(.err, .muted) {
    min-height: var(--reaction-form-height, 0);
  }
  [part~='base']:has(> [part~='ending']) {
    display: grid;
  }
  [part~='skeleton'] {
    height: var(--reaction-form-height, 306px);
    display: flex;
    flex-direction: column;
  }
  [part~='skeleton'] > .sk {
    flex: 1;
    min-height: 0;
    display: flex;
    flex-direction: column;
    gap: 16px;
  }
  .sk-questions {
    flex: 1;
    min-height: 0;
    overflow: hidden;
    align-content: start;
    gap: 16px;
  }
  form {
    display: grid;
    gap: 16px;
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    min-width: 0;
  }
  legend,
  [part~='question-title'] {
    display: block;
    font-weight: 600;
    margin-bottom: 6px;
    padding: 0;
  }
  /* a description's title heads the form */
  [part~='question']:has(> [part~='description']) > [part~='question-title'] {
    font-size: 16px;
  }
  .req {
    color: var(--reaction-error);
  }
  [part~='choice'] {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 6px 10px;
    margin-bottom: 6px;
    border: 1px solid var(--_border);
    border-radius: var(--reaction-radius);
    background: var(--reaction-tertiary);
    cursor: pointer;
    transition: border-color 0.15s ease-out;
  }
  [part~='choice']:hover,
  [part~='choice']:has(:checked) {
    border-color: var(--reaction-primary);
  }
  /* the chosen answer: a primary edge drawn inside, so nothing moves */
  [part~='choice']:has(:checked) {
    box-shadow: inset 0 0 0 1px var(--reaction-primary);
  }
  [part~='choice'] input {
    accent-color: var(--reaction-primary);
    margin: 0;
  }
  [aria-invalid='true'] [part~='choice'] {
    border-color: var(--reaction-error);
  }
  .input:hover {
    border-color: var(--reaction-primary);
  }
  textarea.input {
    resize: none;
    overflow-y: auto;
    max-height: 360px;
  }
  [part~='image'] {
    max-width: 100%;
    border-radius: var(--reaction-radius);
  }
  /* The ending: a check, the title, the owner's closing text and the next step, centred in at
     least the room a short form took, so the page around it barely moves. */
  [part~='ending'] {
    display: grid;
    gap: 12px;
    justify-items: center;
    align-content: center;
    min-height: 240px;
    padding: 24px 12px;
    text-align: center;
  }
  /* a check in a ring, in the primary colour (a mask, so it follows every theme) */
  [part~='ending']::before {
    content: '';
    width: 48px;
    height: 48px;
    background: var(--reaction-primary);
    mask: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 48 48' fill='none' stroke='%23000' stroke-width='3' stroke-linecap='round' stroke-linejoin='round'%3E%3Ccircle cx='24' cy='24' r='21'/%3E%3Cpath d='M15 24.5l6 6 12-13'/%3E%3C/svg%3E");
    animation: pop 0.35s ease-out;
  }
  @keyframes pop {
    from {
      transform: scale(0.6);
      opacity: 0;
    }
  }
  [part~='ending-title'] {
    font-size: 20px;
    line-height: 1.3;
    margin: 0;
  }
  [part~='ending'] [part~='description'] {
    color: var(--reaction-muted);
    max-width: 40em;
  }
  [part~='ending'] [part~='description'] > :first-child {
    margin-top: 0;
  }
  [part~='ending'] [part~='description'] > :last-child {
    margin-bottom: 0;
  }
`;

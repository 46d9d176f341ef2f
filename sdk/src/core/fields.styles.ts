import { css } from './element.js';

/**
 * Fields, for the elements that take text (comment, Q&A, form): inputs with their placeholders,
 * link-like buttons and the sending spinner (the honeypot is hidden by theme.ts's .sr: core/trust.ts). Apart from baseStyles so that like,
 * button and A/B do not carry them.
 */
export default css`
  .input {
    width: 100%;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: var(--reaction-radius);
    background: var(--reaction-tertiary);
    transition: border-color 0.15s ease-out;
  }
  .input::placeholder {
    color: var(--reaction-muted);
    opacity: 1;
  }
  .input[aria-invalid='true'] {
    border-color: var(--reaction-error);
  }
  .btn.link {
    background: none;
    border: 0;
    min-height: 0;
    padding: 2px 4px;
    color: var(--reaction-muted);
    font-weight: 400;
  }
  .spin {
    width: 14px;
    height: 14px;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: r 0.8s linear infinite;
  }
  @keyframes r {
    to {
      transform: rotate(360deg);
    }
  }
`;

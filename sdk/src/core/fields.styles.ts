import { css } from './element.js';

/**
 * Fields, for the elements that take text (comment, Q&A, form): inputs with their placeholders,
 * link-like buttons, the honeypot and the sending spinner. Apart from baseStyles so that like,
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
  /* the honeypot: off screen, out of the tab order and of the accessibility tree; past the
     line's start, a side no page scrolls to (at left: -9999px a right-to-left page scrolled
     10,000 px sideways) */
  .hp {
    position: absolute;
    inset-inline-start: -9999px;
    width: 1px;
    height: 1px;
    overflow: hidden;
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

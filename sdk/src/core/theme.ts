import { css } from 'lit';
import type { Block, Theme } from './types.js';

/**
 * Design tokens. Site owners override any --reaction-* token on the element; the custom theme maps
 * the spec's --PRIMARY, --SECONDARY, --TERTIARY and --BACKGROUND. Label colours (every theme) come
 * from --ADMIN_LABEL and --ME_LABEL (the block's custom label colours, set inline on the base part)
 * and from the page's --reaction-admin-label / --reaction-me-label, which have no default here so
 * that a value set by the page can be told apart; the styles read the resolved --_admin-label and
 * --_me-label.
 */
export const baseStyles = css`
  :host {
    display: block;
    --reaction-primary: #4c4c4c;
    --reaction-secondary: #e4e4e4;
    --reaction-tertiary: #ffffff;
    --reaction-background: #ffffff;
    --reaction-text: #1f1f1f;
    --reaction-muted: #5f5f5f;
    --reaction-on-primary: #ffffff;
    --reaction-error: #c5221f;
    --reaction-radius: 8px;
    --reaction-font: system-ui, -apple-system, 'Segoe UI', sans-serif;
  }
  :host([data-theme='dark']) {
    --reaction-primary: #e4e4e4;
    --reaction-secondary: #3a3a3a;
    --reaction-tertiary: #262626;
    --reaction-background: #121212;
    --reaction-text: #f1f1f1;
    --reaction-muted: #b5b5b5;
    --reaction-on-primary: #121212;
    --reaction-error: #ff8a80;
  }
  :host([hidden]) {
    display: none;
  }
  .custom {
    --reaction-primary: var(--PRIMARY, #4c4c4c);
    --reaction-secondary: var(--SECONDARY, #e4e4e4);
    --reaction-tertiary: var(--TERTIARY, #ffffff);
    --reaction-background: var(--BACKGROUND, #ffffff);
  }
  [part~='base'] {
    /* Light and dark: the page's label token wins, like every --reaction-* token there. */
    --_admin-label: var(--reaction-admin-label, var(--ADMIN_LABEL, var(--reaction-primary)));
    --_me-label: var(--reaction-me-label, var(--ME_LABEL, var(--reaction-primary)));
    box-sizing: border-box;
    font: 14px/1.5 var(--reaction-font);
    color: var(--reaction-text);
    background: var(--reaction-background);
    border-radius: var(--reaction-radius);
    padding: 12px;
  }
  /* Custom theme: the block's colours win; the page fills in the ones it leaves out. */
  [part~='base'].custom {
    --_admin-label: var(--ADMIN_LABEL, var(--reaction-admin-label, var(--reaction-primary)));
    --_me-label: var(--ME_LABEL, var(--reaction-me-label, var(--reaction-primary)));
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button,
  input,
  textarea {
    font: inherit;
    color: inherit;
  }
  .btn {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    min-height: 36px;
    padding: 6px 14px;
    border: 1px solid var(--reaction-primary);
    border-radius: var(--reaction-radius);
    background: var(--reaction-primary);
    color: var(--reaction-on-primary);
    cursor: pointer;
    text-decoration: none;
  }
  .btn.ghost {
    background: transparent;
    color: var(--reaction-text);
    border-color: var(--reaction-secondary);
  }
  .btn.link {
    background: none;
    border: 0;
    min-height: 0;
    padding: 2px 4px;
    color: var(--reaction-muted);
  }
  .btn:disabled {
    opacity: 0.55;
    cursor: default;
  }
  :focus-visible {
    outline: 2px solid var(--reaction-primary);
    outline-offset: 2px;
  }
  .input {
    width: 100%;
    padding: 8px 10px;
    border: 1px solid var(--reaction-secondary);
    border-radius: var(--reaction-radius);
    background: var(--reaction-tertiary);
  }
  .input[aria-invalid='true'] {
    border-color: var(--reaction-error);
  }
  .err {
    color: var(--reaction-error);
    font-size: 13px;
    margin: 4px 0 0;
  }
  .muted {
    color: var(--reaction-muted);
    font-size: 12px;
  }
  [part~='captcha'] {
    display: grid;
    gap: 8px;
    justify-items: start;
    margin-top: 8px;
  }
  /* the honeypot: off screen, out of the tab order and of the accessibility tree */
  .hp {
    position: absolute;
    left: -9999px;
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
  /* Loading skeleton: grey bars in the block's shape (see core/skeleton-heights.ts). */
  .sk {
    display: grid;
    gap: 8px;
  }
  .sk-row {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
  }
  .bone {
    display: block;
    border-radius: var(--reaction-radius);
    background: var(--reaction-secondary);
    animation: pulse 1s ease-in-out infinite alternate;
  }
  @keyframes pulse {
    to {
      opacity: 0.5;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .bone {
      animation: none;
    }
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;

// Colours only: no url() (it would fetch from the host page).
const SAFE_VALUE = /^(?!.*url)[#\w(),.%\s-]{1,40}$/i;

/** Inline custom properties from the block's custom colours (keys like --PRIMARY only). */
export function customStyle(block: Block | undefined, theme: Theme): string {
  if (!block) return '';
  const vars = { ...(theme === 'custom' ? block.custom_color : null), ...block.custom_label_color };
  return Object.entries(vars)
    .filter(([k, v]) => /^--[A-Z_]+$/.test(k) && typeof v === 'string' && SAFE_VALUE.test(v))
    .map(([k, v]) => `${k}:${v}`)
    .join(';');
}

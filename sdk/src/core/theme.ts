import { css } from './element.js';
import type { Block, Theme } from './types.js';

/**
 * Design tokens (docs/design.md). Site owners override any --reaction-* token on the element; the
 * custom theme maps the spec's --PRIMARY, --SECONDARY, --TERTIARY and --BACKGROUND. Roles:
 * primary (filled buttons, chosen options, result bars, focus ring) with on-primary text on it;
 * secondary (quiet fills: skeleton bones, tracks, chips, dividers); tertiary (fields and options);
 * background (the block); text; muted (meta text and placeholders, >= 4.5:1 on background and
 * tertiary); border (control edges, >= 3:1: derived from text and background unless set);
 * error. sdk/src/core/contrast.test.ts computes each pair in the three themes.
 * --reaction-font has no default: the elements take the host page's font.
 * Label colours (every theme) come from --ADMIN_LABEL and --ME_LABEL (the block's custom label
 * colours, set inline on the base part) and from the page's --reaction-admin-label /
 * --reaction-me-label, which have no default here so that a value set by the page can be told
 * apart; only the elements with labels (comment, Q&A) resolve them, in comment.styles.ts.
 */
export const baseStyles = css`
  :host {
    display: block;
    color-scheme: light;
    --reaction-primary: #26262b;
    --reaction-secondary: #ececef;
    --reaction-tertiary: #fff;
    --reaction-background: #fff;
    --reaction-text: #1c1c1f;
    --reaction-muted: #5e5e66;
    --reaction-on-primary: #fff;
    --reaction-error: #c42b1c;
    --reaction-radius: 8px;
  }
  :host([data-theme='dark']) {
    color-scheme: dark;
    --reaction-primary: #ececef;
    --reaction-secondary: #2c2c31;
    --reaction-tertiary: #1f1f23;
    --reaction-background: #151518;
    --reaction-text: #f2f2f4;
    --reaction-muted: #a9a9b2;
    --reaction-on-primary: #151518;
    --reaction-error: #ff8a80;
  }
  :host([hidden]) {
    display: none;
  }
  [part~='base'] {
    /* control edges: 55% of the text colour over the background (3.3:1 or more) */
    --_border: var(
      --reaction-border,
      color-mix(in srgb, var(--reaction-text) 55%, var(--reaction-background))
    );
    box-sizing: border-box;
    font-size: 14px;
    line-height: 1.5;
    /* unset (no default): the host page's font */
    font-family: var(--reaction-font);
    color: var(--reaction-text);
    background: var(--reaction-background);
    border-radius: var(--reaction-radius);
    padding: 12px;
  }
  .custom {
    --reaction-primary: var(--PRIMARY, #4c4c4c);
    --reaction-secondary: var(--SECONDARY, #e4e4e4);
    --reaction-tertiary: var(--TERTIARY, #fff);
    --reaction-background: var(--BACKGROUND, #fff);
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
    font-weight: 600;
    cursor: pointer;
    text-decoration: none;
    transition: 0.15s ease-out;
    transition-property: background, border-color, box-shadow;
  }
  /* hover: a neutral veil that works on any owner's colour */
  .btn:not(:disabled):hover {
    box-shadow: inset 0 0 0 99px rgb(128 128 128 / 0.14);
  }
  .btn.ghost {
    background: transparent;
    color: var(--reaction-text);
    border-color: var(--_border);
  }
  .btn:disabled {
    opacity: 0.55;
    cursor: default;
  }
  :focus-visible {
    outline: 2px solid var(--_ring, var(--reaction-primary));
    outline-offset: 2px;
  }
  .err {
    color: var(--reaction-error);
    font-size: 13px;
    margin: 4px 0 0;
  }
  /* a failure to load: the message and Try again, in a quiet row */
  .state {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 12px;
    margin: 0;
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
  /* Loading skeleton: quiet bars in the block's shape (see core/skeleton-heights.ts). */
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
    * {
      animation: none !important;
      transition: none !important;
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

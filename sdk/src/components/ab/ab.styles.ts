import { css } from '../../core/element.js';

export default css`
  [part~='title'] {
    margin: 0 0 10px;
    font-size: 16px;
    font-weight: 600;
  }
  [part~='options'] {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: 8px;
  }
  [part~='option'] {
    flex-direction: column;
    align-items: stretch;
    gap: 4px;
    padding: 8px 14px;
    background: var(--reaction-tertiary);
    color: var(--reaction-text);
    border-color: var(--_border);
  }
  [part~='option']:not(:disabled):hover {
    border-color: var(--reaction-primary);
  }
  /* the visitor's choice: a primary edge (a ring inside, so nothing moves) */
  [part~='option'][aria-pressed='true'] {
    border-color: var(--reaction-primary);
    box-shadow: inset 0 0 0 1px var(--reaction-primary);
  }
  /* Before a vote: the result and the bar hold their room (the voted height: a vote moves
     nothing) unseen, and the label is moved down by half of it to sit in the middle. */
  :not(.voted) > [part~='option'] > :is([part~='result'], [part~='bar']) {
    visibility: hidden;
  }
  :not(.voted) > [part~='option'] > .label {
    transform: translateY(calc((12px * 1.5 + 4px + 6px + 4px) / 2));
  }
  [part~='result'] {
    font-size: 12px;
    font-weight: 400;
    color: var(--reaction-muted);
  }
  [part~='bar'] {
    display: block;
    height: 6px;
    border-radius: 999px;
    background: var(--reaction-secondary);
    overflow: hidden;
  }
  [part~='bar-fill'] {
    display: block;
    height: 100%;
    border-radius: inherit;
    background: var(--reaction-muted);
    transform-origin: left;
    animation: grow 0.6s ease-out;
  }
  [aria-pressed='true'] [part~='bar-fill'] {
    background: var(--reaction-primary);
  }
  /* the live region stays in the tree, flat until a held vote has something to say */
  [part~='held'] {
    margin: 8px 0 0;
  }
  [part~='held']:empty {
    margin: 0;
  }
  @keyframes grow {
    from {
      transform: scaleX(0);
    }
  }
`;

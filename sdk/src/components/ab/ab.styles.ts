import { css } from 'lit';

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
    min-height: 56px;
    background: var(--reaction-tertiary);
    color: var(--reaction-text);
    border-color: var(--_border);
  }
  [part~='option'][aria-pressed='true'] {
    background: var(--reaction-primary);
    color: var(--reaction-on-primary);
    border-color: var(--reaction-primary);
  }
  [part~='result'] {
    font-size: 12px;
  }
`;

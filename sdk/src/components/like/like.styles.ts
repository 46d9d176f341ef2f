import { css } from '../../core/element.js';

export default css`
  [part~='row'] {
    display: flex;
    justify-content: var(--reaction-align, flex-start);
  }
  [part~='button'] {
    border-radius: 999px;
  }
  [part~='button'][aria-pressed='false'] {
    background: transparent;
    color: var(--reaction-text);
    border-color: var(--_border);
  }
  [part~='icon'] {
    width: 18px;
    height: 18px;
  }
`;

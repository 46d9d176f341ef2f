import { css } from 'lit';

export default css`
  .custom {
    --reaction-secondary: var(--SECONDARY, #ffffff);
  }
  [part~='row'] {
    display: flex;
    align-items: center;
    gap: 8px;
    justify-content: var(--reaction-align, center);
  }
`;

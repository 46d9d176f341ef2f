import { css } from 'lit';

export default css`
  /* Spec: a button block's secondary colour defaults to #FFFFFF (not #E4E4E4) because it is the
     colour of the button's text, on the primary background. */
  .custom {
    --reaction-secondary: var(--SECONDARY, #ffffff);
    --reaction-on-primary: var(--reaction-secondary);
  }
  [part~='row'] {
    display: flex;
    align-items: center;
    gap: 8px;
    justify-content: var(--reaction-align, center);
  }
`;

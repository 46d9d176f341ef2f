import { css } from '../../core/element.js';

export default css`
  /* Spec: a button block's secondary colour is the colour of the button's text, on the primary
     background (the dashboard saves #FFFFFF); unset, what reads on primary (core/custom-theme.ts). */
  [part~='base'].custom {
    --reaction-on-primary: var(--SECONDARY, var(--_op, #fff));
  }
  [part~='row'] {
    display: flex;
    align-items: center;
    gap: 8px;
    justify-content: var(--reaction-align, center);
  }
`;

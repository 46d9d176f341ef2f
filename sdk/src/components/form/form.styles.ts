import { css } from 'lit';

export default css`
  form {
    display: grid;
    gap: 16px;
  }
  fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    min-width: 0;
  }
  legend,
  [part~='question-title'] {
    display: block;
    font-weight: 600;
    margin-bottom: 6px;
    padding: 0;
  }
  .req {
    color: var(--reaction-error);
  }
  [part~='choice'] {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 6px 10px;
    margin-bottom: 6px;
    border: 1px solid var(--_border);
    border-radius: var(--reaction-radius);
    cursor: pointer;
  }
  textarea.input {
    resize: none;
    overflow-y: auto;
    max-height: 360px;
  }
  [part~='image'] {
    max-width: 100%;
    border-radius: var(--reaction-radius);
  }
  [part~='ending'] {
    display: grid;
    gap: 12px;
    justify-items: start;
  }
  [part~='ending-title'] {
    font-size: 18px;
    margin: 0;
  }
`;

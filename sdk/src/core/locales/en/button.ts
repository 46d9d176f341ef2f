/** The button's default label. */
export const button = {
  button: 'Button',
};

/** Answer checks (core/validate.ts), shared by the form and the comment box. */
export const fields = {
  required: 'Required',
  lengthError: 'Please enter up to {{max}} characters',
  emailError: 'Please enter a valid email address',
  phoneError: 'Use digits, spaces and hyphens only (up to 20 characters)',
  numberError: 'Please enter a whole number (up to 18 digits)',
};

/** The form's own texts (its answer checks are `fields`). */
export const form = {
  checkResponse: 'Please check response',
  submit: 'Submit',
  thankYou: 'Thank you',
  openLink: 'Open Link',
  submitAgain: 'Submit again',
};

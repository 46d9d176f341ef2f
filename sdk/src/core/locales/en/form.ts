/** The form's own texts (its answer checks are `fields`). */
export const form = {
  checkResponse: 'Please check response',
  submit: 'Submit',
  thankYou: 'Thank you',
  openLink: 'Open Link',
  submitAgain: 'Submit again',
  responseHeld: "We received your response. It is waiting for the owner's approval.",
};

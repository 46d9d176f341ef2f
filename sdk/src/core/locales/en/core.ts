/** What every element may say: loading and failure (a write's refusals: en/write.ts). */
export const core = {
  loading: 'Loading…',
  failed: 'Failed to load',
  retry: 'Try again',
  unavailable: 'This block is not available.',
  notValidType: 'Not valid type',
  cancel: 'Cancel',
  unreachable: "Couldn't reach the server. Please try again.",
};

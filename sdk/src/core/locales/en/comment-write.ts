/**
 * What only the comment and Q&A elements' write paths say (components/comment/comment.writer.ts,
 * loaded on the visitor's first interaction): their forms, confirmations, menu and refusals.
 */
export const commentWrite = {
  replyTo: 'Reply to {{name}}',
  save: 'Save',
  discard: 'Discard',
  close: 'Close',
  confirmDelete: 'Delete this message?',
  wait: 'Please wait a moment before sending another message.',
  emptyMessage: 'The message cannot be empty.',
  logout: 'Log out',
  previewSignIn: 'This is a preview: visitors sign in on your page, not here.',
  toBlock: 'To Block setting',
  reportConfirm: 'Report this message to the owner?',
  reportSent: 'You reported the message to the owner.',
  heldNotice: 'Others will see your message once the owner approves it.',
  confirmMailNotice:
    'Replies reach this address only once it has confirmed them. If we can, we mail it a link to confirm.',
};

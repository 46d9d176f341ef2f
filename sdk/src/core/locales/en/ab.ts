/** The A/B vote count. */
export const ab = {
  votes_one: '{{count}} vote',
  votes_other: '{{count}} votes',
  voteHeld: 'We received your vote. It counts once the owner approves it.',
};

/** A block's count on a page that lists many (<reaction-count>). */
export const count = {
  comments_one: '{{count}} comment',
  comments_other: '{{count}} comments',
  likes_one: '{{count}} like',
  likes_other: '{{count}} likes',
  responses_one: '{{count}} response',
  responses_other: '{{count}} responses',
};

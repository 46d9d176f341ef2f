/** The like count. */
export const like = {
  like_one: '{{count}} Like',
  like_other: '{{count}} Likes',
};

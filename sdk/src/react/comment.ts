import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionComment from '../components/comment/comment.js';
import { messages } from './events.js';

/** `<reaction-comment>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Comment = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-comment',
  elementClass: ReactionComment,
  events: messages,
});

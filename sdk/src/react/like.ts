import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionLike from '../components/like/like.js';
import { like } from './events.js';

/** `<reaction-like>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Like = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-like',
  elementClass: ReactionLike,
  events: like,
});

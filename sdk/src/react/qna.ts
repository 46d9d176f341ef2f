import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionQna from '../components/qna/qna.js';
import { messages } from './events.js';

/** `<reaction-qna>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Qna = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-qna',
  elementClass: ReactionQna,
  events: messages,
});

import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionAb from '../components/ab/ab.js';
import { submit } from './events.js';

/** `<reaction-ab>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Ab = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-ab',
  elementClass: ReactionAb,
  events: submit,
});

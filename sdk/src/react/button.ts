import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionButton from '../components/button/button.js';
import { click } from './events.js';

/** `<reaction-button>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Button = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-button',
  elementClass: ReactionButton,
  events: click,
});

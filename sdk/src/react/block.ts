import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionBlock from '../components/block/block.js';
import { every } from './events.js';

/** `<reaction-block>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Block = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-block',
  elementClass: ReactionBlock,
  events: every,
});

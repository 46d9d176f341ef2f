import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionCount from '../components/count/count.js';

/** `<reaction-count>` as a React component: props are its properties (it fires no events). */
export const Count = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-count',
  elementClass: ReactionCount,
  events: {},
});

import * as React from 'react';
import { createComponent } from '@lit/react';
import ReactionForm from '../components/form/form.js';
import { submit } from './events.js';

/** `<reaction-form>` as a React component: props are its properties; events are onReaction<Name> props. */
export const Form = /* @__PURE__ */ createComponent({
  react: React,
  tagName: 'reaction-form',
  elementClass: ReactionForm,
  events: submit,
});

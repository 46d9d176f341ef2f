import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import ReactionAb from '../components/ab/ab.js';
import ReactionBlock from '../components/block/block.js';
import ReactionButton from '../components/button/button.js';
import ReactionComment from '../components/comment/comment.js';
import ReactionCount from '../components/count/count.js';
import ReactionForm from '../components/form/form.js';
import ReactionLike from '../components/like/like.js';
import ReactionQna from '../components/qna/qna.js';
import type { ReactionEventMap } from '../core/base.js';

type Ev<K extends keyof ReactionEventMap> = EventName<CustomEvent<ReactionEventMap[K]>>;
const common = {
  onReactionLoad: 'reaction-load' as Ev<'reaction-load'>,
  onReactionError: 'reaction-error' as Ev<'reaction-error'>,
};
const messages = {
  ...common,
  onReactionMessage: 'reaction-message' as Ev<'reaction-message'>,
  onReactionSignIn: 'reaction-sign-in' as Ev<'reaction-sign-in'>,
};
const submit = { ...common, onReactionSubmit: 'reaction-submit' as Ev<'reaction-submit'> };
const like = { ...common, onReactionLike: 'reaction-like' as Ev<'reaction-like'> };
const click = { ...common, onReactionClick: 'reaction-click' as Ev<'reaction-click'> };
// <reaction-block> renders any of the six, whose events are composed and bubble out of it.
const every = { ...messages, ...submit, ...like, ...click };

/** React wrappers (@lit/react): props are the element properties; events are onReaction<Name> callbacks. */
export const Comment = createComponent({
  react: React,
  tagName: 'reaction-comment',
  elementClass: ReactionComment,
  events: messages,
});
export const Qna = createComponent({
  react: React,
  tagName: 'reaction-qna',
  elementClass: ReactionQna,
  events: messages,
});
export const Like = createComponent({
  react: React,
  tagName: 'reaction-like',
  elementClass: ReactionLike,
  events: like,
});
export const Button = createComponent({
  react: React,
  tagName: 'reaction-button',
  elementClass: ReactionButton,
  events: click,
});
export const Ab = createComponent({
  react: React,
  tagName: 'reaction-ab',
  elementClass: ReactionAb,
  events: submit,
});
export const Form = createComponent({
  react: React,
  tagName: 'reaction-form',
  elementClass: ReactionForm,
  events: submit,
});
export const Block = createComponent({
  react: React,
  tagName: 'reaction-block',
  elementClass: ReactionBlock,
  events: every,
});
export const Count = createComponent({
  react: React,
  tagName: 'reaction-count',
  elementClass: ReactionCount,
  events: {},
});

// The events each React wrapper maps to an `onReaction<Name>` prop, typed by their detail.
import type { EventName } from '@lit/react';
import type { ReactionEventMap } from '../core/base.js';

type Ev<K extends keyof ReactionEventMap> = EventName<CustomEvent<ReactionEventMap[K]>>;
export const common = {
  onReactionLoad: 'reaction-load' as Ev<'reaction-load'>,
  onReactionError: 'reaction-error' as Ev<'reaction-error'>,
};
export const messages = {
  ...common,
  onReactionMessage: 'reaction-message' as Ev<'reaction-message'>,
  onReactionSignIn: 'reaction-sign-in' as Ev<'reaction-sign-in'>,
};
export const submit = { ...common, onReactionSubmit: 'reaction-submit' as Ev<'reaction-submit'> };
export const like = { ...common, onReactionLike: 'reaction-like' as Ev<'reaction-like'> };
export const click = { ...common, onReactionClick: 'reaction-click' as Ev<'reaction-click'> };
// <reaction-block> renders any of the six, whose events are composed and bubble out of it.
export const every = { ...messages, ...submit, ...like, ...click };

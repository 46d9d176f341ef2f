// What a site owner may set is the whole public API: the eight attributes and `view`. Internal
// state (drafts, modes, busy flags, the load status, the session) is private reactive state, so it
// shows neither as an attribute nor as a property in custom-elements.json or the React props
// (`npm run docs -- --check` checks the manifest, `npm run typecheck` the React types below).
import { expect } from '@open-wc/testing';
import type { ComponentProps } from 'react';
import {
  ReactionAb,
  ReactionBlock,
  ReactionButton,
  ReactionComment,
  ReactionForm,
  ReactionLike,
  ReactionQna,
} from '../index.js';
import type { Comment, Form, Like } from '../react/index.js';
import { propertiesOf } from './element.js';

const OWNER_INPUTS = [
  'anonKey',
  'blockId',
  'dummy',
  'lang',
  'ownerId',
  'pageKey',
  'projectUrl',
  'theme',
  'view',
];
const ATTRIBUTES = [
  'anon-key',
  'block-id',
  'dummy',
  'lang',
  'owner-id',
  'page-key',
  'project-url',
  'theme',
];

describe('public API of the elements', () => {
  const classes = {
    'reaction-comment': ReactionComment,
    'reaction-qna': ReactionQna,
    'reaction-like': ReactionLike,
    'reaction-button': ReactionButton,
    'reaction-ab': ReactionAb,
    'reaction-form': ReactionForm,
    'reaction-block': ReactionBlock,
  };
  for (const [tag, cls] of Object.entries(classes))
    it(`${tag}: only the owner's inputs are public properties; internal state is private`, () => {
      const props = Object.entries(propertiesOf(cls));
      const inputs = props.filter(([, o]) => !o.state).map(([k]) => String(k));
      const state = props.filter(([, o]) => o.state).map(([k]) => String(k));
      expect(inputs.sort()).to.deep.equal(OWNER_INPUTS);
      expect(
        state.filter((k) => !k.startsWith('_')),
        'state named as private (_x)',
      ).to.deep.equal([]);
      expect([...cls.observedAttributes].sort()).to.deep.equal(ATTRIBUTES);
    });
});

// Type-level: the React wrappers accept the owner's inputs and refuse internal state. Each line
// marked ts-expect-error fails `npm run typecheck` when the property it names is public again.
type CommentProps = ComponentProps<typeof Comment>;
export const ownerInputs: CommentProps = {
  blockId: 'b',
  ownerId: 'o',
  projectUrl: 'u',
  anonKey: 'k',
  theme: 'dark',
  lang: 'ko',
  dummy: true,
};
// @ts-expect-error internal state of the comment element
export const draft: CommentProps = { draft: 'x' };
// @ts-expect-error internal state of the comment element
export const menuOpen: CommentProps = { menuOpen: true };
// @ts-expect-error internal state of every element
export const status: CommentProps = { status: 'ready' };
// @ts-expect-error internal state of every element
export const session: CommentProps = { session: null };
// @ts-expect-error read-only: setting it from React would throw
export const userId: CommentProps = { userId: 'u' };
// @ts-expect-error internal state of the like element
export const liked: ComponentProps<typeof Like> = { liked: true };
// @ts-expect-error internal state of the form element
export const answers: ComponentProps<typeof Form> = { answers: {} };

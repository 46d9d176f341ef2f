import { COMMENT_LIMITS } from '@reaction-blocks/contracts/limits';
import { readJson, writeJson } from './storage.js';

/** The anonymous writer profile shown next to messages: a random animal name and colour. */
export interface Identity {
  name: string;
  color: string;
}

export const IDENTITY_KEY = 'reaction-blocks.identity';
const ANIMALS =
  'Otter Fox Panda Koala Tiger Rabbit Owl Whale Dolphin Penguin Hedgehog Squirrel Deer Seal Wolf Bear Lynx Heron Badger Beaver Falcon Moose Zebra Llama'.split(
    ' ',
  );
// Colours dark enough for white initials (contrast >= 4.5:1).
const COLORS =
  '#1565c0 #2e7d32 #6a1b9a #ad1457 #c62828 #00695c #4e342e #37474f #283593 #d84315'.split(' ');
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;

const valid = (v: unknown): v is Identity =>
  !!v &&
  typeof (v as Identity).name === 'string' &&
  (v as Identity).name.trim().length > 0 &&
  (v as Identity).name.length <= COMMENT_LIMITS.name &&
  /^#[0-9a-f]{6}$/i.test((v as Identity).color);

/** The stored identity; a missing or corrupt one is replaced by a new one, never an error. */
export function getIdentity(): Identity {
  const stored = readJson<Identity>(IDENTITY_KEY);
  if (valid(stored)) return stored;
  const fresh = { name: pick(ANIMALS), color: pick(COLORS) };
  writeJson(IDENTITY_KEY, fresh);
  return fresh;
}

export function setIdentityName(name: string): Identity {
  const next = { ...getIdentity(), name: name.slice(0, COMMENT_LIMITS.name) };
  if (valid(next)) writeJson(IDENTITY_KEY, next);
  return next;
}

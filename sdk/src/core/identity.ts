import { COMMENT_LIMITS, LIMITS } from '@reaction-blocks/contracts/limits';
import { BIDI_CONTROLS_RE } from '@reaction-blocks/contracts/visitor';
import { flush, LEGACY_PROFILE_KEY, load, peek, PROFILE_KEY, stored, write } from './storage.js';

export { PROFILE_KEY };

/**
 * The writer's profile (spec: "Writer profile"): the name and colour shown with what they write,
 * the home URL their name links to and the email replies are announced to. The spec's uid is the
 * Supabase user of the session (anonymous until they sign in) and photoUrl comes from the
 * provider's profile; both live with the session. Kept sealed in localStorage (core/storage.ts).
 */
export interface Identity {
  name: string;
  color: string;
  /** http(s), as the writer typed it (core/text.ts homeUrl). */
  homeUrl?: string;
  email?: string;
}

const ANIMALS =
  'Otter Fox Panda Koala Tiger Rabbit Owl Whale Dolphin Penguin Hedgehog Squirrel Deer Seal Wolf Bear Lynx Heron Badger Beaver Falcon Moose Zebra Llama'.split(
    ' ',
  );
// Colours dark enough for white initials (contrast >= 4.5:1).
export const COLORS =
  '#1565c0 #2e7d32 #6a1b9a #ad1457 #c62828 #00695c #4e342e #37474f #283593 #bf360c'.split(' ');
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;

const text = (v: unknown, max: number) =>
  v === undefined || (typeof v === 'string' && v.length <= max);
const valid = (v: unknown): v is Identity =>
  !!v &&
  typeof (v as Identity).name === 'string' &&
  (v as Identity).name.trim().length > 0 &&
  (v as Identity).name.length <= COMMENT_LIMITS.name &&
  /^#[0-9a-f]{6}$/i.test((v as Identity).color) &&
  text((v as Identity).homeUrl, LIMITS.homeUrl) &&
  text((v as Identity).email, COMMENT_LIMITS.email);

/**
 * A writer's name as the server takes it (check_visitor_fields): without bidi controls (contracts
 * BIDI_CONTROLS_RE: they would make it read as another's, and the server refuses them) and at most
 * 100 characters, so that an account's name from its provider never refuses every write.
 */
export const sendable = (name: string): string =>
  [...name.replace(BIDI_CONTROLS_RE, '').trim()].slice(0, COMMENT_LIMITS.name).join('');

/** The name and colour kept in plain JSON before: sealed as the profile once, then removed. */
function takeLegacy(): Identity | null {
  const raw = stored(LEGACY_PROFILE_KEY);
  if (raw == null || stored(PROFILE_KEY) != null) return null;
  let old: unknown = null;
  try {
    old = JSON.parse(raw);
  } catch {
    /* corrupt: a new profile replaces it */
  }
  const kept = valid(old) ? { name: old.name, color: old.color } : null;
  if (kept) write(PROFILE_KEY, kept);
  // removed once the profile is sealed (or could not be: then it lives for this page only)
  void flush(PROFILE_KEY).then(() => write(LEGACY_PROFILE_KEY, null));
  return kept;
}

/**
 * The writer's profile, synchronously: the stored one once opened (see profileReady), else a new
 * anonymous one (a random animal name and colour). A new one is the page's until the visitor
 * writes (keepProfile), so a reader never stores anything; a corrupt or unreadable stored one is
 * replaced by a new one, never an error.
 */
export function getIdentity(): Identity {
  const p = peek<Identity>(PROFILE_KEY) ?? takeLegacy();
  if (valid(p)) return p;
  const made = { name: pick(ANIMALS), color: pick(COLORS) };
  // a stored one that opened to something else is replaced; otherwise the new one is the page's
  // (shared by every element of it), and one stored but not opened yet stays as it is
  if (p != null) write(PROFILE_KEY, made);
  else write(PROFILE_KEY, made, false);
  return made;
}

/** The profile as stored, opened (loads the sealing chunk only when one is stored). */
export async function profileReady(): Promise<Identity> {
  if (stored(PROFILE_KEY) != null) await load(PROFILE_KEY);
  return getIdentity();
}

/** Changes the profile and keeps it; an invalid change is not kept. */
export function setProfile(patch: Partial<Identity>): Identity {
  const next = { ...getIdentity(), ...patch };
  for (const k of ['homeUrl', 'email'] as const) if (!next[k]) delete next[k];
  if (valid(next)) write(PROFILE_KEY, next);
  return next;
}

export const setIdentityName = (name: string): Identity =>
  setProfile({ name: name.slice(0, COMMENT_LIMITS.name) });

/**
 * Keeps the page's new profile as the visitor writes with it, and answers once it (or a change
 * still being sealed) is in storage: the write goes only then, or a visitor who reloaded as it was
 * answered came back under another name than the one it shows. It answers the profile as stored
 * then, which the write carries: where another tab of the same visitor (they share the session)
 * kept its own new profile first, that one, opened now even if this page never heard of it; the
 * page's new one is dropped (docs/embedding.md, section 6).
 */
export async function keepProfile(): Promise<Identity> {
  if (stored(PROFILE_KEY) == null) setProfile({});
  await flush(PROFILE_KEY);
  return profileReady();
}

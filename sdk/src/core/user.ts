// The signed-in visitor as the elements show them (their name, their photo) and the sign-in
// popup: a module of its own so that an element which never shows who is signed in (like,
// button, A/B, form) does not carry it; the comment element and the writer's code import it.
import { POPUP_NAME, type Session } from './session.js';

/** Signed in with a provider (not the anonymous stand-in). */
export const isSignedIn = (s: Session | null): boolean => !!s && !s.user.is_anonymous;

export function displayUser(s: Session | null): { name?: string; photo?: string } {
  const m = s?.user.user_metadata || {};
  return { name: m.full_name || m.name, photo: m.avatar_url || m.picture };
}

/**
 * Opens the sign-in popup, empty: called in the visitor's click, where a popup blocker allows it;
 * core/auth.ts signInWithPopup sends it to the provider once its code has loaded.
 */
export const openPopup = (): Window | null => window.open('', POPUP_NAME, 'width=480,height=640');

// What the elements add for visitor trust (issue 9): the honeypot field and the avatar rule.
import { html } from 'lit';
import type { Project } from './config.js';

/**
 * The honeypot: a field people never see, reach or hear (off screen, inert, aria-hidden), which
 * scripts that fill every field fill. Its value goes with every comment and form submit; a
 * block with the honeypot on refuses anything but ''.
 */
export const honeypot = (set: (value: string) => void) =>
  html`<div class="hp" aria-hidden="true" inert>
    <label
      >Leave this empty
      <input
        name="website"
        tabindex="-1"
        autocomplete="off"
        @input=${(e: Event) => set((e.target as HTMLInputElement).value)}
    /></label>
  </div>`;

/** Google's profile picture hosts (Apple gives no picture), as the database's avatars.hosts. */
const AVATAR_HOSTS = /^lh[3-6]\.googleusercontent\.com$/;

/**
 * A signed-in visitor's provider picture as the server accepts it (https from the providers'
 * image hosts or the project's storage), else null: nothing the server would refuse is sent.
 */
export function visitorAvatar(p: Project, photo?: string | null): string | null {
  if (!photo || /\s/.test(photo)) return null;
  try {
    const u = new URL(photo);
    if (u.protocol !== 'https:' || u.username || u.password) return null;
    return AVATAR_HOSTS.test(u.hostname) || photo.startsWith(p.url + '/storage/v1/object/public/')
      ? photo
      : null;
  } catch {
    return null;
  }
}

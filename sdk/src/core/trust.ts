// What the elements add for visitor trust (issue 9): the honeypot field (the avatar rule, which
// only a write uses, is core/visitor-avatar.ts, loaded with the writer's code).
import { html } from 'lit/html.js';

/**
 * The honeypot: a field people never see, reach or hear (inert, aria-hidden, and clipped to
 * nothing where it stands by .sr: moved off screen it widened right-to-left host pages by 10,000
 * px, or, past the line's start, did so again once the base became dir="ltr"), which scripts that
 * fill every field fill. Its value goes with every comment and form submit; a
 * block with the honeypot on refuses anything but ''.
 */
export const honeypot = (set: (value: string) => void) =>
  html`<div class="sr hp" aria-hidden="true" inert>
    <label
      >Leave this empty
      <input
        name="website"
        tabindex="-1"
        autocomplete="off"
        @input=${(e: Event) => set((e.target as HTMLInputElement).value)}
    /></label>
  </div>`;

// The writer's website as the server takes it: only the writer's code checks it (the composer's
// website field and posting, components/comment/comment.writer.ts), so it is not in text.ts,
// which every element loads before its first data.
import { LIMITS } from '@reaction-blocks/contracts/limits';
import { BIDI_CONTROL_RE } from '@reaction-blocks/contracts/visitor';

/**
 * A writer's home URL as the server takes it (post_message: http or https, a host without a user
 * part, no spaces, control or bidi characters, at most 500 characters): what they typed, with https://
 * before a bare host; '' for nothing; null when it cannot be one. supabase/tests/home-url.test.ts
 * runs the same cases through this and the server.
 */
export function homeUrl(typed: string): string | null {
  let s = typed.trim();
  if (!s) return '';
  if (!/^[a-z][\w+.-]*:/i.test(s)) s = 'https://' + s.replace(/^\/+/, '');
  return s.length <= LIMITS.homeUrl &&
    /^https?:\/\/[^/?#@\s]+([/?#]|$)/i.test(s) &&
    // no space and no control character (C0, DEL, C1), as the server's [[:space:][:cntrl:]]
    ![...s].some((c) => /\s/.test(c) || c.charCodeAt(0) < 32 || (c >= '\x7f' && c <= '\x9f')) &&
    // nor a bidi control, which would make its end read reversed
    !BIDI_CONTROL_RE.test(s)
    ? s
    : null;
}

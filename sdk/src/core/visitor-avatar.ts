// The avatar rule of visitor trust (issue 9), used only by a write: loaded with the writer's code.
import type { Project } from './config.js';

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

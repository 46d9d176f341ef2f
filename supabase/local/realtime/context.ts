// What the parts of the local Realtime server share (server.ts builds it once).
import type { Channel } from './channel.ts';
import type { Capture } from './changes.ts';
import type { Presence } from './presence.ts';
import type { Registry } from './registry.ts';

export interface Context {
  log(line: string): void;
  /** the database side: change capture, policy checks, broadcasts from the database */
  capture: Capture;
  registry: Registry;
  presence: Presence;
  /** the JWT secret, as bytes */
  secret: Uint8Array;
  /** true once close() began: nothing new is delivered */
  readonly closing: boolean;
  /** A channel leaves its topic: forgotten, its presence untracked. */
  leave(ch: Channel): void;
}

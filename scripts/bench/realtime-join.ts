// What a benchmark's viewer sends to join a block's public Realtime topic: the frame
// sdk/src/core/live.ts sends (protocol 2.0.0, `[join_ref, ref, topic, event, payload]`, with its
// PUBLIC_JOIN payload), for the views of bench:cache and the viewers of bench:realtime.
import { PUBLIC_JOIN } from '../../sdk/src/core/live.ts';

/** The websocket URL of a project's Realtime, as live.ts opens it. */
export const realtimeUrl = (projectUrl: string, anonKey: string): string =>
  `${projectUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(anonKey)}&vsn=2.0.0`;

/** The phx_join frame of a block's topic; `isPrivate` joins it as the elements did before. */
export function blockJoinFrame(block: string, isPrivate = false): string {
  return JSON.stringify([
    '1',
    '1',
    `realtime:block:${block}`,
    'phx_join',
    { config: { ...PUBLIC_JOIN.config, private: isPrivate } },
  ]);
}

/** What a viewer reads of a frame: its event, and the payload of a reply or a broadcast. */
export function readFrame(data: unknown): {
  event: string;
  payload: { status?: string; event?: string; payload?: { id?: string } };
} {
  const [, , , event, payload] = JSON.parse(String(data)) as [
    unknown,
    unknown,
    string,
    string,
    { status?: string; event?: string; payload?: { id?: string } },
  ];
  return { event, payload };
}

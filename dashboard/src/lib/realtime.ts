// Realtime for the screens that listen (the moderation list), a part of its own so only they
// load it (17 KB gzip). Wired to the session as supabase-js's createClient wires it: the
// project's key in the socket's parameters, the user's token for private channels, updated when
// auth-js refreshes it. Made on first use: a screen that never listens opens no socket.
import { RealtimeClient } from '@supabase/realtime-js';
import { accessToken, projectUrl, supabase } from './supabase';

let client: RealtimeClient | null = null;

export function realtime(): RealtimeClient {
  if (client) return client;
  const socketUrl = projectUrl('realtime/v1');
  socketUrl.protocol = socketUrl.protocol.replace('http', 'ws');
  const made = new RealtimeClient(socketUrl.href, {
    params: { apikey: supabase.apiKey },
    accessToken: async () => (await accessToken()) ?? supabase.apiKey,
  });
  let token: string | undefined;
  supabase.auth.onAuthStateChange((event, session) => {
    if (event === 'SIGNED_OUT') {
      token = undefined;
      void made.setAuth();
    } else if (session && session.access_token !== token) {
      token = session.access_token;
      void made.setAuth(token);
    }
  });
  client = made;
  return made;
}

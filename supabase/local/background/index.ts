// The local stack's stand-ins for the background workers of pg_cron and pg_net (the SQL side is in
// supabase/local/extensions/). Started by stack.ts on the embedded database only: a Supabase
// project runs the real extensions.
import type { Log } from '../process.ts';
import { startCron } from './cron.ts';
import type { BackgroundWorker } from './listener.ts';
import { startNet } from './net.ts';

export async function startBackgroundWorkers(opts: {
  databaseUrl: string;
  log: Log;
}): Promise<BackgroundWorker> {
  const net = await startNet({ databaseUrl: opts.databaseUrl, log: (l) => opts.log('pg_net', l) });
  const cron = await startCron({
    databaseUrl: opts.databaseUrl,
    log: (l) => opts.log('pg_cron', l),
  }).catch(async (err: unknown) => {
    await net.close();
    throw err;
  });
  return {
    async close() {
      await Promise.all([cron.close(), net.close()]);
    },
  };
}

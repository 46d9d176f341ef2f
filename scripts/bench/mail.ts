// `npm run bench:mail` (also run by `npm run bench`): how fast mail leaves, from enqueue to the
// SES fake's mailbox, through the real path: visitor-write triggers enqueue notification jobs in
// one transaction, the jobs-worker edge function (kicked as the schedule and functions do)
// claims them, renders each mail, sends it with the official SES v2 client to the providers
// server, records the outcome; the fake then posts its signed SNS delivery events to the
// ses-events function, which applies them. Reports mails per second and the memory of the Deno
// process that runs the worker. Not part of `npm test`.
//
//   npm run bench:mail
//   BENCH_MAILS=2000 BENCH_WORKERS=2 npm run bench:mail
import { cpus } from 'node:os';
import { connectDb, functionsPid, kick, rssMb, runBench, sesSent, setSetting } from './support.ts';

const MAILS = Number(process.env.BENCH_MAILS ?? 2000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

await runBench({ name: 'mail', section: 'Mail' }, async ({ stack, ports, load }) => {
  const db = await connectDb(stack.dbUrl);
  // measure the pipeline, not the quota: no sending-rate limit for the run
  await setSetting(db, 'rate.mail.per_second', 100000);
  // one owner with MAILS comment blocks, each notifying its own address (one mail per block:
  // a digest group each), and one visitor message per block, all in one transaction
  const owner = (
    await db.query<{ id: string }>(
      `insert into auth.users (id, email, raw_user_meta_data, raw_app_meta_data, is_anonymous)
       values (gen_random_uuid(), 'bench-owner@example.com', '{"full_name":"Bench"}', '{"owner":true}', false) returning id`,
    )
  ).rows[0]!.id;
  await db.query('update public.profiles set block_limit = $2, paid = true where id = $1', [
    owner,
    MAILS + 10,
  ]);
  await db.query(
    `select set_config('request.jwt.claims', json_build_object('sub', $1::text, 'role', 'authenticated')::text, false)`,
    [owner],
  );
  await db.query(
    `insert into public.blocks (owner_id, type, name) select $1, 'comment', 'Bench ' || n from generate_series(1, $2) n`,
    [owner, MAILS],
  );
  // each address confirmed as the owner's notification address first (as its person would have):
  // saving one that did not mails it a confirmation, and notifications to it are skipped
  await db.query(
    `insert into private.mail_consents (email, owner_id, for_notifications, confirmed_at)
     select 'inbox-' || id || '@example.com', owner_id, true, now() from public.blocks where owner_id = $1`,
    [owner],
  );
  await db.query(
    `update public.block_private set mail_to = 'inbox-' || block_id || '@example.com' where owner_id = $1`,
    [owner],
  );
  await db.query(`select set_config('request.jwt.claims', '', false)`);
  const visitor = '00000000-0000-4000-8000-00000000beef';
  const enqueueStart = performance.now();
  await db.query(
    `insert into public.messages (block_id, creator_id, creator_name, content)
     select id, $2, 'Visitor', 'A comment from the benchmark' from public.blocks where owner_id = $1`,
    [owner, visitor],
  );
  const enqueueMs = performance.now() - enqueueStart;
  const queued = Number(
    (
      await db.query<{ n: string }>(
        `select count(*) as n from private.jobs where kind = 'notify.owner' and status = 'queued'`,
      )
    ).rows[0]!.n,
  );
  const pid = functionsPid(ports.functions);
  const rssBefore = pid ? rssMb(pid) : NaN;
  let rssPeak = rssBefore;
  const sentBefore = await sesSent(stack.providersUrl);
  const count = async (query: string) => Number((await db.query<{ n: string }>(query)).rows[0]!.n);
  const eventsBefore = await count('select count(*) as n from private.provider_events');

  const started = performance.now();
  const kicks = Array.from({ length: WORKERS }, () => kick(stack));
  let sent = 0;
  for (;;) {
    sent = (await sesSent(stack.providersUrl)) - sentBefore;
    if (pid) rssPeak = Math.max(rssPeak, rssMb(pid));
    if (sent >= queued) break;
    if (performance.now() - started > 300_000)
      throw new Error(`only ${sent} of ${queued} mails after 5 minutes`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.allSettled(kicks);
  const deliveredQuery = `select count(*) as n from private.outbound_mails where kind = 'notify.owner' and status = 'delivered'`;
  const delivered = await count(deliveredQuery);
  // then the Send and Delivery events of every mail SES took since (these and any other mail
  // the stack sent meanwhile) answered by ses-events (each SNS id is noted once)
  const eventsWait = performance.now();
  let events = 0;
  let eventsDue = 0;
  for (;;) {
    eventsDue = 2 * ((await sesSent(stack.providersUrl)) - sentBefore);
    events = (await count('select count(*) as n from private.provider_events')) - eventsBefore;
    if (events >= eventsDue || performance.now() - eventsWait > 300_000) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const deliveredAtLast = await count(deliveredQuery);
  const duplicates = Number(
    (
      await db.query<{ n: string }>(
        `select count(*) - count(distinct block_id) as n from private.outbound_mails where kind = 'notify.owner'`,
      )
    ).rows[0]!.n,
  );
  await db.end();

  const rate = queued / seconds;
  const body = `Measured by \`npm run bench:mail\` (scripts/bench/mail.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, load average before ${load}.

${queued} notification jobs enqueued by the message trigger in one transaction (${enqueueMs.toFixed(0)} ms), then ${WORKERS} worker calls kicked at once (as the schedule and a function's kick would). Each mail goes the whole way: claim (batches of 50), render, SES v2 \`SendEmail\` with the official client to the providers server's fake, \`finish_jobs\` recording the outbound mail; the fake then posts a signed SNS Delivery event per mail to \`ses-events\`, which checks it and applies it, in the same Deno process.

| figure | value |
| --- | --- |
| mails from enqueue to the mailbox | ${queued} in ${seconds.toFixed(2)} s: **${rate.toFixed(0)} mails/s** |
| Delivery events applied when the last mail left | ${delivered} |
| Delivery events applied once ses-events answered the ${eventsDue} events of the mails sent (${events} seen) | ${deliveredAtLast} of ${queued} |
| mails sent twice | ${duplicates} |
| Deno functions process RSS (worker + ses-events) | ${rssBefore.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB at the peak |

The sending-rate bucket was lifted for the run (\`rate.mail.per_second\`); in production it is the SES account's quota (14/s by default here), which the worker honours whatever its speed.`;
  return { body };
});

// `npm run bench:letters` (also run by `npm run bench`, after the others): a letter sent to an
// audience of 10,000 members through the real path, with the worker killed mid-send.
//   - an owner with a verified sender, a saved letter (the Notion fixture page rendered by the
//     pipeline) and BENCH_MEMBERS active members with an email;
//   - publish-letter through the gateway with the owner's JWT: one transaction reserves a
//     publish, a delivery and a `letter` job per member and answers at once;
//   - the jobs worker (kicked, then the schedule) sends each mail with the official SES v2
//     client to the providers server's fake, one prepare_letter_jobs call per batch;
//   - when a third has gone, the Deno process that runs the worker (and ses-events) is killed
//     with SIGKILL and started again: jobs it was holding come back when their lease runs out,
//     those it may have handed to SES are settled by SES's Send events (the delivery tag) or,
//     after letters.unknown_grace_seconds (set to 20 s for the run), queued again.
// Reports the time from the call to the last mail in the fake, the reservation time, the Deno
// process's memory, and whether every member got exactly one mail (the fake's count of accepted
// sends equals the member count and every delivery was sent, each under its own message id).
//
//   npm run bench:letters
//   BENCH_MEMBERS=2000 npm run bench:letters
import { cpus } from 'node:os';
import pg from 'pg';
import { DEFAULT_JWT_SECRET } from '../../supabase/local/config.ts';
import type { Stack } from '../../supabase/local/stack.ts';
import { ownerAccessToken } from '../../supabase/local/auth/jwt.ts';
import { notionBlocks, NOTION_PAGE_ID } from '../../supabase/local/providers/pages/fixtures.ts';
import { notionToBlocks } from '../../supabase/functions/_shared/letter/notion.ts';
import { renderLetter } from '../../supabase/functions/_shared/letter/render.ts';
import { connectDb, functionsPid, kick, rssMb, runBench, sesSent, setSetting } from './support.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const KILL_AT = Number(process.env.BENCH_KILL_AT ?? 0.33);

/** A worker call that may find the functions killed (that is the point of this benchmark). */
const kickQuietly = (stack: Stack) => kick(stack).catch(() => {});

const count = async (db: pg.Client, sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);

await runBench({ name: 'letters', section: 'Letters' }, async ({ stack, ports, load }) => {
  const db = await connectDb(stack.dbUrl);
  await setSetting(db, 'letters.unknown_grace_seconds', 20);
  const rate = (
    await db.query<{ value: number }>(
      `select value from private.settings where key = 'rate.mail.per_second'`,
    )
  ).rows[0]?.value;

  // the owner, their verified sender (the platform's domain is verified in the SES fake)
  const email = 'bench-letters@reaction-blocks.local';
  const owner = (
    await db.query<{ id: string }>(
      `insert into auth.users (id, email, raw_user_meta_data, raw_app_meta_data, is_anonymous)
       values (gen_random_uuid(), $1, '{"full_name":"Bench Letters"}', '{"owner":true}', false) returning id`,
      [email],
    )
  ).rows[0]!.id;
  await db.query(
    'update public.profiles set paid = true, response_monthly_limit = $2, block_limit = 10 where id = $1',
    [owner, MEMBERS * 2],
  );
  await db.query(
    `insert into public.sender_emails (user_id, email, status, spf_verified, dkim_verified, confirmed_at)
     values ($1, $2, 'verified', true, true, now())`,
    [owner, email],
  );
  await db.query(
    `select set_config('request.jwt.claims', json_build_object('sub', $1::text, 'role', 'authenticated')::text, false)`,
    [owner],
  );
  const blockId = (
    await db.query<{ id: string }>(
      `insert into public.blocks (owner_id, type, name) values ($1, 'notion_letter', 'Bench letter') returning id`,
      [owner],
    )
  ).rows[0]!.id;
  await db.query(`select set_config('request.jwt.claims', '', false)`);
  const page = notionToBlocks({ block: notionBlocks() }, NOTION_PAGE_ID);
  const model = {
    version: 1 as const,
    source: null,
    blocks: page.blocks.filter((b) => b.type !== 'image'),
    cta: null,
    imageButton: null,
  };
  const rendered = renderLetter(page.title, model);
  await db.query(
    `update public.block_private set mail_from = $2, mail_name = 'Bench', mail_title = $3, mail_html = $4,
       mail_text = $5, letter = $6 where block_id = $1`,
    [blockId, email, page.title, rendered.html, rendered.text, JSON.stringify(model)],
  );
  await db.query(
    `insert into public.audience_members (user_id, creator_name, email, history)
     select $1, 'Member ' || n, 'member-' || n || '@example.com', '[]' from generate_series(1, $2) n`,
    [owner, MEMBERS],
  );

  const token = await ownerAccessToken(
    DEFAULT_JWT_SECRET,
    { id: owner, email, provider: 'email' },
    '1h',
  );

  // the seed's notification digests are not part of the measurement
  await db.query(
    `update private.jobs set status = 'done', finished_at = now() where kind <> 'letter' and status = 'queued'`,
  );
  await new Promise((r) => setTimeout(r, 1000));
  const sentBefore = await sesSent(stack.providersUrl);
  let pid = functionsPid(ports.functions);
  let rssPeak = rssMb(pid);
  const rssBefore = rssPeak;
  const started = performance.now();
  const res = await fetch(`${stack.apiUrl}/functions/v1/publish-letter`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      apikey: stack.anonKey,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ blockId, group: 'activated' }),
  });
  const answer = (await res.json()) as {
    data?: { reservedCount: number; publishId: string };
    error?: unknown;
  };
  const reserveMs = performance.now() - started;
  if (!answer.data || answer.data.reservedCount !== MEMBERS) {
    throw new Error(`publish-letter answered ${res.status} ${JSON.stringify(answer)}`);
  }
  const publishId = answer.data.publishId;
  void kickQuietly(stack);
  void kickQuietly(stack);

  let killedAt: number | null = null;
  let restartedMs = 0;
  let sent = 0;
  for (;;) {
    sent = (await sesSent(stack.providersUrl)) - sentBefore;
    rssPeak = Math.max(rssPeak, rssMb(pid));
    if (killedAt === null && sent >= MEMBERS * KILL_AT) {
      killedAt = sent;
      const t0 = performance.now();
      await stack.killFunctions();
      await stack.restartFunctions();
      restartedMs = performance.now() - t0;
      pid = functionsPid(ports.functions);
      void kickQuietly(stack);
    }
    if (sent >= MEMBERS) break;
    if (performance.now() - started > 900_000)
      throw new Error(`only ${sent} of ${MEMBERS} after 15 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  // let the last events and settlements land, then look for duplicates
  await new Promise((r) => setTimeout(r, 5000));
  const finalSent = (await sesSent(stack.providersUrl)) - sentBefore;
  const deliveries = await count(
    db,
    `select count(*) as n from public.deliveries where publish_id = $1 and status not in ('reserved', 'skipped', 'failed')`,
    [publishId],
  );
  const distinctIds = await count(
    db,
    `select count(distinct provider_message_id) as n from public.deliveries where publish_id = $1`,
    [publishId],
  );
  const settled = await count(
    db,
    `select count(*) as n from private.jobs where kind = 'letter' and payload ->> 'publish_id' = $1 and result ? 'settled'`,
    [publishId],
  );
  const requeued = await count(
    db,
    `select count(*) as n from private.jobs where kind = 'letter' and payload ->> 'publish_id' = $1 and last_error like '%queued again%'`,
    [publishId],
  );
  const counts = (
    await db.query(`select sent_count, delivered_count from public.publishes where id = $1`, [
      publishId,
    ])
  ).rows[0] as {
    sent_count: number;
    delivered_count: number;
  };
  if (process.env.BENCH_DEBUG) {
    const mails = (await (
      await fetch(`${stack.providersUrl}/mailbox/messages?limit=20000`)
    ).json()) as Array<{ to: string[]; subject: string }>;
    const seen = new Map<string, number>();
    for (const m of mails) for (const to of m.to) seen.set(to, (seen.get(to) ?? 0) + 1);
    process.stdout.write(
      `mailbox ${mails.length}; twice: ${[...seen]
        .filter(([, n]) => n > 1)
        .map(([k]) => k)
        .slice(0, 10)
        .join(', ')}; other: ${mails
        .filter((m) => !m.to.some((t) => t.startsWith('member-')))
        .map((m) => m.subject)
        .slice(0, 5)
        .join(' | ')}\n`,
    );
  }
  await db.end();
  const exactlyOnce = finalSent === MEMBERS && deliveries === MEMBERS && distinctIds === MEMBERS;

  const body = `Measured by \`npm run bench:letters\` (scripts/bench/letters.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, load average before ${load}.

One letter (the Notion fixture page, rendered by the pipeline) sent with \`publish-letter\` to an audience of ${MEMBERS} active members, through the gateway, the jobs worker and the official SES v2 client to the providers server's fake, at the local sending rate (\`rate.mail.per_second\` ${rate ?? 'default'}). When ${killedAt} mails had gone, the Deno process running the worker (and \`ses-events\`) was killed with SIGKILL and started again (${(restartedMs / 1000).toFixed(1)} s); \`letters.unknown_grace_seconds\` was 20 for the run (600 by default).

| figure | value |
| --- | --- |
| publish-letter's answer (reserve ${MEMBERS} deliveries and jobs in one transaction) | ${reserveMs.toFixed(0)} ms |
| time from the call to the last mail in the fake | **${seconds.toFixed(1)} s** (${(MEMBERS / seconds).toFixed(0)} mails/s overall, the kill and the leases of the jobs it held included) |
| Deno functions process RSS | ${rssBefore.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB at the peak |
| mails SES accepted / members | ${finalSent} / ${MEMBERS} |
| deliveries sent, each with its own message id | ${deliveries} (${distinctIds} distinct ids) |
| jobs settled by SES's Send event after the kill / queued again after the grace | ${settled} / ${requeued} |
| send's counts at the end (sent, delivered) | ${counts.sent_count}, ${counts.delivered_count} |
| **exactly one mail per member** | ${exactlyOnce ? 'yes' : 'NO'} |`;
  if (!exactlyOnce) process.exitCode = 1;
  return { body };
});

// Found from a clean clone in the fifth hostile review (breaker, 2026-11-26): the whole stack
// killed with SIGKILL halfway through a letter send, then `npm start` again. Every member got the
// letter, and 64 of 600 got it twice: the jobs the worker held came back `unknown` and, with no
// SES Send event, were queued again after the grace, although SES had accepted their mail before
// the kill. The Send events were in the SES fake's SNS delivery queue, in memory, and died with
// the stack; real SES and SNS do not die with our stack, and SNS retries a delivery. Now the fake
// journals a send's events before SendEmail answers and delivers what was left after a restart
// (providers/ses/outbox.ts; providers-ses-journal.test.ts tests it on its own).
//
// Here, as a user would meet it: `npm start`, a letter to 200 members through publish-letter,
// the whole stack's process group killed with SIGKILL while SES has accepted mail whose job the
// worker has not recorded yet, `npm start` again on the same data: each member has the letter
// exactly once, and the send's counts say 200 sent and 200 delivered.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../scripts/poll.ts';
import { DEFAULT_JWT_SECRET, freePorts } from '../local/config.ts';
import { DEMO_OWNER_ID, demoOwnerToken } from '../local/demo-letters.ts';
import { anonKeyOf, gone, startCli, started, until } from './support/cli.ts';

const MEMBERS = 200;
const LETTER_BLOCK = '00000000-0000-4000-8000-000000000107'; // the demo Notion letter

const dir = mkdtempSync(join(tmpdir(), 'rb-letter-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * An events endpoint that takes SNS's posts and never answers: while the send runs, ses-events
 * is slower than the send (as in the review's run, where 64 Send events were still queued at the
 * kill), so the events of the mails accepted last are still on their way when the stack dies.
 */
async function heldEndpoint() {
  const held: IncomingMessage[] = [];
  const server = createServer((req) => void held.push(req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/held`,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('a letter send when the whole stack is killed halfway', () => {
  it('every member gets the letter once after a SIGKILL of the whole stack mid-send', async () => {
    const ports = await freePorts();
    const dataDir = join(dir, 'postgres');
    const providers = `http://127.0.0.1:${ports.providers}`;
    const endpoint = await heldEndpoint();
    const db = new pg.Client({
      connectionString: `postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`,
    });
    db.on('error', () => undefined); // the stack is killed under it
    try {
      const first = startCli(ports, dataDir);
      await started(first);
      // the demo letter is made through the functions once the stack runs
      await until(
        () => /Demo letters: \d+ made|could not be made/.test(first.output()),
        180_000,
        'the demo letters',
      );
      expect(first.output()).not.toContain('could not be made');
      await db.connect();
      // a mail that was accepted but not recorded is settled by its Send event, or after this
      // grace sent again (the default 600 s only delays the same end)
      await db.query(
        `insert into private.settings (key, value) values ('letters.unknown_grace_seconds', '60')
         on conflict (key) do update set value = excluded.value`,
      );
      // a group of the demo owner's audience with 200 members of its own
      const group = `kill-${randomUUID().slice(0, 8)}`;
      await db.query('insert into public.audience_groups (user_id, name) values ($1, $2)', [
        DEMO_OWNER_ID,
        group,
      ]);
      await db.query(
        `insert into public.audience_members (user_id, creator_name, email, group_name)
         select $1, 'Member ' || n, $2 || '-' || n || '@example.com', $2
         from generate_series(1, $3) n`,
        [DEMO_OWNER_ID, group, MEMBERS],
      );
      const { rows: members } = await db.query<{ email: string }>(
        `select lower(email) as email from public.audience_members
          where user_id = $1 and group_name = $2`,
        [DEMO_OWNER_ID, group],
      );
      expect(members).toHaveLength(MEMBERS);
      const control = (path: string, body: object) =>
        fetch(`${providers}/ses/_control${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => expect(r.status).toBe(200));
      for (const { email } of members)
        await control('/divert', { recipient: email, url: endpoint.url });
      const sesSent = async () =>
        ((await (await fetch(`${providers}/ses/_control/state`)).json()) as { sent: number }).sent;
      const sentBefore = await sesSent();

      const token = await demoOwnerToken(DEFAULT_JWT_SECRET);
      const res = await fetch(`http://127.0.0.1:${ports.api}/functions/v1/publish-letter`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          apikey: anonKeyOf(first),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ blockId: LETTER_BLOCK, group }),
      });
      const answer = (await res.json()) as { data: { publishId: string; reservedCount: number } };
      expect(res.status, JSON.stringify(answer)).toBe(200);
      const { publishId, reservedCount } = answer.data;
      expect(reservedCount).toBe(MEMBERS);
      const ours = new Set(members.map((m) => m.email));

      // killed halfway, at a moment SES holds mail whose job the worker has not recorded (the
      // done count is read before SES's count, so a higher SES count is such a mail)
      const done = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `select count(*) as n from private.jobs
                where kind = 'letter' and payload ->> 'publish_id' = $1 and status = 'done'`,
              [publishId],
            )
          ).rows[0]!.n,
        );
      let accepted = 0;
      // asked every 25 ms: on an idle machine the send takes about a second
      await eventually(
        async () => {
          const recorded = await done();
          if (recorded >= MEMBERS) throw new Error('the send finished before the kill');
          accepted = (await sesSent()) - sentBefore;
          return accepted >= MEMBERS * 0.4 && accepted > recorded;
        },
        300_000,
        'the send to be halfway with mail accepted and not recorded',
      );
      process.kill(-first.child.pid!, 'SIGKILL');
      await db.end().catch(() => undefined);
      await gone(first, ports, dataDir);
      expect(accepted).toBeLessThan(MEMBERS);
      expect(endpoint.held.length).toBeGreaterThan(0);

      // started again on the same data: the send finishes by itself
      const second = startCli(ports, dataDir);
      await started(second);
      const after = new pg.Client({
        connectionString: `postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`,
      });
      await after.connect();
      try {
        const unsettled = async () =>
          Number(
            (
              await after.query<{ n: string }>(
                `select count(*) as n from private.jobs
                  where kind = 'letter' and payload ->> 'publish_id' = $1 and status <> 'done'`,
                [publishId],
              )
            ).rows[0]!.n,
          );
        const counts = async () =>
          (
            await after.query<{ sent_count: number; delivered_count: number }>(
              'select sent_count, delivered_count from public.publishes where id = $1',
              [publishId],
            )
          ).rows[0]!;
        await until(async () => (await unsettled()) === 0, 600_000, 'every letter job done');

        // each member has the letter exactly once
        const mails = (await (
          await fetch(`${providers}/mailbox/messages?limit=20000`)
        ).json()) as Array<{ to: string[] }>;
        const got = new Map<string, number>();
        for (const mail of mails) {
          for (const to of mail.to) {
            const address = (/<([^>]+)>/.exec(to)?.[1] ?? to).toLowerCase();
            if (ours.has(address)) got.set(address, (got.get(address) ?? 0) + 1);
          }
        }
        const twice = [...got].filter(([, n]) => n > 1).map(([a]) => a);
        const missing = [...ours].filter((a) => !got.has(a));
        expect(twice, `${twice.length} members got the letter more than once`).toEqual([]);
        expect(missing, `${missing.length} members never got it`).toEqual([]);

        // the send's history: 200 sent, and 200 delivered once the last Delivery events are in
        await until(
          async () => (await counts()).delivered_count >= MEMBERS,
          60_000,
          'the Delivery events',
        ).catch(() => undefined);
        expect(await counts()).toMatchObject({ sent_count: MEMBERS, delivered_count: MEMBERS });

        // the kill did catch mail SES had accepted and the worker had not recorded: those jobs
        // were settled by their Send event (what failed before the fix)
        const { rows } = await after.query<{ settled: string; deliveries: string }>(
          `select (select count(*) from private.jobs where kind = 'letter'
                    and payload ->> 'publish_id' = $1 and result ? 'settled') as settled,
                  (select count(distinct provider_message_id) from public.deliveries
                    where publish_id = $1::uuid and status = 'delivered') as deliveries`,
          [publishId],
        );
        expect(Number(rows[0]!.settled)).toBeGreaterThan(0);
        expect(Number(rows[0]!.deliveries)).toBe(MEMBERS);
      } finally {
        await after.end();
      }
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await db.end().catch(() => undefined);
      await endpoint.close();
    }
  }, 900_000);
});

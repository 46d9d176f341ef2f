// The SES fake's events outlive the providers server (issue 17): events not yet delivered when it
// stops are in its state directory, and the next start delivers them, with the same SNS
// MessageId and Timestamp (so ses-events applies each once), signed by the new run's key, once
// the events webhook's subscription is confirmed again; events of a mail the mailbox never took
// are dropped; what was delivered leaves the journal. (The whole stack killed with SIGKILL mid-send: hostile-restart.test.ts.)
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startProviders, type Providers } from '../local/providers/server.ts';
import { LOCAL_AWS } from '../local/config.ts';
import { eventually, snsReceiver, snsSignatureValid, type SnsPost } from './support/providers.ts';

const dir = mkdtempSync(join(tmpdir(), 'rb-ses-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let running: Providers | undefined;
async function stop(): Promise<void> {
  const providers = running;
  running = undefined;
  await providers?.close();
}
afterEach(stop);

type Receiver = Awaited<ReturnType<typeof snsReceiver>>;

/** A providers server on `stateDir` whose default account's events go to `receiver`. */
async function start(stateDir: string, receiver: Receiver): Promise<Providers> {
  running = await startProviders({
    port: 0,
    dnsPort: 0,
    stateDir,
    ses: {
      region: LOCAL_AWS.region,
      defaultAccessKeyId: LOCAL_AWS.accessKeyId,
      configurationSets: [LOCAL_AWS.configurationSet],
      verifiedIdentities: ['journal.example'],
      eventsWebhook: receiver.url,
      settings: { deliveryDelayMs: 0, retry: { numRetries: 100, minDelayMs: 50, maxDelayMs: 50 } },
    },
  });
  running.start();
  return running;
}

/** Follows the SubscribeURL of the latest confirmation, as ses-events does. */
async function confirm(receiver: Receiver, after: number): Promise<void> {
  const post = await receiver.waitFor(
    (p) => p.body.Type === 'SubscriptionConfirmation' && receiver.posts.indexOf(p) >= after,
    30_000,
  );
  expect((await fetch(post.body.SubscribeURL!)).status).toBe(200);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read through, checked by toMatchObject
const event = (p: SnsPost) => JSON.parse(p.body.Message!) as Record<string, any>;
/** The events the journal still holds (written, not yet delivered). */
function pendingIn(stateDir: string): string[] {
  const pending = new Set<string>();
  for (const line of readFileSync(join(stateDir, 'ses-events.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line) as { p?: { id: string }; d?: string };
    if (entry.p) pending.add(entry.p.id);
    else pending.delete(entry.d!);
  }
  return [...pending];
}
const notifications = (receiver: Receiver, from = 0) =>
  receiver.posts.slice(from).filter((p) => p.body.Type === 'Notification');

describe('SES fake: events across a restart', () => {
  it('delivers what a stopped run had not delivered, once confirmed again, with the same MessageId', async () => {
    const receiver = await snsReceiver();
    try {
      const stateDir = join(dir, 'state');
      // 1. a confirmed subscription whose endpoint then fails every notification
      let providers = await start(stateDir, receiver);
      await confirm(receiver, 0);
      receiver.respond((p) => (p.body.Type === 'Notification' ? 503 : 200));
      const ses = new SESv2Client({
        endpoint: `${providers.url}/ses`,
        region: LOCAL_AWS.region,
        credentials: { accessKeyId: LOCAL_AWS.accessKeyId, secretAccessKey: 'x' },
      });
      const { MessageId } = await ses.send(
        new SendEmailCommand({
          FromEmailAddress: 'letters@journal.example',
          Destination: { ToAddresses: ['reader@example.com'] },
          Content: { Simple: { Subject: { Data: 'Hi' }, Body: { Text: { Data: 'Hello' } } } },
          ConfigurationSetName: LOCAL_AWS.configurationSet,
        }),
      );
      // both events were tried (and refused) before the stop
      const tried = await eventually(() => {
        const types = new Set(notifications(receiver).map((p) => event(p).eventType));
        return types.has('Send') && types.has('Delivery') ? notifications(receiver) : undefined;
      });
      const first = new Map(tried.map((p) => [event(p).eventType as string, p.body]));
      ses.destroy();
      await stop();

      expect(pendingIn(stateDir)).toHaveLength(2);
      // and an event of a mail the mailbox never took (the stack died between the two writes)
      const journal = join(stateDir, 'ses-events.jsonl');
      const [line] = readFileSync(journal, 'utf8').split('\n');
      const orphan = { ...(JSON.parse(line!) as { p: object }).p, id: 'never-sent' };
      const summary = { eventType: 'Send', messageId: 'not-in-the-mailbox' };
      appendFileSync(journal, `${JSON.stringify({ p: { ...orphan, summary } })}\n`);

      // 2. started again: nothing goes out before the new subscription is confirmed
      receiver.respond(200);
      const mark = receiver.posts.length;
      providers = await start(stateDir, receiver);
      expect((await fetch(`${providers.url}/mailbox/messages/${MessageId}`)).status).toBe(200);
      await receiver.waitFor(
        (p) => p.body.Type === 'SubscriptionConfirmation' && receiver.posts.indexOf(p) >= mark,
        30_000,
      );
      expect(notifications(receiver, mark)).toEqual([]);
      await confirm(receiver, mark);
      const again = await eventually(() => {
        const found = notifications(receiver, mark);
        return found.length >= 2 ? found : undefined;
      });
      const certPem = await (await fetch(again[0]!.body.SigningCertURL!)).text();
      for (const post of again) {
        const before = first.get(event(post).eventType as string)!;
        expect(post.body.MessageId).toBe(before.MessageId);
        expect(post.body.Timestamp).toBe(before.Timestamp);
        expect(post.body.Message).toBe(before.Message);
        expect(post.body.SigningCertURL).not.toBe(before.SigningCertURL);
        expect(snsSignatureValid(post.body, certPem)).toBe(true);
      }
      expect(again.map((p) => event(p).eventType).sort()).toEqual(['Delivery', 'Send']);
      // delivered: they leave the journal (the made-up one was dropped at start)
      await eventually(
        () => pendingIn(stateDir).length === 0,
        60_000,
        () => pendingIn(stateDir),
      );
      expect(notifications(receiver, mark)).toHaveLength(2);
      await stop();
      expect(pendingIn(stateDir)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

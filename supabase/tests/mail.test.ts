// Mail end to end through the real pieces: a visitor's write through supabase-js enqueues a job
// in its transaction, the jobs-worker edge function sends it with the official SES v2 client to
// the providers server's SES fake, the mail lands in the local mailbox, and the fake's signed SNS
// events come back through the ses-events function. Also the one-click unsubscribe, provider
// outages and forged or replayed SNS posts (sender emails: sender-emails.test.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../functions/_shared/mail-errors.ts';
import { verifySnsMessage } from '../functions/_shared/sns.ts';
import { newGuest, serviceClient, sql, stack } from './support/clients.ts';
import { callWorker, recordedJobs } from './support/worker.ts';
import { ownerWithBlock } from './support/drafts.ts';
import { postMessage } from './support/hostile.ts';
import { preconfirm } from './support/consent.ts';
import {
  clickOneClick,
  eventually,
  inbox,
  mailbox,
  oneClickLink,
  providersUrl,
  sesControl,
  snsReceiver,
  type Mail,
} from './support/providers.ts';

/** Runs the worker now, as the schedule or a kick would. */
const runWorker = callWorker;

/** A paid owner's block saved with a name that mails must escape (and `opts.settings`). */
const ownerBlock = (
  type: 'comment' | 'qna' | 'form',
  opts: { mailTo?: string; settings?: Record<string, unknown>; language?: 'en' | 'ko' } = {},
) =>
  ownerWithBlock(type, {
    ...opts,
    settings: { name: `Block ${randomUUID().slice(0, 4)} <b>&</b>`, ...opts.settings },
  });

/** Runs the worker until a mail to `to` shows up (the schedule may also be running it). */
async function deliveredTo(to: string, match: (m: Mail) => boolean = () => true): Promise<Mail> {
  return eventually(async () => {
    await runWorker();
    return (await mailbox(to)).find(match);
  });
}

const jobsOfBlock = (blockId: string) =>
  sql<{ kind: string; status: string; attempts: number; last_error: string | null }>(
    `select kind, status, attempts, last_error from private.jobs where payload ->> 'block_id' = $1 order by id`,
    [blockId],
  );

/** The block's jobs once their outcomes are recorded (the mail arrives before its job's). */
const recordedJobsOfBlock = (blockId: string) => recordedJobs(() => jobsOfBlock(blockId));

describe('the jobs worker', () => {
  it('answers only the scheduler', async () => {
    expect((await runWorker('wrong')).status).toBe(401);
    const res = await fetch(`${stack().apiUrl}/functions/v1/jobs-worker`, { method: 'POST' });
    expect(res.status).toBe(401);
    const guest = await newGuest();
    expect((await runWorker(guest.accessToken)).status).toBe(401);
  });
});

describe('notification mails', () => {
  it("a visitor's comment reaches the owner's notification address, escaped, with a text part and one-click unsubscribe", async () => {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const visitor = await newGuest();
    const { error } = await postMessage(
      visitor,
      blockId,
      'Hello <script>alert(1)</script>\nsecond line',
    );
    expect(error).toBeNull();
    const mail = await deliveredTo(to);
    expect(mail.from).toContain('notify@reaction-blocks.local');
    expect(mail.subject).toMatch(/^New comment on “Block .{4} <b>&<\/b>”$/);
    expect(mail.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;<br>second line');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Visitor &lt;i&gt;');
    expect(mail.html).toContain(`/work/${blockId}`);
    expect(mail.text).toContain('Hello <script>alert(1)</script>');
    const headers = Object.fromEntries(
      Object.entries(mail.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(headers['list-unsubscribe']).toMatch(
      /^<http:\/\/127\.0\.0\.1:\d+\/functions\/v1\/unsubscribe\?token=.+>$/,
    );
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // the job is done, the mail recorded with the provider's id, and the Delivery event applied
    expect(await recordedJobsOfBlock(blockId)).toMatchObject([
      { kind: 'notify.owner', status: 'done' },
    ]);
    const state = await eventually(async () => {
      const [row] = await sql<{ status: string; provider_message_id: string }>(
        'select status, provider_message_id from private.outbound_mails where block_id = $1',
        [blockId],
      );
      return row?.status === 'delivered' ? row : undefined;
    });
    expect(state.provider_message_id).toBe(mail.id);
  });

  it('a block name with line breaks makes a one-line subject: no header of its own in the mail', async () => {
    const to = inbox();
    const name = 'Shop\r\nBcc: attacker@example.com\r\nX-Injected: yes';
    const { blockId } = await ownerBlock('comment', { mailTo: to, settings: { name } });
    const [row] = await sql<{ name: string }>('select name from public.blocks where id = $1', [
      blockId,
    ]);
    expect(row!.name).toBe(name);
    const { error } = await postMessage(await newGuest(), blockId, 'hello');
    expect(error).toBeNull();
    const mail = await deliveredTo(to);
    expect(mail.subject).toBe('New comment on “Shop Bcc: attacker@example.com X-Injected: yes”');
    const headers = Object.keys(mail.headers).map((h) => h.toLowerCase());
    expect(headers).not.toContain('x-injected');
    expect(headers).not.toContain('bcc');
    expect(mail.source).not.toMatch(/\r\n(Bcc|X-Injected):/i);
    expect(await mailbox('attacker@example.com')).toEqual([]);
  });

  it('a form response is mailed with its answers, in Korean for a Korean owner', async () => {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('form', { mailTo: to, language: 'ko' });
    const { data: question } = await serviceClient()
      .from('questions')
      .insert({
        block_id: blockId,
        type: 'short_text',
        title: '이름이 무엇인가요?',
        index: 0,
        required: true,
      })
      .select('id')
      .single();
    const visitor = await newGuest();
    const { error } = await visitor.client.rpc('submit_response', {
      p_block_id: blockId,
      p_answers: { [(question as { id: string }).id]: '홍길동' },
    });
    expect(error).toBeNull();
    const mail = await deliveredTo(to);
    expect(mail.subject).toContain('새 응답');
    expect(mail.html).toContain('이름이 무엇인가요?');
    expect(mail.html).toContain('홍길동');
    expect(mail.html).toContain(`/work/${blockId}/result`);
  });

  it('a burst becomes a digest: the first mail at once, the rest in one mail after the window, nothing twice', async () => {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const visitor = await newGuest();
    expect((await postMessage(visitor, blockId, 'burst 0')).error).toBeNull();
    await deliveredTo(to);
    for (let n = 1; n <= 6; n++)
      expect((await postMessage(visitor, blockId, `burst ${n}`)).error).toBeNull();
    // within the window nothing more is sent, however often the worker runs
    for (let i = 0; i < 3; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(1);
    // the window passes
    await sql(
      `update private.job_groups set last_done_at = now() - interval '2 minutes' where group_key = $1`,
      [`notify.owner:${blockId}`],
    );
    await sql(`update private.jobs set run_at = now() where group_key = $1 and status = 'queued'`, [
      `notify.owner:${blockId}`,
    ]);
    const digest = await deliveredTo(to, (m) => m.subject.startsWith('6 new comments'));
    for (let n = 1; n <= 6; n++) expect(digest.html).toContain(`burst ${n}`);
    expect(digest.html).not.toContain('burst 0');
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(2);
    const states = await recordedJobsOfBlock(blockId);
    expect(states.filter((s) => s.status === 'done')).toHaveLength(2);
    expect(states.filter((s) => s.status === 'merged')).toHaveLength(5);
  });

  it('tells a commenter who left an email about replies, and honours their unsubscribe from then on', async () => {
    const { owner, blockId } = await ownerBlock('comment', {
      settings: { allow_creator_email: true },
    });
    const commenter = await newGuest();
    const email = inbox('inbox');
    // the address said yes to reply notifications (double opt-in: hostile-mail.test)
    await preconfirm(email, owner.id, commenter.id);
    const top = await postMessage(commenter, blockId, 'Tell me when you answer', {
      p_creator_email: email,
    });
    expect(top.error).toBeNull();
    const parentId = (top.data as { id: string }).id;
    expect(
      (await postMessage(owner, blockId, 'Here is the answer', { p_parent_id: parentId })).error,
    ).toBeNull();
    const mail = await deliveredTo(email);
    expect(mail.subject).toMatch(/^New reply to your comment/);
    expect(mail.html).toContain('Tell me when you answer');
    expect(mail.html).toContain('Here is the answer');

    // one-click unsubscribe as a mail client does it (RFC 8058)
    const link = oneClickLink(mail);
    const info = await fetch(link);
    expect(await info.json()).toMatchObject({
      data: {
        scope: 'reply',
        email: expect.stringMatching(/^i\*\*\*@example\.com$/),
        unsubscribed: false,
      },
    });
    expect((await clickOneClick(link)).status).toBe(200);
    // the page opened from the mail again says it is done already instead of asking
    expect(
      ((await (await fetch(link)).json()) as { data: { unsubscribed: boolean } }).data,
    ).toMatchObject({
      unsubscribed: true,
    });

    await sql(
      `update private.job_groups set last_done_at = now() - interval '2 minutes' where group_key = $1`,
      [`notify.reply:${parentId}`],
    );
    expect(
      (await postMessage(owner, blockId, 'Another answer', { p_parent_id: parentId })).error,
    ).toBeNull();
    await eventually(async () => {
      await runWorker();
      const jobs = await sql<{ status: string; result: { skipped?: string } | null }>(
        `select status, result from private.jobs where kind = 'notify.reply' and payload ->> 'parent_id' = $1 order by id desc limit 1`,
        [parentId],
      );
      return jobs[0]?.status === 'done' ? jobs[0] : undefined;
    }).then((job) => expect(job.result?.skipped).toBe('the address unsubscribed'));
    expect(await mailbox(email)).toHaveLength(1);
  });

  it('refuses forged and tampered unsubscribe links and writes nothing', async () => {
    const url = `${stack().apiUrl}/functions/v1/unsubscribe`;
    for (const token of ['nonsense-token-value', `${'a'.repeat(40)}.${'b'.repeat(43)}`]) {
      const res = await fetch(`${url}?token=${token}`, { method: 'POST' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        'Invalid link',
      );
    }
    // a real token with another address put in: the signature no longer matches
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const visitor = await newGuest();
    await postMessage(visitor, blockId, 'hi');
    const mail = await deliveredTo(to);
    const token = /token=([^>]+)>/.exec(
      Object.entries(mail.headers).find(([k]) => k.toLowerCase() === 'list-unsubscribe')![1],
    )![1]!;
    const [body, mac] = decodeURIComponent(token).split('.');
    const claim = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, string>;
    const forged = `${Buffer.from(JSON.stringify({ ...claim, e: 'victim@example.com' })).toString('base64url')}.${mac}`;
    const res = await fetch(`${url}?token=${encodeURIComponent(forged)}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(await sql('select 1 from private.mail_optouts where block_id = $1', [blockId])).toEqual(
      [],
    );
  });

  it('a visitor write succeeds while the mail provider is down, and the mail leaves exactly once when it is back', async () => {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const visitor = await newGuest();
    // down for this test's mail only: other test files send mail at the same time
    await sesControl('', { outageOf: { [to]: true } });
    try {
      const { error } = await postMessage(visitor, blockId, 'written during the outage');
      expect(error).toBeNull();
      // the failed first try, caught in its 5 s wait for the retry and held there (due in an
      // hour): on a busy machine the queue's own tick made the retry during the outage too, and
      // the mail left at the third attempt
      const job = await eventually(async () => {
        await runWorker();
        const [row] = await sql<{ attempts: number; last_error: string | null }>(
          `update private.jobs set run_at = now() + interval '1 hour'
            where payload ->> 'block_id' = $1 and status = 'queued' and attempts >= 1
            returning attempts, last_error`,
          [blockId],
        );
        return row;
      });
      expect(job.last_error).toMatch(/ServiceUnavailable|503/);
      expect(await mailbox(to)).toEqual([]);
    } finally {
      await sesControl('', { outageOf: { [to]: false } });
    }
    await sql(
      `update private.jobs set run_at = now() where payload ->> 'block_id' = $1 and status = 'queued'`,
      [blockId],
    );
    await deliveredTo(to);
    for (let i = 0; i < 2; i++) await runWorker();
    expect(await mailbox(to)).toHaveLength(1);
    expect(await recordedJobsOfBlock(blockId)).toMatchObject([{ status: 'done', attempts: 2 }]);
  });

  it('a permanent bounce suppresses the address: later notifications to it are skipped', async () => {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const visitor = await newGuest();
    await postMessage(visitor, blockId, 'first');
    const mail = await deliveredTo(to);
    await sesControl('/bounce', { messageId: mail.id, type: 'Permanent' });
    await eventually(
      async () =>
        (await sql('select 1 from private.mail_suppressions where email = $1', [to])).length > 0,
    );
    await sql(
      `update private.job_groups set last_done_at = now() - interval '2 minutes' where group_key = $1`,
      [`notify.owner:${blockId}`],
    );
    await postMessage(visitor, blockId, 'second');
    await eventually(async () => {
      await runWorker();
      const rows = await jobsOfBlock(blockId);
      return rows.length === 2 && rows[1]!.status === 'done';
    });
    expect(await mailbox(to)).toHaveLength(1);
  });

  it("events SES publishes before its SendEmail answer reaches the worker are applied with the mail's record: a permanent bounce suppresses the address, the mail is bounced", async () => {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const recorded = () =>
      sql<{ status: string; bounce_type: string | null }>(
        'select status, bounce_type from private.outbound_mails where block_id = $1',
        [blockId],
      );
    const suppressed = () =>
      sql<{ reason: string }>('select reason from private.mail_suppressions where email = $1', [
        to,
      ]);
    // SES takes the mail and publishes its events; its answer waits: the worker records the
    // batch (finish_jobs) only after it
    await sesControl('', { outageOf: { [to]: 'held' } });
    let worker: Promise<unknown> | undefined;
    let suppressedAtOnce: unknown;
    try {
      await postMessage(await newGuest(), blockId, 'bounces before it is recorded');
      const mail = await eventually(async () => {
        // one worker at a time: the one that takes the job waits for SES's answer
        worker ??= callWorker().finally(() => (worker = undefined));
        return (await mailbox(to))[0];
      });
      const { snsMessageId } = await sesControl<{ snsMessageId: string }>('/bounce', {
        messageId: mail.id,
        type: 'Permanent',
      });
      // ses-events took the bounce (its SNS id is spent: a retry is a duplicate) before the
      // mail was recorded
      await eventually(
        async () =>
          (await sql('select 1 from private.provider_events where id = $1', [snsMessageId]))
            .length > 0,
      );
      expect(await recorded()).toEqual([]);
      suppressedAtOnce = await suppressed();
    } finally {
      await sesControl('', { outageOf: { [to]: false } });
    }
    await worker;
    expect(await recordedJobsOfBlock(blockId)).toMatchObject([
      { kind: 'notify.owner', status: 'done' },
    ]);
    // the Send, Delivery and Bounce events it kept, applied in the order they came
    expect(await recorded()).toEqual([{ status: 'bounced', bounce_type: 'Permanent' }]);
    expect(await suppressed()).toEqual([{ reason: 'bounce' }]);
    // the bounce named its recipient: suppressed before the mail was recorded
    expect(suppressedAtOnce).toEqual([{ reason: 'bounce' }]);
    expect(
      await sql('select 1 from private.early_mail_events where message_id = $1', [
        (await mailbox(to))[0]!.id,
      ]),
    ).toEqual([]);
  });

  it('many workers at once never send a mail twice', async () => {
    const addresses: string[] = [];
    for (let i = 0; i < 8; i++) {
      const to = inbox('inbox');
      addresses.push(to);
      const { blockId } = await ownerBlock('comment', { mailTo: to });
      const visitor = await newGuest();
      await postMessage(visitor, blockId, `parallel ${i}`);
    }
    await Promise.all(Array.from({ length: 6 }, () => runWorker()));
    for (const to of addresses) await deliveredTo(to);
    await Promise.all(Array.from({ length: 3 }, () => runWorker()));
    for (const to of addresses) expect(await mailbox(to)).toHaveLength(1);
  });
});

describe('SNS posts to ses-events', () => {
  let receiver: Awaited<ReturnType<typeof snsReceiver>>;
  const url = () => `${stack().apiUrl}/functions/v1/ses-events`;
  const postRaw = (body: string) =>
    fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
      body,
    });

  beforeAll(async () => {
    receiver = await snsReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  /** A genuine Delivery notification of our topic that ses-events has not seen yet. */
  async function capturedDelivery(): Promise<{
    body: Record<string, string>;
    raw: string;
    to: string;
  }> {
    const to = inbox('inbox');
    const { blockId } = await ownerBlock('comment', { mailTo: to });
    const visitor = await newGuest();
    const since = receiver.posts.length;
    const next = (match: (p: (typeof receiver.posts)[number]) => boolean) =>
      eventually(() => receiver.posts.slice(since).find(match));
    // only the events of this test's mail come here (the stack's subscription keeps the rest:
    // other test files are sending mail at the same time)
    await sesControl('/divert', { recipient: to, url: receiver.url });
    try {
      await postMessage(visitor, blockId, 'for the SNS tests');
      const mail = await deliveredTo(to);
      // the mail recorded (with its job's outcome): the tests read its status and post its events
      await recordedJobsOfBlock(blockId);
      const delivery = await next(
        (p) =>
          p.body.Type === 'Notification' &&
          p.body.Message!.includes(mail.id) &&
          p.body.Message!.includes('"Delivery"'),
      );
      return { body: delivery.body, raw: delivery.raw, to };
    } finally {
      await sesControl('/divert', { recipient: to, url: null });
    }
  }

  it('applies a genuine event once; a replay changes nothing; tampering, a foreign certificate host or topic are refused', async () => {
    const { body, raw } = await capturedDelivery();
    const messageId = (JSON.parse(body.Message!) as { mail: { messageId: string } }).mail.messageId;
    const status = async () =>
      (
        await sql<{ status: string }>(
          'select status from private.outbound_mails where provider_message_id = $1',
          [messageId],
        )
      )[0]?.status;
    expect(await status()).toBe('sent');

    const first = await postRaw(raw);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { applied: true } });
    expect(await status()).toBe('delivered');
    const replay = await postRaw(raw);
    expect(await replay.json()).toEqual({ data: { applied: false, reason: 'duplicate' } });

    const tampered = {
      ...body,
      Message: body.Message!.replace('"Delivery"', '"Complaint"'),
      MessageId: randomUUID(),
    };
    const bad = await postRaw(JSON.stringify(tampered));
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'Bad signature',
    );

    const foreignCert = { ...body, SigningCertURL: 'https://evil.example.com/cert.pem' };
    expect((await postRaw(JSON.stringify(foreignCert))).status).toBe(403);
    const lookalike = {
      ...body,
      SigningCertURL: 'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem',
    };
    expect((await postRaw(JSON.stringify(lookalike))).status).toBe(403);
    const otherTopic = { ...body, TopicArn: 'arn:aws:sns:us-east-1:999999999999:other' };
    const topicRes = await postRaw(JSON.stringify(otherTopic));
    expect(topicRes.status).toBe(403);
    expect(((await topicRes.json()) as { error: { message: string } }).error.message).toBe(
      'Not our topic',
    );
    expect(await status()).toBe('delivered');

    expect((await postRaw('not json')).status).toBe(400);
    expect((await fetch(url())).status).toBe(405);
  });

  it('refuses a genuinely signed message that is too old (replay after the window)', async () => {
    const { raw } = await capturedDelivery();
    const policy = {
      extraOrigins: [providersUrl()],
      topics: ['arn:aws:sns:us-east-1:123456789012:ses-events'],
      maxAgeSeconds: 3600,
    };
    await expect(verifySnsMessage(raw, policy)).resolves.toMatchObject({ Type: 'Notification' });
    await expect(verifySnsMessage(raw, policy, Date.now() + 2 * 3600_000)).rejects.toThrow(
      'The message is too old',
    );
  });
});

describe('what an SES failure tells the queue (classify)', () => {
  /** An error as the SES v2 client throws it: the error's code as its name, SES's HTTP status. */
  const sesError = (name: string, status?: number, code?: string) =>
    Object.assign(new Error(`${name} said no`), {
      name,
      code,
      $metadata: { httpStatusCode: status },
    });

  it('a throttle, a 5xx, a refused connection or a request SES never took is tried again; any other 4xx is a refusal for good', () => {
    const outcomes = Object.fromEntries(
      (
        [
          ['TooManyRequestsException', 429],
          ['ThrottlingException', 400], // one of the errors common to AWS APIs: a 400
          ['ServiceUnavailable', 503],
          ['ConcurrentModificationException', 500],
          ['Error', undefined, 'ECONNREFUSED'],
          ['AccessDeniedException', 400],
          ['BadRequestException', 400],
          ['NotFoundException', 404],
          ['TimeoutError', undefined],
          // common AWS errors for a request SES did not take: timed out or cut off on the way
          // in, or our temporary credentials expired
          ['RequestTimeoutException', 408],
          ['RequestAbortedException', 400],
          ['ExpiredTokenException', 403],
          // the identity quota: "too many instances of the specified resource type"
          ['LimitExceededException', 400],
        ] as const
      ).map(([name, status, code]) => [name, classify(sesError(name, status, code)).outcome]),
    );
    expect(outcomes).toEqual({
      TooManyRequestsException: 'retry',
      ThrottlingException: 'retry',
      ServiceUnavailable: 'retry',
      ConcurrentModificationException: 'retry',
      Error: 'retry',
      AccessDeniedException: 'rejected',
      BadRequestException: 'rejected',
      NotFoundException: 'rejected',
      TimeoutError: 'unknown',
      RequestTimeoutException: 'retry',
      RequestAbortedException: 'retry',
      ExpiredTokenException: 'retry',
      LimitExceededException: 'rejected',
    });
  });
});

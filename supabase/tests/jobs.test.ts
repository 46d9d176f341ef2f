// The jobs queue (supabase/schemas/jobs.sql) and the notification jobs the visitor writes
// enqueue (notifications.sql), through the functions the worker calls
// with the service role. What a claim takes (two claims at once, groups' turns, rate buckets) is
// in jobs-claims.test.ts; the worker itself (jobs-worker) is tested in mail.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  anonClient,
  callWaitsOnLock,
  newGuest,
  newUser,
  serviceClient,
  sql,
  transaction,
} from './support/clients.ts';
import { preconfirm } from './support/consent.ts';
import { ownerWithBlock } from './support/drafts.ts';
import { postMessage } from './support/hostile.ts';
import { claim, enqueue, finish, kindOf } from './support/jobs.ts';

async function jobRow(id: number) {
  const rows = await sql<{
    status: string;
    attempts: number;
    run_at: Date;
    last_error: string | null;
    result: unknown;
    locked_until: Date | null;
  }>(
    'select status, attempts, run_at, last_error, result, locked_until from private.jobs where id = $1',
    [id],
  );
  return rows[0]!;
}

/** How long after the job's last update (finish_jobs recording a retry) it is due, in ms. */
async function backoffOf(id: number): Promise<number> {
  const [row] = await sql<{ ms: number }>(
    'select extract(epoch from run_at - updated_at)::float8 * 1000 as ms from private.jobs where id = $1',
    [id],
  );
  return row!.ms;
}

describe('jobs queue', () => {
  it('claims a due job once, and finishing it keeps the result', async () => {
    const kind = kindOf();
    const id = await enqueue(kind, { p_payload: { n: 1 } });
    expect(id).toEqual(expect.any(Number));
    const first = await claim(kind);
    expect(first.map((j) => j.id)).toEqual([id]);
    expect(first[0]).toMatchObject({ payload: { n: 1 }, attempts: 1 });
    expect(await claim(kind)).toEqual([]);
    expect(await finish([{ id, status: 'done', result: { ok: true } }])).toMatchObject({ done: 1 });
    expect(await jobRow(id!)).toMatchObject({
      status: 'done',
      result: { ok: true },
      locked_until: null,
    });
    // a finished job cannot be finished again
    expect(await finish([{ id, status: 'failed', error: 'late' }])).toMatchObject({
      failed: 0,
      done: 0,
    });
  });

  it('does not run a job before its time', async () => {
    const kind = kindOf();
    const later = new Date(Date.now() + 60_000).toISOString();
    await enqueue(kind, { p_run_at: later });
    expect(await claim(kind)).toEqual([]);
  });

  it('adds nothing for a dedupe key already used', async () => {
    const kind = kindOf();
    const key = `dedupe:${randomUUID()}`;
    const first = await enqueue(kind, { p_dedupe_key: key });
    const second = await enqueue(kind, { p_dedupe_key: key });
    expect(first).toEqual(expect.any(Number));
    expect(second).toBeNull();
    const rows = await sql('select id from private.jobs where dedupe_key = $1', [key]);
    expect(rows).toHaveLength(1);
  });

  it('retries with a growing backoff and fails after the last attempt, keeping the error', async () => {
    const kind = kindOf();
    const id = (await enqueue(kind, { p_max_attempts: 3 }))!;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [job] = await claim(kind);
      expect(job).toMatchObject({ id, attempts: attempt });
      await finish([{ id, status: 'retry', error: `provider down (${attempt})` }]);
      const row = await jobRow(id);
      if (attempt < 3) {
        expect(row.status).toBe('queued');
        // the backoff as finish_jobs set it: run_at after the moment it recorded the retry (the
        // database's clock, not how long the call took)
        delays.push(await backoffOf(id));
        await sql('update private.jobs set run_at = now() where id = $1', [id]);
      } else {
        expect(row).toMatchObject({ status: 'failed', last_error: 'provider down (3)' });
      }
    }
    // 5 s then 10 s, each within the 20% jitter
    expect(delays[0]).toBeGreaterThanOrEqual(4_000);
    expect(delays[0]).toBeLessThanOrEqual(6_000);
    expect(delays[1]).toBeGreaterThanOrEqual(8_000);
    expect(delays[1]).toBeLessThanOrEqual(12_000);
  });

  it('defer puts a job back without counting the attempt; retry_in overrides the backoff', async () => {
    const kind = kindOf();
    const id = (await enqueue(kind))!;
    await claim(kind);
    const at = new Date(Date.now() + 30_000).toISOString();
    expect(await finish([{ id, status: 'defer', run_at: at }])).toMatchObject({ deferred: 1 });
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 0 });
    await sql('update private.jobs set run_at = now() where id = $1', [id]);
    await claim(kind);
    await finish([{ id, status: 'retry', error: 'slow down', retry_in: 120 }]);
    expect(await backoffOf(id)).toBe(120_000);
  });

  it('claims a job again when its worker vanished before calling the provider', async () => {
    const kind = kindOf();
    const id = (await enqueue(kind))!;
    await claim(kind, 1, 30);
    await sql(`update private.jobs set locked_until = now() - interval '1 second' where id = $1`, [
      id,
    ]);
    const [again] = await claim(kind);
    expect(again).toMatchObject({ id, attempts: 2 });
    expect((await jobRow(id)).last_error).toMatch(/stopped before finishing/);
  });

  it('marks a job unknown, never re-sent, when its worker vanished after calling the provider', async () => {
    const kind = kindOf();
    const id = (await enqueue(kind))!;
    await claim(kind, 1, 30);
    const { error } = await serviceClient().rpc('mark_jobs_sending', { p_ids: [id] });
    expect(error).toBeNull();
    await sql(`update private.jobs set locked_until = now() - interval '1 second' where id = $1`, [
      id,
    ]);
    expect(await claim(kind)).toEqual([]);
    const row = await jobRow(id);
    expect(row.status).toBe('unknown');
    expect(row.last_error).toMatch(/not re-sent/);
  });

  it('runs one job of a group at a time and merges the queued ones into it', async () => {
    const kind = kindOf();
    const group = `group:${randomUUID()}`;
    for (let n = 0; n < 5; n++) await enqueue(kind, { p_payload: { n }, p_group_key: group });
    const claimed = await claim(kind);
    expect(claimed).toHaveLength(1);
    // a second worker gets nothing of the group while it runs
    expect(await claim(kind)).toEqual([]);
    const { data, error } = await serviceClient().rpc('merge_job_group', {
      p_job_id: claimed[0]!.id,
      p_window_seconds: 60,
    });
    expect(error).toBeNull();
    const merged = data as { payloads: Array<{ n: number }>; defer_until: string | null };
    expect(merged.defer_until).toBeNull();
    expect(merged.payloads.map((p) => p.n).sort()).toEqual([0, 1, 2, 3, 4]);
    await finish([{ id: claimed[0]!.id, status: 'done' }]);
    const states = await sql<{ status: string; n: string }>(
      `select status, count(*) as n from private.jobs where group_key = $1 group by status order by status`,
      [group],
    );
    expect(states).toEqual([
      { status: 'done', n: '1' },
      { status: 'merged', n: '4' },
    ]);

    // within the window the next job of the group waits, and so do the ones queued after it
    await enqueue(kind, { p_payload: { n: 5 }, p_group_key: group });
    await enqueue(kind, { p_payload: { n: 6 }, p_group_key: group });
    const [next] = await claim(kind);
    const res = await serviceClient().rpc('merge_job_group', {
      p_job_id: next!.id,
      p_window_seconds: 60,
    });
    const deferred = res.data as { payloads: unknown[]; defer_until: string };
    expect(deferred.payloads).toEqual([]);
    // until the window after the group last ran ends: the database's clock, however long ago
    // that was on a busy machine
    const windowEnd = `(select last_done_at + interval '60 seconds' from private.job_groups where group_key = $1)`;
    expect(
      await sql(`select $2::timestamptz = ${windowEnd} as window_end`, [
        group,
        deferred.defer_until,
      ]),
    ).toEqual([{ window_end: true }]);
    await finish([{ id: next!.id, status: 'defer', run_at: deferred.defer_until }]);
    const waiting = await sql<{ window_end: boolean }>(
      `select run_at = ${windowEnd} as window_end from private.jobs where group_key = $1 and status = 'queued'`,
      [group],
    );
    expect(waiting).toEqual([{ window_end: true }, { window_end: true }]);
  });

  it('is out of reach of client roles', async () => {
    const guest = await newGuest();
    for (const client of [anonClient(), guest.client]) {
      for (const [fn, args] of [
        ['claim_jobs', { p_limit: 1 }],
        ['enqueue_job', { p_kind: 'x' }],
        ['finish_jobs', { p_outcomes: [] }],
        ['mark_jobs_sending', { p_ids: [] }],
        ['merge_job_group', { p_job_id: 1 }],
        ['record_mail_event', { p_event: {} }],
        ['notification_context', { p_kind: 'notify.owner', p_payloads: [] }],
        ['record_mail_optout', { p_email: 'a@b.co', p_scope: 'owner', p_block_id: randomUUID() }],
        // whether an address left a block's mails is the unsubscribe function's to say, to the link's holder
        ['mail_optout_state', { p_email: 'a@b.co', p_scope: 'owner', p_block_id: randomUUID() }],
        ['mail_sender_status', { p_user_id: randomUUID() }],
      ] as const) {
        const { error } = await client.rpc(fn, args);
        expect(error?.message, fn).toMatch(/permission denied/);
      }
      const { error } = await client
        .schema('private' as never)
        .from('jobs')
        .select('*');
      expect(error).not.toBeNull();
    }
    // even as a role inside the database
    for (const role of ['anon', 'authenticated']) {
      await expect(sql(`set role ${role}; select * from private.jobs`)).rejects.toThrow(
        /permission denied/,
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// notification jobs: written in the visitor's transaction
// ---------------------------------------------------------------------------------------------

async function jobsOf(blockId: string) {
  return sql<{
    kind: string;
    payload: Record<string, string>;
    group_key: string;
    rate_bucket: string;
  }>(
    `select kind, payload, group_key, rate_bucket from private.jobs where payload ->> 'block_id' = $1 order by id`,
    [blockId],
  );
}

/** The one job the block's writes enqueued (there must be exactly one). */
async function onlyJobOf(blockId: string) {
  const jobs = await jobsOf(blockId);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

describe('notification jobs', () => {
  it('a comment on a block with a notification address enqueues the owner digest job, in its transaction', async () => {
    const { blockId } = await ownerWithBlock('comment', { mailTo: 'owner-inbox@example.com' });
    const visitor = await newGuest();
    const ok = await postMessage(visitor, blockId, 'Hello there');
    expect(ok.error).toBeNull();
    const failed = await postMessage(visitor, blockId, 'x'.repeat(501));
    expect(failed.error?.message).toBe('Too long message');
    expect(await onlyJobOf(blockId)).toMatchObject({
      kind: 'notify.owner',
      payload: { block_id: blockId, message_id: (ok.data as { id: string }).id },
      group_key: `notify.owner:${blockId}`,
      rate_bucket: 'mail',
    });
  });

  it('no job without a notification address, and none for the owner writing on their own block', async () => {
    const plain = await ownerWithBlock('comment');
    const visitor = await newGuest();
    expect((await postMessage(visitor, plain.blockId, 'Hi')).error).toBeNull();
    expect(await jobsOf(plain.blockId)).toEqual([]);

    const { owner, blockId } = await ownerWithBlock('comment', {
      mailTo: 'owner-inbox@example.com',
    });
    expect((await postMessage(owner, blockId, 'A note from the owner')).error).toBeNull();
    expect(await jobsOf(blockId)).toEqual([]);
  });

  it('a form response enqueues the owner job', async () => {
    const { blockId } = await ownerWithBlock('form', { mailTo: 'forms@example.com' });
    const visitor = await newGuest();
    const { error } = await visitor.client.rpc('submit_response', {
      p_block_id: blockId,
      p_answers: {},
    });
    expect(error).toBeNull();
    const jobs = await jobsOf(blockId);
    expect(jobs.map((j) => j.kind)).toEqual(['notify.owner']);
    expect(jobs[0]!.payload.response_id).toEqual(expect.any(String));
  });

  it("a reply enqueues the commenter's job when they left an email and the block asks for it", async () => {
    const { owner, blockId } = await ownerWithBlock('comment', {
      settings: { allow_creator_email: true },
    });
    const commenter = await newGuest();
    // an address that confirmed reply notifications (else a confirm.mail job is all it gets)
    await preconfirm('commenter@example.com', owner.id, commenter.id);
    const top = await postMessage(commenter, blockId, 'Please tell me when someone answers', {
      p_creator_email: 'commenter@example.com',
    });
    expect(top.error).toBeNull();
    const parentId = (top.data as { id: string }).id;
    // the commenter replying to themselves is no news to them
    expect(
      (await postMessage(commenter, blockId, 'bump', { p_parent_id: parentId })).error,
    ).toBeNull();
    expect(await jobsOf(blockId)).toEqual([]);
    const reply = await postMessage(owner, blockId, 'Thanks, answered!', { p_parent_id: parentId });
    expect(reply.error).toBeNull();
    expect(await onlyJobOf(blockId)).toMatchObject({
      kind: 'notify.reply',
      payload: { parent_id: parentId, message_id: (reply.data as { id: string }).id },
      group_key: `notify.reply:${parentId}`,
    });
  });

  it('notification_context gathers the items and skips what must not be sent', async () => {
    const { owner, blockId } = await ownerWithBlock('comment', { mailTo: 'ctx@example.com' });
    const visitor = await newGuest();
    const first = await postMessage(visitor, blockId, 'First <b>message</b>');
    const second = await postMessage(visitor, blockId, 'Second');
    const payloads = [first, second].map((r) => ({
      block_id: blockId,
      message_id: (r.data as { id: string }).id,
    }));
    const context = async () => {
      const { data, error } = await serviceClient().rpc('notification_context', {
        p_kind: 'notify.owner',
        p_payloads: payloads,
      });
      expect(error).toBeNull();
      return data as Record<string, unknown>;
    };
    const ctx = await context();
    expect(ctx).toMatchObject({ to: 'ctx@example.com', scope: 'owner', language: 'en', total: 2 });
    expect((ctx.items as Array<{ content: string }>).map((i) => i.content)).toEqual([
      'First <b>message</b>',
      'Second',
    ]);

    await serviceClient().rpc('record_mail_optout', {
      p_email: 'CTX@example.com',
      p_scope: 'owner',
      p_block_id: blockId,
    });
    expect(await context()).toEqual({ skip: 'the address unsubscribed' });
    await sql('delete from private.mail_optouts where block_id = $1', [blockId]);

    await sql(
      `insert into private.mail_suppressions (email, reason) values ('ctx@example.com', 'bounce')`,
    );
    expect(await context()).toEqual({ skip: 'the address is suppressed (bounce or complaint)' });
    await sql(`delete from private.mail_suppressions where email = 'ctx@example.com'`);

    const res = await owner.client.functions.invoke('save-block', {
      body: { blockId, privateSettings: { mail_to: '' } },
    });
    expect(res.error).toBeNull();
    expect(await context()).toEqual({ skip: 'notifications were turned off' });
  });
});

// ---------------------------------------------------------------------------------------------
// provider events
// ---------------------------------------------------------------------------------------------

describe('mail events', () => {
  async function sentMail(
    to = `${randomUUID().slice(0, 8)}@example.com`,
    extra: Record<string, unknown> = {},
  ) {
    const kind = kindOf();
    const id = (await enqueue(kind))!;
    await claim(kind);
    const messageId = (extra.provider_message_id as string | undefined) ?? `msg-${randomUUID()}`;
    await finish([
      {
        id,
        status: 'done',
        mail: {
          to,
          from: 'notify@example.com',
          subject: 'Hi',
          kind: 'test',
          provider_message_id: messageId,
          ...extra,
        },
      },
    ]);
    return { messageId, to };
  }

  const event = (fields: Record<string, unknown>) =>
    serviceClient()
      .rpc('record_mail_event', { p_event: { event_id: randomUUID(), ...fields } })
      .then(({ data, error }) => {
        expect(error).toBeNull();
        return data as { applied: boolean; reason?: string };
      });

  const state = async (messageId: string) =>
    (
      await sql<{ status: string; opened: boolean }>(
        'select status, opened from private.outbound_mails where provider_message_id = $1',
        [messageId],
      )
    )[0];

  const kept = (messageId: string) =>
    sql<{ type: string }>(
      `select event ->> 'type' as type from private.early_mail_events where message_id = $1 order by received_at`,
      [messageId],
    );

  it('applies each event once and never lets a late delivery undo a bounce', async () => {
    const { messageId } = await sentMail();
    expect(await state(messageId)).toEqual({ status: 'sent', opened: false });
    const eventId = randomUUID();
    const once = { event_id: eventId, type: 'delivery', message_id: messageId };
    const first = await serviceClient().rpc('record_mail_event', { p_event: once });
    const again = await serviceClient().rpc('record_mail_event', { p_event: once });
    expect(first.data).toEqual({ applied: true });
    expect(again.data).toEqual({ applied: false, reason: 'duplicate' });
    expect(await state(messageId)).toEqual({ status: 'delivered', opened: false });
    await event({ type: 'open', message_id: messageId });
    expect(await state(messageId)).toEqual({ status: 'delivered', opened: true });

    const other = await sentMail();
    await event({ type: 'bounce', message_id: other.messageId, bounce_type: 'Transient' });
    await event({ type: 'delivery', message_id: other.messageId });
    expect((await state(other.messageId))!.status).toBe('bounced');
    // a transient bounce does not suppress the address
    expect(
      await sql('select 1 from private.mail_suppressions where email = $1', [other.to]),
    ).toEqual([]);
    expect(
      await event({ type: 'delivery', message_id: `nobody-sent-this-${randomUUID()}` }),
    ).toEqual({
      applied: false,
      reason: 'kept until its mail is recorded',
    });
    // a Send would change nothing: not kept
    const unsent = `nobody-sent-this-${randomUUID()}`;
    expect(await event({ type: 'send', message_id: unsent })).toEqual({
      applied: false,
      reason: 'unknown message',
    });
    expect(await kept(unsent)).toEqual([]);
  });

  const suppression = (email: string) =>
    sql<{ reason: string }>('select reason from private.mail_suppressions where email = $1', [
      email,
    ]);

  it('keeps events that come before their mail is recorded and applies them with the record, once', async () => {
    const to = `${randomUUID().slice(0, 8)}@example.com`;
    const messageId = `msg-${randomUUID()}`;
    const delivery = { event_id: randomUUID(), type: 'delivery', message_id: messageId };
    const bounce = {
      event_id: randomUUID(),
      type: 'bounce',
      message_id: messageId,
      bounce_type: 'Permanent',
      recipients: [to],
    };
    const record = (p_event: Record<string, unknown>) =>
      serviceClient()
        .rpc('record_mail_event', { p_event })
        .then(({ data }) => data as unknown);
    const keptAnswer = { applied: false, reason: 'kept until its mail is recorded' };
    const duplicate = { applied: false, reason: 'duplicate' };
    expect(await record(delivery)).toEqual(keptAnswer);
    expect(await record(bounce)).toEqual(keptAnswer);
    // SNS's retry of a kept event is a duplicate: kept once
    expect(await record(bounce)).toEqual(duplicate);
    expect(await kept(messageId)).toEqual([{ type: 'delivery' }, { type: 'bounce' }]);
    // a permanent bounce names its recipients: suppressed before the mail is known
    expect(await suppression(to)).toEqual([{ reason: 'bounce' }]);

    // a complaint without recipients waits for its mail's address
    const other = `${randomUUID().slice(0, 8)}@example.com`;
    const otherId = `msg-${randomUUID()}`;
    expect(await event({ type: 'complaint', message_id: otherId })).toEqual(keptAnswer);
    expect(await suppression(other)).toEqual([]);

    await sentMail(to, { provider_message_id: messageId });
    await sentMail(other, { provider_message_id: otherId });
    // applied in the order they came: the bounce after the delivery
    expect(await state(messageId)).toEqual({ status: 'bounced', opened: false });
    expect(await kept(messageId)).toEqual([]);
    expect(await state(otherId)).toEqual({ status: 'complaint', opened: false });
    expect(await suppression(other)).toEqual([{ reason: 'complaint' }]);
    // after the record, a retry is still a duplicate and a new event applies at once
    expect(await record(bounce)).toEqual(duplicate);
    expect(await event({ type: 'open', message_id: messageId })).toEqual({ applied: true });
    expect(await state(messageId)).toEqual({ status: 'bounced', opened: true });
  });

  it('an event that comes while its mail is being recorded is refused whole (55P03) and applies when SNS sends it again', async () => {
    const to = `${randomUUID().slice(0, 8)}@example.com`;
    const messageId = `msg-${randomUUID()}`;
    const kind = kindOf();
    const id = (await enqueue(kind))!;
    await claim(kind);
    const mail = { to, from: 'notify@example.com', subject: 'Hi', kind: 'test' };
    const bounce = {
      event_id: randomUUID(),
      type: 'bounce',
      message_id: messageId,
      bounce_type: 'Permanent',
    };
    await transaction(async (client) => {
      await client.query('select public.finish_jobs($1::jsonb)', [
        JSON.stringify([{ id, status: 'done', mail: { ...mail, provider_message_id: messageId } }]),
      ]);
      // the record is open: the event waits for its mail's lock only up to its lock_timeout,
      // then gives its connection back (rev-mail3 D2). It answers while the record is still
      // open, so it neither applied to a mail it cannot see nor was kept after the record looked
      const busy = await serviceClient().rpc('record_mail_event', { p_event: bounce });
      expect(busy.error?.code).toBe('55P03');
    });
    expect(await kept(messageId)).toEqual([]);
    expect(await state(messageId)).toEqual({ status: 'sent', opened: false });
    // SNS's retry (the same event id: nothing of the refused try was kept) applies it
    const retried = await serviceClient().rpc('record_mail_event', { p_event: bounce });
    expect(retried.data).toEqual({ applied: true });
    expect(await state(messageId)).toEqual({ status: 'bounced', opened: false });
    expect(await suppression(to)).toEqual([{ reason: 'bounce' }]);
  });

  it('30 events waiting for one record do not take the API: each answers while it is open, and a read passes', async () => {
    // before (rev-mail3 D2): each waited for the record holding a PostgREST connection (the
    // pool is 20), and an unrelated read waited with them until the record ended
    const messageId = `msg-${randomUUID()}`;
    await transaction(async (client) => {
      await client.query('select private.lock_mail_messages(array[$1])', [messageId]);
      const events = Array.from({ length: 30 }, (_, i) =>
        serviceClient().rpc('record_mail_event', {
          p_event: { event_id: `${messageId}-${i}`, type: 'delivery', message_id: messageId },
        }),
      );
      const answers = Promise.all(events);
      const read = serviceClient()
        .from('blocks')
        .select('id')
        .limit(1)
        .then((r) => r);
      // all of it answers while the lock is still held
      expect((await read).error).toBeNull();
      expect((await answers).map((a) => a.error?.code)).toEqual(Array(30).fill('55P03'));
    });
    expect(await kept(messageId)).toEqual([]);
  });

  // rev-mail3 D5: a platform mail carries its job's id as an SES tag (_shared/mail-delivery.ts);
  // its events find it by that tag when the database never learnt SES's message id
  const mailRow = (jobId: number) =>
    sql<{ status: string; provider_message_id: string | null; to_email: string; subject: string }>(
      'select status, provider_message_id, to_email, subject from private.outbound_mails where job_id = $1',
      [jobId],
    );

  /**
   * A claimed job of a kind of its own, the message id SES will give its mail, the tags the mail
   * carries (the job's id among them) and the worker's outcome when SendEmail's answer was lost.
   */
  async function claimedMail() {
    const kind = kindOf();
    const id = (await enqueue(kind))!;
    await claim(kind);
    const to = `${randomUUID().slice(0, 8)}@example.com`;
    const messageId = `msg-${randomUUID()}`;
    const tags = { kind: kind.replace('.', '_'), job: String(id) };
    const mail = { to, from: 'notify@example.com', subject: 'Hi', kind };
    const lost = { id, status: 'unknown', error: 'socket hang up', mail };
    return { kind, id, to, messageId, tags, lost };
  }

  it("a platform mail whose SendEmail answer was lost gets its events by its job's tag, before or after its record", async () => {
    for (const order of ['events first', 'record first'] as const) {
      const { id, to, messageId, tags, lost } = await claimedMail();
      const tagged = (type: string, extra: Record<string, unknown> = {}) =>
        event({ type, message_id: messageId, tags, destination: [to], ...extra });
      if (order === 'events first') {
        // SES published Delivery before the worker recorded its lost answer: kept
        expect(await tagged('delivery')).toEqual({
          applied: false,
          reason: 'kept until its mail is recorded',
        });
        await finish([lost]);
      } else {
        await finish([lost]);
        expect(await tagged('delivery')).toEqual({ applied: true });
      }
      expect(await mailRow(id), order).toEqual([
        { status: 'delivered', provider_message_id: messageId, to_email: to, subject: 'Hi' },
      ]);
      expect(await kept(messageId)).toEqual([]);
      // a later bounce applies to it at once
      expect(await tagged('bounce', { bounce_type: 'Permanent', recipients: [to] })).toEqual({
        applied: true,
      });
      expect((await mailRow(id))[0]!.status).toBe('bounced');
      expect(await suppression(to)).toEqual([{ reason: 'bounce' }]);
    }
  });

  it('a platform mail whose worker stopped after the send is recorded from its events, not unknown for good', async () => {
    const { kind, id, to, messageId, tags } = await claimedMail();
    expect((await serviceClient().rpc('mark_jobs_sending', { p_ids: [id] })).error).toBeNull();
    const about = { destination: [to], source: 'notify@example.com', subject: 'Your digest' };
    // SES took it: its Delivery comes while the job is still `sending` (the worker may yet record it)
    expect(await event({ type: 'delivery', message_id: messageId, tags, ...about })).toEqual({
      applied: false,
      reason: 'kept until its mail is recorded',
    });
    // the worker never comes back: its lease runs out and the next claim makes the job unknown
    await sql(`update private.jobs set locked_until = now() - interval '1 second' where id = $1`, [
      id,
    ]);
    expect(await claim(kind)).toEqual([]);
    expect((await jobRow(id)).status).toBe('unknown');
    expect(await mailRow(id)).toEqual([
      { status: 'delivered', provider_message_id: messageId, to_email: to, subject: 'Your digest' },
    ]);
    expect(await kept(messageId)).toEqual([]);
    // an event after that applies at once
    expect(await event({ type: 'complaint', message_id: messageId, tags, ...about })).toEqual({
      applied: true,
    });
    expect((await mailRow(id))[0]!.status).toBe('complaint');
    // a tag naming a job that sent no such mail (still running, or a letter's) records nothing
    const running = (await enqueue(kindOf()))!;
    const stray = `msg-${randomUUID()}`;
    expect(
      await event({ type: 'delivery', message_id: stray, tags: { job: String(running) } }),
    ).toEqual({ applied: false, reason: 'kept until its mail is recorded' });
    expect(await mailRow(running)).toEqual([]);
  });

  it("a lost answer's first event, kept while finish_jobs records the mail, is applied by that record", async () => {
    // rev-fixes D2: record_outbound_mail looked for the kept events before it took the job's lock,
    // which the event held (adopt_job_mail) until it committed. ce3df4d4 looked again after the
    // lock but adopted only if the message's lock was free, and a committing event can release
    // the job's lock before the message's: the mail stayed unknown with no id, its Delivery kept
    // until the purge (CI; here 1 to 3 in 150 rounds). Now the record takes the job's lock first and never
    // the message's. `holder` takes the message's lock as the event commits, so it is held then
    const { id, to, messageId, tags, lost } = await claimedMail();
    let finishing: PromiseLike<{ error: unknown }> | undefined;
    await transaction(async (holder) => {
      let holding: Promise<unknown> | undefined;
      await transaction(async (client) => {
        // SES's Delivery, its call still under way (it holds the message's and the job's locks)
        const answer = (
          await client.query('select public.record_mail_event($1::jsonb) as a', [
            {
              event_id: randomUUID(),
              type: 'delivery',
              message_id: messageId,
              tags,
              destination: [to],
            },
          ])
        ).rows[0].a;
        expect(answer).toEqual({ applied: false, reason: 'kept until its mail is recorded' });
        const pid = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
        holding = holder.query('select private.lock_mail_messages(array[$1]) as held', [messageId]);
        await callWaitsOnLock('lock_mail_messages', 10_000, pid);
        // the worker records its lost answer meanwhile: it waits for the job's lock. Only this
        // finish_jobs ends the wait, not another file's waiting on a lock of its own (CI, 99 ms)
        finishing = serviceClient()
          .rpc('finish_jobs', { p_outcomes: [lost] })
          .then((r) => r); // a PostgREST builder runs only once awaited: start it now
        await callWaitsOnLock('finish_jobs', 10_000, pid);
      });
      await holding;
      // the record does not wait for the message's lock (holder keeps it until finishing ends)
      expect((await finishing!).error).toBeNull();
    });
    expect(await mailRow(id)).toEqual([
      { status: 'delivered', provider_message_id: messageId, to_email: to, subject: 'Hi' },
    ]);
    expect(await kept(messageId)).toEqual([]);
    // an event of the message that waited for the job's lock while the record named the mail
    // applies to it: adopt_job_mail answers the mail (it answered null, and the event was kept)
    const [named] = await sql<{ m: string | null }>(
      `select (private.adopt_job_mail($1, $2, '{}'::jsonb)).provider_message_id as m`,
      [id, messageId],
    );
    expect(named!.m).toBe(messageId);
  });

  it("a dead worker's mail recorded from its events keeps the owner and block its job was for", async () => {
    // rev-fixes D3: adopt_job_mail wrote no user_id or block_id, so optout_owner could not prove
    // a deleted block's digest link and the purge's keep rule skipped the row
    const { owner, blockId } = await ownerWithBlock('comment');
    const owned = (jobId: number) =>
      sql<{ user_id: string | null; block_id: string | null; status: string }>(
        'select user_id, block_id, status from private.outbound_mails where job_id = $1',
        [jobId],
      );
    // rev-fixes2 D6: a plan mail (its payment) and a quota notice (user_id) had no owner
    const [{ id: paymentId }] = (await sql<{ id: string }>(
      `insert into public.payments (user_id, type, is_active) values ($1, 'custom', false) returning id`,
      [owner.id],
    )) as [{ id: string }];
    const payloads = {
      'notify.owner': [{ block_id: blockId, message_id: randomUUID() }, blockId],
      'confirm.mail': [{ email: 'x@example.com', owner_id: owner.id, block_id: blockId }, blockId],
      'quota.notice': [{ user_id: owner.id, month: '2026-11-01', level: 80 }, null],
      'plan.mail': [{ payment_id: paymentId, template: 'ending' }, null],
    } as const;
    for (const [jobKind, [payload, block]] of Object.entries(payloads)) {
      const [{ id }] = (await sql<{ id: number }>(
        `insert into private.jobs (kind, payload, status, attempts, locked_until)
         values ($1, $2::jsonb, 'sending', 1, now() + interval '1 hour') returning id`,
        [jobKind, JSON.stringify(payload)],
      )) as [{ id: number }];
      const messageId = `msg-${randomUUID()}`;
      expect(
        await event({
          type: 'delivery',
          message_id: messageId,
          tags: { kind: jobKind.replace('.', '_'), job: String(id) },
          destination: [`${randomUUID().slice(0, 8)}@example.com`],
          source: 'notify@example.com',
          subject: 'New comment',
        }),
      ).toEqual({ applied: false, reason: 'kept until its mail is recorded' });
      await sql(
        `update private.jobs set locked_until = now() - interval '1 second' where id = $1`,
        [id],
      );
      await claim(kindOf()); // any claim reaps it
      expect(await owned(id), jobKind).toEqual([
        { user_id: owner.id, block_id: block, status: 'delivered' },
      ]);
    }
  });

  it("purges the kept events of a mail never recorded after a day (the jobs' daily purge)", async () => {
    const messageId = `msg-${randomUUID()}`;
    const fresh = `msg-${randomUUID()}`;
    await event({ type: 'delivery', message_id: messageId });
    await event({ type: 'delivery', message_id: fresh });
    await sql(
      `update private.early_mail_events set received_at = now() - interval '25 hours' where message_id = $1`,
      [messageId],
    );
    await sql('select private.purge_jobs()');
    expect(await kept(messageId)).toEqual([]);
    expect(await kept(fresh)).toEqual([{ type: 'delivery' }]);
  });

  it("purges the mail log after 30 days but an owner's last digest to each address (its unsubscribe link's proof)", async () => {
    const owner = await newUser('mail-log');
    const to = `digest-${randomUUID().slice(0, 8)}@test.local`;
    const mail = async (kind: string, days: number, email = to, userId: string | null = owner.id) =>
      (
        await sql<{ id: string }>(
          `insert into private.outbound_mails (kind, user_id, to_email, from_email, created_at)
           values ($1, $2, $3, 'noreply@test.local', now() - make_interval(days => $4)) returning id`,
          [kind, userId, email, days],
        )
      )[0]!.id;
    const oldDigest = await mail('notify.owner', 60);
    const lastOldDigest = await mail('notify.owner', 40, to.toUpperCase());
    const oldReply = await mail('notify.reply', 31);
    const oldLetter = await mail('letter', 45);
    const orphanDigest = await mail('notify.owner', 40, `gone-${to}`, null);
    const recentReply = await mail('notify.reply', 29);
    const recentDigest = await mail('notify.owner', 1, `other-${to}`);
    const ids = [
      oldDigest,
      lastOldDigest,
      oldReply,
      oldLetter,
      orphanDigest,
      recentReply,
      recentDigest,
    ];
    await sql('select private.purge_jobs()');
    const left = await sql<{ id: string }>(
      'select id from private.outbound_mails where id = any($1::uuid[])',
      [ids],
    );
    expect(new Set(left.map((r) => r.id))).toEqual(
      new Set([lastOldDigest, recentReply, recentDigest]),
    );
    // the owner-scope link of a deleted block's digest still finds its owner
    const [proof] = await sql<{ owner: string | null }>(
      `select private.optout_owner($1, 'owner', $2, $3) as owner`,
      [to, randomUUID(), owner.id],
    );
    expect(proof!.owner).toBe(owner.id);
  });

  it('purges the ids of applied provider events after 30 days, so the table does not grow forever', async () => {
    const [old, recent] = [`sns-${randomUUID()}`, `sns-${randomUUID()}`];
    await sql(
      `insert into private.provider_events (id, received_at)
       values ($1, now() - interval '31 days'), ($2, now() - interval '29 days')`,
      [old, recent],
    );
    await sql('select private.purge_jobs()');
    const left = await sql<{ id: string }>(
      'select id from private.provider_events where id = any($1) order by id',
      [[old, recent]],
    );
    expect(left.map((r) => r.id)).toEqual([recent]);
  });

  it('suppresses an address after a permanent bounce or a complaint', async () => {
    const bounced = await sentMail();
    await event({
      type: 'bounce',
      message_id: bounced.messageId,
      bounce_type: 'Permanent',
      recipients: [bounced.to],
    });
    const complained = await sentMail();
    await event({ type: 'complaint', message_id: complained.messageId });
    const rows = await sql<{ email: string; reason: string }>(
      'select email, reason from private.mail_suppressions where email = any($1) order by reason',
      [[bounced.to, complained.to]],
    );
    expect(rows).toEqual([
      { email: bounced.to, reason: 'bounce' },
      { email: complained.to, reason: 'complaint' },
    ]);
  });

  it('stops a sender whose bounce rate climbs over the threshold', async () => {
    const owner = await newUser('sender');
    const status = async () =>
      (await serviceClient().rpc('mail_sender_status', { p_user_id: owner.id })).data as {
        sent: number;
        bounced: number;
        suspended: boolean;
      };
    await sql(
      `insert into private.outbound_mails (kind, sender_user_id, to_email, from_email, status)
       select 'letter', $1, 'r' || n || '@example.com', 'me@example.com', 'delivered' from generate_series(1, 60) n`,
      [owner.id],
    );
    expect(await status()).toMatchObject({ sent: 60, bounced: 0, suspended: false });
    await sql(
      `update private.outbound_mails set status = 'bounced'
       where id in (select id from private.outbound_mails where sender_user_id = $1 limit 4)`,
      [owner.id],
    );
    expect(await status()).toMatchObject({ bounced: 4, suspended: true });
  });
});

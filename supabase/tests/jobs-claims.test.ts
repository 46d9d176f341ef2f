// What a claim of the jobs queue takes (public.claim_jobs, supabase/schemas/jobs.sql): each job
// once among claims at the same moment, a group's jobs one at a time in their order, and a rate
// bucket's jobs only as many as it holds tokens, without hiding the jobs queued after them. The
// rest of the queue (retries, leases, digests, notification jobs) is in jobs.test.ts.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { backendPid, sql, transaction, waitsOnLock } from './support/clients.ts';
import { bucketKind, claim, enqueue, finish, kindOf, leftQueued } from './support/jobs.ts';
import type { ClaimedJob } from '../functions/_shared/claimed-job.ts';

const ids = (jobs: ClaimedJob[]) => jobs.map((j) => j.id);

/** A claim of `limit` jobs of `kind` in the session `client` (its transaction held open). */
const claimIn = async (client: pg.Client, kind: string, limit: number) =>
  (
    await client.query<{ jobs: ClaimedJob[] }>('select public.claim_jobs($1, 60, $2) as jobs', [
      limit,
      [kind],
    ])
  ).rows[0]!.jobs;

/** Leases run out settled now, so a claim's settling waits for no row another claim's settling holds. */
const settleLeases = () => claim(kindOf());

describe('claims', () => {
  it('never gives one job to two workers claiming at the same time', async () => {
    const kind = kindOf();
    const ids = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const payloads = Array.from({ length: 30 }, (_, n) => ({ n: i * 30 + n }));
      await sql(
        `insert into private.jobs (kind, payload) select $1, p from jsonb_array_elements($2::jsonb) p`,
        [kind, JSON.stringify(payloads)],
      );
    }
    for (const row of await sql<{ id: string }>('select id from private.jobs where kind = $1', [
      kind,
    ])) {
      ids.add(Number(row.id));
    }
    expect(ids.size).toBe(300);
    const seen: number[] = [];
    const worker = async () => {
      for (;;) {
        const jobs = await claim(kind, 17);
        if (jobs.length === 0) return;
        seen.push(...jobs.map((j) => j.id));
        await finish(jobs.map((j) => ({ id: j.id, status: 'done' })));
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    expect(seen).toHaveLength(300);
    expect(new Set(seen).size).toBe(300);
    const [counts] = await sql<{ done: string; attempts: number }>(
      `select count(*) filter (where status = 'done') as done, max(attempts) as attempts from private.jobs where kind = $1`,
      [kind],
    );
    expect(counts).toEqual({ done: '300', attempts: 1 });
  });

  it('two claims at once never run two jobs of a group, whatever either claim locked', async () => {
    // claim A holds the group's first job in an open transaction; claim B, at the same moment,
    // skips A's locked rows and does not see A's `running` yet: the group's second job, outside
    // A's window, was B's to take before claims kept a group's order and took its lock
    const kind = kindOf();
    const group = `group:${randomUUID()}`;
    const first = await enqueue(kind, { p_payload: { n: 0 }, p_group_key: group });
    const fillers: number[] = [];
    for (let n = 1; n <= 4; n++) fillers.push((await enqueue(kind, { p_payload: { n } }))!);
    const second = await enqueue(kind, { p_payload: { n: 5 }, p_group_key: group });
    // leases run out settled now, so B's settling waits for no row A's settling holds
    await claim(kindOf());
    let duringA: ClaimedJob[] = [];
    const a = await transaction(async (client) => {
      const mine = await claimIn(client, kind, 1);
      duringA = await claim(kind);
      return mine;
    });
    expect(ids(a)).toEqual([first]);
    // B took the fillers (A's window was its one job), and nothing of the group
    expect(ids(duringA)).toEqual(fillers);
    // and after A committed, the group still waits for its running job
    expect(await claim(kind)).toEqual([]);
    const running = await sql<{ id: string }>(
      `select id from private.jobs where group_key = $1 and status = 'running'`,
      [group],
    );
    expect(running.map((r) => Number(r.id))).toEqual([first]);
    await finish([{ id: first, status: 'done' }]);
    expect(ids(await claim(kind))).toEqual([second]);
  });

  it('claims no more jobs of a rate bucket than it has tokens', async () => {
    const { kind, bucket } = await bucketKind(3, 3);
    for (let n = 0; n < 10; n++) await enqueue(kind, { p_rate_bucket: bucket });
    const first = await claim(kind, 10);
    expect(first).toHaveLength(3);
    // the ones left over were not touched: no attempt counted
    expect(await leftQueued(kind)).toEqual({ queued: '7', attempts: '0' });
  });

  it("takes of a bucket's jobs only as many as it holds tokens: a backlog of mail never hides the jobs after it", async () => {
    // before: the claim's window (limit * 2 oldest due jobs) filled with the bucket's jobs, the
    // bucket granted its few, and the job queued after them waited until fewer than limit * 2
    // were ahead of it (a letter of 20,000 at SES's 14 a second: about 24 minutes)
    const { kind, bucket } = await bucketKind(3, 3);
    for (let n = 0; n < 30; n++) await enqueue(kind, { p_rate_bucket: bucket });
    const after = await enqueue(kind, { p_payload: { after: true } });
    const claimed = await claim(kind, 10);
    // the bucket's three tokens, and the job after its backlog, in the same claim
    expect(claimed.map((j) => j.id)).toContain(after);
    expect(claimed).toHaveLength(4);
    expect(await leftQueued(kind)).toEqual({ queued: '27', attempts: '0' });
  });

  it('a claim beside another that holds a bucket waits for it, then fills from the rest', async () => {
    // before: B read the bucket's tokens as A had not yet taken them, chose the bucket's jobs
    // (older than the rest), waited for A's bucket and was granted none: it answered [] while
    // jobs without a bucket were due and free, and the worker's run (drain) stopped on it
    const { kind, bucket } = await bucketKind(0.001, 5);
    for (let n = 0; n < 20; n++) await enqueue(kind, { p_rate_bucket: bucket });
    const plain: number[] = [];
    for (let n = 0; n < 15; n++) plain.push((await enqueue(kind, { p_payload: { n } }))!);
    await settleLeases();
    let b: Promise<ClaimedJob[]> | undefined;
    const a = await transaction(async (client) => {
      const mine = await claimIn(client, kind, 5);
      let pid: (n: number) => void = () => {};
      const bPid = new Promise<number>((resolve) => (pid = resolve));
      b = transaction(async (other) => {
        pid(await backendPid(other));
        return claimIn(other, kind, 5);
      });
      await waitsOnLock(await bPid);
      return mine;
    });
    // A: the bucket's five tokens; B, once A committed: the first five jobs without a bucket
    expect(a).toHaveLength(5);
    expect(ids(a)).not.toContain(plain[0]);
    expect(ids(await b!)).toEqual(plain.slice(0, 5));
    expect(await leftQueued(kind)).toEqual({ queued: '25', attempts: '0' });
  });

  it("an empty bucket's backlog does not hide another bucket's jobs", async () => {
    // before: the bucket jobs' window was the limit * 2 oldest whatever their bucket: all of
    // the empty bucket's, so the other bucket's three waited behind its backlog
    const empty = await bucketKind(0.001, 1);
    const open = await bucketKind(3, 3);
    const kind = empty.kind;
    for (let n = 0; n < 30; n++) await enqueue(kind, { p_rate_bucket: empty.bucket });
    const after: number[] = [];
    for (let n = 0; n < 3; n++) after.push((await enqueue(kind, { p_rate_bucket: open.bucket }))!);
    const claimed = ids(await claim(kind, 10));
    // the first bucket's one token and the other's three, in one claim
    expect(claimed).toHaveLength(4);
    expect(claimed).toEqual(expect.arrayContaining(after));
    expect(await leftQueued(kind)).toEqual({ queued: '29', attempts: '0' });
  });

  it('a bucket holds at least one token: a rate under 1 a second with no burst, or a burst under 1', async () => {
    // before: its burst was the rate (0.5) or the setting (0.2): never a whole token, never a job
    for (const burst of [undefined, 0.2]) {
      const { kind, bucket } = await bucketKind(0.5, burst);
      const id = await enqueue(kind, { p_rate_bucket: bucket });
      expect(ids(await claim(kind))).toEqual([id]);
    }
  });

  it("keeps a group's order: its next job waits for an older one whose bucket has no token", async () => {
    // before: the older job was no candidate without a token, and the group's younger job,
    // without a bucket, ran first
    const { kind, bucket } = await bucketKind(0.001, 1);
    await enqueue(kind, { p_rate_bucket: bucket });
    expect(await claim(kind)).toHaveLength(1);
    const group = `group:${randomUUID()}`;
    const older = await enqueue(kind, { p_rate_bucket: bucket, p_group_key: group });
    const younger = await enqueue(kind, { p_group_key: group });
    const other = await enqueue(kind);
    expect(ids(await claim(kind))).toEqual([other]);
    // a token comes: the older job, and the younger once the older is done
    await sql('update private.rate_buckets set tokens = 1 where name = $1', [bucket]);
    expect(ids(await claim(kind))).toEqual([older]);
    await finish([{ id: older, status: 'done' }]);
    expect(ids(await claim(kind))).toEqual([younger]);
  });
});

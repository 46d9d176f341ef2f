// bench:cache, part "Views with live updates": what 1,000 anonymous page views cost the database,
// counted as every transaction of the database (pg_stat_database), for a like block (the public
// view only) and a comment block with live updates (the public view, then the block's public
// Realtime topic joined as sdk/src/core/live.ts joins it, and each hint's change read with the
// cacheable GET get_block_change), through the same nginx, in the same run. A few comments are
// written during the comment block's window, so the cost of a change read by every viewer is in
// the figure. For comparison, the same views joining a private topic, as the elements did
// before: Realtime asks the realtime.messages policies once per join (refused now for block
// topics, but the check runs all the same, and that check is the cost).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { request } from '../../sdk/src/core/api.ts';
import type { Stack } from '../../supabase/local/stack.ts';
import { cacheLog, paced, sleep, statusLine, Transactions } from './cache-support.ts';
import { blockJoinFrame, readFrame, realtimeUrl } from './realtime-join.ts';

interface Project {
  url: string;
  key: string;
}

export interface ViewsOptions {
  stack: Stack;
  /** nginx in front of the stack */
  proxied: Project;
  nginxDir: string;
  likeBlock: string;
  commentBlock: string;
  views: number;
  seconds: number;
  /** comments written during the comment block's window */
  comments: number;
}

interface Run {
  label: string;
  transactions: number;
  errors: number;
}

/** The Realtime side of one page view, as live.ts does it: one socket, the block's topic. */
class Live {
  readonly sockets: WebSocket[] = [];
  joined = 0;
  refused = 0;
  /** message id -> viewers that read it */
  readonly delivered = new Map<string, number>();
  reads = 0;
  readErrors = 0;

  constructor(
    private readonly p: Project,
    private readonly block: string,
    private readonly isPrivate: boolean,
  ) {}

  open(): void {
    const ws = new WebSocket(realtimeUrl(this.p.url, this.p.key));
    ws.on('error', () => {});
    ws.on('open', () => ws.send(blockJoinFrame(this.block, this.isPrivate)));
    ws.on('message', (data) => {
      const { event, payload } = readFrame(data);
      if (event === 'phx_reply' && payload.status === 'ok') this.joined++;
      else if (event === 'phx_reply') this.refused++;
      else if (event === 'broadcast' && payload.event === 'hint' && payload.payload?.id)
        void this.read(payload.payload.id);
    });
    this.sockets.push(ws);
  }

  private async read(id: string): Promise<void> {
    this.reads++;
    try {
      const res = await fetch(
        ...request(this.p, 'get_block_change', { p_block_id: this.block, p_id: id }, '', true),
      );
      const change = (await res.json()) as { payload?: { row?: { id?: string } } } | null;
      const row = change?.payload?.row?.id;
      if (row) this.delivered.set(row, (this.delivered.get(row) ?? 0) + 1);
    } catch {
      this.readErrors++;
    }
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }
}

/**
 * Pauses every pg_cron job (they run whether or not anyone views; the block view with unfolded
 * deltas keeps fold-counters from folding them); returns the resume.
 */
export async function pauseSchedules(db: pg.Client): Promise<() => Promise<void>> {
  const { rows } = await db.query<{ jobid: string }>(
    'select jobid from cron.job where active order by jobid',
  );
  for (const r of rows) await db.query('select cron.alter_job($1, active => false)', [r.jobid]);
  return async () => {
    for (const r of rows) await db.query('select cron.alter_job($1, active => true)', [r.jobid]);
  };
}

/**
 * Waits until the stack is quiet. A backend reports the transactions it ran when it goes idle or
 * ends, so connections the paused schedules leave idle report theirs when their pools close them
 * (after 60 s): wait that long, then until 5 s pass with at most 3 transactions (what remains is
 * the pg_net worker's poll every 10 s). At most 2 minutes more.
 */
async function quiesce(tx: Transactions): Promise<void> {
  await sleep(65_000);
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    const before = await tx.now();
    await sleep(5000);
    if ((await tx.now()) - before <= 3) return;
  }
  console.log('the stack did not quieten within 2 minutes: the idle window says how much');
}

export async function viewsBench(o: ViewsOptions): Promise<string> {
  const db = new pg.Client({ connectionString: o.stack.dbUrl });
  db.on('error', () => {});
  await db.connect();
  const tx = await Transactions.open(o.stack.dbUrl);
  const resume = await pauseSchedules(db);
  try {
    const publicView = (block: string) =>
      fetch(...request(o.proxied, 'get_block_public', { p_block_id: block }, '', true));
    const writer = randomUUID();
    /** The comments of a window, spread over it; their ids. */
    const writeComments = async (elapsed: () => number, ids: string[]) => {
      for (let i = 1; i <= o.comments; i++) {
        const due = (i * o.seconds * 1000) / (o.comments + 1);
        if (due > elapsed()) await sleep(due - elapsed());
        const id = randomUUID();
        ids.push(id);
        await db.query(
          `insert into public.messages (id, block_id, creator_id, creator_name, content)
           values ($1, $2, $3, 'Bench', $4)`,
          [id, o.commentBlock, writer, `live comment ${i}`],
        );
      }
    };
    /** One window: `views` paced over it (none: the window only), and what runs beside them. */
    const measure = async (
      label: string,
      views: number,
      view: () => Promise<Response>,
      beside?: (elapsed: () => number) => Promise<void>,
    ): Promise<Run> => {
      console.log(`${label}: ${views} views over ${o.seconds} s...`);
      const before = await tx.now();
      const start = performance.now();
      const [out] = await Promise.all([
        views > 0 ? paced(views, o.seconds, view) : sleep(o.seconds * 1000).then(() => null),
        beside?.(() => performance.now() - start),
      ]);
      await sleep(2000); // the last reads of the last change
      return { label, transactions: await tx.since(before), errors: out?.errors ?? 0 };
    };
    const none = () => Promise.reject(new Error('no views'));

    console.log('waiting for the stack to quieten (about a minute)...');
    await quiesce(tx);
    const idle = await measure('idle (nothing asked)', 0, none);

    // the like block: the public view only (the like element does not go live)
    const like = await measure('like block', o.views, () => publicView(o.likeBlock));

    // the comment block: the public view, then the public topic; the same comments meanwhile
    const live = new Live(o.proxied, o.commentBlock, false);
    const written: string[] = [];
    const comment = await measure(
      'comment block with live updates',
      o.views,
      async () => {
        const res = await publicView(o.commentBlock);
        live.open();
        return res;
      },
      (t) => writeComments(t, written),
    );
    live.close();

    // before: the same views joining a private topic (one policy check per join)
    const old = new Live(o.proxied, o.commentBlock, true);
    const privateTopic = await measure('before: private topic', o.views, async () => {
      const res = await publicView(o.commentBlock);
      old.open();
      return res;
    });
    old.close();

    // before issue 13: the per-visitor view, which no cache may keep
    const post = await measure('before: POST get_block_view', o.views, () =>
      fetch(...request(o.proxied, 'get_block_view', { p_block_id: o.commentBlock })),
    );

    // the same comments with nobody viewing: the writes and what they set off (notification
    // jobs, mails, their delivery events), last, so that what follows them lands in no other window
    const writesOnly = await measure('the comments alone', 0, none, (t) => writeComments(t, []));

    const runs = [idle, like, comment, privateTopic, post, writesOnly];
    for (const r of runs) console.log(`  ${r.label}: ${r.transactions} transactions`);
    const errors = runs.reduce((n, r) => n + r.errors, 0) + live.readErrors;
    if (errors) throw new Error(`failed requests: ${errors}`);
    const reached = written.map((id) => live.delivered.get(id) ?? 0);
    /** net of what the same window costs without the views */
    const row = (r: Run, what: string, base: Run) => {
      const net = r.transactions - base.transactions;
      return `| ${what} | ${r.transactions} | ${net} | ${Math.round((net / o.views) * 1000)} |`;
    };
    return `
${o.views} anonymous page views of each block spread over ${o.seconds} s, through nginx, in the same run, each
what the elements send: \`GET get_block_public\` (anon key); for the comment block then the page's
WebSocket (through nginx) joining the block's public topic \`block:<id>\` as \`sdk/src/core/live.ts\`
does, and for each hint the change it names, \`GET get_block_change\`. ${o.comments} comments were
written during the comment block's window, so they reached the viewers connected then (${reached.join(', ')}
viewers read them). Database transactions are all of them (\`pg_stat_database\`: commits and
rollbacks of the stack's database, whoever ran them: PostgREST, Realtime, the auth server, the
workers), read 12 s after each window; the pg_cron schedules were paused meanwhile. "Net" is
the window less the same window without the views: the idle one (${idle.transactions} transactions), or for the
comment block the one in which the same ${o.comments} comments were written with nobody viewing
(${writesOnly.transactions} transactions: the inserts and the notification jobs and mails they set off).

| ${o.views} page views in ${o.seconds} s | transactions | net | net per 1,000 views |
|---|---|---|---|
${row(like, 'like block (the public view)', idle)}
${row(comment, `comment block with live updates, ${o.comments} comments meanwhile`, writesOnly)}
${row(privateTopic, 'before (issue 19): comment block joining a private topic', idle)}
${row(post, 'before (issue 13): POST get_block_view (not cacheable)', idle)}

nginx: get_block_public ${statusLine(cacheLog(o.nginxDir))}; get_block_change
${statusLine(cacheLog(o.nginxDir, '/rest/v1/rpc/get_block_change'))} (${live.reads} reads). Joins: ${live.joined} of the public
topic; ${old.refused} of the private one refused after its policy check. The goal (issue 19) was
at most 20 for the comment block: a view costs nothing per viewer; a change costs one read of
get_block_change per max-age whatever the number of viewers.
`;
  } finally {
    await resume();
    await tx.close();
    await db.end();
  }
}

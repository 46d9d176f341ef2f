// The visitors' reads and writes of `npm run bench:soak`, in a process of their own so that their
// memory is never counted as the stack's (the stack's own process serves Realtime and the local
// servers). Driven over IPC by scripts/bench/soak.ts: `start` with a plan, then it reads the
// cacheable public view through the caching proxy and writes (likes toggled, comments, form
// submits; likes of and replies to a few comments) through the gateway at fixed rates until
// `stop`, answering with what it sent.

export interface TrafficPlan {
  /** the gateway (writes) */
  apiUrl: string;
  /** the caching proxy in front of the gateway (reads) */
  cacheUrl: string;
  anonKey: string;
  /** access tokens of anonymous visitors */
  visitors: string[];
  /** the blocks read through the cache */
  readBlocks: string[];
  likeBlocks: string[];
  commentBlock: string;
  /** comments of the comment block whose likes and replies are counted beside their rows */
  comments: string[];
  form: { blockId: string; answers: Record<string, unknown> };
  readsPerSecond: number;
  writesPerSecond: number;
  /** likes toggled on, and replies to, `comments` a second (a message's counts: 096d4cf0) */
  commentWritesPerSecond: number;
}

export interface TrafficCounts {
  reads: number;
  writes: number;
  /** non-2xx answers and failed requests, by status or error name */
  failures: Record<string, number>;
}

type Command = { type: 'start'; plan: TrafficPlan } | { type: 'stop' };

const counts: TrafficCounts = { reads: 0, writes: 0, failures: {} };
let running = false;
const inFlight = new Set<Promise<void>>();

async function send(url: string, init: RequestInit, kind: 'reads' | 'writes'): Promise<void> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    if (res.ok) counts[kind]++;
    else counts.failures[res.status] = (counts.failures[res.status] ?? 0) + 1;
  } catch (err) {
    const name = (err as Error).name || 'error';
    counts.failures[name] = (counts.failures[name] ?? 0) + 1;
  }
}

/** Calls `task` `perSecond` times a second (an open loop: it never waits for answers). */
function every(perSecond: number, task: (i: number) => Promise<void>): void {
  let i = 0;
  const tick = 100;
  const perTick = perSecond / (1000 / tick);
  let owed = 0;
  const timer = setInterval(() => {
    if (!running) return clearInterval(timer);
    owed += perTick;
    for (; owed >= 1; owed--) {
      const p = task(i++).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  }, tick);
}

function start(plan: TrafficPlan): void {
  running = true;
  const rpc = (name: string, token: string, body: unknown) =>
    send(
      `${plan.apiUrl}/rest/v1/rpc/${name}`,
      {
        method: 'POST',
        headers: {
          apikey: plan.anonKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      },
      'writes',
    );
  every(plan.readsPerSecond, (i) =>
    send(
      `${plan.cacheUrl}/rest/v1/rpc/get_block_public?p_block_id=${plan.readBlocks[i % plan.readBlocks.length]}`,
      { headers: { apikey: plan.anonKey } },
      'reads',
    ),
  );
  every(plan.writesPerSecond, (i) => {
    const token = plan.visitors[i % plan.visitors.length]!;
    switch (i % 4) {
      case 0:
      case 1:
        // each visitor likes, then unlikes, each like block in turn
        return rpc('toggle_block_like', token, {
          p_block_id:
            plan.likeBlocks[Math.floor(i / plan.visitors.length) % plan.likeBlocks.length],
          p_creator_name: 'Soak Visitor',
        });
      case 2:
        return rpc('post_message', token, {
          p_block_id: plan.commentBlock,
          p_content: `soak ${i}`,
          p_creator_name: 'Soak Visitor',
        });
      default:
        return rpc('submit_response', token, {
          p_block_id: plan.form.blockId,
          p_answers: plan.form.answers,
          p_creator_name: 'Soak Visitor',
        });
    }
  });
  // each visitor likes, then unlikes, each comment in turn; every fourth call a reply instead
  every(plan.commentWritesPerSecond, (i) => {
    const token = plan.visitors[i % plan.visitors.length]!;
    const comment = plan.comments[Math.floor(i / plan.visitors.length) % plan.comments.length]!;
    return i % 4 === 3
      ? rpc('post_message', token, {
          p_block_id: plan.commentBlock,
          p_parent_id: comment,
          p_content: `soak reply ${i}`,
          p_creator_name: 'Soak Visitor',
        })
      : rpc('toggle_message_like', token, { p_message_id: comment });
  });
}

process.on('message', (cmd: Command) => {
  if (cmd.type === 'start') {
    start(cmd.plan);
    process.send!({ type: 'started' });
  } else {
    running = false;
    void Promise.allSettled([...inFlight]).then(() => {
      process.send!({ type: 'stopped', counts });
      process.disconnect();
    });
  }
});
process.on('disconnect', () => {
  running = false;
});

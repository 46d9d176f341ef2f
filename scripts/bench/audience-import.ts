// `npm run bench:audience-import`: how long does an owner's second tab wait to add a member while
// the first imports a big CSV? (975d9943: the audience's ceiling takes a per-owner advisory lock
// to count, held to the commit, so one owner's adds count one at a time)
//
// A throwaway stack, one paid owner, the ceiling (audience.max_members) raised past what the run
// adds.
// The import is what the dashboard's CSV dialog sends (audience-dialogs.tsx, api/audience.ts
// importBatch): BENCH_IMPORT_ROWS (100,000) new addresses in batches of 500, each an upsert of
// audience_members through the gateway that ignores addresses already there, one batch after the
// other. The second tab adds one member at a time (addMember: an insert), one after the other
// with BENCH_TAB_PAUSE_MS (200) between them: first alone (the same number of adds as a
// baseline), then for as long as the import runs. The figures: each add's time (request to
// answer) alone and beside the import, and the import's batches.
//
//   npm run bench:audience-import
//   npm run bench:audience-import -- --write     (and write the "Audience import" section)
//   BENCH_IMPORT_ROWS=20000 npm run bench:audience-import
import type { Stack } from '../../supabase/local/stack.ts';
import { ms, quantile, sleep } from './cache-support.ts';
// the stack and the owner's requests; the report's figures
import { api, connectDb, runBench, setSetting, signInOwner, type Session } from './support.ts';
import { benchDurability, int, loadNow, machineLine, setting } from './support.ts';

const ROWS = setting('BENCH_IMPORT_ROWS', 100_000);
const BATCH = 500;
const TAB_PAUSE_MS = setting('BENCH_TAB_PAUSE_MS', 200);
const BASELINE_ADDS = setting('BENCH_TAB_BASELINE_ADDS', 50);

/** Milliseconds `task` took. */
async function timed(task: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await task();
  return performance.now() - t;
}

/** The second tab: adds one member at a time until `until` says stop. */
async function tab(
  stack: Stack,
  owner: Session,
  label: string,
  until: () => boolean,
): Promise<number[]> {
  const took: number[] = [];
  for (let k = 0; !until(); k++) {
    took.push(
      await timed(() =>
        api(
          stack,
          'POST',
          '/rest/v1/audience_members',
          {
            user_id: owner.user.id,
            creator_name: `Tab ${label} ${k}`,
            email: `tab-${label}-${k}@bench.local`,
            group_name: null,
            deactivated: false,
          },
          owner.access_token,
        ),
      ),
    );
    await sleep(TAB_PAUSE_MS);
  }
  return took;
}

/** The import: ROWS new addresses in batches of BATCH, one after the other; each batch's time. */
async function importRows(stack: Stack, owner: Session): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < ROWS; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, ROWS - i) }, (_, j) => ({
      user_id: owner.user.id,
      creator_name: `Imported ${i + j}`,
      email: `imported-${i + j}@bench.local`,
      group_name: null,
      deactivated: false,
    }));
    took.push(
      await timed(async () => {
        const added = await api<unknown[]>(
          stack,
          'POST',
          '/rest/v1/audience_members?on_conflict=user_id,email&select=id,is_unsubscribed',
          rows,
          owner.access_token,
          'resolution=ignore-duplicates,return=representation',
        );
        if (added.length !== rows.length)
          throw new Error(`batch at ${i}: ${added.length} of ${rows.length} added`);
      }),
    );
  }
  return took;
}

const stats = (xs: number[]) =>
  `${ms(quantile(xs, 0.5))} / ${ms(quantile(xs, 0.95))} / ${ms(Math.max(...xs))} ms`;

await runBench(
  { name: 'audience-import', section: 'Audience import' },
  async ({ stack, load, started }) => {
    const owner = await signInOwner(stack, `import-${Date.now()}@bench.local`, 'Import Owner');
    const db = await connectDb(stack.dbUrl);
    try {
      // a paid owner (the audience is theirs to add to), its ceiling out of the run's reach
      await db.query('update public.profiles set paid = true where id = $1', [owner.user.id]);
      await setSetting(db, 'audience.max_members', ROWS * 2);
    } finally {
      await db.end();
    }
    process.stderr.write(`the second tab alone: ${BASELINE_ADDS} adds...\n`);
    let alone = 0;
    const baseline = await tab(stack, owner, 'alone', () => alone++ >= BASELINE_ADDS);
    process.stderr.write(`importing ${int(ROWS)} rows beside the second tab...\n`);
    const loadBefore = loadNow();
    let importing = true;
    const t = performance.now();
    const [batches, beside] = await Promise.all([
      importRows(stack, owner).finally(() => (importing = false)),
      tab(stack, owner, 'beside', () => !importing),
    ]);
    const importSeconds = (performance.now() - t) / 1000;
    const loadAfter = loadNow();
    const body = `Measured by \`npm run bench:audience-import\` on ${new Date().toISOString().slice(0, 10)}; the run took ${Math.round((performance.now() - started) / 1000)} s.

- ${machineLine(load)} Load average when the import began ${loadBefore}, when it ended ${loadAfter}.
- Postgres: ${benchDurability().label}.
- One owner imports ${int(ROWS)} new addresses as the dashboard's CSV dialog sends them: batches
  of ${BATCH}, one after the other, each an upsert of \`audience_members\` through the gateway that
  ignores addresses already there. Meanwhile a second tab of the same owner adds one member at a
  time (the dialog's single add, an insert), ${TAB_PAUSE_MS} ms between adds. Each of the owner's adds
  takes the audience ceiling's per-owner advisory lock (\`audience_members_cap\`) and holds it to
  its commit, then counts the owner's members.

| | requests | p50 / p95 / max |
|---|---|---|
| the second tab's add, alone (before the import) | ${baseline.length} | ${stats(baseline)} |
| the second tab's add, beside the import | ${beside.length} | ${stats(beside)} |
| the import's batch of ${BATCH} | ${batches.length} | ${stats(batches)} |

The import took ${Math.round(importSeconds)} s (${int(ROWS / importSeconds)} rows/s).
`;
    return { body, raw: { baseline, beside, batches } };
  },
);

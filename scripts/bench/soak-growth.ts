// The soak's headline (soak.ts): how much the stack's memory grew over the last 10 minutes, read
// between samples taken alike. The last sample against the one 10 minutes before read PostgREST
// renewing its pool as a 27 % shrink: PostgREST 12 closes a connection 30 minutes after opening
// it (db-pool-max-lifetime, 1800 s by default, as on a hosted project), its pool was opened
// while the soak was seeded, so a 30-minute soak's last sample came just after the renewal, with
// Postgres's new backends (none of the old ones' catalogue and plan caches) 200 MB lighter. And
// one sample against one other is at the mercy of the minute's swing (40-60 MB, the functions'
// host and PostgREST). So: the median of the last 10 minutes' samples against the median of the
// 10 minutes before (half the soak each when it is shorter than 20 minutes), leaving out each
// sample taken after PostgREST opened most of its pool anew since the sample before.
import { median } from './support.ts';

export interface PoolSample {
  minute: number;
  /** MB, the stack's processes' PSS */
  total: number;
  /** PostgREST's connections (its client backends) at the sample */
  pool: number;
  /** of them, opened since the sample before (0 at the first) */
  renewed: number;
}

/** A sample taken after PostgREST opened at least half of its pool anew. */
export const poolRenewed = (s: PoolSample): boolean => s.pool > 0 && s.renewed * 2 >= s.pool;

export interface SoakGrowth<T extends PoolSample> {
  /** % from the earlier window's median to the last window's */
  percent: number;
  /** the window's length, minutes */
  window: number;
  last: { from: number; to: number; samples: T[]; median: number };
  before: { from: number; to: number; samples: T[]; median: number };
  /** samples left out: taken just after PostgREST renewed its pool */
  left: T[];
  /** The report's headline, MB figures written by `mb`. */
  sentence(mb: (v: number) => string): string;
}

export function soakGrowth<T extends PoolSample>(samples: T[]): SoakGrowth<T> {
  const end = samples.at(-1)!.minute;
  const window = Math.min(10, end / 2);
  const left = samples.filter(poolRenewed);
  const alike = samples.filter((s) => !poolRenewed(s));
  const part = (from: number, to: number) => {
    const inside = alike.filter((s) => s.minute > from && s.minute <= to);
    return { from, to, samples: inside, median: median(inside.map((s) => s.total)) };
  };
  const last = part(end - window, end);
  const before = part(end - 2 * window, end - window);
  const percent = ((last.median - before.median) / before.median) * 100;
  const span = (p: { from: number; to: number; samples: T[] }) =>
    `${p.samples.length} sample${p.samples.length === 1 ? '' : 's'} of minutes ${p.from.toFixed(1)}-${p.to.toFixed(1)}`;
  return {
    percent,
    window,
    last,
    before,
    left,
    sentence: (mb) =>
      // a window without a sample (a round of joins that hung: samples are taken while the
      // viewers stay) has no median: say so rather than print NaN
      !last.samples.length || !before.samples.length
        ? `**The last ${window.toFixed(window % 1 ? 1 : 0)} minutes: not read** (the ${span(last)} against ` +
          `the ${span(before)}: a window without a sample, as when a round of joins hangs).`
        : `**The last ${window.toFixed(window % 1 ? 1 : 0)} minutes: ${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %** ` +
          `(the median of the ${span(last)}, ${mb(last.median)} MB, against the median of the ` +
          `${span(before)}, ${mb(before.median)} MB; ` +
          (left.length
            ? `left out: ${left
                .map(
                  (s) =>
                    `minute ${s.minute.toFixed(1)} (PostgREST had opened ${s.renewed} of its ${s.pool} connections since the sample before)`,
                )
                .join(', ')}, a renewal of its pool, db-pool-max-lifetime).`
            : 'no sample left out: PostgREST did not renew its pool).'),
  };
}

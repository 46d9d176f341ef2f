// Recording RPC answers for a comparison with a stored copy (rpc-answers.test.ts): each call's
// data or error as the client got it, with what differs from run to run replaced by stable
// marks, so the stored copy changes only when an answer does.
import type { SupabaseClient } from '@supabase/supabase-js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** newUser's addresses: `<label>-<8 random hex>@test.local`. */
const TEST_EMAIL = /\b([a-z0-9]+)-[0-9a-f]{8}@test\.local\b/g;
/** The stack's ports are free ones, new each run. */
const LOCAL_PORT = /\b(127\.0\.0\.1|localhost):\d+/g;
/** Keys whose numbers come from a sequence other test files draw from too (jobs). */
const SEQUENCE_KEYS = new Set(['id', 'job_id', 'read_xmin']);

const ID_MARK = /^<id \d+>$/;
const byMark = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

export interface Answer {
  call: string;
  as: string;
  args: unknown;
  data?: unknown;
  error?: { code: string; message: string; details: string | null; hint: string | null };
}

/**
 * One run's answers, normalised as they come: a UUID becomes `<id N>` by its first appearance
 * (the same id is the same mark everywhere, so an answer naming the wrong row still differs), a
 * timestamp `<time>`, a date `<date>`, a sequence number `<n>`, a local port `<port>`.
 */
export class AnswerLog {
  readonly answers: Answer[] = [];
  private readonly ids = new Map<string, string>();

  /** Calls `fn` as `client` (named `as` in the log), logs its answer and returns its data. */
  async rpc<T = unknown>(
    as: string,
    client: SupabaseClient,
    fn: string,
    args: Record<string, unknown> = {},
  ): Promise<T> {
    const { data, error } = await client.rpc(fn, args);
    this.answers.push(
      this.normalise({
        call: fn,
        as,
        args,
        ...(error
          ? {
              error: {
                code: error.code,
                message: error.message,
                details: error.details ?? null,
                hint: error.hint ?? null,
              },
            }
          : { data }),
      }) as Answer,
    );
    return data as T;
  }

  /** Logs an answer read another way (a table read through PostgREST, an edge function). */
  note(call: string, as: string, args: unknown, answer: { data?: unknown; error?: unknown }): void {
    this.answers.push(this.normalise({ call, as, args, ...answer }) as Answer);
  }

  /** The log as the stored copy holds it. */
  text(): string {
    return JSON.stringify(this.answers, null, 2) + '\n';
  }

  private normalise(value: unknown, key = ''): unknown {
    if (typeof value === 'string') return this.string(value);
    if (typeof value === 'number') return SEQUENCE_KEYS.has(key) ? '<n>' : value;
    if (Array.isArray(value)) {
      const items = value.map((item) => this.normalise(item));
      // a list of bare ids is often in the ids' order, which is random: compared as a set
      return items.length > 0 &&
        items.every((item) => typeof item === 'string' && ID_MARK.test(item))
        ? (items as string[]).sort(byMark)
        : items;
    }
    if (value && typeof value === 'object') {
      // jsonb orders an object's keys by length, then bytes: keys that are ids come in a random
      // order, so every object's keys are sorted after normalising
      return Object.fromEntries(
        Object.entries(value)
          .map(([k, v]) => [this.string(k), this.normalise(v, k)] as const)
          .sort(([a], [b]) => byMark(a, b)),
      );
    }
    return value;
  }

  private string(value: string): string {
    if (TIMESTAMP.test(value)) return '<time>';
    if (DATE.test(value)) return '<date>';
    return value
      .replace(UUID, (id) => {
        const known = this.ids.get(id.toLowerCase());
        if (known) return known;
        const mark = `<id ${this.ids.size + 1}>`;
        this.ids.set(id.toLowerCase(), mark);
        return mark;
      })
      .replace(TEST_EMAIL, '$1@test.local')
      .replace(LOCAL_PORT, '$1:<port>');
  }
}

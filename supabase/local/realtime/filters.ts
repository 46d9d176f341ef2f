// postgres_changes filters as realtime-js sends them: `column=op.value`, several joined with commas
// (AND), values PostgREST-quoted when they contain `,()"\` or surrounding spaces, `not.` prefix.
// Operators: eq neq lt lte gt gte in is like ilike match imatch isdistinct.

export type FilterOp =
  | 'eq'
  | 'neq'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'is'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'isdistinct';

export interface Condition {
  column: string;
  op: FilterOp;
  negate: boolean;
  /** one value, or the list for `in` */
  value: string | null;
  values: Array<string | null>;
}

const OPS = new Set<FilterOp>([
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'is',
  'like',
  'ilike',
  'match',
  'imatch',
  'isdistinct',
]);

/** Splits on `sep` outside double quotes and parentheses. */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (ch === sep && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

function unquote(raw: string): string | null {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    return raw.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return raw;
}

/** Parses a filter string; throws with a readable message when it is malformed. */
export function parseFilter(filter: string | undefined | null): Condition[] {
  if (filter === undefined || filter === null || filter.trim() === '') return [];
  return splitTop(filter, ',').map((part) => {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`invalid filter "${part}": expected column=operator.value`);
    const column = part.slice(0, eq).trim();
    let rest = part.slice(eq + 1);
    let negate = false;
    if (rest.startsWith('not.')) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    if (dot <= 0) throw new Error(`invalid filter "${part}": expected column=operator.value`);
    const op = rest.slice(0, dot) as FilterOp;
    if (!OPS.has(op)) throw new Error(`invalid filter "${part}": unsupported operator "${op}"`);
    const rawValue = rest.slice(dot + 1);
    if (op === 'in') {
      if (!rawValue.startsWith('(') || !rawValue.endsWith(')')) {
        throw new Error(`invalid filter "${part}": in expects a list in parentheses`);
      }
      const values = splitTop(rawValue.slice(1, -1), ',').map((v) => unquote(v.trim()));
      return { column, op, negate, value: null, values };
    }
    const value = unquote(rawValue);
    return { column, op, negate, value, values: [] };
  });
}

function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function compare(a: unknown, b: string): number | undefined {
  if (a === null || a === undefined) return undefined;
  if (
    typeof a === 'number' ||
    (typeof a === 'string' &&
      a.trim() !== '' &&
      !Number.isNaN(Number(a)) &&
      !Number.isNaN(Number(b)))
  ) {
    const x = Number(a);
    const y = Number(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x === y ? 0 : x < y ? -1 : 1;
  }
  const x = asText(a)!;
  return x === b ? 0 : x < b ? -1 : 1;
}

function likeToRegExp(pattern: string, flags: string): RegExp {
  let re = '';
  for (const ch of pattern) {
    if (ch === '%' || ch === '*') re += '.*';
    else if (ch === '_') re += '.';
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, flags + 's');
}

function equals(a: unknown, b: string | null): boolean {
  if (b === null) return a === null || a === undefined;
  if (a === null || a === undefined) return false;
  if (typeof a === 'boolean') return String(a) === b.toLowerCase() || (a ? b === 't' : b === 'f');
  if (typeof a === 'number') return !Number.isNaN(Number(b)) && Number(b) === a;
  return asText(a) === b;
}

function test(cond: Condition, record: Record<string, unknown>): boolean {
  const v = record[cond.column];
  const b = cond.value;
  switch (cond.op) {
    case 'eq':
      return v !== null && v !== undefined && b !== null && equals(v, b);
    case 'neq':
      return v !== null && v !== undefined && b !== null && !equals(v, b);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      if (b === null) return false;
      const c = compare(v, b);
      if (c === undefined) return false;
      return cond.op === 'lt'
        ? c < 0
        : cond.op === 'lte'
          ? c <= 0
          : cond.op === 'gt'
            ? c > 0
            : c >= 0;
    }
    case 'in':
      return v !== null && v !== undefined && cond.values.some((x) => x !== null && equals(v, x));
    case 'is': {
      const lower = b?.toLowerCase();
      if (lower === 'null') return v === null || v === undefined;
      if (lower === 'true') return v === true;
      if (lower === 'false') return v === false;
      if (lower === 'unknown') return v === null || v === undefined;
      return false;
    }
    case 'isdistinct':
      return b === null || b.toLowerCase() === 'null'
        ? v !== null && v !== undefined
        : !equals(v, b);
    case 'like':
    case 'ilike':
      if (typeof v !== 'string' || b === null) return false;
      return likeToRegExp(b, cond.op === 'ilike' ? 'i' : '').test(v);
    case 'match':
    case 'imatch':
      if (typeof v !== 'string' || b === null) return false;
      try {
        return new RegExp(b, cond.op === 'imatch' ? 'i' : '').test(v);
      } catch {
        return false;
      }
  }
}

/** True when the record satisfies every condition (an empty filter matches everything). */
export function matches(
  conditions: Condition[],
  record: Record<string, unknown> | null | undefined,
): boolean {
  if (conditions.length === 0) return true;
  if (!record) return false;
  return conditions.every((c) => {
    const r = test(c, record);
    return c.negate ? !r : r;
  });
}

// The in-memory zone the local DNS server answers from: TXT, CNAME and A records by name.
import { HttpError } from '../http.ts';

export const RECORD_TYPES = ['TXT', 'CNAME', 'A'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface ZoneRecord {
  /** Lower-case, no trailing dot, e.g. `_dmarc.example.com`. */
  name: string;
  type: RecordType;
  /** TXT: the text (split into 255-byte strings on the wire); CNAME: the target name; A: an IPv4 address. */
  value: string;
  /** Seconds; 0 by default so a record edited while developing is seen at once. */
  ttl: number;
  /**
   * A records only: the name's rotating records are answered one per query, in turn, as a DNS
   * rebinding server does (a public address to one lookup, an inside one to the next).
   */
  rotate?: boolean;
}

const NAME =
  /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

export function normaliseName(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!NAME.test(name)) throw new HttpError(400, `"${raw}" is not a domain name`);
  return name;
}

export class Zone {
  private readonly byName = new Map<string, ZoneRecord[]>();
  /** Queries answered so far per rotating name. */
  private readonly turns = new Map<string, number>();

  constructor(private readonly seed: ZoneRecord[] = []) {
    this.reset();
  }

  reset(): void {
    this.byName.clear();
    this.turns.clear();
    for (const r of this.seed) this.add(r);
  }

  /**
   * Adds a record. A CNAME is the only record at its name (RFC 1034 3.6.2): adding one
   * replaces it, adding anything beside one is refused. The same TXT value twice is kept once.
   */
  add(input: {
    name: string;
    type: string;
    value: string;
    ttl?: number;
    rotate?: boolean;
  }): ZoneRecord {
    const name = normaliseName(input.name);
    const type = String(input.type).toUpperCase() as RecordType;
    if (!RECORD_TYPES.includes(type)) throw new HttpError(400, 'type must be TXT, CNAME or A');
    if (typeof input.value !== 'string' || input.value === '') {
      throw new HttpError(400, 'value must be a non-empty string');
    }
    const value = type === 'CNAME' ? normaliseName(input.value) : input.value;
    if (type === 'A' && !/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(value)) {
      throw new HttpError(400, 'an A record is an IPv4 address');
    }
    if (type === 'A' && value.split('.').some((n) => Number(n) > 255)) {
      throw new HttpError(400, 'an A record is an IPv4 address');
    }
    if (type === 'TXT' && Buffer.byteLength(value) > 4000) {
      throw new HttpError(400, 'TXT value longer than 4000 bytes');
    }
    const ttl = input.ttl ?? 0;
    if (!Number.isInteger(ttl) || ttl < 0 || ttl > 86_400) {
      throw new HttpError(400, 'ttl must be an integer between 0 and 86400');
    }
    if (input.rotate && type !== 'A') throw new HttpError(400, 'only A records rotate');
    const record: ZoneRecord = {
      name,
      type,
      value,
      ttl,
      ...(input.rotate ? { rotate: true } : {}),
    };
    const existing = this.byName.get(name) ?? [];
    if (type === 'CNAME') {
      if (existing.some((r) => r.type !== 'CNAME')) {
        throw new HttpError(409, `${name} has other records; a CNAME must stand alone`);
      }
      this.byName.set(name, [record]);
      return record;
    }
    if (existing.some((r) => r.type === 'CNAME')) {
      throw new HttpError(409, `${name} is a CNAME; it can have no other records`);
    }
    if (!existing.some((r) => r.type === type && r.value === value)) {
      this.byName.set(name, [...existing, record]);
    }
    return record;
  }

  /** Removes the records at `name` (only of `type`, only with `value` when given); returns how many. */
  remove(rawName: string, type?: string, value?: string): number {
    const name = normaliseName(rawName);
    const existing = this.byName.get(name) ?? [];
    const keep = existing.filter(
      (r) =>
        (type !== undefined && r.type !== type.toUpperCase()) ||
        (value !== undefined && r.value !== value),
    );
    if (keep.length) this.byName.set(name, keep);
    else this.byName.delete(name);
    return existing.length - keep.length;
  }

  /**
   * What a query for `records` (found at `name`) is answered: all of them, or, when they rotate,
   * the next one alone.
   */
  inTurn(name: string, records: ZoneRecord[]): ZoneRecord[] {
    const rotating = records.filter((r) => r.rotate);
    if (rotating.length === 0) return records;
    const turn = this.turns.get(name) ?? 0;
    this.turns.set(name, turn + 1);
    return [rotating[turn % rotating.length]!];
  }

  at(name: string): ZoneRecord[] {
    return this.byName.get(name.toLowerCase().replace(/\.$/, '')) ?? [];
  }

  /** Whether the name exists: records at it or below it (an empty non-terminal, RFC 8020). */
  exists(name: string): boolean {
    const n = name.toLowerCase().replace(/\.$/, '');
    if (this.byName.has(n)) return true;
    for (const key of this.byName.keys()) if (key.endsWith(`.${n}`)) return true;
    return false;
  }

  list(): ZoneRecord[] {
    return [...this.byName.values()].flat().sort((a, b) => a.name.localeCompare(b.name));
  }
}

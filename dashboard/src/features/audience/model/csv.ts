// CSV import of the audience (spec: only .csv files, a header row, rows need a name and a valid
// email, a group is kept only when it exists). Parsed with papaparse, checked here, sent in
// batches; every row that is left out is reported with why. Pure except for the parse.
import Papa from 'papaparse';
import { isEmail, LETTER_LIMITS } from '@reaction-blocks/contracts/letters';

export interface ImportRow {
  /** Line in the file (the header is line 1). */
  line: number;
  name: string;
  email: string;
  group: string | null;
}

export type SkipReason = 'noName' | 'noEmail' | 'invalidEmail' | 'tooLong' | 'duplicate';

export interface ImportPlan {
  rows: ImportRow[];
  skipped: Array<{ line: number; reason: SkipReason }>;
  /** Rows whose group does not exist: imported without a group. */
  groupDropped: Array<{ line: number; group: string }>;
  /** The header has no name or email column. */
  missingColumns: boolean;
}

const NAME_KEYS = ['name', 'creatorname', '이름'];
const EMAIL_KEYS = ['email', 'e-mail', 'mail', '이메일'];
const GROUP_KEYS = ['group', 'groupname', '그룹'];

const column = (fields: string[], keys: string[]) =>
  fields.find((f) => keys.includes(f.trim().toLowerCase().replace(/[\s_]/g, '')));

/** Checks parsed rows (objects keyed by the header) against the rules. */
export function planImport(
  records: Array<Record<string, string | undefined>>,
  fields: string[],
  groups: readonly string[],
  existing: ReadonlySet<string> = new Set(),
): ImportPlan {
  const nameKey = column(fields, NAME_KEYS);
  const emailKey = column(fields, EMAIL_KEYS);
  const groupKey = column(fields, GROUP_KEYS);
  const plan: ImportPlan = {
    rows: [],
    skipped: [],
    groupDropped: [],
    missingColumns: !nameKey || !emailKey,
  };
  if (plan.missingColumns) return plan;
  const seen = new Set(existing);
  records.forEach((record, i) => {
    const line = i + 2;
    const name = (record[nameKey!] ?? '').trim();
    const email = (record[emailKey!] ?? '').trim();
    const group = groupKey ? (record[groupKey] ?? '').trim() : '';
    if (!name) return plan.skipped.push({ line, reason: 'noName' });
    if (!email) return plan.skipped.push({ line, reason: 'noEmail' });
    if (
      name.length > LETTER_LIMITS.audienceRowName ||
      email.length > LETTER_LIMITS.audienceRowEmail
    )
      return plan.skipped.push({ line, reason: 'tooLong' });
    if (!isEmail(email)) return plan.skipped.push({ line, reason: 'invalidEmail' });
    const key = email.toLowerCase();
    if (seen.has(key)) return plan.skipped.push({ line, reason: 'duplicate' });
    seen.add(key);
    const known = group !== '' && groups.includes(group);
    if (group !== '' && !known) plan.groupDropped.push({ line, group });
    plan.rows.push({ line, name, email, group: known ? group : null });
  });
  return plan;
}

/** Parses a CSV file with its header row (papaparse reads it in the background, in chunks). */
export function parseCsv(
  file: File,
): Promise<{ records: Array<Record<string, string>>; fields: string[] }> {
  return new Promise((resolve, reject) => {
    const records: Array<Record<string, string>> = [];
    let fields: string[] = [];
    Papa.parse<Record<string, string>>(file, {
      header: true,
      skipEmptyLines: 'greedy',
      chunkSize: 256 * 1024,
      chunk: (results) => {
        fields = results.meta.fields ?? fields;
        records.push(...results.data);
      },
      complete: () => resolve({ records, fields }),
      error: (err) => reject(err),
    });
  });
}

/** Text parsing for tests and small inputs. */
export function parseCsvText(text: string): {
  records: Array<Record<string, string>>;
  fields: string[];
} {
  const out = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' });
  return { records: out.data, fields: out.meta.fields ?? [] };
}

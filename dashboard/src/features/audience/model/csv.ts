// CSV import of the audience (spec: only .csv files, a header row, rows need a name and a valid
// email, a group is kept only when it exists). Parsed with papaparse, checked here, sent in
// batches; every row that is left out is reported with why, papaparse's own findings (a row with
// more fields than the header, a broken quote) by their code, never in its English. Pure except
// for the parse.
import Papa from 'papaparse';
import { isEmail, LETTER_LIMITS } from '@reaction-blocks/contracts/letters';

export interface ImportRow {
  /** Line in the file (the header is line 1). */
  line: number;
  name: string;
  email: string;
  group: string | null;
}

export type SkipReason =
  | 'noName'
  | 'noEmail'
  | 'invalidEmail'
  | 'tooLong'
  | 'duplicate'
  | 'tooManyFields'
  | 'tooFewFields'
  | 'missingQuotes'
  | 'invalidQuotes';

/**
 * papaparse's codes for a row it could not read as the header says, most telling first (an
 * unclosed quote also makes the rest of the file one field: too few fields). UndetectableDelimiter
 * is not a row's: the header is then one column, and the plan says the columns are missing.
 */
const PARSE_REASONS = [
  ['MissingQuotes', 'missingQuotes'],
  ['InvalidQuotes', 'invalidQuotes'],
  ['TooManyFields', 'tooManyFields'],
  ['TooFewFields', 'tooFewFields'],
] as const satisfies ReadonlyArray<readonly [string, SkipReason]>;

/** The separators the import reads, by the name the report gives them (en, ko). */
export const SEPARATORS = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'bar' } as const;
export type SeparatorName = (typeof SEPARATORS)[keyof typeof SEPARATORS];

/** The name of the separator papaparse read a file with (a comma when it is none of ours). */
const separatorName = (delimiter: string | undefined): SeparatorName =>
  SEPARATORS[delimiter as keyof typeof SEPARATORS] ?? 'comma';

/**
 * The text encodings a file is read in: UTF-8 unless its bytes say otherwise (a UTF-16 byte order
 * mark, or bytes that are no UTF-8: then Korean Windows' code page 949, which Korean Excel's
 * "CSV (쉼표로 분리)" saves in; `euc-kr` is its WHATWG name).
 */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'euc-kr';

export interface ParsedCsv {
  /** The separator the file was read with. */
  separator: SeparatorName;
  /** The encoding the file was read in. */
  encoding: CsvEncoding;
  /** The rows after the header, keyed by its fields (a field a short row lacks is undefined). */
  records: Array<Record<string, string | undefined>>;
  fields: string[];
  /** What papaparse found wrong in a record, by its index in `records`. */
  problems: ReadonlyMap<number, SkipReason>;
  /** The line in the file each record starts on, by its index in `records` (the header is 1). */
  lines: readonly number[];
  /** The last line of a record papaparse misread that took more lines than its first, by index. */
  through?: ReadonlyMap<number, number>;
}

export interface ImportPlan {
  rows: ImportRow[];
  /**
   * `through`: the last line a broken quote took with it (its record read on to the next quote, or
   * to the end of the file): every line from `line` to it is left out, not only the first.
   */
  skipped: Array<{ line: number; reason: SkipReason; through?: number }>;
  /** Lines whose address the audience has already (in any case): not sent, counted as there. */
  already: number[];
  /** Rows whose group does not exist: imported without a group. */
  groupDropped: Array<{ line: number; group: string }>;
  /** The header has no name or email column. */
  missingColumns: boolean;
  /** The file's separator: a field holding it must be quoted (the tooManyFields report names it). */
  separator: SeparatorName;
  /** The encoding the file was read in (the report says so when it is not UTF-8). */
  encoding: CsvEncoding;
}

const NAME_KEYS = ['name', 'creatorname', '이름'];
const EMAIL_KEYS = ['email', 'e-mail', 'mail', '이메일'];
const GROUP_KEYS = ['group', 'groupname', '그룹'];

const column = (fields: string[], keys: string[]) =>
  fields.find((f) => keys.includes(f.trim().toLowerCase().replace(/[\s_]/g, '')));

/**
 * Checks parsed rows (objects keyed by the header) against the rules. A row papaparse misread (a
 * broken quote, more fields than the header) is left out with that reason; one with fewer fields
 * only when it lacks the name or the email (the group is optional).
 * `existing`: the addresses the owner's audience has, lower-cased (one member per address, case
 * aside: the database's key); a row with one of them is counted as already there.
 */
export function planImport(
  { records, fields, problems, lines, separator, encoding, through }: ParsedCsv,
  groups: readonly string[],
  existing: ReadonlySet<string> = new Set(),
): ImportPlan {
  const nameKey = column(fields, NAME_KEYS);
  const emailKey = column(fields, EMAIL_KEYS);
  const groupKey = column(fields, GROUP_KEYS);
  const plan: ImportPlan = {
    rows: [],
    skipped: [],
    already: [],
    groupDropped: [],
    missingColumns: !nameKey || !emailKey,
    separator,
    encoding,
  };
  if (plan.missingColumns) return plan;
  const seen = new Set<string>();
  records.forEach((record, i) => {
    const line = lines[i] ?? i + 2;
    const problem = problems.get(i);
    const last = through?.get(i);
    if (problem && problem !== 'tooFewFields')
      return plan.skipped.push(
        last ? { line, reason: problem, through: last } : { line, reason: problem },
      );
    if (record[nameKey!] === undefined || record[emailKey!] === undefined)
      return plan.skipped.push({ line, reason: 'tooFewFields' });
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
    if (existing.has(key)) return plan.already.push(line);
    const known = group !== '' && groups.includes(group);
    if (group !== '' && !known) plan.groupDropped.push({ line, group });
    plan.rows.push({ line, name, email, group: known ? group : null });
  });
  return plan;
}

/** A line with nothing but white space and separators: not a row, and not reported. */
const isBlank = (record: Record<string, unknown>) =>
  Object.values(record).every((value) => String(value ?? '').trim() === '');

/** The line breaks inside a record's quoted fields: the lines it takes beyond its first. */
const lineBreaks = (record: Record<string, unknown>) =>
  Object.values(record).reduce<number>(
    (n, value) => n + (String(value ?? '').match(/\r\n|\n|\r/g)?.length ?? 0),
    0,
  );

/**
 * The separator (comma, semicolon, tab, |), guessed by papaparse on the first lines that are not
 * blank. Its own guess, with blank lines kept, counts a blank or the trailing line as a one-field
 * row: a two-column file separated by anything but commas fell below its threshold and was read
 * with commas. A comma when nothing fits.
 */
const guessDelimiter = (chunk: string) =>
  Papa.parse(chunk, { preview: 10, skipEmptyLines: 'greedy' }).meta.delimiter || ',';

/**
 * papaparse's options that collect a ParsedCsv row by row (a step's errors are its row's; the
 * header's fields also when no row follows). Blank lines are passed over here rather than by
 * papaparse, so that each record keeps the line of the file it stands on: the report names lines
 * as the owner's editor numbers them (a quoted field's own line breaks count too).
 */
function collector(encoding: CsvEncoding) {
  const parsed = {
    separator: 'comma',
    encoding,
    records: [],
    fields: [],
    problems: new Map(),
    lines: [],
    through: new Map(),
  } as {
    separator: SeparatorName;
    encoding: CsvEncoding;
    records: ParsedCsv['records'];
    fields: string[];
    problems: Map<number, SkipReason>;
    lines: number[];
    through: Map<number, number>;
  };
  let line = 2;
  const options = {
    header: true,
    skipEmptyLines: false,
    delimiter: guessDelimiter,
    // blank lines before the header are passed over too (as papaparse's greedy skipping did),
    // and counted, so the rows keep their lines
    beforeFirstChunk: (chunk: string) => {
      const blank = /^(?:[ \t,;|]*(?:\r\n|\n|\r))*/.exec(chunk)![0];
      line += blank.match(/\r\n|\n|\r/g)?.length ?? 0;
      return chunk.slice(blank.length);
    },
    transformHeader: (header: string) => {
      parsed.fields.push(header);
      return header;
    },
    step: (results: Papa.ParseStepResult<Record<string, string | undefined>>) => {
      const at = line;
      line += 1 + lineBreaks(results.data);
      if (results.meta.fields) parsed.fields = results.meta.fields;
      parsed.separator = separatorName(results.meta.delimiter);
      if (isBlank(results.data)) return;
      parsed.lines.push(at);
      const codes = new Set(results.errors.map((error) => error.code as string));
      const reason = PARSE_REASONS.find(([code]) => codes.has(code))?.[1];
      if (reason) parsed.problems.set(parsed.records.length, reason);
      // a broken quote reads the lines after it into its field (to the next quote, or the end):
      // those rows are lost with it and said so (the file's last line break is no line of its own)
      const taken =
        reason && reason !== 'tooManyFields' && reason !== 'tooFewFields'
          ? lineBreaks(
              Object.fromEntries(
                Object.entries(results.data).map(([k, v]) => [
                  k,
                  String(v ?? '').replace(/[\r\n]+$/, ''),
                ]),
              ),
            )
          : 0;
      if (taken) parsed.through.set(parsed.records.length, at + taken);
      parsed.records.push(results.data);
    },
  } as const;
  return { parsed: parsed as ParsedCsv, options };
}

/**
 * A file's bytes as text, and the encoding they were in (CsvEncoding says which are read): UTF-16
 * by its mark, UTF-8 when they are (its mark dropped), else CP949 (EUC-KR), as Korean Excel saves
 * CSV. Decoded once: the UTF-8 check is the decoding itself.
 */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  const as = (encoding: CsvEncoding, fatal = false) => ({
    text: new TextDecoder(encoding, { fatal }).decode(bytes),
    encoding,
  });
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return as('utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return as('utf-16be');
  try {
    return as('utf-8', true);
  } catch {
    return as('euc-kr');
  }
}

/** A file's bytes (through FileReader, as papaparse read it). */
function bytesOf(file: File): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Parses a CSV file with its header row, in the encoding its bytes are in (a file Korean Excel
 * saved is no UTF-8, and read as one its Korean names came out as U+FFFD, silently). The file is
 * read once: papaparse parses the decoded text (it read the file a second time, in that encoding).
 */
export async function parseCsv(file: File): Promise<ParsedCsv> {
  const { text, encoding } = decodeCsv(await bytesOf(file));
  return parseText(text, encoding);
}

function parseText(text: string, encoding: CsvEncoding): ParsedCsv {
  const { parsed, options } = collector(encoding);
  Papa.parse<Record<string, string | undefined>>(text, options);
  return parsed;
}

/** Text parsing for tests. */
export const parseCsvText = (text: string): ParsedCsv => parseText(text, 'utf-8');

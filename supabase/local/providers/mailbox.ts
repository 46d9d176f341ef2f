// The local mailbox: every mail a fake "sends" lands here instead of the Internet. In memory,
// bounded (oldest dropped first), O(1) to add so a send stays cheap under load. With a journal
// file it survives restarts: each mail and each clear is appended as a line, replayed at start
// and rewritten then (and when it grows to twice what it holds), so the file stays bounded too.
//   GET    /mailbox/messages[?to=addr&limit=n]  JSON, newest first
//   DELETE /mailbox/messages[?to=addr]          clear (only that recipient's with ?to=)
//   GET    /mailbox/messages/<id>               JSON, one message
//   GET    /mailbox/messages/<id>/html          the HTML part, sandboxed by its CSP
//   GET    /mailbox/<id>                        the page showing one message
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Log } from '../process.ts';
import { escapeHtml, HttpError, page, sectionTable, sendHtml, sendJson } from './http.ts';
import { Journal } from './journal.ts';

export interface MailInput {
  /** Unique; the SES fake uses the SES MessageId. */
  id: string;
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string[];
  subject: string;
  html: string | null;
  text: string | null;
  /** Header name -> value (repeated headers joined with ", "). */
  headers: Record<string, string>;
  /** Which fake sent it, e.g. "ses". */
  source: string;
  /** Whom it was delivered to (the envelope); default To, Cc and Bcc. `?to=` filters on these. */
  recipients?: string[];
  /** The fake's own bookkeeping, never exposed by the JSON API. */
  meta?: unknown;
}

export interface MailMessage extends Required<Omit<MailInput, 'meta' | 'recipients'>> {
  sentAt: string;
}

interface Entry {
  message: MailMessage;
  meta: unknown;
  size: number;
  /** Bare addresses, lower-case. */
  recipients: string[];
}

export interface MailboxOptions {
  /** Most messages kept; default 10 000. */
  maxMessages?: number;
  /** Most bytes (bodies and headers, roughly) kept; default 256 MiB. */
  maxBytes?: number;
  /** A file that keeps the mailbox across restarts (JSON lines); none: memory only. */
  journal?: string;
  log?: Log;
}

/** A line of the journal: a mail added, or a clear (of one recipient's mail, or of all). */
type JournalLine =
  { a: { message: MailMessage; meta: unknown; recipients: string[] } } | { c: string | null };

/** `"Name" <a@b>` -> `a@b`. */
export function bareAddress(address: string): string {
  const match = /<([^<>]*)>\s*$/.exec(address);
  return (match ? match[1]! : address).trim();
}

export class Mailbox {
  private readonly ring: Array<Entry | undefined>;
  private head = 0; // next write position
  private count = 0;
  private bytes = 0;
  private readonly byId = new Map<string, Entry>();
  private readonly maxBytes: number;
  private readonly journal: Journal | undefined;
  /** Ids of the mails the journal held at start, cleared ones too (see `accepted`). */
  private readonly journalled = new Set<string>();

  constructor(opts: MailboxOptions = {}) {
    this.ring = new Array<Entry | undefined>(opts.maxMessages ?? 10_000);
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
    if (opts.journal) {
      this.journal = new Journal(opts.journal, opts.log);
      for (const line of this.journal.read() as JournalLine[]) {
        if ('a' in line) {
          this.insert(line.a.message, line.a.meta, line.a.recipients);
          this.journalled.add(line.a.message.id);
        } else this.remove(line.c ?? undefined);
      }
      this.compact();
    }
  }

  /** Rewrites the journal as the mails kept now, oldest first. */
  private compact(): void {
    this.journal?.rewrite([...this.entries()].reverse().map((entry) => this.line(entry)));
  }

  private line(entry: Entry): JournalLine {
    return { a: { message: entry.message, meta: entry.meta, recipients: entry.recipients } };
  }

  private append(line: JournalLine): void {
    if (!this.journal) return;
    this.journal.append(line);
    if (this.journal.appended > 2 * this.bytes + 16 * 1024 * 1024) this.compact();
  }

  /** Resolves once every mail added so far is on the disk (with a journal). */
  sync(): Promise<void> {
    return this.journal?.sync() ?? Promise.resolve();
  }

  /**
   * Whether the mail `id` was ever put here: held now, or written to the journal before this
   * start (and cleared since, or dropped for room). A fake that journals what follows a mail
   * (the SES fake's events) asks this at start to tell a mail it sent from one it never did.
   */
  accepted(id: string): boolean {
    return this.byId.has(id) || this.journalled.has(id);
  }

  /** Stops writing the journal (the server is closing). */
  close(): void {
    this.journal?.close();
  }

  add(input: MailInput): MailMessage {
    const message: MailMessage = {
      id: input.id,
      from: input.from,
      to: input.to,
      cc: input.cc ?? [],
      bcc: input.bcc ?? [],
      replyTo: input.replyTo ?? [],
      subject: input.subject,
      html: input.html,
      text: input.text,
      headers: input.headers,
      source: input.source,
      sentAt: new Date().toISOString(),
    };
    const recipients = (input.recipients ?? [...message.to, ...message.cc, ...message.bcc]).map(
      (a) => bareAddress(a).toLowerCase(),
    );
    const entry = this.insert(message, input.meta, recipients);
    this.append(this.line(entry));
    return message;
  }

  private insert(message: MailMessage, meta: unknown, recipients: string[]): Entry {
    let size = (message.html?.length ?? 0) + (message.text?.length ?? 0) + 512;
    for (const [k, v] of Object.entries(message.headers)) size += k.length + v.length;
    if (this.count === this.ring.length) this.dropOldest();
    while (this.count > 0 && this.bytes + size > this.maxBytes) this.dropOldest();
    const entry: Entry = { message, meta, size, recipients };
    this.ring[this.head] = entry;
    this.head = (this.head + 1) % this.ring.length;
    this.count++;
    this.bytes += size;
    this.byId.set(message.id, entry);
    return entry;
  }

  get(id: string): MailMessage | undefined {
    return this.byId.get(id)?.message;
  }

  meta(id: string): unknown {
    return this.byId.get(id)?.meta;
  }

  /** Newest first. */
  private *entries(): Generator<Entry> {
    for (let i = 1; i <= this.count; i++) {
      const entry = this.ring[(this.head - i + this.ring.length) % this.ring.length];
      if (entry) yield entry;
    }
  }

  list(opts: { to?: string; limit?: number } = {}): MailMessage[] {
    const to = opts.to ? bareAddress(opts.to).toLowerCase() : undefined;
    const limit = opts.limit ?? Infinity;
    const out: MailMessage[] = [];
    for (const entry of this.entries()) {
      if (out.length >= limit) break;
      if (to && !entry.recipients.includes(to)) continue;
      out.push(entry.message);
    }
    return out;
  }

  get size(): number {
    return this.count;
  }

  /** Removes every message (or only those sent to `to`); returns how many. */
  clear(to?: string): number {
    const removed = this.remove(to);
    this.append({ c: to ?? null });
    return removed;
  }

  private remove(to?: string): number {
    const entries = to
      ? [...this.entries()]
          .filter((e) => !e.recipients.includes(bareAddress(to).toLowerCase()))
          .reverse()
      : [];
    const removed = this.count - entries.length;
    this.ring.fill(undefined);
    this.byId.clear();
    this.head = 0;
    this.count = 0;
    this.bytes = 0;
    for (const entry of entries) {
      this.ring[this.head] = entry;
      this.head = (this.head + 1) % this.ring.length;
      this.count++;
      this.bytes += entry.size;
      this.byId.set(entry.message.id, entry);
    }
    return removed;
  }

  private dropOldest(): void {
    const tail = (this.head - this.count + this.ring.length) % this.ring.length;
    const entry = this.ring[tail];
    this.ring[tail] = undefined;
    this.count--;
    if (entry) {
      this.bytes -= entry.size;
      this.byId.delete(entry.message.id);
    }
  }
}

/** Answers /mailbox/...; returns false when the path is not the mailbox's. */
export function handleMailbox(
  mailbox: Mailbox,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): boolean {
  const path = url.pathname;
  if (path === '/mailbox/messages') {
    const to = url.searchParams.get('to') ?? undefined;
    if (req.method === 'GET') {
      const limitRaw = url.searchParams.get('limit');
      const limit = limitRaw ? Number(limitRaw) : undefined;
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
        throw new HttpError(400, 'limit must be a positive integer');
      }
      sendJson(res, 200, mailbox.list({ to, limit }));
      return true;
    }
    if (req.method === 'DELETE') {
      sendJson(res, 200, { deleted: mailbox.clear(to) });
      return true;
    }
    throw new HttpError(405, 'GET or DELETE');
  }
  const one = /^\/mailbox\/messages\/([^/]+)(\/html)?$/.exec(path);
  if (one && req.method === 'GET') {
    const message = mailbox.get(decodeURIComponent(one[1]!));
    if (!message) throw new HttpError(404, 'No such message');
    if (!one[2]) {
      sendJson(res, 200, message);
      return true;
    }
    // The mail's own HTML, as a mail client shows it: no script, no form posts, links open
    // outside the frame (a new tab, on a click), images load as they would in a mail client
    // (which is what fires the open-tracking pixel).
    sendHtml(
      res,
      200,
      `<base target="_blank">${message.html ?? ''}`,
      "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; font-src * data:; frame-ancestors 'self'; " +
        'sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
    );
    return true;
  }
  const view = /^\/mailbox\/([^/]+)$/.exec(path);
  if (view && req.method === 'GET' && view[1] !== 'messages') {
    const message = mailbox.get(decodeURIComponent(view[1]!));
    if (!message) throw new HttpError(404, 'No such message');
    sendHtml(res, 200, page(message.subject || '(no subject)', renderMessage(message)));
    return true;
  }
  return false;
}

const addresses = (list: string[]) => escapeHtml(list.join(', '));

/** The mailbox section of the index page: newest first. */
export function renderMailboxSection(mailbox: Mailbox, limit = 200): string {
  const rows = mailbox
    .list({ limit })
    .map(
      (m) => `<tr><td>${escapeHtml(m.sentAt.replace('T', ' ').slice(0, 19))}</td>
<td class="wrap">${escapeHtml(m.from)}</td><td class="wrap">${addresses(m.to)}</td>
<td><a href="/mailbox/${encodeURIComponent(m.id)}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('\n');
  const more =
    mailbox.size > limit
      ? `<p class="muted">Showing the newest ${limit} of ${mailbox.size}; all of them: <a href="/mailbox/messages">/mailbox/messages</a></p>`
      : '';
  return `<section aria-labelledby="mailbox-h"><h2 id="mailbox-h">Mailbox (${mailbox.size})</h2>
${sectionTable(['Time (UTC)', 'From', 'To', 'Subject'], rows, 'No mail yet. Mail sent through the SES fake shows up here.')}${more}
<p class="muted">JSON: <a href="/mailbox/messages">/mailbox/messages</a></p></section>`;
}

function renderMessage(m: MailMessage): string {
  const id = encodeURIComponent(m.id);
  const headerRows = Object.entries(m.headers)
    .map(
      ([k, v]) =>
        `<tr><th scope="row">${escapeHtml(k)}</th><td class="wrap">${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  const field = (label: string, value: string) =>
    value ? `<tr><th scope="row">${label}</th><td class="wrap">${value}</td></tr>` : '';
  return `<h1>${escapeHtml(m.subject || '(no subject)')}</h1>
<section><table>
${field('From', escapeHtml(m.from))}${field('To', addresses(m.to))}${field('Cc', addresses(m.cc))}${field('Bcc', addresses(m.bcc))}${field('Reply-To', addresses(m.replyTo))}
${field('Sent', escapeHtml(m.sentAt))}${field('Id', escapeHtml(m.id))}
</table></section>
${
  m.html !== null
    ? `<section><h2>HTML</h2><iframe title="HTML part of the mail" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" src="/mailbox/messages/${id}/html"></iframe></section>`
    : ''
}
${m.text !== null ? `<section><h2>Text</h2><pre>${linkify(m.text)}</pre></section>` : ''}
<section><h2>Headers</h2><table>${headerRows}</table></section>
<p><a href="/mailbox/messages/${id}">JSON</a> · <a href="/">All mail</a></p>`;
}

/** Escapes text and makes its http(s) URLs clickable (verification links in text mails). */
export function linkify(text: string): string {
  const out: string[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    out.push(escapeHtml(text.slice(last, match.index)));
    out.push(`<a href="${escapeHtml(url)}" target="_blank" rel="noopener">${escapeHtml(url)}</a>`);
    last = match.index + url.length;
  }
  out.push(escapeHtml(text.slice(last)));
  return out.join('');
}

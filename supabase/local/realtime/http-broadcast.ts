// HTTP broadcast, as realtime-js uses it for `httpSend()` and for `send()` before a channel is
// joined: POST /api/broadcast {messages: [{topic, event, payload, private?}]} and
// POST /api/broadcast/:topic/events/:event (body = payload; JSON or application/octet-stream).
// Private topics need the INSERT policies of realtime.messages. Answers 202 when accepted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Broadcasts } from './broadcast.ts';
import { isObject } from './channel.ts';
import type { Context } from './context.ts';
import { verifyToken, viewerOf, type Verified } from './tokens.ts';

interface Sent {
  topic: string;
  event: string;
  payload?: unknown;
  private?: unknown;
}

const SINGLE = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/;
const FORBIDDEN = { message: 'You do not have permissions to write to this Channel topic' };

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit = 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('payload too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

export class HttpBroadcast {
  constructor(
    private readonly ctx: Context,
    private readonly broadcasts: Broadcasts,
  ) {}

  /** Sends to private topics need the INSERT policies of realtime.messages, per topic. */
  private async mayWrite(verified: Extract<Verified, { ok: true }>, topics: string[]) {
    const viewer = viewerOf(verified);
    for (const topic of topics)
      if (!(await this.ctx.capture.authorize(viewer, topic)).write) return false;
    return true;
  }

  /** `path` is the part after /realtime/v1. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const clean = path.replace(/\/+$/, '');
    const single = SINGLE.exec(clean);
    if (clean !== '/api/broadcast' && !single) return json(res, 404, { message: 'Not found' });
    if (req.method !== 'POST') return json(res, 405, { message: 'Method not allowed' });
    const url = new URL(req.url ?? '/', 'http://realtime');
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const header = req.headers['apikey'];
    const apikey =
      (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined;
    const verified = await verifyToken(
      this.ctx.secret,
      bearer && !bearer.startsWith('sb_') ? bearer : apikey,
    );
    if (!verified.ok) return json(res, 401, { message: verified.reason });
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      return json(res, 413, { message: 'Payload too large' });
    }
    if (single) return this.one(req, res, url, single, verified, body);

    const parsed = parseJson(body);
    if (!parsed.ok) return json(res, 400, { message: 'The body must be JSON' });
    const messages =
      isObject(parsed.value) && Array.isArray(parsed.value.messages)
        ? parsed.value.messages
        : undefined;
    const valid = (m: unknown) =>
      isObject(m) && typeof m.topic === 'string' && typeof m.event === 'string';
    if (!messages || !messages.every(valid))
      return json(res, 422, {
        message: 'Expected {messages: [{topic, event, payload, private?}]}',
      });
    const list = messages as Sent[];
    const privateTopics = [...new Set(list.filter((m) => m.private === true).map((m) => m.topic))];
    if (privateTopics.length > 0 && !(await this.mayWrite(verified, privateTopics)))
      return json(res, 403, FORBIDDEN);
    for (const m of list)
      this.broadcasts.fromServer(m.topic, m.private === true, m.event, m.payload ?? {});
    res.writeHead(202).end();
  }

  /** POST /api/broadcast/:topic/events/:event */
  private async one(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    match: RegExpExecArray,
    verified: Extract<Verified, { ok: true }>,
    body: Buffer,
  ): Promise<void> {
    const isPrivate = url.searchParams.get('private') === 'true';
    const topic = decodeURIComponent(match[1]!);
    const event = decodeURIComponent(match[2]!);
    if (isPrivate && !(await this.mayWrite(verified, [topic]))) return json(res, 403, FORBIDDEN);
    if (/^application\/octet-stream/i.test(req.headers['content-type'] ?? '')) {
      this.broadcasts.fromServer(topic, isPrivate, event, undefined, body);
    } else {
      const parsed = parseJson(body);
      if (!parsed.ok) return json(res, 400, { message: 'The body must be JSON' });
      this.broadcasts.fromServer(topic, isPrivate, event, parsed.value);
    }
    res.writeHead(202).end();
  }

  /** Any failure inside answers 500 (or drops a response already under way). */
  async serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      await this.handle(req, res, path);
    } catch (err) {
      this.ctx.log(`http ${path} failed: ${(err as Error).message}`);
      if (!res.headersSent) json(res, 500, { message: 'Internal error' });
      else res.destroy();
    }
  }
}

// A webhook receiver at /hooks (docs/webhooks.md): what an owner's server would be, for trying
// outgoing webhooks locally and for the tests. The functions get WEBHOOK_ORIGIN_OVERRIDE=
// <providers>/hooks, so after every check of the SSRF guard a POST to https://<host>/<path> comes
// here as /hooks/<host>/<path>, saying in `Forwarded: by=` the address the guard approved and the
// request was pinned to; the local DNS zone gives the receiver hosts their addresses (public
// ones, never connected to, and a few that lead inside, which the guard refuses).
//   POST /hooks/<host>/<path>               recorded; answered as the path's rule says (200 by default)
//   GET  /hooks/_control/received?host=&path=  what arrived there, newest first
//   POST /hooks/_control/rules              {host, path, status?, times?, secret?}: answer `status`
//                                           the next `times` requests (then 200); with `secret`,
//                                           check each request's Standard Webhooks signature
//   DELETE /hooks/_control/received?host=&path=
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FakeContext, ProviderFake } from '../fake.ts';
import {
  escapeHtml,
  HttpError,
  newest,
  readBody,
  readJson,
  sectionTable,
  sendJson,
} from '../http.ts';

/** Receiver hosts of the local zone: public addresses, and names that lead inside. */
export const RECEIVER_HOSTS: Array<[string, string]> = [
  ['hooks.example-receiver.com', '93.184.216.34'],
  ['other.example-receiver.com', '93.184.216.34'],
  ['inside.example-receiver.com', '127.0.0.1'],
  ['private.example-receiver.com', '10.1.2.3'],
  ['metadata.example-receiver.com', '169.254.169.254'],
];

export interface ReceivedHook {
  id: number;
  receivedAt: string;
  host: string;
  path: string;
  /**
   * The address the function connected for (its request's `Forwarded: by=`, pinned-http.ts):
   * the one the SSRF guard approved; null when the request did not say.
   */
  address: string | null;
  headers: Record<string, string>;
  body: string;
  /** With a secret for the path: whether one of the signatures is the secret's. */
  verified: boolean | null;
  answered: number;
}

interface Rule {
  status: number;
  times: number;
  secret: string | null;
}

/** Standard Webhooks: one of the space-separated v1 signatures is the secret's over id.ts.body. */
export function signatureValid(
  secret: string,
  headers: Record<string, string>,
  body: string,
): boolean {
  const id = headers['webhook-id'] ?? '';
  const ts = headers['webhook-timestamp'] ?? '';
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${body}`)
    .digest();
  return (headers['webhook-signature'] ?? '').split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export function createHooksFake(ctx: FakeContext): ProviderFake {
  const seedDns = () => {
    for (const [name, value] of RECEIVER_HOSTS) ctx.zone.add({ name, type: 'A', value });
  };
  seedDns();
  const received: ReceivedHook[] = [];
  const rules = new Map<string, Rule>();
  let seq = 0;
  const keyOf = (host: string, path: string) => `${host.toLowerCase()}${path}`;

  return {
    prefix: '/hooks',
    title: 'Webhook receiver',
    async control(req, res, path, url) {
      if (path === '/received') {
        const host = url.searchParams.get('host') ?? '';
        const at = url.searchParams.get('path');
        const match = (h: ReceivedHook) => (!host || h.host === host) && (!at || h.path === at);
        if (req.method === 'GET') return sendJson(res, 200, received.filter(match).reverse());
        if (req.method === 'DELETE') {
          const before = received.length;
          for (let i = received.length - 1; i >= 0; i--)
            if (match(received[i]!)) received.splice(i, 1);
          return sendJson(res, 200, { deleted: before - received.length });
        }
      }
      if (path === '/rules' && req.method === 'POST') {
        const body = await readJson(req);
        const host = String(body.host ?? '');
        const at = String(body.path ?? '/');
        if (!host || !at.startsWith('/'))
          throw new HttpError(400, 'host and a path starting with / are required');
        rules.set(keyOf(host, at), {
          status: Number(body.status ?? 200) || 200,
          times: Number(body.times ?? 0) || 0,
          secret: typeof body.secret === 'string' ? body.secret : null,
        });
        return sendJson(res, 200, { ok: true });
      }
      throw new HttpError(404, 'Not found');
    },
    async handle(req, res, path) {
      const m = /^\/([a-z0-9.-]+)(\/.*)?$/i.exec(path);
      if (!m || req.method !== 'POST') throw new HttpError(404, 'POST /hooks/<host>/<path>');
      const host = m[1]!.toLowerCase();
      const at = m[2] ?? '/';
      const body = (await readBody(req, 256 * 1024)).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (
          typeof v === 'string' &&
          (k.startsWith('webhook-') || k === 'content-type' || k === 'user-agent')
        )
          headers[k] = v;
      const by = /(?:^|[;,\s])by="?\[?([0-9a-f.:]+)\]?"?/i.exec(
        String(req.headers.forwarded ?? ''),
      );
      const rule = rules.get(keyOf(host, at));
      let status = 200;
      if (rule && rule.times > 0) {
        status = rule.status;
        rule.times -= 1;
      }
      received.push({
        id: ++seq,
        receivedAt: new Date().toISOString(),
        host,
        path: at,
        address: by ? by[1]! : null,
        headers,
        body,
        verified: rule?.secret ? signatureValid(rule.secret, headers, body) : null,
        answered: status,
      });
      if (received.length > 1000) received.splice(0, received.length - 1000);
      sendJson(
        res,
        status,
        status < 300 ? { ok: true } : { error: 'the receiver is failing on purpose' },
      );
    },
    section() {
      const e = escapeHtml;
      const rows = newest(received, 15)
        .map((h) => {
          let type = '';
          try {
            type = String((JSON.parse(h.body) as { type?: string }).type ?? '');
          } catch {
            type = '?';
          }
          return `<tr><td>${e(h.receivedAt)}</td><td class="wrap">${e(h.host + h.path)}</td><td>${e(type)}</td><td>${h.answered}</td><td>${h.verified === null ? 'not checked' : h.verified ? 'valid' : '<span class="bad">invalid</span>'}</td></tr>`;
        })
        .join('');
      return sectionTable(
        ['Received', 'Where', 'Event', 'Answered', 'Signature'],
        rows,
        'Nothing received yet. Add a webhook endpoint in a workspace with an address on hooks.example-receiver.com (it leads here), then Send test.',
      );
    },
    reset() {
      received.length = 0;
      rules.clear();
      seedDns();
    },
  };
}

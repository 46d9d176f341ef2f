// The local DNS zone's HTTP side (`/dns`): read and edit the records the DNS server answers.
//   GET    /dns/records[?name=]                       JSON list
//   POST   /dns/records {name, type, value, ttl?, rotate?}  add (JSON, or a form from the page)
//   DELETE /dns/records?name=&type=&value=             remove (type and value optional)
//   POST   /dns/records/delete                         remove (a form from the page)
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import { escapeHtml, HttpError, isObject, readBody, sendJson, type JsonObject } from '../http.ts';
import { dkimRecordName, dkimTarget, dkimTokens } from '../ses/dkim.ts';
import { normaliseName, type ZoneRecord } from './zone.ts';

/** Example domains present after start and after every reset. */
export const SEED_DOMAINS = {
  /** SPF includes amazonses.com and the three DKIM CNAMEs are published: ready to send. */
  ready: 'ses-ready.example',
  /** DMARC p=reject (like yahoo.com): mail "from" it through someone else's servers is rejected. */
  reject: 'reject.example',
  /** No records at all (NXDOMAIN). */
  bare: 'bare.example',
} as const;

export function seedRecords(): ZoneRecord[] {
  const ready = SEED_DOMAINS.ready;
  return [
    { name: ready, type: 'TXT', value: 'v=spf1 include:amazonses.com ~all', ttl: 0 },
    ...dkimTokens(ready).map((t): ZoneRecord => ({
      name: dkimRecordName(ready, t),
      type: 'CNAME',
      value: dkimTarget(t),
      ttl: 0,
    })),
    { name: SEED_DOMAINS.reject, type: 'TXT', value: 'v=spf1 ip4:192.0.2.0/24 -all', ttl: 0 },
    {
      name: `_dmarc.${SEED_DOMAINS.reject}`,
      type: 'TXT',
      value: `v=DMARC1; p=reject; pct=100; rua=mailto:dmarc@${SEED_DOMAINS.reject}`,
      ttl: 0,
    },
  ];
}

async function readInput(req: IncomingMessage): Promise<{ input: JsonObject; form: boolean }> {
  const body = (await readBody(req, 64 * 1024)).toString('utf8');
  const form = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  if (form) return { input: Object.fromEntries(new URLSearchParams(body)), form };
  if (body.trim() === '') return { input: {}, form };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'Body is not valid JSON');
  }
  if (!isObject(value)) throw new HttpError(400, 'Body must be a JSON object');
  return { input: value, form };
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function createDnsFake(ctx: FakeContext): ProviderFake {
  const { zone } = ctx;
  const back = (res: ServerResponse) => {
    res.writeHead(303, { location: '/#dns', 'cache-control': 'no-store' });
    res.end();
  };
  return {
    prefix: '/dns',
    title: 'DNS zone',
    async handle(req, res, path, url) {
      if (path === '/records' && req.method === 'GET') {
        const name = url.searchParams.get('name');
        const n = name ? normaliseName(name) : undefined;
        sendJson(res, 200, n ? zone.at(n) : zone.list());
        return;
      }
      if (path === '/records' && req.method === 'POST') {
        const { input, form } = await readInput(req);
        const ttl = input.ttl === undefined || input.ttl === '' ? undefined : Number(input.ttl);
        const record = zone.add({
          name: String(input.name ?? ''),
          type: String(input.type ?? ''),
          value: typeof input.value === 'string' ? input.value : '',
          ttl,
          rotate: input.rotate === true || input.rotate === 'on',
        });
        if (form) return back(res);
        sendJson(res, 201, record);
        return;
      }
      if (path === '/records' && req.method === 'DELETE') {
        const name = url.searchParams.get('name');
        if (!name) throw new HttpError(400, 'name is required');
        const removed = zone.remove(
          name,
          url.searchParams.get('type') ?? undefined,
          url.searchParams.get('value') ?? undefined,
        );
        sendJson(res, 200, { removed });
        return;
      }
      if (path === '/records/delete' && req.method === 'POST') {
        const { input } = await readInput(req);
        const name = str(input.name);
        if (!name) throw new HttpError(400, 'name is required');
        zone.remove(name, str(input.type), str(input.value));
        return back(res);
      }
      throw new HttpError(404, 'Not found');
    },
    section() {
      const rows = zone
        .list()
        .map(
          (
            r,
          ) => `<tr><td class="wrap">${escapeHtml(r.name)}</td><td>${r.type}</td><td class="wrap">${escapeHtml(r.value)}</td>
<td><form method="post" action="/dns/records/delete"><input type="hidden" name="name" value="${escapeHtml(r.name)}"><input type="hidden" name="type" value="${r.type}"><input type="hidden" name="value" value="${escapeHtml(r.value)}"><button type="submit" aria-label="Delete ${escapeHtml(`${r.type} ${r.name}`)}">Delete</button></form></td></tr>`,
        )
        .join('\n');
      return `<p class="muted">Answered over UDP and TCP at <code>${escapeHtml(ctx.dnsAddress)}</code> (DNS_NAMESERVER). JSON: <a href="/dns/records">/dns/records</a></p>
<table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Value</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>
<form method="post" action="/dns/records" style="margin-top:8px">
<label>Name <input name="name" required placeholder="_dmarc.example.com"></label>
<label>Type <select name="type"><option>TXT</option><option>CNAME</option><option>A</option></select></label>
<label>Value <input name="value" required size="40"></label>
<button type="submit">Add record</button></form>`;
    },
    // kept across restarts: records a developer added (SPF and DKIM of their own domain); the
    // seeded ones come back if deleted
    persistent: {
      save: () => zone.list(),
      load(saved) {
        for (const record of saved as ZoneRecord[]) {
          try {
            zone.add(record);
          } catch {
            // beside a seeded record it may not stand with (a CNAME): the seed wins
          }
        }
      },
    },
    reset: () => zone.reset(),
  };
}

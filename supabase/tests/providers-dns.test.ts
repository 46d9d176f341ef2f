// The local DNS zone: its message encoder/decoder, then the server of the test stack asked by
// real resolvers, Node's (c-ares, dns.Resolver with setServers) and Deno's Deno.resolveDns
// (what the functions use), for SPF, DKIM and DMARC records added over HTTP.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { denoBinary } from '../local/functions.ts';
import { paths } from '../local/paths.ts';
import { answer, respond } from '../local/providers/dns/server.ts';
import * as wire from '../local/providers/dns/wire.ts';
import { Zone } from '../local/providers/dns/zone.ts';
import { dkimTokens } from '../local/providers/ses/dkim.ts';
import { stack } from './support/clients.ts';
import { providersUrl } from './support/providers.ts';

const query = (name: string, type: number, extra: Partial<wire.Message> = {}): wire.Message => ({
  id: 0x1234,
  response: false,
  opcode: 0,
  authoritative: false,
  truncated: false,
  recursionDesired: true,
  recursionAvailable: false,
  rcode: 0,
  questions: [{ name, type, class: wire.CLASS_IN }],
  answers: [],
  authorities: [],
  additionals: [],
  ...extra,
});

describe('DNS messages', () => {
  it('round-trips a query and an answer with TXT, CNAME and SOA records', () => {
    const q = query('Example.COM', wire.TYPE.TXT, { additionals: [wire.optRecord(1232)] });
    expect(wire.decode(wire.encode(q))).toEqual({
      ...q,
      additionals: [{ ...wire.optRecord(1232), data: new Uint8Array(0) }],
    });
    const zone = new Zone([
      { name: 'alias.example', type: 'CNAME', value: 'target.example', ttl: 60 },
      { name: 'target.example', type: 'TXT', value: 'v=spf1 -all', ttl: 30 },
    ]);
    const reply = wire.decode(wire.encode(answer(zone, query('ALIAS.example', wire.TYPE.TXT))));
    expect(reply).toMatchObject({
      id: 0x1234,
      response: true,
      authoritative: true,
      rcode: wire.RCODE.NOERROR,
      recursionDesired: true,
    });
    expect(reply.questions).toEqual([
      { name: 'ALIAS.example', type: wire.TYPE.TXT, class: wire.CLASS_IN },
    ]);
    expect(reply.answers).toEqual([
      {
        name: 'ALIAS.example',
        type: wire.TYPE.CNAME,
        class: wire.CLASS_IN,
        ttl: 60,
        data: 'target.example',
      },
      {
        name: 'target.example',
        type: wire.TYPE.TXT,
        class: wire.CLASS_IN,
        ttl: 30,
        data: ['v=spf1 -all'],
      },
    ]);
    const nx = wire.decode(wire.encode(answer(zone, query('missing.example', wire.TYPE.TXT))));
    expect(nx.rcode).toBe(wire.RCODE.NXDOMAIN);
    expect(nx.authorities[0]).toMatchObject({
      type: wire.TYPE.SOA,
      data: { mname: 'ns.providers.localhost', minimum: 0 },
    });
    // a name with records of another type: NODATA, not NXDOMAIN
    const nodata = wire.decode(wire.encode(answer(zone, query('target.example', wire.TYPE.A))));
    expect(nodata).toMatchObject({ rcode: wire.RCODE.NOERROR, answers: [] });
    expect(nodata.authorities).toHaveLength(1);
    // an empty non-terminal exists (RFC 8020)
    const zone2 = new Zone([
      { name: 'sel._domainkey.example.org', type: 'TXT', value: 'k', ttl: 0 },
    ]);
    expect(answer(zone2, query('_domainkey.example.org', wire.TYPE.TXT)).rcode).toBe(
      wire.RCODE.NOERROR,
    );
  });

  it('reads compressed names and splits long TXT values into 255-byte strings', () => {
    // header, question "a.example" at 12, then an answer whose owner is a pointer to it
    const packet = Buffer.from([
      0,
      1,
      0x81,
      0x80,
      0,
      1,
      0,
      1,
      0,
      0,
      0,
      0,
      1,
      0x61,
      7,
      ...Buffer.from('example'),
      0,
      0,
      16,
      0,
      1,
      0xc0,
      12,
      0,
      16,
      0,
      1,
      0,
      0,
      0,
      5,
      0,
      3,
      2,
      0x68,
      0x69,
    ]);
    const m = wire.decode(packet);
    expect(m.answers[0]).toMatchObject({
      name: 'a.example',
      type: wire.TYPE.TXT,
      ttl: 5,
      data: ['hi'],
    });
    const long = 'k='.padEnd(600, 'A');
    expect(wire.txtStrings(long).map((s) => s.length)).toEqual([255, 255, 90]);
    expect(wire.txtStrings('한'.repeat(100)).every((s) => Buffer.byteLength(s) <= 255)).toBe(true);
    // a pointer loop is an error, not a hang
    expect(() =>
      wire.decode(Buffer.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 16, 0, 1])),
    ).toThrow();
  });

  it('answers garbage with FORMERR or not at all, other opcodes with NOTIMP, and truncates UDP answers over 512 bytes without EDNS', () => {
    const zone = new Zone([{ name: 'big.example', type: 'TXT', value: 'x'.repeat(1500), ttl: 0 }]);
    expect(respond(zone, Buffer.from([1, 2, 3]), 'udp')).toBeUndefined();
    const formerr = wire.decode(
      respond(zone, Buffer.from([0, 7, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 63]), 'udp')!,
    );
    expect(formerr).toMatchObject({ id: 7, response: true, rcode: wire.RCODE.FORMERR });
    expect(answer(zone, query('big.example', wire.TYPE.TXT, { opcode: 2 })).rcode).toBe(
      wire.RCODE.NOTIMP,
    );
    const small = wire.decode(
      respond(zone, wire.encode(query('big.example', wire.TYPE.TXT)), 'udp')!,
    );
    expect(small).toMatchObject({ truncated: true, answers: [] });
    const edns = wire.decode(
      respond(
        zone,
        wire.encode(query('big.example', wire.TYPE.TXT, { additionals: [wire.optRecord(4096)] })),
        'udp',
      )!,
    );
    expect(edns.truncated).toBe(false);
    expect((edns.answers[0]!.data as string[]).join('')).toBe('x'.repeat(1500));
    const tcp = wire.decode(
      respond(zone, wire.encode(query('big.example', wire.TYPE.TXT)), 'tcp')!,
    );
    expect(tcp.truncated).toBe(false);
  });
});

const host = () => stack().dnsNameserver.split(':') as [string, string];

function resolver(): Resolver {
  const r = new Resolver({ timeout: 2000, tries: 1 });
  r.setServers([stack().dnsNameserver]);
  return r;
}

async function addRecord(name: string, type: string, value: string) {
  const res = await fetch(`${providersUrl()}/dns/records`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, type, value }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Runs Deno.resolveDns in a real Deno, as the functions do, and returns what it resolved. */
async function denoResolve(lookups: Array<[string, 'TXT' | 'CNAME']>): Promise<unknown[]> {
  const [ipAddr, port] = stack().dnsNameserver.split(':');
  const script = `
    const out = [];
    for (const [name, type] of ${JSON.stringify(lookups)}) {
      try {
        out.push({ ok: await Deno.resolveDns(name, type, { nameServer: { ipAddr: '${ipAddr}', port: ${port} } }) });
      } catch (err) {
        out.push({ error: err.name });
      }
    }
    console.log(JSON.stringify(out));`;
  const { stdout } = await promisify(execFile)(denoBinary(), ['eval', script], {
    cwd: paths.root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DENO_NO_UPDATE_CHECK: '1' },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as unknown[];
}

describe('DNS server of the stack', () => {
  it('answers Node’s resolver for the seeded domains', async () => {
    const r = resolver();
    expect(await r.resolveTxt('ses-ready.example')).toEqual([
      ['v=spf1 include:amazonses.com ~all'],
    ]);
    const [token] = dkimTokens('ses-ready.example');
    expect(await r.resolveCname(`${token}._domainkey.ses-ready.example`)).toEqual([
      `${token}.dkim.amazonses.com`,
    ]);
    expect(await r.resolveTxt('_dmarc.reject.example')).toEqual([
      ['v=DMARC1; p=reject; pct=100; rua=mailto:dmarc@reject.example'],
    ]);
    await expect(r.resolveTxt('bare.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(r.resolveTxt('_dmarc.ses-ready.example')).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
    await expect(r.resolveCname('reject.example')).rejects.toMatchObject({ code: 'ENODATA' });
  });

  it('serves records added over HTTP, long ones whole, and forgets removed ones', async () => {
    const domain = `z-${randomUUID().slice(0, 8)}.example`;
    // longer than a 512-byte UDP answer: the resolver is told to retry over TCP
    const key = `v=DKIM1; k=rsa; p=${'M'.repeat(600)}`;
    expect((await addRecord(domain, 'TXT', 'v=spf1 include:amazonses.com -all')).status).toBe(201);
    expect((await addRecord(`sel._domainkey.${domain}`, 'TXT', key)).status).toBe(201);
    expect((await addRecord(`mail.${domain}`, 'CNAME', domain)).status).toBe(201);
    const r = resolver();
    expect(await r.resolveTxt(domain)).toEqual([['v=spf1 include:amazonses.com -all']]);
    const chunks = await r.resolveTxt(`sel._domainkey.${domain}`);
    expect(chunks[0]!.join('')).toBe(key);
    expect(chunks[0]!.length).toBe(3);
    // a TXT question at a CNAME follows it inside the zone
    expect(await r.resolveTxt(`mail.${domain}`)).toEqual([['v=spf1 include:amazonses.com -all']]);

    const listed = (await (
      await fetch(`${providersUrl()}/dns/records?name=${domain}`)
    ).json()) as unknown[];
    expect(listed).toEqual([
      { name: domain, type: 'TXT', value: 'v=spf1 include:amazonses.com -all', ttl: 0 },
    ]);
    const del = await fetch(`${providersUrl()}/dns/records?name=${domain}&type=TXT`, {
      method: 'DELETE',
    });
    expect(await del.json()).toEqual({ removed: 1 });
    await expect(r.resolveTxt(domain)).rejects.toMatchObject({ code: 'ENODATA' }); // still has children
  });

  it('refuses bad records', async () => {
    const domain = `bad-${randomUUID().slice(0, 8)}.example`;
    expect((await addRecord('not a name', 'TXT', 'x')).status).toBe(400);
    expect((await addRecord(domain, 'MX', 'x')).status).toBe(400);
    expect((await addRecord(domain, 'TXT', '')).status).toBe(400);
    expect((await addRecord(domain, 'TXT', 'v=spf1 -all')).status).toBe(201);
    expect(await addRecord(domain, 'CNAME', 'elsewhere.example')).toMatchObject({ status: 409 });
  });

  it('answers Deno.resolveDns with a nameServer, as the functions call it', async () => {
    const domain = `deno-${randomUUID().slice(0, 8)}.example`;
    await addRecord(`_dmarc.${domain}`, 'TXT', 'v=DMARC1; p=quarantine');
    const key = `v=DKIM1; k=rsa; p=${'Q'.repeat(600)}`; // over 512 bytes: TCP after a truncated UDP answer
    await addRecord(`sel._domainkey.${domain}`, 'TXT', key);
    const [token] = dkimTokens('ses-ready.example');
    const [long] = (await denoResolve([[`sel._domainkey.${domain}`, 'TXT']])) as Array<{
      ok: string[][];
    }>;
    expect(long!.ok[0]!.join('')).toBe(key);
    expect(
      await denoResolve([
        ['ses-ready.example', 'TXT'],
        [`_dmarc.${domain}`, 'TXT'],
        [`${token}._domainkey.ses-ready.example`, 'CNAME'],
        ['_dmarc.reject.example', 'TXT'],
        ['bare.example', 'TXT'],
        ['reject.example', 'CNAME'],
      ]),
    ).toEqual([
      { ok: [['v=spf1 include:amazonses.com ~all']] },
      { ok: [['v=DMARC1; p=quarantine']] },
      { ok: [`${token}.dkim.amazonses.com.`] },
      { ok: [['v=DMARC1; p=reject; pct=100; rua=mailto:dmarc@reject.example']] },
      { error: 'NotFound' },
      { error: 'NotFound' },
    ]);
  });

  it('answers a raw UDP query and ignores responses sent to it', async () => {
    const socket = dgram.createSocket('udp4');
    const [h, p] = host();
    try {
      const reply = await new Promise<Buffer>((resolve, reject) => {
        socket.once('message', resolve);
        socket.once('error', reject);
        socket.send(
          wire.encode({ ...query('reject.example', wire.TYPE.TXT), response: true }),
          Number(p),
          h,
        );
        socket.send(wire.encode(query('reject.example', wire.TYPE.TXT)), Number(p), h);
      });
      expect(wire.decode(reply)).toMatchObject({
        id: 0x1234,
        response: true,
        authoritative: true,
        answers: [{ data: ['v=spf1 ip4:192.0.2.0/24 -all'] }],
      });
    } finally {
      socket.close();
    }
  });
});

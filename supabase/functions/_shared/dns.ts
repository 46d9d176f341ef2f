// DNS facts about a sender's domain: its SPF record (does it allow the mail provider?) and its
// DMARC policy (would mail sent through us as this address be rejected?). Deno.resolveDns, with
// the name server of DNS_NAMESERVER (host:port) when set: locally the providers server's zone.
import { optionalEnv } from './env.ts';

/** The name server of DNS_NAMESERVER, when set (locally the providers server's zone). */
export function resolveOptions(): Deno.ResolveDnsOptions | undefined {
  const server = optionalEnv('DNS_NAMESERVER', '');
  if (!server) return undefined;
  const at = server.lastIndexOf(':');
  const ipAddr = at > 0 ? server.slice(0, at) : server;
  const port = at > 0 ? Number(server.slice(at + 1)) : 53;
  return { nameServer: { ipAddr, port } };
}

/** The TXT records of a name, each joined from its strings; [] when there are none. */
export async function txtRecords(name: string): Promise<string[]> {
  try {
    const records = await Deno.resolveDns(name, 'TXT', resolveOptions());
    return records.map((parts) => parts.join(''));
  } catch (err) {
    // no such name / no TXT record is an answer, not a failure
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}

/** Whether the domain's SPF record authorises the provider (SPF_INCLUDE, amazonses.com). */
export async function spfAllowsProvider(domain: string): Promise<boolean> {
  const include = optionalEnv('SPF_INCLUDE', 'amazonses.com').toLowerCase();
  const spf = (await txtRecords(domain)).filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  // more than one SPF record is a permanent error (RFC 7208 4.5)
  if (spf.length !== 1) return false;
  return spf[0]!
    .toLowerCase()
    .split(/\s+/)
    .some((term) => term.replace(/^[+]/, '') === `include:${include}`);
}

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

/** The domain's DMARC policy (p=), or null without a DMARC record. */
export async function dmarcPolicy(domain: string): Promise<DmarcPolicy | null> {
  const records = (await txtRecords(`_dmarc.${domain}`)).filter((r) =>
    /^v=DMARC1\s*(;|$)/i.test(r.trim()),
  );
  if (records.length !== 1) return null;
  const policy = /(?:^|;)\s*p\s*=\s*(none|quarantine|reject)\s*(?:;|$)/i.exec(records[0]!);
  return policy ? (policy[1]!.toLowerCase() as DmarcPolicy) : null;
}

// Where a URL a user gave us may lead (the SSRF guard, letter/fetch-guard.ts: fetched pages,
// images, brunch profiles, webhooks). One table: IANA's IPv4 and IPv6 Special-Purpose Address
// Registries, a row for each of their entries (as IANA lists them in 2025), and the two multicast
// blocks, which have registries of their own. An address in any row is refused, whatever the
// registry says of its reachability (an anycast relay, an overlay identifier or a documentation
// prefix is never a page or a webhook receiver), except the two rows that carry an IPv4 address
// in their last 32 bits (IPv4-mapped, and the well-known NAT64 prefix): a connection to those
// reaches that IPv4 address, which is judged instead. Beyond the table, IPv6 is public only in
// 2000::/3, the global unicast space IANA allocates from (RFC 4291).

export interface SpecialBlock {
  /** The block, as the registry writes it. */
  block: string;
  name: string;
  /** The block's last 32 bits are an IPv4 address, which is judged instead (IPv6 only). */
  carriesIPv4?: true;
}

/** IANA IPv4 Special-Purpose Address Registry, and IPv4 multicast. */
export const SPECIAL_IPV4: readonly SpecialBlock[] = [
  { block: '0.0.0.0/8', name: '"This network"' },
  { block: '0.0.0.0/32', name: '"This host on this network"' },
  { block: '10.0.0.0/8', name: 'Private-Use' },
  { block: '100.64.0.0/10', name: 'Shared Address Space' },
  { block: '127.0.0.0/8', name: 'Loopback' },
  { block: '169.254.0.0/16', name: 'Link Local' },
  { block: '172.16.0.0/12', name: 'Private-Use' },
  { block: '192.0.0.0/24', name: 'IETF Protocol Assignments' },
  { block: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix' },
  { block: '192.0.0.8/32', name: 'IPv4 dummy address' },
  { block: '192.0.0.9/32', name: 'Port Control Protocol Anycast' },
  { block: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast' },
  { block: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery' },
  { block: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery' },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)' },
  { block: '192.31.196.0/24', name: 'AS112-v4' },
  { block: '192.52.193.0/24', name: 'AMT' },
  { block: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)' },
  { block: '192.168.0.0/16', name: 'Private-Use' },
  { block: '192.175.48.0/24', name: 'Direct Delegation AS112 Service' },
  { block: '198.18.0.0/15', name: 'Benchmarking' },
  { block: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)' },
  { block: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)' },
  { block: '240.0.0.0/4', name: 'Reserved' },
  { block: '255.255.255.255/32', name: 'Limited Broadcast' },
  { block: '224.0.0.0/4', name: 'Multicast (IANA IPv4 Multicast Address Space Registry)' },
];

/** IANA IPv6 Special-Purpose Address Registry, and IPv6 multicast. */
export const SPECIAL_IPV6: readonly SpecialBlock[] = [
  { block: '::1/128', name: 'Loopback Address' },
  { block: '::/128', name: 'Unspecified Address' },
  { block: '::ffff:0:0/96', name: 'IPv4-mapped Address', carriesIPv4: true },
  { block: '64:ff9b::/96', name: 'IPv4-IPv6 Translat.', carriesIPv4: true },
  { block: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translat. (local use)' },
  { block: '100::/64', name: 'Discard-Only Address Block' },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix' },
  { block: '2001::/23', name: 'IETF Protocol Assignments' },
  { block: '2001::/32', name: 'TEREDO' },
  { block: '2001:1::1/128', name: 'Port Control Protocol Anycast' },
  { block: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast' },
  { block: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast' },
  { block: '2001:2::/48', name: 'Benchmarking' },
  { block: '2001:3::/32', name: 'AMT' },
  { block: '2001:4:112::/48', name: 'AS112-v6' },
  { block: '2001:10::/28', name: 'Deprecated (previously ORCHID)' },
  { block: '2001:20::/28', name: 'ORCHIDv2' },
  { block: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix' },
  { block: '2001:db8::/32', name: 'Documentation' },
  { block: '2002::/16', name: '6to4' },
  { block: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service' },
  { block: '3fff::/20', name: 'Documentation' },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs' },
  { block: 'fc00::/7', name: 'Unique-Local' },
  { block: 'fe80::/10', name: 'Link-Local Unicast' },
  { block: 'ff00::/8', name: 'Multicast (IANA IPv6 Multicast Address Space Registry)' },
];

/** An IPv4 address's 4 bytes, or null. */
export function ipv4Bytes(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const nums = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return nums.every((n) => n >= 0 && n <= 255) ? nums : null;
}

/** An IPv6 address's 16 bytes (brackets and a zone id dropped, an IPv4 tail read), or null. */
export function ipv6Bytes(ip: string): number[] | null {
  let text = ip.toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // an embedded IPv4 tail (::ffff:1.2.3.4) as its two groups
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const p = ipv4Bytes(v4[1]!);
    if (!p) return null;
    text = `${text.slice(0, -v4[1]!.length)}${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const nums = groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  if (nums.length !== 8 || nums.some((n) => Number.isNaN(n))) return null;
  return nums.flatMap((n) => [n >> 8, n & 255]);
}

interface Parsed {
  bytes: number[];
  bits: number;
  row: SpecialBlock;
}

function parseBlock(row: SpecialBlock, v6: boolean): Parsed {
  const [address, length] = row.block.split('/');
  const bytes = v6 ? ipv6Bytes(address!) : ipv4Bytes(address!);
  if (!bytes) throw new Error(`bad block ${row.block}`);
  return { bytes, bits: Number(length), row };
}

const V4 = SPECIAL_IPV4.map((row) => parseBlock(row, false));
const V6 = SPECIAL_IPV6.map((row) => parseBlock(row, true));

function inBlock(bytes: number[], block: Parsed): boolean {
  for (let bit = 0; bit < block.bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    const i = bit >> 3;
    if ((bytes[i]! & mask) !== (block.bytes[i]! & mask)) return false;
  }
  return true;
}

/** The table's rows an address is in (the most specific last); empty for a non-address. */
export function specialBlocksOf(ip: string): SpecialBlock[] {
  const v4 = ipv4Bytes(ip);
  if (v4) return V4.filter((b) => inBlock(v4, b)).map((b) => b.row);
  const v6 = ipv6Bytes(ip);
  if (!v6) return [];
  return V6.filter((b) => inBlock(v6, b)).map((b) => b.row);
}

/** Whether an IP address (v4 or v6) is a public unicast address a user's URL may lead to. */
export function isPublicAddress(ip: string): boolean {
  const v4 = ipv4Bytes(ip);
  if (v4) return !V4.some((b) => inBlock(v4, b));
  const v6 = ipv6Bytes(ip);
  if (!v6) return false;
  const rows = V6.filter((b) => inBlock(v6, b));
  if (rows.length > 0) {
    const carrier = rows.find((b) => b.row.carriesIPv4);
    return !!carrier && rows.length === 1 && isPublicAddress(v6.slice(12).join('.'));
  }
  return (v6[0]! & 0xe0) === 0x20; // global unicast 2000::/3 only
}

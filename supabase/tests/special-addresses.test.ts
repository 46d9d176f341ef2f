// The SSRF guard's one table of addresses a user's URL may not lead to (functions/_shared/
// special-addresses.ts): an address of every row, written here, is refused; the rows that carry an
// IPv4 address follow it; what is outside the table is public only where it is global unicast.
import { describe, expect, it } from 'vitest';
import {
  isPublicAddress,
  specialBlocksOf,
  SPECIAL_IPV4,
  SPECIAL_IPV6,
} from '../functions/_shared/special-addresses.ts';

/** One address in each row of the table, by the row's block. */
const ONE_OF_EACH: Record<string, string> = {
  '0.0.0.0/8': '0.1.2.3',
  '0.0.0.0/32': '0.0.0.0',
  '10.0.0.0/8': '10.20.30.40',
  '100.64.0.0/10': '100.127.255.254',
  '127.0.0.0/8': '127.0.0.53',
  '169.254.0.0/16': '169.254.169.254',
  '172.16.0.0/12': '172.31.0.1',
  '192.0.0.0/24': '192.0.0.200',
  '192.0.0.0/29': '192.0.0.1',
  '192.0.0.8/32': '192.0.0.8',
  '192.0.0.9/32': '192.0.0.9',
  '192.0.0.10/32': '192.0.0.10',
  '192.0.0.170/32': '192.0.0.170',
  '192.0.0.171/32': '192.0.0.171',
  '192.0.2.0/24': '192.0.2.1',
  '192.31.196.0/24': '192.31.196.1',
  '192.52.193.0/24': '192.52.193.9',
  '192.88.99.0/24': '192.88.99.1',
  '192.168.0.0/16': '192.168.1.1',
  '192.175.48.0/24': '192.175.48.6',
  '198.18.0.0/15': '198.19.255.1',
  '198.51.100.0/24': '198.51.100.7',
  '203.0.113.0/24': '203.0.113.9',
  '240.0.0.0/4': '250.1.2.3',
  '255.255.255.255/32': '255.255.255.255',
  '224.0.0.0/4': '239.255.255.250',
  '::1/128': '::1',
  '::/128': '::',
  '::ffff:0:0/96': '::ffff:10.0.0.1',
  '64:ff9b::/96': '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::/48': '64:ff9b:1::808:808',
  '100::/64': '100::1',
  '100:0:0:1::/64': '100:0:0:1::1',
  '2001::/23': '2001:1ff::1',
  '2001::/32': '2001:0:4136:e378::1',
  '2001:1::1/128': '2001:1::1',
  '2001:1::2/128': '2001:1::2',
  '2001:1::3/128': '2001:1::3',
  '2001:2::/48': '2001:2::1',
  '2001:3::/32': '2001:3:1::1',
  '2001:4:112::/48': '2001:4:112::1',
  '2001:10::/28': '2001:10::1',
  '2001:20::/28': '2001:2f:ffff::1',
  '2001:30::/28': '2001:30::1',
  '2001:db8::/32': '2001:db8::1',
  '2002::/16': '2002:c000:0204::1',
  '2620:4f:8000::/48': '2620:4f:8000::42',
  '3fff::/20': '3fff:fff::1',
  '5f00::/16': '5f00:1::1',
  'fc00::/7': 'fd12:3456::1',
  'fe80::/10': 'fe80::1%eth0',
  'ff00::/8': 'ff02::1',
};

describe('the special-purpose table', () => {
  it('lists an address of every row here, and every row here is in the table', () => {
    const blocks = [...SPECIAL_IPV4, ...SPECIAL_IPV6].map((r) => r.block);
    expect(new Set(blocks).size).toBe(blocks.length);
    expect(Object.keys(ONE_OF_EACH).sort()).toEqual([...blocks].sort());
  });

  it('refuses an address of every row, and finds it in that row', () => {
    for (const [block, ip] of Object.entries(ONE_OF_EACH)) {
      expect(
        specialBlocksOf(ip).map((r) => r.block),
        ip,
      ).toContain(block);
      expect(isPublicAddress(ip), `${ip} (${block})`).toBe(false);
    }
  });

  it('judges the IPv4 address an IPv4-mapped or NAT64 address carries', () => {
    for (const ip of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8'])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ['::ffff:192.88.99.1', '64:ff9b::7f00:1', '::ffff:169.254.169.254'])
      expect(isPublicAddress(ip), ip).toBe(false);
  });

  it('lets public unicast through, and nothing that is no address or outside 2000::/3', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '192.88.98.1',
      '192.0.3.1',
      '2606:4700::6810:84e5',
      '2001:4860:4860::8888',
      '2001:200::1',
      '2a00:1450:4001::1',
    ])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ['4000::1', '::0.0.0.1', '1.2.3', 'nonsense', '::ffff:1.2.3.999', ''])
      expect(isPublicAddress(ip), ip).toBe(false);
  });
});

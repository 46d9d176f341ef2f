// One rule for what an address's limits count under (issue 17), written twice: in SQL for the
// API's per-address shares of a block and of the owner's quota (private.parse_address, which
// reads an X-Forwarded-For entry, and private.address_group, in supabase/schemas/client-address.sql)
// and in TypeScript for the local auth server's per-address sign-up limits (normaliseAddress in
// supabase/local/http.ts, addressGroup in supabase/local/auth/rate-limit.ts). Both must group the
// same inputs the same way: an IPv4 address alone (IPv4-mapped IPv6 is IPv4), an IPv6 address
// by its /64, whatever way it is written (compressed, zeros, case, brackets, a zone id).
import { describe, expect, it } from 'vitest';
import { addressGroup } from '../local/auth/rate-limit.ts';
import { sql, sqlValue } from './support/clients.ts';

/** Inputs in groups: each inner list is one group; every group differs from the others. */
const GROUPS: string[][] = [
  [
    '192.0.2.1',
    '::ffff:192.0.2.1',
    '::FFFF:192.0.2.1',
    '[::ffff:192.0.2.1]',
    '::ffff:c000:201',
    ' 192.0.2.1 ',
  ],
  ['192.0.2.2'],
  [
    '2001:db8:1:2::1',
    '2001:db8:1:2:ffff:ffff:ffff:ffff',
    '2001:0db8:0001:0002:0000:0000:0000:0001',
    '2001:DB8:1:2::abcd',
    '[2001:db8:1:2::5]',
    '2001:db8:1:2::6%eth0',
    '2001:db8:1:2:1:2:192.0.2.1',
  ],
  ['2001:db8:1:3::1'],
  ['2001:db8::1', '2001:db8:0:0:1::', '2001:db8::'],
  ['2001:0:0:1::7'],
  ['0:0:0:1::1'],
  ['::1', '::', '::192.0.2.1'],
  ['fe80::1%eth0', 'fe80::2', 'FE80::1:2:3:4%2'],
  ['64:ff9b::192.0.2.1'],
];
const NOT_ADDRESSES = [
  '',
  'unknown',
  '192.0.2',
  '192.0.2.0/24',
  '2001:db8::/64',
  '1.2.3.4.5',
  'gggg::1',
];

const sqlGroup = (input: string) =>
  sqlValue<string | null>('select private.address_group(private.parse_address($1))', [input]);

describe('the address group, in SQL and in the auth server', () => {
  it('groups every input the same in both', async () => {
    for (const input of GROUPS.flat()) {
      expect(addressGroup(input), input).toBe(await sqlGroup(input));
    }
    for (const input of NOT_ADDRESSES) {
      expect(addressGroup(input), input).toBe('');
      expect(await sqlGroup(input), input).toBeNull();
    }
  });

  it('one group per list: IPv4 alone, IPv6 by its /64', () => {
    const keys = GROUPS.map((group) => new Set(group.map(addressGroup)));
    for (const [i, group] of keys.entries()) expect(group.size, GROUPS[i]!.join(' ')).toBe(1);
    expect(new Set(keys.map((g) => [...g][0])).size).toBe(GROUPS.length);
    expect(addressGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it('the API reads X-Forwarded-For entries the same way (the key of the share)', async () => {
    const keys = await sql<{ k: string }>(
      `select private.address_key(private.parse_address(x)) as k
       from unnest($1::text[]) x`,
      [GROUPS[2]],
    );
    expect(new Set(keys.map((r) => r.k)).size).toBe(1);
  });
});

// A block's reserve (3d4d506) against addresses that cost nothing (issue 17, the eighth hostile
// review): the reserve is kept for addresses that write little, and spending it "takes 16
// addresses". An IPv6 address counts by its /64, and one home connection is usually delegated a
// /56 (256 /64s), a server a /48: 24 visitors at 24 /64s of ONE /56 toggling a like block's like
// (754 writes) left 5 of 10 real visitors refused (429 scope block), as four IPv4 addresses did
// before the reserve. Run on main at 8986c58 with the body below as a test (it failed; the body is
// kept, not run: it names the loopback a trusted proxy for the whole stack, which storm.test.ts
// does in its own hooks). The ways out are a decision for the limits' owner (the reserve's
// lightness counted by a wider IPv6 prefix, e.g. the /56 or /48, beside the /64 share; or a
// reserve per address class), written here so the repro is not lost.
import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { newUser, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { eventually } from './support/providers.ts';

/** A fresh anonymous visitor whose requests come through a proxy that says `address`. */
async function guestFrom(address: string): Promise<TestUser> {
  const client = createClient(stack().apiUrl, stack().anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': address } },
  });
  const { data, error } = await client.auth.signInAnonymously();
  if (error || !data.session || !data.user) throw new Error(`anonymous sign-in: ${error?.message}`);
  return { id: data.user.id, email: '', client, accessToken: data.session.access_token };
}

describe("a like block's reserve", () => {
  it.todo("is left to real visitors when the storm's addresses are /64s of one /56", async () => {
    await sql(
      `insert into private.settings (key, value) values ('network.trusted_proxies', '["127.0.0.1/32", "::1/128"]')
       on conflict (key) do update set value = excluded.value`,
    );
    const owner = await newUser('like-storm56-owner');
    const block = await createBlock(owner, 'like');
    // 2001:db8:0:1000::/56: its /64s 2001:db8:0:1000::/64 .. 2001:db8:0:10ff::/64
    const storm = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        guestFrom(`2001:db8:0:10${i.toString(16).padStart(2, '0')}::1`),
      ),
    );
    const visitors = await Promise.all(
      Array.from({ length: 10 }, (_, i) => guestFrom(`198.51.100.${80 + i}`)),
    );
    let stop = false;
    const stormRefusals = new Set<string>();
    const running = storm.map(async (g, i) => {
      let liked = i % 2 === 0;
      while (!stop) {
        const r = await g.client.rpc('toggle_block_like', { p_block_id: block, p_liked: !liked });
        if (!r.error) liked = !liked;
        else stormRefusals.add(`${r.status} ${r.error.hint}`);
      }
    });
    const refused: string[] = [];
    try {
      await eventually(
        async () => [...stormRefusals].some((r) => r.includes('"scope": "block"')) || undefined,
        60_000,
      );
      for (const v of visitors) {
        const r = await v.client.rpc('toggle_block_like', { p_block_id: block, p_liked: true });
        if (r.error) refused.push(`${r.status} ${r.error.hint}`);
      }
    } finally {
      stop = true;
      await Promise.all(running);
      await sql("delete from private.settings where key = 'network.trusted_proxies'");
    }
    expect(refused).toEqual([]);
  });
});

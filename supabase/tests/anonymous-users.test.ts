// Anonymous visitors do not pile up forever: private.purge_idle_anonymous_users (daily by
// pg_cron) deletes anonymous auth users idle for 30 days, keeps what they wrote, and never
// touches regular users or recently active visitors.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';

async function age(user: TestUser, days: number, activeDaysAgo = days) {
  await sql(`update auth.users set created_at = now() - make_interval(days => $2) where id = $1`, [
    user.id,
    days,
  ]);
  await sql(
    `update auth.sessions set created_at = now() - make_interval(days => $2),
       updated_at = now() - make_interval(days => $3) where user_id = $1`,
    [user.id, days, activeDaysAgo],
  );
}

const exists = async (id: string) =>
  (await sql('select 1 from auth.users where id = $1', [id])).length === 1;

describe('idle anonymous visitors', () => {
  it('are deleted after 30 days idle; their comment stays; active visitors and regular users stay', async () => {
    const owner = await newUser('anon-owner');
    const blockId = await createBlock(owner, 'comment');

    const idle = await newGuest();
    const content = `still here ${randomUUID()}`;
    const posted = await idle.client.rpc('post_message', {
      p_block_id: blockId,
      p_content: content,
      p_creator_name: 'Quiet Otter',
    });
    expect(posted.error).toBeNull();
    // the stack is shared with other test files (the seed's visitors are weeks old): this test's
    // visitors are years old and the purge runs with a 2-year window, which only they pass
    const recent = await newGuest(); // signed up 3 years ago, refreshed its token yesterday
    const young = await newGuest(); // signed up a year ago
    const regular = await newUser('anon-regular'); // not anonymous, idle for 5 years
    await age(idle, 3 * 365);
    await age(recent, 3 * 365, 1);
    await age(young, 365);
    await age(regular, 5 * 365);

    const purged = await sql<{ deleted: number }>(
      "select private.purge_idle_anonymous_users(interval '730 days') as deleted",
    );
    expect(purged[0]!.deleted).toBeGreaterThanOrEqual(1);

    expect(await exists(idle.id)).toBe(false);
    expect(await exists(recent.id)).toBe(true);
    expect(await exists(young.id)).toBe(true);
    expect(await exists(regular.id)).toBe(true);
    const kept = await sql('select creator_name from public.messages where content = $1', [
      content,
    ]);
    expect(kept).toEqual([{ creator_name: 'Quiet Otter' }]);
    // the deleted visitor's session is over: its refresh token no longer works
    const { error: refreshError } = await idle.client.auth.refreshSession();
    expect(refreshError).not.toBeNull();
  });

  it('no client role may call it, and it is scheduled daily', async () => {
    const rows = await sql<{ anon: boolean; authenticated: boolean }>(
      `select has_function_privilege('anon', 'private.purge_idle_anonymous_users(interval, integer)', 'execute') as anon,
              has_function_privilege('authenticated', 'private.purge_idle_anonymous_users(interval, integer)', 'execute') as authenticated`,
    );
    expect(rows).toEqual([{ anon: false, authenticated: false }]);
    const jobs = await sql<{ schedule: string }>(
      "select schedule from cron.job where jobname = 'anonymous-users-purge'",
    );
    expect(jobs).toEqual([{ schedule: '43 3 * * *' }]);
  });
});

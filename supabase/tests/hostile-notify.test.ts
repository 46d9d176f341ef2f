// An owner's notification address (a block's mail_to) as an outside tester used it (2026-11-27):
// a free owner saved any address, renamed the block 'WIN A FREE IPHONE at spam.example' and had
// anonymous visitors post spam, and the address got the digest quoting it. Now the address is
// mailed only when it is the owner's own sign-in address, one of their verified sender addresses,
// or it confirmed this owner's notifications through the link mailed to it (double opt-in,
// mail-consent.sql). docs/security.md "Notification addresses".
import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backgroundEnv } from '../local/config.ts';
import { newGuest, newUser, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock, ownerWithBlock, save } from './support/drafts.ts';
import { postMessage } from './support/hostile.ts';
import {
  clickOneClick,
  eventually,
  inbox,
  mailbox,
  oneClickLink,
  sesControl,
  type Mail,
} from './support/providers.ts';
import { callWorker } from './support/worker.ts';
import { answerLink, confirmationMail, tokenOf } from './support/consent.ts';

const SPAM_NAME = 'WIN A FREE IPHONE at spam.example';

/** An unsubscribe link's token signed as the functions sign them (unsubscribe-token.ts). */
function signedToken(claim: { s: 'owner' | 'reply'; e: string; b: string; u?: string }): string {
  const body = Buffer.from(JSON.stringify(claim)).toString('base64url');
  const secret = backgroundEnv(stack().jwtSecret, '').UNSUBSCRIBE_SECRET;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** The unsubscribe function: GET (what the page shows) or the mail client's one-click POST. */
async function unsubscribeLink(token: string, method: 'GET' | 'POST' = 'GET') {
  const url = `${stack().apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(token)}`;
  const res = method === 'GET' ? await fetch(url) : await clickOneClick(url);
  return {
    status: res.status,
    data: ((await res.json()) as { data?: Record<string, unknown> }).data,
  };
}
const isConfirmation = (m: Mail) => Boolean(m.html?.includes('/confirm-email?token='));

/** A free owner's comment block named `name`, its notification address saved as `mailTo`. */
async function blockMailing(owner: TestUser, mailTo: string, name = SPAM_NAME) {
  const blockId = await createBlock(owner, 'comment');
  const res = await save(owner.client, {
    blockId,
    settings: { name },
    privateSettings: { mail_to: mailTo },
  });
  expect(res.status, res.message).toBe(200);
  return blockId;
}

/** What the worker would mail for a message on the block (notification_context), or its skip. */
async function digestFor(blockId: string, messageId: string) {
  const [row] = await sql<{ ctx: { skip?: string; to?: string } }>(
    `select public.notification_context('notify.owner',
       jsonb_build_array(jsonb_build_object('block_id', $1::uuid, 'message_id', $2::uuid))) as ctx`,
    [blockId, messageId],
  );
  return row!.ctx;
}

async function spam(blockId: string): Promise<string> {
  const { data, error } = await postMessage(
    await newGuest(),
    blockId,
    'Cheap phones https://spam.example',
  );
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

/** The owner digests of the block once the worker ran them. */
const settledDigests = (blockId: string) =>
  eventually(async () => {
    await callWorker();
    const jobs = await sql<{ status: string; skipped: string | null }>(
      `select status, result ->> 'skipped' as skipped from private.jobs
       where kind = 'notify.owner' and payload ->> 'block_id' = $1 order by id`,
      [blockId],
    );
    return jobs.length > 0 && jobs.every((j) => ['done', 'merged'].includes(j.status))
      ? jobs
      : undefined;
  });

const asks = (email: string, ownerId: string) =>
  sql<{ status: string }>(
    `select status from private.jobs where kind = 'confirm.mail'
       and payload ->> 'email' = $1 and payload ->> 'owner_id' = $2`,
    [email, ownerId],
  );

describe("an owner's notification address", () => {
  it("gets no digest until it confirms: the tester's attack mails only a confirmation with none of the owner's words", async () => {
    const owner = await newUser('spammer');
    const victim = inbox('victim');
    const first = await blockMailing(owner, victim);
    const second = await blockMailing(owner, victim, 'Second block');
    await spam(first);
    await spam(second);

    // the digests are skipped (done, not queued forever): nothing quoting the spam goes out
    for (const blockId of [first, second]) {
      expect(await settledDigests(blockId)).toEqual([
        { status: 'done', skipped: 'the address has not confirmed notifications' },
      ]);
    }

    // one confirmation (two blocks, one ask a day), naming the owner's sign-in address only
    const mail = await confirmationMail(victim);
    expect(mail.subject).toBe('Confirm notification mails from Reaction Blocks');
    expect(mail.html).toContain(owner.email);
    expect(mail.html).not.toMatch(/IPHONE|spam\.example|Second block/);
    expect(await asks(victim, owner.id)).toHaveLength(1);
    const received = await mailbox(victim);
    expect(received.filter((m) => !isConfirmation(m))).toEqual([]);
    expect(received).toHaveLength(1);

    // the page names the owner's address and ours (the mails' sender), not the block
    const info = await answerLink(tokenOf(mail));
    expect(info.json.data).toEqual({
      scope: 'notify',
      email: `${victim.slice(0, 1)}***@example.com`,
      sender: 'notify@reaction-blocks.local',
      ownerEmail: owner.email,
    });

    // once it says yes, the owner's digests reach it, on all their blocks
    expect((await answerLink(tokenOf(mail), 'confirm')).json.data).toMatchObject({
      outcome: 'confirmed',
      scope: 'notify',
    });
    expect(await digestFor(first, await spam(first))).toMatchObject({ to: victim });
    expect(await digestFor(second, await spam(second))).toMatchObject({ to: victim });
  });

  it("that confirmed for owner A does not serve owner B; B's save asks it afresh", async () => {
    const a = await newUser('owner-a');
    const b = await newUser('owner-b');
    const shared = inbox('shared');
    const blockA = await blockMailing(a, shared, 'A');
    const mail = await confirmationMail(shared);
    expect((await answerLink(tokenOf(mail), 'confirm')).json.data).toMatchObject({
      outcome: 'confirmed',
    });
    expect(await digestFor(blockA, await spam(blockA))).toMatchObject({ to: shared });

    const blockB = await blockMailing(b, shared);
    expect(await digestFor(blockB, await spam(blockB))).toEqual({
      skip: 'the address has not confirmed notifications',
    });
    expect(await asks(shared, b.id)).toHaveLength(1);
    // a letters consent for B is not a notifications one either
    await sql(
      `insert into private.mail_consents (email, owner_id, confirmed_at) values ($1, $2, now())`,
      [shared, b.id],
    );
    expect(await digestFor(blockB, await spam(blockB))).toMatchObject({
      skip: 'the address has not confirmed notifications',
    });
  });

  it("is the owner's own sign-in address (any case) or verified sender: mailed at once, nothing asked", async () => {
    const owner = await newUser('self');
    const own = await blockMailing(owner, owner.email.toUpperCase(), 'Mine');
    await spam(own);
    expect(await settledDigests(own)).toEqual([{ status: 'done', skipped: null }]);
    expect(await asks(owner.email, owner.id)).toEqual([]);

    const sender = inbox('sender');
    await sql(
      `insert into public.sender_emails (user_id, email, status, confirmed_at) values ($1, $2, 'verified', now())`,
      [owner.id, sender],
    );
    const viaSender = await blockMailing(owner, sender, 'Sender');
    expect(await digestFor(viaSender, await spam(viaSender))).toMatchObject({ to: sender });
    expect(await asks(sender, owner.id)).toEqual([]);
  });

  it("unsubscribed from one block's digest, gets none of that owner's notification mail", async () => {
    const owner = await newUser('unsub');
    const blockOne = await blockMailing(owner, owner.email, 'One');
    const blockTwo = await blockMailing(owner, owner.email, 'Two');
    const other = await newUser('other');
    await sql(`select public.record_mail_optout($1, 'owner', $2)`, [owner.email, blockOne]);
    expect(await digestFor(blockOne, await spam(blockOne))).toEqual({
      skip: 'the address unsubscribed',
    });
    expect(await digestFor(blockTwo, await spam(blockTwo))).toEqual({
      skip: 'the address unsubscribed',
    });
    // another owner's blocks are not touched by it
    const otherBlock = await blockMailing(other, other.email, 'Other');
    expect(await digestFor(otherBlock, await spam(otherBlock))).toMatchObject({ to: other.email });
  });

  it('stays unsubscribed from the owner when the block it unsubscribed from is deleted', async () => {
    // rev-notify (2026-11-27): the opt-out kept only its block's id and the digest looked for it
    // among the owner's blocks, so deleting that block undid it for all the others
    const owner = await newUser('unsub-deleted');
    const blockA = await blockMailing(owner, owner.email, 'A');
    const blockB = await blockMailing(owner, owner.email, 'B');
    await sql(`select public.record_mail_optout($1, 'owner', $2)`, [owner.email, blockA]);
    const { error } = await owner.client.from('blocks').delete().eq('id', blockA);
    expect(error).toBeNull();
    expect(await sql('select 1 from public.blocks where id = $1', [blockA])).toEqual([]);
    await spam(blockB);
    expect(await settledDigests(blockB)).toEqual([
      { status: 'done', skipped: 'the address unsubscribed' },
    ]);
    // the unsubscribe page of B's digest says it is done already
    expect(
      await sql<{ state: string }>(`select public.mail_optout_state($1, 'owner', $2) as state`, [
        owner.email.toUpperCase(),
        blockB,
      ]),
    ).toEqual([{ state: 'out' }]);
    // the owner's opt-out goes with the owner's account only: another owner still mails it
    const other = await newUser('other-owner');
    await sql(
      `insert into private.mail_consents (email, owner_id, for_notifications, confirmed_at)
       values (lower($1), $2, true, now())`,
      [owner.email, other.id],
    );
    const otherBlock = await blockMailing(other, owner.email, 'Other');
    expect(await digestFor(otherBlock, await spam(otherBlock))).toMatchObject({ to: owner.email });
    // a link of an old mail (no owner in it) whose block is gone records nothing
    expect(
      await sql(`select public.record_mail_optout($1, 'owner', $2) as r`, [
        'x@example.com',
        blockA,
      ]),
    ).toEqual([{ r: 'gone' }]);
    expect(await sql(`select 1 from private.mail_optouts where email = 'x@example.com'`)).toEqual(
      [],
    );
  });
});

describe("an owner digest's unsubscribe link", () => {
  it("clicked after its block was deleted, stops the owner's other blocks (the link names the owner)", async () => {
    const owner = await newUser('unsub-late');
    const blockA = await blockMailing(owner, owner.email, 'A');
    const blockB = await blockMailing(owner, owner.email, 'B');
    await spam(blockA);
    expect(await settledDigests(blockA)).toEqual([{ status: 'done', skipped: null }]);
    const digest = await eventually(async () =>
      (await mailbox(owner.email)).find((m) => m.subject.includes('“A”')),
    );
    const link = oneClickLink(digest);
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    expect(
      (await owner.client.from('blocks').delete().eq('id', blockA).select('id')).data,
    ).toHaveLength(1);
    // the mail log shows the owner's digest to the address: the page asks, the click records it
    expect((await unsubscribeLink(token)).data).toMatchObject({ unsubscribed: false, gone: false });
    const click = await clickOneClick(link);
    expect(click.status).toBe(200);
    expect(((await click.json()) as { data: unknown }).data).toMatchObject({ gone: false });
    expect((await unsubscribeLink(token)).data).toMatchObject({ unsubscribed: true, gone: false });
    expect(
      await sql('select owner_id from private.mail_optouts where block_id = $1', [blockA]),
    ).toEqual([{ owner_id: owner.id }]);
    expect(await digestFor(blockB, await spam(blockB))).toEqual({
      skip: 'the address unsubscribed',
    });
  });
});

describe("a deleted block's old notification link (rev-mail2)", () => {
  // The link's owner was taken on its word once the block was gone, and a link with nothing left
  // to stop (no owner in it, a reply link) recorded nothing while the page said "You are
  // unsubscribed". Now only an owner the mail log proves is recorded, and the answer says when
  // nothing is left to stop (the page says so plainly, en and ko: dashboard unsubscribe-page.test).
  it('records only an owner the mail log shows mailing the address; otherwise says nothing is left to stop, never an error', async () => {
    const owner = await newUser('unsub-proof');
    const blockA = await blockMailing(owner, owner.email, 'A');
    const blockB = await blockMailing(owner, owner.email, 'B');
    expect((await owner.client.from('blocks').delete().eq('id', blockA)).error).toBeNull();
    const stranger = inbox('never-mailed');
    const cases = [
      // an owner's link to an address the owner's digests never reached (the mail log has none)
      { s: 'owner', e: stranger, b: blockA, u: owner.id },
      // an old mail's link: no owner in it
      { s: 'owner', e: owner.email, b: blockA },
      // a reply link: its opt-out is the deleted block's, which sends nothing more
      { s: 'reply', e: owner.email, b: blockA, u: owner.id },
      // a block that never existed, of an owner that never was
      { s: 'owner', e: owner.email, b: randomUUID(), u: randomUUID() },
    ] as const;
    for (const claim of cases) {
      const token = signedToken(claim);
      expect(await unsubscribeLink(token), JSON.stringify(claim)).toMatchObject({
        status: 200,
        data: { scope: claim.s, unsubscribed: false, gone: true },
      });
      expect(await unsubscribeLink(token, 'POST'), JSON.stringify(claim)).toMatchObject({
        status: 200,
        data: { status: true, gone: true },
      });
    }
    expect(
      await sql('select email, scope from private.mail_optouts where owner_id = $1', [owner.id]),
    ).toEqual([]);
    // the owner's other block still mails its owner (nothing was recorded on a link's word)
    expect(await digestFor(blockB, await spam(blockB))).toMatchObject({ to: owner.email });
  });
});

describe('the workspace calls', () => {
  it('tell the owner the waiting state and send the link again at most once a day; other owners get nothing', async () => {
    const owner = await newUser('waits');
    const typed = inbox('typed');
    const blockId = await blockMailing(owner, typed, 'Waiting');
    const status = () => owner.client.rpc('notification_address_status', { p_block_id: blockId });
    expect((await status()).data).toMatchObject({ email: typed, state: 'waiting' });
    // asked today on save: the resend is refused until tomorrow
    expect(
      (await owner.client.rpc('resend_notification_confirmation', { p_block_id: blockId })).data,
    ).toEqual({ sent: false });
    expect(await asks(typed, owner.id)).toHaveLength(1);
    // a day later (the ask and its mail moved back), it asks once more
    await confirmationMail(typed);
    await sql(
      `update private.jobs set dedupe_key = dedupe_key || ':old' where kind = 'confirm.mail' and payload ->> 'email' = $1`,
      [typed],
    );
    await sql(
      `update private.mail_consents set mailed_at = now() - interval '25 hours' where email = $1`,
      [typed],
    );
    expect(
      (await owner.client.rpc('resend_notification_confirmation', { p_block_id: blockId })).data,
    ).toEqual({ sent: true });
    expect(await asks(typed, owner.id)).toHaveLength(2);

    const stranger = await newUser('stranger');
    for (const fn of ['notification_address_status', 'resend_notification_confirmation']) {
      const { error } = await stranger.client.rpc(fn, { p_block_id: blockId });
      expect(error?.message).toBe("block doesn't exists");
    }
    const guest = await newGuest();
    expect(
      (await guest.client.rpc('notification_address_status', { p_block_id: blockId })).error,
    ).toBeTruthy();

    // own address: nothing to show
    const own = await blockMailing(owner, owner.email, 'Own');
    expect(
      (await owner.client.rpc('notification_address_status', { p_block_id: own })).data,
    ).toEqual({
      email: owner.email,
      state: 'allowed',
    });
  });
});

describe('a notification whose SendEmail answer is lost', () => {
  // rev-mail3 D5: SES sent it and published Delivery, then a Permanent bounce; the job ended
  // `unknown` ("socket hang up") and the mail log said `unknown` for good, both events kept until
  // the purge. Its `job` tag now finds it, as a letter's `delivery` tag does.
  it('gets its events by its job tag: the mail log says bounced, nothing kept', async () => {
    const to = inbox('lost-answer');
    const { blockId } = await ownerWithBlock('comment', { mailTo: to, settings: { name: 'p5' } });
    await sesControl('', { outageOf: { [to]: 'lost' } });
    try {
      await postMessage(await newGuest(), blockId, 'answer lost');
      const mail = await eventually(async () => {
        await callWorker();
        return (await mailbox(to))[0];
      });
      await sesControl('/bounce', { messageId: mail.id, type: 'Permanent' });
      const row = await eventually(async () => {
        await callWorker();
        const [r] = await sql<{ status: string; provider_message_id: string | null }>(
          `select status, provider_message_id from private.outbound_mails where block_id = $1`,
          [blockId],
        );
        return r?.status === 'bounced' && r;
      });
      expect(row).toEqual({ status: 'bounced', provider_message_id: mail.id });
      const [job] = await sql<{ status: string }>(
        `select status from private.jobs where kind = 'notify.owner' and payload::text like $1`,
        [`%${blockId}%`],
      );
      // the job stays unknown: the worker never learnt the answer (it is not sent again)
      expect(job).toEqual({ status: 'unknown' });
      expect(
        await sql('select 1 from private.early_mail_events where message_id = $1', [mail.id]),
      ).toEqual([]);
    } finally {
      await sesControl('', { outageOf: { [to]: false } });
    }
  });
});

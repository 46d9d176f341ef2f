// What rev-mail2 (2026-11-28) found in the mail changes, each as it was reproduced: a letter
// unsubscribe stopped one spelling of the mailbox only (D1); an owner learnt which strangers'
// addresses are suppressed from the send dialog's skip count, a delivery's reason and
// send-letter's skippedCount (D3); whoever caused a confirmation mail could take its "Not me"
// away by deleting the claim, the account or asking again (D2); SES's own verification mail went
// to a suppressed mailbox, and as often as an owner asked (D4); one Apple or Proton mailbox on
// several domains counted as several (D5). docs/security.md "One mailbox, many spellings", "What
// an owner learns of a suppressed address", "Sender addresses".
import { describe, expect, it } from 'vitest';
import { SENDER_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { callFunction, newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { postMessage } from './support/hostile.ts';
import { eventually, inbox, mailbox, type Mail } from './support/providers.ts';
import {
  answerLink,
  commentBlock,
  confirmationMail,
  emailForm,
  preconfirm,
  tokenOf,
} from './support/consent.ts';
import { callWorker } from './support/worker.ts';
import * as letters from './support/letters.ts';

const plus = (email: string, tag: string) => email.replace('@', `+${tag}@`);
const id8 = () => Math.random().toString(36).slice(2, 10);
const isSenderMail = (m: Mail) => Boolean(m.html?.includes('/profile/email?confirm='));
const isSesMail = (m: Mail) => m.subject.startsWith('Amazon Web Services');
const request = (owner: TestUser, email: string) =>
  callFunction('request-mail-verify', { emailToVerify: email }, owner.accessToken);
const suppress = (email: string, reason: 'not_me' | 'complaint') =>
  sql(`insert into private.mail_suppressions (email, reason) values ($1, $2)`, [email, reason]);
/** The mailbox's sender confirmation day, as if it were spent a day ago. */
const aDayLater = (email: string) =>
  sql(
    `update private.sender_confirmation_mails set mailed_at = mailed_at - interval '25 hours'
     where mailbox = private.mailbox_key($1)`,
    [email],
  );
const notMeToken = (mail: Mail) => /confirm-email\?token=([\w-]{43})/.exec(mail.html!)![1]!;
/** A new owner asks to send from a fresh address: the owner, the address and its confirmation mail. */
const senderMail = async (ownerTag: string, addressTag: string) => {
  const owner = await newUser(ownerTag);
  const address = inbox(addressTag);
  expect((await request(owner, address)).status).toBe(200);
  const mail = await eventually(async () => (await mailbox(address)).find(isSenderMail));
  return { owner, address, mail };
};

describe('a letter unsubscribe is the mailbox’s (D1)', () => {
  it('stops every spelling of it in a send, the dialog’s count and the audience list', async () => {
    const o = await letters.savedLetterOwner();
    const victim = inbox('unsub');
    const gmail = `victim${id8()}@gmail.com`;
    for (const email of [victim, gmail]) {
      await sql('insert into public.unsubscribes (user_id, email) values ($1, $2)', [
        o.owner.id,
        email,
      ]);
    }
    const spellings = [plus(victim, 'news'), gmail.replace(/^v/, 'V.'), plus(gmail, 'x')];
    expect(await letters.sendAndDeliver(o, spellings)).toMatchObject({
      reservedCount: 0,
      skippedCount: 3,
    });
    // the same spellings as audience members: Unsubscribed in the list, skipped in the dialog
    await o.owner.client.from('audience_groups').insert([{ name: 'spellings' }]);
    const add = await o.owner.client
      .from('audience_members')
      .insert(spellings.map((email) => ({ email, group_name: 'spellings' })));
    expect(add.error).toBeNull();
    const members = await o.owner.client
      .from('audience_members')
      .select('email, is_unsubscribed')
      .eq('group_name', 'spellings');
    expect(members.data!.map((m) => m.is_unsubscribed)).toEqual([true, true, true]);
    const groups = (await o.owner.client.rpc('letter_send_groups')).data as Array<{
      name: string;
      email_count: number;
      skip_count: number;
    }>;
    expect(groups.find((g) => g.name === 'spellings')).toMatchObject({
      email_count: 3,
      skip_count: 3,
    });
    const r = await sql<{ r: { reserved: number; skipped: number } }>(
      `select public.reserve_letter($1, $2, null, 'spellings', false, $3::jsonb) as r`,
      [o.owner.id, o.blockId, JSON.stringify({ from: o.sender })],
    );
    expect(r[0]!.r).toMatchObject({ reserved: 0, skipped: 3 });
    // the unsubscribe came after the reservation: the send skips it
    const late = inbox('late');
    const release = await letters.reserveHeld(o, plus(late, 'a'));
    await sql('insert into public.unsubscribes (user_id, email) values ($1, $2)', [
      o.owner.id,
      late,
    ]);
    await release();
    expect(await letters.deliveryOf(plus(late, 'a'), 'skipped')).toMatchObject({
      reason: 'the address unsubscribed',
    });
    for (const email of [...spellings, plus(late, 'a')]) expect(await mailbox(email)).toEqual([]);
  });
});

describe('an owner learns nothing of a stranger’s suppression (D3)', () => {
  it('the dialog counts it as reached, the send reserves it and it bounces; no mail goes', async () => {
    const o = await letters.savedLetterOwner();
    const [said, fresh] = [inbox('said-no'), inbox('fresh')];
    // "Not me" to some other owner's mail
    await suppress(said, 'not_me');
    await o.owner.client.from('audience_groups').insert([{ name: 'probe-a' }, { name: 'probe-b' }]);
    const add = await o.owner.client.from('audience_members').insert([
      { email: said, group_name: 'probe-a' },
      { email: fresh, group_name: 'probe-b' },
    ]);
    expect(add.error).toBeNull();
    const groups = (await o.owner.client.rpc('letter_send_groups')).data as Array<{
      name: string;
      skip_count: number;
    }>;
    const a = groups.find((g) => g.name === 'probe-a')!;
    const b = groups.find((g) => g.name === 'probe-b')!;
    expect(a.skip_count).toBe(0);
    expect(a.skip_count).toBe(b.skip_count);

    const sent = await letters.sendAndDeliver(o, [said, fresh]);
    expect(sent).toMatchObject({ reservedCount: 2, skippedCount: 0 });
    await letters.delivered(fresh);
    const bounced = await letters.deliveryOf(said, 'bounced');
    expect(bounced).toEqual({ status: 'bounced', reason: null });
    expect(await mailbox(said)).toEqual([]);
    // counted as a bounce SES reported: the send's and the member's rows
    const [send] = await sql<Record<string, number>>(
      `select reserved_count, sent_count, skipped_count, bounced_count from public.publishes
       where id = $1`,
      [sent.publishId],
    );
    expect(send).toEqual({ reserved_count: 2, sent_count: 2, skipped_count: 0, bounced_count: 1 });
    const [member] = await sql<Record<string, number>>(
      `select sent_count, bounced_count from public.audience_members where user_id = $1 and email = $2`,
      [o.owner.id, said],
    );
    expect(member).toEqual({ sent_count: 1, bounced_count: 1 });
    // a bounce no mail made is not the owner's: their reputation counts what went
    const status = await sql<{ s: { sent: number; bounced: number } }>(
      'select public.mail_sender_status($1) as s',
      [o.owner.id],
    );
    expect(status[0]!.s).toMatchObject({ sent: 1, bounced: 0 });
  });
});

describe('"Not me" belongs to the mail (D2)', () => {
  it('a sender mail’s link works after the claim is deleted and after a second request', async () => {
    const { owner, address: victim, mail } = await senderMail('takes-notme', 'cannot-decline');
    // asked again a day later: a new mail, the first one's "Not me" still holds
    await aDayLater(victim);
    expect((await request(owner, victim)).status).toBe(200);
    await eventually(async () => (await mailbox(victim)).filter(isSenderMail).length === 2);
    const del = await callFunction(
      'delete-mail-verified',
      { emailToDelete: victim },
      owner.accessToken,
    );
    expect(del.status).toBe(200);
    expect((await answerLink(notMeToken(mail))).json.data).toMatchObject({ scope: 'sender' });
    const answer = await answerLink(notMeToken(mail), 'not-me');
    expect(answer).toMatchObject({ status: 200, json: { data: { outcome: 'declined' } } });
    // single use; and the mailbox is suppressed: no new mail, whoever asks
    expect((await answerLink(notMeToken(mail), 'not-me')).status).toBe(400);
    await aDayLater(victim);
    const again = await request(await newUser('next-day'), plus(victim, 'x'));
    expect(again).toMatchObject({ status: 400, json: { error: { code: 'suppressed' } } });
  });

  it('a consent mail’s link works after the guest who typed the address is gone', async () => {
    const victim = inbox('cannot-decline-2');
    const block = await commentBlock('Gone guest');
    const guest = await newGuest();
    await postMessage(guest, block.blockId, 'hi', { p_creator_email: victim });
    const token = tokenOf(await confirmationMail(victim));
    await sql('delete from auth.users where id = $1', [guest.id]);
    // the page asks only "Not me" of what it can still say; confirming has nothing left to confirm
    expect((await answerLink(token)).json.data).toMatchObject({ scope: 'reply' });
    expect((await answerLink(token, 'confirm')).status).toBe(400);
    expect(await answerLink(token, 'not-me')).toMatchObject({
      status: 200,
      json: { data: { outcome: 'declined', scope: 'reply' } },
    });
    expect((await answerLink(token, 'not-me')).status).toBe(400);
    const [row] = await sql<{ reason: string }>(
      'select reason from private.mail_suppressions where email = $1',
      [victim],
    );
    expect(row).toEqual({ reason: 'not_me' });
  });

  it('a consent mail answered once leaves no "Not me" behind', async () => {
    const victim = inbox('answered');
    const block = await commentBlock('Answered');
    await postMessage(await newGuest(), block.blockId, 'hi', { p_creator_email: victim });
    const token = tokenOf(await confirmationMail(victim));
    expect((await answerLink(token, 'confirm')).status).toBe(200);
    expect((await answerLink(token, 'not-me')).status).toBe(400);
    expect(await sql('select 1 from private.mail_suppressions where email = $1', [victim])).toEqual(
      [],
    );
  });
});

describe('SES’s own verification mail is a confirmation mail (D4)', () => {
  it('counts in the mailbox’s day and is refused to a suppressed mailbox', async () => {
    const { owner, address, mail } = await senderMail('restart-identity', 'former');
    const confirmToken = /profile\/email\?confirm=([\w-]{43})/.exec(mail.html!)![1]!;
    const confirmed = await callFunction(
      'confirm-mail-verify',
      { token: confirmToken },
      owner.accessToken,
    );
    expect(confirmed.json.data).toMatchObject({ state: 'awaiting_provider' });
    const sesMails = async () => (await mailbox(address)).filter(isSesMail).length;
    await eventually(async () => (await sesMails()) === 1);
    // the platform's mail spent today: SES's link again waits for tomorrow
    const today = await request(owner, address);
    expect(today).toMatchObject({ status: 429, json: { error: { code: 'sent_today' } } });
    await aDayLater(address);
    expect((await request(owner, address)).json.data).toMatchObject({
      state: 'awaiting_provider',
    });
    await eventually(async () => (await sesMails()) === 2);
    // the mailbox then complains: SES mails it nothing more
    await aDayLater(address);
    await suppress(plus(address, 'x'), 'complaint');
    const refused = await request(owner, address);
    expect(refused).toMatchObject({
      status: 400,
      json: { error: { code: 'suppressed', message: SENDER_MESSAGES.suppressed } },
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sesMails()).toBe(2);
  });
});

describe('one Apple or Proton mailbox on several domains is one mailbox (D5)', () => {
  it('one sender confirmation a day reaches the mailbox, whichever domain is typed', async () => {
    const local = `victim${id8()}`;
    const apple = [`${local}@icloud.com`, `${local}@me.com`, `${local}@mac.com`];
    const proton = [`${local}@proton.me`, `${local}@protonmail.com`, `${local}@pm.me`];
    const owners = await Promise.all([...apple, ...proton].map((_, i) => newUser(`alias-${i}`)));
    const statuses = [];
    for (const [i, email] of [...apple, ...proton].entries())
      statuses.push((await request(owners[i]!, email)).status);
    expect(statuses).toEqual([200, 429, 429, 200, 429, 429]);
  });
});

describe('a consent ask is the mailbox’s (rev-mail2)', () => {
  // The confirm.mail job's dedupe key and the "this confirmation went less than a day ago" check
  // took the address as typed: an owner's form given a.b+1@gmail.com, ab+2@gmail.com and
  // AB@googlemail.com made three letters asks, the first mailed and the others each deferred to
  // the mailbox's next free day, so one mailbox got one a day for as many days as spellings.
  it('spellings of one mailbox make one ask a day, and none waits for a later day', async () => {
    const form = await emailForm();
    const local = `ab${id8()}`;
    const spellings = [
      `${local.slice(0, 1)}.${local.slice(1)}+1@gmail.com`,
      `${local}+2@gmail.com`,
      `${local.toUpperCase()}@googlemail.com`,
    ];
    for (const email of spellings) await form.submit(email);
    const asks = () =>
      sql<{ email: string; status: string; skipped: string | null }>(
        `select payload ->> 'email' as email, status, result ->> 'skipped' as skipped
         from private.jobs where kind = 'confirm.mail'
           and private.mailbox_key(payload ->> 'email') = private.mailbox_key($1) order by id`,
        [spellings[0]],
      );
    expect((await asks()).map((a) => a.email)).toEqual([spellings[0]]);
    await confirmationMail(spellings[0]!);
    expect(await asks()).toEqual([{ email: spellings[0], status: 'done', skipped: null }]);

    // the next UTC day (today's asks set aside), within 24 hours of the mail: a new spelling (an
    // address already in the audience asks nothing again) is the same confirmation to the same
    // mailbox, skipped, not kept for the day after
    await sql(
      `update private.jobs set dedupe_key = dedupe_key || ':old'
       where kind = 'confirm.mail' and private.mailbox_key(payload ->> 'email') = private.mailbox_key($1)`,
      [spellings[0]],
    );
    const next = `${local}+3@gmail.com`;
    await form.submit(next);
    const settled = await eventually(async () => {
      await callWorker();
      const rows = await asks();
      return rows.length === 2 && rows.every((r) => r.status === 'done') ? rows : undefined;
    });
    expect(settled[1]).toEqual({
      email: next,
      status: 'done',
      skipped: 'this confirmation went to the address less than a day ago',
    });
    expect(await mailbox(next)).toEqual([]);
  });
});

describe('a yes covers the address that said it, in any letter case, and no other spelling', () => {
  // docs/security.md "One mailbox, many spellings": a no reaches every spelling of the mailbox,
  // a yes only its own address (folded to lower case, local part included)
  const ask = async (email: string, ownerId: string) =>
    (
      await sql<{ answer: string }>(
        `select private.ask_mail_consent($1, $2, null, null, 'en') as answer`,
        [email, ownerId],
      )
    )[0]!.answer;

  it('Foo@x.com is foo@x.com; foo+news@x.com and a Gmail dot are asked again', async () => {
    const owner = await newUser('yes-spelling');
    const local = `yes-${id8()}`;
    await preconfirm(`${local}@example.com`, owner.id);
    expect(await ask(`${local.toUpperCase()}@EXAMPLE.COM`, owner.id)).toBe('confirmed');
    expect(await ask(` ${local}@Example.com `, owner.id)).toBe('confirmed');
    expect(await ask(`${local}+news@example.com`, owner.id)).toBe('pending');
    await preconfirm(`${local}@gmail.com`, owner.id);
    expect(await ask(`${local.slice(0, 2)}.${local.slice(2)}@gmail.com`, owner.id)).toBe('pending');
  });
});

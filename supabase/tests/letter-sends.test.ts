// Sending a letter through the real pieces (issue 11): send-letter and publish-letter reserve a
// send (a delivery and a job per recipient); the jobs worker mails each recipient through the SES
// fake; SES events move the counts; the signed unsubscribe link removes an address from later
// sends; a mail SES refuses, or one skipped, says why. The owner, the letter and the worker's
// runs are support/letters.ts's.
import { randomUUID } from 'node:crypto';
import { DeleteEmailIdentityCommand } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_AWS } from '../local/config.ts';
import { NOTION_PAGE_URL } from '../local/providers/pages/fixtures.ts';
import {
  DELIVERY_SKIP_REASONS,
  LETTER_MESSAGES,
  parseRecipients,
  splitRecipients,
} from '@reaction-blocks/contracts/letters';
import { callFunction, newUser, sql, stack } from './support/clients.ts';
import { eventually, inbox, mailbox, sesClient } from './support/providers.ts';
import * as letters from './support/letters.ts';
import { recordingClient, SEND_CHECK_CALLS, useFunctionEnv } from './support/function-calls.ts';
import { reserveSend } from '../functions/_shared/letter/send.ts';

const { savedLetterOwner } = letters;

describe('sending', () => {
  it('two addresses: a mail each with footer and one-click unsubscribe; counts; open; unsubscribe; skipped next time', async () => {
    const o = await savedLetterOwner();
    const a = inbox('a');
    const b = inbox('b');
    const sent = await letters.sendAndDeliver(o, [` ${a.toUpperCase()}`.trim(), b, a]);
    expect(sent).toMatchObject({ reservedCount: 2, skippedCount: 0 });
    const [mailA, mailB] = [await letters.delivered(a), await letters.delivered(b)];
    for (const mail of [mailA, mailB]) {
      expect(mail.subject).toBe('Weekly letter');
      expect(mail.from).toContain(o.sender);
      expect(mail.from).toContain('Letter Writer');
      expect(mail.html).toContain('Delivered by Letter Writer with Reaction Blocks.');
      expect(mail.html).toMatch(/\/unsubscribe\?token=/);
      expect(mail.text).toContain('Unsubscribe: ');
      expect(mail.headers['List-Unsubscribe']).toMatch(
        /^<http.*\/functions\/v1\/unsubscribe\?token=.+>$/,
      );
      expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
    const publish = async () =>
      (await o.owner.client.from('publishes').select('*').eq('block_id', o.blockId).single())
        .data as Record<string, number>;
    await eventually(async () => {
      const p = await publish();
      return p.sent_count === 2 && p.delivered_count === 2 && p;
    });
    // opening the mail loads the tracking pixel: the open count moves once
    const pixel = /<img[^>]+src="([^"]+\/ses\/open\/[^"]+)"/.exec(mailA.html!)?.[1];
    expect(pixel).toBeTruthy();
    await fetch(pixel!.replace(/&amp;/g, '&'));
    await fetch(pixel!.replace(/&amp;/g, '&'));
    await eventually(async () => (await publish()).opened_count === 1);
    const { data: deliveries } = await o.owner.client.from('deliveries').select('email, status');
    expect(deliveries).toEqual(
      expect.arrayContaining([
        { email: a, status: 'opened' },
        { email: b, status: 'delivered' },
      ]),
    );

    // unsubscribe from the link (the page's confirm calls the function with the token)
    const token = decodeURIComponent(/unsubscribe\?token=([^"&\s]+)/.exec(mailA.html!)![1]!);
    const infoUrl = `${stack().apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(token)}`;
    const info = await fetch(infoUrl);
    // the page names the letter as the mail showed it (From name, and the subject of the one
    // letter the address got), not by the block's name, which no recipient sees
    expect(await info.json()).toMatchObject({
      data: {
        scope: 'letter',
        unsubscribed: false,
        sender: 'Letter Writer',
        title: 'Weekly letter',
        blockName: null,
      },
    });
    const done = await callFunction('unsubscribe', { token }, undefined);
    expect(done.json.data).toMatchObject({ status: true, scope: 'letter' });
    // the same link opened again: already unsubscribed, so the page says so instead of asking
    expect(await (await fetch(infoUrl)).json()).toMatchObject({ data: { unsubscribed: true } });
    // a tampered token unsubscribes nobody: another signature, or another spelling of the same
    // one (the last character's unused low bits set: base64 decoders read it as the same bytes)
    const [body, mac] = token.split('.') as [string, string];
    const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const forged = `${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const respelt = `${body}.${mac.slice(0, -1)}${B64[B64.indexOf(mac.at(-1)!) ^ 1]}`;
    for (const tampered of [forged, respelt]) {
      expect((await callFunction('unsubscribe', { token: tampered }, undefined)).status).toBe(400);
    }

    const again = await letters.sendAndDeliver(o, [a, b]);
    expect(again).toMatchObject({ reservedCount: 1, skippedCount: 1 });
    await eventually(async () => {
      await letters.runWorker();
      return (await mailbox(b)).length === 2;
    });
    // two letters to b: the link cannot say which one, so the page names the sender alone
    const tokenB = decodeURIComponent(/unsubscribe\?token=([^"&\s]+)/.exec(mailB.html!)![1]!);
    const infoB = await fetch(
      `${stack().apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(tokenB)}`,
    );
    expect(await infoB.json()).toMatchObject({
      data: { scope: 'letter', sender: 'Letter Writer', title: null, unsubscribed: false },
    });
    expect(await mailbox(a)).toHaveLength(1);
    const alone = await letters.sendAndDeliver(o, [a]);
    expect(alone).toMatchObject({ reservedCount: 0, skippedCount: 1, publishId: null });
  });

  it("a letter's link to another spelling of a mailbox that unsubscribed says it is out already", async () => {
    // before (rev-money3 D6): the page matched the address as written and asked again, although
    // every letter to the mailbox was skipped
    const o = await savedLetterOwner();
    const a = inbox('mbx');
    const tagged = a.replace('@', '+news@');
    await letters.sendAndDeliver(o, [a, tagged]);
    const tokenOf = async (to: string) =>
      decodeURIComponent(
        /unsubscribe\?token=([^"&\s]+)/.exec((await letters.delivered(to)).html!)![1]!,
      );
    const [tokenA, tokenTagged] = [await tokenOf(a), await tokenOf(tagged)];
    expect((await callFunction('unsubscribe', { token: tokenA }, undefined)).status).toBe(200);
    const info = await fetch(
      `${stack().apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(tokenTagged)}`,
    );
    expect(await info.json()).toMatchObject({ data: { scope: 'letter', unsubscribed: true } });
    expect(await letters.sendAndDeliver(o, [tagged])).toMatchObject({ skippedCount: 1 });
  });

  it('a letter’s unsubscribe link still works once its block, or its owner, is deleted', async () => {
    const o = await savedLetterOwner();
    const [a, b] = [inbox('a'), inbox('b')];
    await letters.sendAndDeliver(o, [a, b]);
    const tokenOf = async (to: string) =>
      decodeURIComponent(
        /unsubscribe\?token=([^"&\s]+)/.exec((await letters.delivered(to)).html!)![1]!,
      );
    const [tokenA, tokenB] = [await tokenOf(a), await tokenOf(b)];
    await sql('delete from public.blocks where id = $1', [o.blockId]);
    // the page's confirm, and a mail app's RFC 8058 one-click POST
    const done = await callFunction('unsubscribe', { token: tokenA }, undefined);
    expect(done.status).toBe(200);
    expect(done.json.data).toMatchObject({ status: true, scope: 'letter' });
    const rows = await sql<{ email: string; block_id: string | null }>(
      'select email, block_id from public.unsubscribes where user_id = $1',
      [o.owner.id],
    );
    expect(rows).toEqual([{ email: a, block_id: null }]);
    const infoA = await fetch(
      `${stack().apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(tokenA)}`,
    );
    expect(await infoA.json()).toMatchObject({ data: { scope: 'letter', unsubscribed: true } });
    // the owner's account gone too: nothing of theirs can mail b again, and the link says done
    await sql('delete from auth.users where id = $1', [o.owner.id]);
    const oneClick = await fetch(
      `${stack().apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(tokenB)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      },
    );
    expect(oneClick.status).toBe(200);
  });

  it('the manual send rules: invalid address, over 100, quota, register audience is paid', async () => {
    const o = await savedLetterOwner({ limit: 3, paid: false });
    const send = (emailList: string[], registerAudience = false) =>
      callFunction(
        'send-letter',
        { blockId: o.blockId, emailList, registerAudience },
        o.owner.accessToken,
      );
    expect((await send(['not-an-address'])).json.error?.message).toMatch(
      /^Email address is invalid/,
    );
    expect(
      (await send(Array.from({ length: 101 }, (_, i) => `p${i}@example.com`))).json.error?.message,
    ).toMatch(/^You can send 100 emails at once by manual sending/);
    expect((await send([inbox(), inbox(), inbox(), inbox()])).json.error?.message).toBe(
      'Not enough sending email counts',
    );
    expect((await send([inbox()], true)).json.error?.message).toBe(
      'Paid plan required (registerAudience)',
    );
    expect((await send([inbox(), inbox()])).json.data).toMatchObject({ reservedCount: 2 });
    expect((await send([inbox(), inbox()])).json.error?.message).toBe(
      'Not enough sending email counts',
    );
    const [profile] = await sql<{ response_monthly_count: number }>(
      'select p.response_monthly_count from public.profiles p where p.id = $1',
      [o.owner.id],
    );
    expect(profile!.response_monthly_count).toBe(2);
    // the audience send is paid too
    const pub = await callFunction(
      'publish-letter',
      { blockId: o.blockId, group: 'activated' },
      o.owner.accessToken,
    );
    expect(pub).toMatchObject({
      status: 403,
      json: { error: { message: 'Paid plan required (audience)' } },
    });
  });

  it("send-letter refuses what the dialog refuses and takes what it takes (the shared ZRecipients); another owner's letter is not found", async () => {
    const o = await savedLetterOwner({ limit: 1000 });
    const a = inbox('named');
    const b = inbox('semi');
    // what the dialog reads from a pasted box, as entries: the server reads them alike
    const boxes = [
      `Ann <${a}>; ${b.toUpperCase()}`,
      `"Smith, <b>Ann</b>" <${a}>, ${a}`,
      `Ann\n<${a}>`,
      `<b>Ann</b> <${a}>`,
      // an invisible mark after a whole address ends it (B6, BRK-2), and one in brackets is dropped;
      // a mark that reorders what is drawn is shown wherever it is (break3 G7): refused in both
      `${a}\u200bAnn <${b}>`,
      `Ann <${a}\u200b>, ${b}\u200bBob`,
      `${a}\u200eAnn <\u200f${b}\u2069>, ${b}\u2060Bob`,
      `Ann <${a}\u202e>, <\u2068${b}\u2069>`,
      // a name joined to an address by a mark, an address ending a sentence before a bracket,
      // a quote closed by an apostrophe inside a name (breaker F1, F3, F4): refused in both
      `Bob\u200b${a}`,
      `${a}. <${b}>`,
      `'Bob, ${a}, O'Neil <${b}>`,
      // a copied list's bullets, a wrap inside a bracket (F5, F8): taken by both
      `- ${a}\n1. Bob <${b.slice(0, -1)}\u200b${b.slice(-1)}>`,
      // a sheet's name column beside the address column, chips with nothing between them (F5)
      `Bob\t${a}\r\nAnn <${b}>Cy <${a}>`,
      `${a}, ${Array.from({ length: 100 }, (_, i) => `r${i}@example.com`).join(';')}`,
      Array.from({ length: 2000 }, () => b).join(','),
      'x'.repeat(100_000),
    ];
    for (const box of boxes) {
      const dialog = parseRecipients(box);
      const sent = await callFunction(
        'send-letter',
        { blockId: o.blockId, emailList: splitRecipients(box) },
        o.owner.accessToken,
      );
      if (dialog.error === null) {
        expect(sent.json.data, box).toMatchObject({ reservedCount: dialog.emails.length });
      } else {
        expect(sent.status, box).toBe(400);
        expect(sent.json.error?.message.startsWith(dialog.error), box).toBe(true);
      }
    }
    // the name part never reaches the mail: only the address is stored and mailed
    const rows = await sql<{ email: string }>(
      'select distinct email from public.deliveries d join public.publishes p on p.id = d.publish_id where p.block_id = $1 order by 1',
      [o.blockId],
    );
    expect(rows.map((r) => r.email)).toEqual([a, b].sort());
    const other = await savedLetterOwner();
    const stolen = await callFunction(
      'send-letter',
      { blockId: other.blockId, emailList: [inbox()] },
      o.owner.accessToken,
    );
    expect(stolen.status).toBe(404);
  });

  it('nothing to send without a saved letter and a verified sender', async () => {
    const o = await letters.letterOwner('notion_letter');
    const send = () =>
      callFunction(
        'send-letter',
        { blockId: o.blockId, emailList: [inbox()] },
        o.owner.accessToken,
      );
    expect((await send()).json.error?.message).toBe('Verify the sender email first');
    await sql('update public.block_private set mail_from = $2 where block_id = $1', [
      o.blockId,
      o.sender,
    ]);
    expect((await send()).json.error?.message).toBe('Load a page and save the letter first');
  });

  it('a stored letter the rules now refuse is not sent until it is saved again (BRK-5)', async () => {
    const o = await savedLetterOwner();
    // saved before a rule tightened (3031f41d): an image address with a user name and password,
    // in the stored model and in the mail rendered then
    const src = 'https://user:pw@cdn.example.com/a.png';
    await sql(
      `update public.block_private
          set letter = jsonb_set(letter, '{blocks}', (letter -> 'blocks') || $2::jsonb),
              mail_html = mail_html || $3
        where block_id = $1`,
      [o.blockId, JSON.stringify([{ id: 'old', type: 'image', src }]), `<img src="${src}">`],
    );
    const member = inbox('member');
    await sql(
      `insert into public.audience_members (user_id, creator_name, email, history)
       values ($1, 'Member', $2, '[]')`,
      [o.owner.id, member],
    );
    const to = inbox('refused-letter');
    // before, both reserved the stored mail, the image's password in it
    for (const [fn, body] of [
      ['send-letter', { blockId: o.blockId, emailList: [to] }],
      ['publish-letter', { blockId: o.blockId, group: 'activated' }],
    ] as const) {
      const refused = await callFunction(fn, body, o.owner.accessToken);
      expect([fn, refused.status, refused.json.error?.message]).toEqual([
        fn,
        400,
        LETTER_MESSAGES.saveLetterAgain,
      ]);
    }
    expect(await sql('select 1 from public.publishes where block_id = $1', [o.blockId])).toEqual(
      [],
    );
    // saved again (the workspace opens it without the refused part), it goes
    const saved = await letters.save(o, await letters.loaded(o, 'notion', NOTION_PAGE_URL));
    expect(saved.status, JSON.stringify(saved.json.error)).toBe(200);
    expect(await letters.sendAndDeliver(o, [to])).toMatchObject({ reservedCount: 1 });
    expect((await letters.delivered(to)).html).not.toContain('user:pw@');
  });

  it('a copy of a saved letter is the whole letter: its model, subject and text part go with its mail', async () => {
    const o = await savedLetterOwner();
    const { data: copy, error } = await o.owner.client.rpc('duplicate_block', {
      p_block_id: o.blockId,
    });
    expect(error).toBeNull();
    const letterOf = async (blockId: string) =>
      (
        await sql(
          `select letter, mail_title, mail_text, mail_html, page_url
             from public.block_private where block_id = $1`,
          [blockId],
        )
      )[0];
    const copyId = (copy as { id: string }).id;
    // before, the copy had the mail only: an empty letter in the workspace, sent under the
    // block's name without a text part (and refused by send-letter's check of the stored letter)
    expect(await letterOf(copyId)).toEqual(await letterOf(o.blockId));
    const to = inbox('copy');
    const sent = await callFunction(
      'send-letter',
      { blockId: copyId, emailList: [to] },
      o.owner.accessToken,
    );
    expect(sent.json.error, JSON.stringify(sent.json.error)).toBeUndefined();
    const mail = await letters.delivered(to);
    expect(mail.subject).toBe('Weekly letter');
    expect(mail.text).toContain('Thanks for reading. See you next week!');
  });

  it('a DMARC reject domain without DKIM sends from the platform address with Reply-To the owner', async () => {
    const o = await savedLetterOwner({
      sender: `w-${randomUUID().slice(0, 6)}@reject.example`,
      dkim: false,
      dmarc: 'reject',
    });
    const to = inbox();
    await letters.sendAndDeliver(o, [to]);
    const mail = await letters.delivered(to);
    expect(mail.from).toContain('notify@reaction-blocks.local');
    expect(mail.from).toContain('Letter Writer');
    expect(mail.replyTo.join()).toContain(o.sender);
  });

  it('a letter queued from an address its owner deleted meanwhile sends nothing, and says why', async () => {
    const o = await savedLetterOwner();
    const to = inbox('late');
    const release = await letters.reserveHeld(o, to);
    const deleted = await callFunction(
      'delete-mail-verified',
      { emailToDelete: o.sender },
      o.owner.accessToken,
    );
    expect(deleted.status).toBe(200);
    await release();
    const d = await letters.deliveryOf(to, 'skipped');
    expect(d.reason).toBe(DELIVERY_SKIP_REASONS.senderNotVerified);
    expect(await mailbox(to)).toEqual([]);
  });

  it('the skip reasons the history translates are the ones the database writes', async () => {
    const [fn] = await sql<{ def: string }>(
      `select pg_get_functiondef('public.prepare_letter_jobs(bigint[])'::regprocedure)
              || pg_get_functiondef('public.reserve_trigger_letter(bigint, jsonb)'::regprocedure) as def`,
    );
    for (const [key, reason] of Object.entries(DELIVERY_SKIP_REASONS)) {
      // a suppressed address bounces since 2026-11-28: only older sends carry that reason
      if (key === 'suppressed') expect(fn!.def, reason).not.toContain(`'${reason}'`);
      else expect(fn!.def, reason).toContain(`'${reason}'`);
    }
  });

  it('a sender SES no longer sends as: the send is refused before anything is reserved, and the sender page says so', async () => {
    const o = await savedLetterOwner();
    // the identity is gone at SES (deleted in the console, or a fake that forgot it)
    await sesClient(LOCAL_AWS.accessKeyId).send(
      new DeleteEmailIdentityCommand({ EmailIdentity: o.sender }),
    );
    const refused = await callFunction(
      'send-letter',
      { blockId: o.blockId, emailList: [inbox()] },
      o.owner.accessToken,
    );
    expect(refused.json.error?.message).toBe('Verify the sender email first');
    expect(
      (await sql('select 1 from public.publishes where block_id = $1', [o.blockId])).length,
    ).toBe(0);
    const { data: row } = await o.owner.client.from('sender_emails').select('status').single();
    expect(row).toEqual({ status: 'not_verified' });
    const check = await callFunction(
      'check-mail-verified',
      { emailToVerify: o.sender },
      o.owner.accessToken,
    );
    expect(check.json.data).toEqual({ status: true, result: false, confirmed: true });
  });

  it('a mail SES refuses is failed at once, with SES’s reason, in the history’s data', async () => {
    const o = await savedLetterOwner();
    const to = inbox('refused');
    const release = await letters.reserveHeld(o, to);
    await sesClient(LOCAL_AWS.accessKeyId).send(
      new DeleteEmailIdentityCommand({ EmailIdentity: o.sender }),
    );
    await release();
    const d = await letters.deliveryOf(to, 'failed');
    expect(d.reason).toMatch(/^MessageRejected: Email address is not verified/);
    // what the history reads, as the owner
    const { data: publish } = await o.owner.client
      .from('publishes')
      .select('failed_count, sent_count')
      .eq('block_id', o.blockId)
      .single();
    expect(publish).toEqual({ failed_count: 1, sent_count: 0 });
    const { data: reasons } = await o.owner.client
      .from('deliveries')
      .select('status, reason')
      .eq('email', to);
    expect(reasons).toEqual([{ status: 'failed', reason: d.reason }]);
    // another owner reads none of it
    const stranger = await newUser('stranger');
    expect(
      (await stranger.client.from('deliveries').select('reason').eq('email', to)).data,
    ).toEqual([]);
    expect(await mailbox(to)).toEqual([]);
  });

  it("the owner reads no provider message id nor change time of a delivery: a suppressed address's bounce has neither SES's id nor its delay", async () => {
    // before (rev-money3 D5): provider_message_id null (and updated_at within ms) told a
    // suppressed stranger's address from a real bounce
    const o = await savedLetterOwner();
    const to = inbox('reads');
    await letters.sendAndDeliver(o, [to]);
    for (const columns of ['email, status, provider_message_id', 'email, updated_at', '*']) {
      const { data, error } = await o.owner.client
        .from('deliveries')
        .select(columns)
        .eq('email', to);
      expect([data, error?.code], columns).toEqual([null, '42501']);
    }
    const { data } = await o.owner.client
      .from('deliveries')
      .select('email, status, reason, created_at')
      .eq('email', to);
    expect(data).toEqual([
      { email: to, status: expect.any(String), reason: null, created_at: expect.any(String) },
    ]);
  });

  it("a member's last_updated tells a suppressed address's bounce from a real one by nothing: counts leave it alone", async () => {
    // before (rev-mail3 D1): audience_members_touch stamped last_updated on every update, so the
    // suppressed member's equalled the send's preparation time to the microsecond, and a real
    // bounce's (and a delivery's) came later, readable by the owner at any time afterwards
    const o = await savedLetterOwner();
    const said = inbox('said-no');
    const fresh = inbox('fresh');
    const bouncer = 'bounce@simulator.amazonses.com';
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'not_me')`, [
      said,
    ]);
    const add = await o.owner.client
      .from('audience_members')
      .insert([said, fresh, bouncer].map((email) => ({ email })));
    expect(add.error).toBeNull();
    const read = async () => {
      const { data, error } = await o.owner.client
        .from('audience_members')
        .select('email, last_updated, sent_count, delivered_count, bounced_count')
        .order('email');
      expect(error).toBeNull();
      return data!;
    };
    const before = new Map((await read()).map((m) => [m.email, m.last_updated]));
    await letters.sendAndDeliver(o, [said, fresh, bouncer]);
    const counted = await eventually(async () => {
      await letters.runWorker();
      const rows = await read();
      const counts = Object.fromEntries(
        rows.map((m) => [m.email, [m.sent_count, m.delivered_count, m.bounced_count]]),
      );
      return counts[said]?.[2] === 1 && counts[bouncer]?.[2] === 1 && counts[fresh]?.[1] === 1
        ? rows
        : undefined;
    });
    for (const m of counted) expect(m.last_updated, m.email!).toBe(before.get(m.email));
    // an owner's own edit still moves it
    const edit = await o.owner.client
      .from('audience_members')
      .update({ creator_name: 'Renamed' })
      .eq('email', fresh);
    expect(edit.error).toBeNull();
    const after = (await read()).find((m) => m.email === fresh)!;
    expect(after.last_updated).not.toBe(before.get(fresh));
  });

  it('to a group: members with an email, active, once each; a suppressed address bounces unmailed; member counts', async () => {
    const o = await savedLetterOwner();
    const { error: groupError } = await o.owner.client
      .from('audience_groups')
      .insert({ name: 'friends' });
    expect(groupError).toBeNull();
    const friend = inbox('friend');
    const bounced = inbox('bounced');
    const rows = [
      { creator_name: 'Friend', email: friend, group_name: 'friends', deactivated: false },
      { creator_name: 'Bounced', email: bounced, group_name: 'friends', deactivated: false },
      {
        creator_name: 'Inactive',
        email: inbox('inactive'),
        group_name: 'friends',
        deactivated: true,
      },
      { creator_name: 'Other', email: inbox('other'), group_name: null, deactivated: false },
      { creator_name: 'No email', email: null, group_name: 'friends', deactivated: false },
    ];
    expect((await o.owner.client.from('audience_members').insert(rows)).error).toBeNull();
    await sql(`insert into private.mail_suppressions (email, reason) values ($1, 'bounce')`, [
      bounced,
    ]);
    // what the send dialog shows: the addresses each group reaches and how many it skips (a
    // suppressed address is not the owner's to learn of: docs/security.md "What an owner learns
    // of a suppressed address")
    const { data: groups } = await o.owner.client.rpc('letter_send_groups');
    expect(groups).toEqual([
      { name: 'activated', email_count: 3, skip_count: 0, awaiting_count: 0 },
      { name: 'friends', email_count: 2, skip_count: 0, awaiting_count: 0 },
    ]);
    const pub = await callFunction(
      'publish-letter',
      { blockId: o.blockId, group: 'friends' },
      o.owner.accessToken,
    );
    expect(pub.json.data).toMatchObject({ status: true, reservedCount: 2, skippedCount: 0 });
    // the suppressed address bounces at the send, as SES reports one on its suppression list,
    // and nothing is mailed to it
    await letters.delivered(friend);
    expect(await letters.deliveryOf(bounced, 'bounced')).toEqual({
      status: 'bounced',
      reason: null,
    });
    expect(await mailbox(bounced)).toEqual([]);
    const { data: publish } = await o.owner.client
      .from('publishes')
      .select('reserved_count, skipped_count, bounced_count')
      .eq('id', (pub.json.data as { publishId: string }).publishId)
      .single();
    expect(publish).toEqual({ reserved_count: 2, skipped_count: 0, bounced_count: 1 });
    await eventually(async () => {
      const { data } = await o.owner.client
        .from('audience_members')
        .select('sent_count, delivered_count')
        .eq('email', friend)
        .single();
      return data?.sent_count === 1 && data.delivered_count === 1;
    });
    expect(
      (
        await callFunction(
          'publish-letter',
          { blockId: o.blockId, group: 'nope' },
          o.owner.accessToken,
        )
      ).json.error?.message,
    ).toBe('No such group');
  });
});

describe('the calls a send makes (send-letter’s code run here)', () => {
  beforeAll(useFunctionEnv);
  afterAll(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it('reads the letter block with its private row, the stored letter in it, once', async () => {
    const o = await savedLetterOwner();
    const { db, calls } = recordingClient();
    const input = { ownerId: o.owner.id, blockId: o.blockId, group: null, register: false };
    const sent = await reserveSend({ ...input, emails: [inbox('calls')] }, db);
    expect(sent).toMatchObject({ reservedCount: 1, skippedCount: 0 });
    // before: block_private read a second time for the check (6 calls)
    expect(calls.map((c) => c.call).sort()).toEqual([
      ...SEND_CHECK_CALLS,
      'POST rpc/reserve_letter',
    ]);
    expect(calls.find((c) => c.call === 'GET blocks')!.select).toMatch(/\bletter\b/);
  });
});

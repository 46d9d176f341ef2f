// Sender emails through the real flows (supabase-js against the stack, the SES fake, the mailbox):
// an address is one owner's claim, verified only by that owner's own proof (issue 17). Two owners
// and one address in every order of add, verify and delete; the confirmation token bound to its
// owner and address, single use, expiring, stored hashed; the provider's identity kept while a
// confirmed claim needs it and removed with the last one; the attacks of the issue (a second
// owner verified without mail, sending from the address, the Brunch writer check).
import { createHash, randomUUID } from 'node:crypto';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
} from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { LOCAL_AWS } from '../local/config.ts';
import { BRUNCH_PROFILE_URL, BRUNCH_WRITER_EMAIL } from '../local/providers/pages/fixtures.ts';
import { emptyLetter } from '@reaction-blocks/contracts/letters';
import { SENDER_EMAIL_LIMITS, SENDER_MESSAGES } from '@reaction-blocks/contracts/schemas';
import {
  backendPid,
  callFunction,
  callWaitsOnLock,
  newGuest,
  newUser,
  sql,
  transaction,
  type TestUser,
} from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { runWorker } from './support/worker.ts';
import {
  eventually,
  fakeState,
  mailbox,
  sesClient,
  sesControl,
  type Mail,
} from './support/providers.ts';

interface Answer {
  status: number;
  data?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** Calls a function as the dashboard does: supabase-js with the owner's session. */
async function invoke(user: TestUser, name: string, body: unknown): Promise<Answer> {
  const { data, error } = await user.client.functions.invoke(name, { body: body as object });
  if (!error) return { status: 200, data: (data as { data: Record<string, unknown> }).data };
  const res = (error as { context?: unknown }).context;
  if (!(res instanceof Response)) throw error;
  const json = (await res.json()) as { error: Answer['error'] };
  return { status: res.status, error: json.error };
}

/** An address of the local zone's ready domain that only this test uses. */
const address = (label: string) => `${label}-${randomUUID().slice(0, 8)}@ses-ready.example`;

const CONFIRM_LINK = /https?:\/\/[^\s"<>\]]+\/profile\/email\?confirm=([A-Za-z0-9_-]{43})/;
const SES_LINK = /https?:\/\/[^\s"<>\]]+\/ses\/verify\?[^\s"<>\]]+/;
const isConfirmMail = (m: Mail) => CONFIRM_LINK.test(m.text ?? '');
const isSesMail = (m: Mail) => m.from.includes('no-reply-aws@amazon.com');

/** The newest mail to `to` matching `match` that was not in `before`. */
async function newMail(to: string, before: Set<string>, match: (m: Mail) => boolean) {
  return eventually(
    async () => (await mailbox(to)).find((m) => !before.has(m.id) && match(m)),
    15_000,
    async () => (await mailbox(to)).map((m) => m.subject),
  );
}
const seen = async (to: string) => new Set((await mailbox(to)).map((m) => m.id));

/** The provider's identity as SES answers it (the official client, the stack's account). */
async function identity(email: string): Promise<{ verified: boolean } | null> {
  try {
    const out = await sesClient(LOCAL_AWS.accessKeyId).send(
      new GetEmailIdentityCommand({ EmailIdentity: email }),
    );
    return { verified: out.VerifiedForSendingStatus === true };
  } catch (err) {
    if ((err as { name?: string }).name === 'NotFoundException') return null;
    throw err;
  }
}

/** The sender.release jobs of an account that went (one per confirmed claim), by address. */
const releaseJobs = (owner: TestUser) =>
  sql<{ email: string; status: string; attempts: number }>(
    `select payload ->> 'email' as email, status, attempts from private.jobs
     where kind = 'sender.release' and payload ->> 'user_id' = $1 order by 1`,
    [owner.id],
  );

/**
 * The sender.release jobs of an address once each is finished (the identity's fate decided after
 * the claims went: delete-mail-verified and an account's deletion both hand it to the worker).
 */
const released = (email: string) =>
  eventually(async () => {
    const jobs = await sql<{ status: string; result: { identity?: string } | null }>(
      `select status, result from private.jobs
       where kind = 'sender.release' and payload ->> 'email' = $1 order by id`,
      [email],
    );
    return jobs.every((j) => ['done', 'failed', 'unknown'].includes(j.status)) && jobs;
  });

/**
 * As if a day went by for the address: its last sender confirmation mail is yesterday's (one a day
 * per mailbox, whoever asks: hostile-sender-mail.test has that cap; the flows here ask again).
 */
const aDayLater = (email: string) =>
  sql(
    `update private.sender_confirmation_mails set mailed_at = mailed_at - interval '25 hours'
     where mailbox = private.mailbox_key($1)`,
    [email],
  );

/** Asks to verify (a day after any earlier ask): the answer and the token of the mail it sent. */
async function add(owner: TestUser, email: string) {
  await aDayLater(email);
  const before = await seen(email);
  const answer = await invoke(owner, 'request-mail-verify', { emailToVerify: email });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  if (answer.data?.state !== 'pending') return { answer, token: null };
  const mail = await newMail(email, before, isConfirmMail);
  const token = CONFIRM_LINK.exec(mail.text ?? '')?.[1] ?? CONFIRM_LINK.exec(mail.html ?? '')?.[1];
  expect(token, mail.text ?? '').toBeTruthy();
  return { answer, token: token!, mail };
}

/** Opens the confirmation link as its owner, then SES's own link when SES mailed one. */
async function confirm(owner: TestUser, email: string, token: string) {
  const before = await seen(email);
  const answer = await invoke(owner, 'confirm-mail-verify', { token });
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  if (answer.data?.state === 'awaiting_provider') {
    const mail = await newMail(email, before, isSesMail);
    const link = SES_LINK.exec(mail.text ?? mail.html ?? '')?.[0];
    expect((await fetch(link!.replace(/&amp;/g, '&'))).status).toBe(200);
  }
  return answer;
}

const check = (owner: TestUser, email: string) =>
  invoke(owner, 'check-mail-verified', { emailToVerify: email });

/** The Brunch check of a letter block: does the fixture profile show `email`, the owner's sender? */
const verifyBrunch = (owner: TestUser, blockId: string, email: string) =>
  invoke(owner, 'verify-brunch-id', { blockId, brunchProfilePage: BRUNCH_PROFILE_URL, email });

/** The Brunch profile a letter block keeps (set by a passed check only). */
async function brunchProfileOf(blockId: string) {
  const [row] = await sql<{ brunch_profile_page: string | null }>(
    'select brunch_profile_page from public.block_private where block_id = $1',
    [blockId],
  );
  return row!.brunch_profile_page;
}

describe('an address is one owner’s claim', () => {
  it('request, the confirmation mail, its link, SES’s link, check, SPF/DKIM, delete', async () => {
    const owner = await newUser('sender');
    const email = address('me');
    const requested = await callFunction(
      'request-mail-verify',
      { emailToVerify: ` ${email.toUpperCase()} ` },
      owner.accessToken,
    );
    expect(requested).toMatchObject({
      status: 200,
      json: { data: { status: true, email, state: 'pending' } },
    });
    const { data: rows } = await owner.client
      .from('sender_emails')
      .select('email, status, confirmed_at');
    expect(rows).toEqual([{ email, status: 'pending', confirmed_at: null }]);
    // only our mail so far: SES mails nobody before an owner proved the address
    const mails = await eventually(async () => {
      const all = await mailbox(email);
      return all.length > 0 && all;
    });
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.from).toBe('Reaction Blocks <notify@reaction-blocks.local>');
    expect(mail.subject).toBe('Confirm your sender address for Reaction Blocks');
    expect(mail.text).toContain(owner.email);
    expect(mail.text).toContain('within 24 hours');
    expect(await identity(email)).toBeNull();
    expect((await check(owner, email)).data).toEqual({
      status: true,
      result: false,
      confirmed: false,
    });

    const token = CONFIRM_LINK.exec(mail.text ?? '')![1]!;
    const before = await seen(email);
    const confirmed = await invoke(owner, 'confirm-mail-verify', { token });
    expect(confirmed.data).toEqual({ status: true, email, state: 'awaiting_provider' });
    expect((await check(owner, email)).data).toEqual({
      status: true,
      result: false,
      confirmed: true,
    });
    const sesMail = await newMail(email, before, isSesMail);
    expect(sesMail.subject).toMatch(/Email Address Verification Request/);
    await fetch(SES_LINK.exec(sesMail.text ?? '')![0]);
    expect((await check(owner, email)).data).toEqual({
      status: true,
      result: true,
      confirmed: true,
    });

    const checks = await invoke(owner, 'check-spf-dkim', { emailToVerify: email });
    expect(checks.data).toEqual({
      status: true,
      result: { spfVerified: true, dkimVerified: true, dmarcPolicy: null, sendsAs: 'own' },
    });
    const { data: checked } = await owner.client
      .from('sender_emails')
      .select('status, spf_verified, dkim_verified')
      .single();
    expect(checked).toEqual({ status: 'verified', spf_verified: true, dkim_verified: true });

    // another user sees none of it and cannot touch it; nobody deletes rows but the function
    const other = await newUser('other');
    expect((await other.client.from('sender_emails').select('*')).data).toEqual([]);
    expect((await invoke(other, 'delete-mail-verified', { emailToDelete: email })).status).toBe(
      404,
    );
    const direct = await owner.client.from('sender_emails').delete().eq('email', email).select();
    expect(direct.error?.code).toBe('42501');
    expect(await identity(email)).toEqual({ verified: true });

    const deleted = await invoke(owner, 'delete-mail-verified', { emailToDelete: email });
    expect(deleted.status).toBe(200);
    expect((await owner.client.from('sender_emails').select('*')).data).toEqual([]);
    expect(await released(email)).toMatchObject([
      { status: 'done', result: { identity: 'released' } },
    ]);
    expect(await identity(email)).toBeNull();
  });

  it('a second owner adding a verified address gets a mail of their own, and nothing until its link', async () => {
    const [a, b] = [await newUser('first'), await newUser('second')];
    const email = address('shared');
    const first = await add(a, email);
    await confirm(a, email, first.token!);
    expect((await check(a, email)).data?.result).toBe(true);

    const second = await add(b, email);
    expect(second.answer.data).toEqual({ status: true, email, state: 'pending' });
    // the mail names the account that asked
    expect(second.mail!.text).toContain(b.email);
    for (let i = 0; i < 2; i++) {
      expect((await check(b, email)).data).toEqual({
        status: true,
        result: false,
        confirmed: false,
      });
    }
    // asking again mails again but never verifies
    const again = await add(b, email);
    expect(again.answer.data?.state).toBe('pending');
    // the second owner's old link stopped working; the first owner's token is not theirs
    expect((await invoke(b, 'confirm-mail-verify', { token: second.token! })).error).toEqual({
      code: 'invalid_link',
      message: SENDER_MESSAGES.invalidLink,
    });
    const [row] = await sql<{ status: string; confirmed_at: string | null }>(
      'select status, confirmed_at from public.sender_emails where user_id = $1',
      [b.id],
    );
    expect(row).toEqual({ status: 'pending', confirmed_at: null });

    // with the link from the mailbox (the second owner controls it too, say a shared inbox)
    const confirmed = await invoke(b, 'confirm-mail-verify', { token: again.token! });
    expect(confirmed.data).toEqual({ status: true, email, state: 'verified' });
    expect((await check(b, email)).data?.result).toBe(true);
  });

  it('the token: bound to its owner, single use, expiring, replaced, stored only as a hash', async () => {
    const [owner, stranger] = [await newUser('token'), await newUser('thief')];
    const email = address('token');
    const { token } = await add(owner, email);
    const [stored] = await sql<{ token_hash: string; hours: number }>(
      `select t.token_hash, extract(epoch from t.expires_at - now()) / 3600 as hours
       from private.sender_email_tokens t join public.sender_emails s on s.id = t.sender_email_id
       where s.user_id = $1`,
      [owner.id],
    );
    expect(stored!.token_hash).toBe(createHash('sha256').update(token!).digest('hex'));
    expect(stored!.token_hash).not.toContain(token!);
    expect(Number(stored!.hours)).toBeGreaterThan(23.9);
    expect(Number(stored!.hours)).toBeLessThanOrEqual(24);

    // another account: refused and not spent
    const stolen = await invoke(stranger, 'confirm-mail-verify', { token });
    expect(stolen).toMatchObject({
      status: 403,
      error: { code: 'other_account', message: SENDER_MESSAGES.otherAccount },
    });
    expect((await stranger.client.from('sender_emails').select('*')).data).toEqual([]);
    // client roles cannot reach the token or its functions
    for (const fn of ['confirm_sender_email', 'request_sender_email']) {
      const direct = await stranger.client.rpc(fn, {
        p_user_id: stranger.id,
        p_token_hash: stored!.token_hash,
        p_email: email,
      });
      expect(direct.error, fn).not.toBeNull();
    }
    const guest = await newGuest();
    expect((await invoke(guest, 'confirm-mail-verify', { token })).status).toBe(403);
    expect((await callFunction('confirm-mail-verify', { token }, undefined)).status).toBe(401);

    // forged and malformed tokens
    for (const forged of [token!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), 'x'.repeat(43)]) {
      expect((await invoke(owner, 'confirm-mail-verify', { token: forged })).error?.code).toBe(
        'invalid_link',
      );
    }
    for (const bad of [{ token: 'short' }, { token: 42 }, {}, { token, extra: 1 }]) {
      const res = await invoke(owner, 'confirm-mail-verify', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }

    // expired
    await sql(
      `update private.sender_email_tokens set expires_at = now() - interval '1 second'
       where token_hash = $1`,
      [stored!.token_hash],
    );
    expect((await invoke(owner, 'confirm-mail-verify', { token })).error?.code).toBe(
      'invalid_link',
    );

    // a fresh one works once
    const fresh = await add(owner, email);
    expect((await confirm(owner, email, fresh.token!)).data?.email).toBe(email);
    expect((await invoke(owner, 'confirm-mail-verify', { token: fresh.token })).error?.code).toBe(
      'invalid_link',
    );
    expect(
      (
        await sql('select 1 from private.sender_email_tokens where token_hash = $1', [
          stored!.token_hash,
        ])
      ).length,
    ).toBe(0);

    // the database refuses a verified row nobody confirmed
    const other = await add(stranger, address('raw'));
    expect(other.token).toBeTruthy();
    await expect(
      sql(
        "update public.sender_emails set status = 'verified' where user_id = $1 and confirmed_at is null",
        [stranger.id],
      ),
    ).rejects.toThrow(/sender_emails_verified_needs_confirmation/);
  });

  it('two links opened at once spend the token once', async () => {
    const owner = await newUser('race');
    const email = address('race');
    const { token } = await add(owner, email);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => invoke(owner, 'confirm-mail-verify', { token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.error?.code === 'invalid_link')).toHaveLength(5);
  });

  it('a second owner cannot send from, save a letter with, or pass the Brunch check with another owner’s address', async () => {
    const [writer, thief] = [await newUser('writer'), await newUser('thief')];
    await sql('update public.profiles set paid = true, block_limit = 20 where id = any($1)', [
      [writer.id, thief.id],
    ]);
    // the writer verifies the address in their brunch profile through the mailbox
    const mine = await add(writer, BRUNCH_WRITER_EMAIL);
    if (mine.token) await confirm(writer, BRUNCH_WRITER_EMAIL, mine.token);
    expect((await check(writer, BRUNCH_WRITER_EMAIL)).data?.result).toBe(true);

    const stolen = await add(thief, BRUNCH_WRITER_EMAIL);
    expect(stolen.answer.data?.state).toBe('pending');
    expect((await check(thief, BRUNCH_WRITER_EMAIL)).data?.result).toBe(false);

    const blockId = await createBlock(thief, 'brunch_letter');
    const brunch = await verifyBrunch(thief, blockId, BRUNCH_WRITER_EMAIL);
    expect(brunch.error?.message).toBe('Verify the sender email first');
    const saved = await invoke(thief, 'save-letter', {
      blockId,
      letter: {
        title: 'Not mine',
        mailFrom: BRUNCH_WRITER_EMAIL,
        mailName: '',
        pageUrl: '',
        model: emptyLetter(),
      },
    });
    expect(saved.error?.message).toBe('Verify the sender email first');
    // a sender planted in the block by other means is checked again when sending
    await sql('update public.block_private set mail_from = $2 where block_id = $1', [
      blockId,
      BRUNCH_WRITER_EMAIL,
    ]);
    const sent = await invoke(thief, 'send-letter', { blockId, emailList: ['x@example.com'] });
    expect(sent.error?.message).toBe('Verify the sender email first');
    expect(await brunchProfileOf(blockId)).toBeNull();

    // the thief deleting their claim leaves the writer's address and identity as they were
    expect(
      (await invoke(thief, 'delete-mail-verified', { emailToDelete: BRUNCH_WRITER_EMAIL })).status,
    ).toBe(200);
    expect((await check(writer, BRUNCH_WRITER_EMAIL)).data?.result).toBe(true);
    expect(await identity(BRUNCH_WRITER_EMAIL)).toEqual({ verified: true });
  });

  // Found from a clean clone in the seventh hostile review (breaker, 2026-11-26, main at
  // ba3c9cc): verify-brunch-id looked for the address anywhere in the profile's text, so an
  // address that is part of the writer's passed. A thief who verifies a sender of their own whose
  // address is the tail of the writer's (a free mail account named like the end of theirs:
  // 'nch-writer@' inside 'brunch-writer@') took the writer's Brunch profile, and their letters
  // then accepted the writer's articles.
  it('the Brunch check wants the whole address: a part of the writer’s does not pass', async () => {
    const thief = await newUser('tail');
    await sql('update public.profiles set paid = true, block_limit = 20 where id = $1', [thief.id]);
    const tail = BRUNCH_WRITER_EMAIL.slice(BRUNCH_WRITER_EMAIL.indexOf('-') - 3);
    expect(BRUNCH_WRITER_EMAIL.endsWith(tail) && tail !== BRUNCH_WRITER_EMAIL).toBe(true);
    const mine = await add(thief, tail);
    if (mine.token) await confirm(thief, tail, mine.token);
    expect((await check(thief, tail)).data?.result).toBe(true);
    const blockId = await createBlock(thief, 'brunch_letter');
    const brunch = await verifyBrunch(thief, blockId, tail);
    expect(brunch.error?.message).toBe('Failed to verify writer');
    expect(await brunchProfileOf(blockId)).toBeNull();
  });

  it('an owner who never confirmed cannot take the platform’s or another owner’s identity away', async () => {
    const [owner, other] = [await newUser('holder'), await newUser('vandal')];
    const email = address('held');
    await confirm(owner, email, (await add(owner, email)).token!);
    await add(other, email);
    expect((await invoke(other, 'delete-mail-verified', { emailToDelete: email })).status).toBe(
      200,
    );
    expect(await identity(email)).toEqual({ verified: true });
    expect((await check(owner, email)).data?.result).toBe(true);
    // the platform's own sender: an owner adds it and deletes it; SES still sends as it
    await add(other, 'notify@reaction-blocks.local');
    await invoke(other, 'delete-mail-verified', { emailToDelete: 'notify@reaction-blocks.local' });
    expect(await identity('reaction-blocks.local')).toEqual({ verified: true });
  });

  it('an account that never confirmed an address leaves its identity at SES when it goes', async () => {
    // an identity no confirmed claim holds (made at SES by another hand): the trigger's check of
    // confirmed_at is what keeps it, as sender.release does not look at confirmed_at again
    const [owner, email] = [await newUser('unconfirmed-leaving'), address('unconfirmed')];
    await sesClient(LOCAL_AWS.accessKeyId).send(
      new CreateEmailIdentityCommand({ EmailIdentity: email }),
    );
    await add(owner, email);
    expect((await invoke(owner, 'delete-user', {})).status).toBe(200);
    expect(await releaseJobs(owner)).toEqual([]);
    await runWorker();
    expect(await identity(email)).not.toBeNull();
  });

  it('a few verification mails an hour per owner, then 429 and no mail', async () => {
    const owner = await newUser('loop');
    const email = address('loop');
    for (let i = 0; i < 5; i++) await add(owner, email);
    const count = (await mailbox(email)).length;
    const refused = await invoke(owner, 'request-mail-verify', { emailToVerify: email });
    expect(refused).toMatchObject({
      status: 429,
      error: { message: SENDER_MESSAGES.tooManyRequests },
    });
    expect((await mailbox(email)).length).toBe(count);
    // counted per owner: another owner may still ask
    expect((await add(await newUser('next'), email)).token).toBeTruthy();
  });

  it('ten addresses per owner, also when five new ones are asked at once', async () => {
    const owner = await newUser('ten');
    const claims = () =>
      sql<{ email: string }>('select email from public.sender_emails where user_id = $1', [
        owner.id,
      ]);
    await sql(
      `insert into public.sender_emails (user_id, email)
       select $1, unnest($2::text[])`,
      [owner.id, Array.from({ length: SENDER_EMAIL_LIMITS.addresses - 1 }, () => address('had'))],
    );
    // five new addresses at once (the hour's five calls): before, each read 9 claims and passed,
    // and the claims were written after the mails went, so the owner ended with 14
    const fresh = Array.from({ length: 5 }, () => address('burst'));
    const answers = await Promise.all(
      fresh.map((email) => invoke(owner, 'request-mail-verify', { emailToVerify: email })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.error).toEqual({ code: 'too_many', message: SENDER_MESSAGES.tooMany });
    }
    const taken = fresh[answers.findIndex((a) => a.status === 200)]!;
    expect((await claims()).map((c) => c.email)).toContain(taken);
    expect(await claims()).toHaveLength(SENDER_EMAIL_LIMITS.addresses);
    await newMail(taken, new Set(), isConfirmMail);
    // the refused were refused before anything was mailed
    for (const email of fresh.filter((e) => e !== taken)) expect(await mailbox(email)).toEqual([]);

    // a new hour: a full owner deletes one and adds another at once; asking again for an address
    // they hold takes no new place
    await sql('delete from private.owner_calls where user_id = $1', [owner.id]);
    const other = address('other');
    expect((await invoke(owner, 'request-mail-verify', { emailToVerify: other })).error).toEqual({
      code: 'too_many',
      message: SENDER_MESSAGES.tooMany,
    });
    expect((await invoke(owner, 'delete-mail-verified', { emailToDelete: taken })).status).toBe(
      200,
    );
    expect((await add(owner, other)).answer.data?.state).toBe('pending');
    expect((await add(owner, other)).answer.data?.state).toBe('pending');
    expect(await claims()).toHaveLength(SENDER_EMAIL_LIMITS.addresses);

    // a claim the owner deletes while its mail is out stays deleted: written again after the
    // mail, it would pass the count the reservation made
    await sql('delete from public.sender_emails where user_id = $1 and email = $2', [
      owner.id,
      other,
    ]);
    const late = address('late');
    const [reserved] = await sql<{ answer: { outcome: string; claim: string } }>(
      'select public.reserve_sender_confirmation($1, $2, $3) as answer',
      [owner.id, late, SENDER_EMAIL_LIMITS.addresses],
    );
    expect(reserved!.answer).toMatchObject({ outcome: 'reserved', claim: expect.any(String) });
    await sql('delete from public.sender_emails where id = $1', [reserved!.answer.claim]);
    const [written] = await sql<{ id: string | null }>(
      `select public.request_sender_email($1, $2, $3, null) as id`,
      [owner.id, late, 'a'.repeat(64)],
    );
    expect(written!.id).toBeNull();
    expect(await claims()).toHaveLength(SENDER_EMAIL_LIMITS.addresses - 1);
  });

  it('deleting an account releases the identity its confirmed claims held, and only those', async () => {
    const [leaving, staying] = [await newUser('leaving'), await newUser('staying')];
    const alone = address('alone');
    const shared = address('both');
    await confirm(leaving, alone, (await add(leaving, alone)).token!);
    await confirm(leaving, shared, (await add(leaving, shared)).token!);
    await confirm(staying, shared, (await add(staying, shared)).token!);
    expect((await invoke(leaving, 'delete-user', {})).status).toBe(200);
    // released by the jobs worker (sender.release), which delete-user kicks
    await eventually(async () => (await identity(alone)) === null);
    // the identity goes before its job writes its outcome: wait for the outcomes, not the effect
    await eventually(async () => {
      const jobs = await releaseJobs(leaving);
      return (
        jobs.length === 2 && jobs.every((j) => ['done', 'failed', 'unknown'].includes(j.status))
      );
    });
    expect(await releaseJobs(leaving)).toEqual([
      { email: alone, status: 'done', attempts: 1 },
      { email: shared, status: 'done', attempts: 1 },
    ]);
    expect(await identity(shared)).toEqual({ verified: true });
    expect((await check(staying, shared)).data?.result).toBe(true);
  });

  // capfix (2026-11-30): delete-mail-verified counted the other owners' confirmed claims, called
  // SES, then deleted its row, with no lock: two owners deleting at once each saw the other's
  // claim and the identity stayed at SES with no claim (4 rounds of 6); an owner confirming while
  // another deleted was verified against the identity about to go. Now the worker decides after
  // the rows changed (sender.release).
  it('two owners deleting a shared address at once leave no identity at SES, every round', async () => {
    for (let round = 1; round <= 4; round++) {
      const [a, b] = [await newUser('both-a'), await newUser('both-b')];
      const email = address('both-go');
      await confirm(a, email, (await add(a, email)).token!);
      await confirm(b, email, (await add(b, email)).token!);
      expect(await identity(email)).toEqual({ verified: true });
      const answers = await Promise.all(
        [a, b].map((owner) => invoke(owner, 'delete-mail-verified', { emailToDelete: email })),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const jobs = await released(email);
      expect(await identity(email), `round ${round}`).toBeNull();
      expect(jobs.map((job) => job.status)).toEqual(['done', 'done']);
    }
  }, 180_000);

  it('an owner confirming while another deletes keeps an identity to send from, every round', async () => {
    for (let round = 1; round <= 4; round++) {
      const [leaving, joining] = [await newUser('race-leaving'), await newUser('race-joining')];
      const email = address('race');
      await confirm(leaving, email, (await add(leaving, email)).token!);
      const { token } = await add(joining, email);
      const [gone, joined] = await Promise.all([
        invoke(leaving, 'delete-mail-verified', { emailToDelete: email }),
        invoke(joining, 'confirm-mail-verify', { token }),
      ]);
      expect([gone.status, joined.data?.email]).toEqual([200, email]);
      await released(email);
      const held = await identity(email);
      expect(held, `round ${round}`).not.toBeNull();
      // told as SES has it: verified only while SES sends as the address
      expect((await check(joining, email)).data, `round ${round}`).toEqual({
        status: true,
        result: held!.verified,
        confirmed: true,
      });
    }
  }, 180_000);

  it('a claim confirmed while the release deletes the identity gets it back, not verified until SES verifies it again', async () => {
    // the window the rounds above rarely meet, held open: SES carried the delete out and has not
    // answered yet when the other owner's claim is confirmed and settled as verified
    const [leaving, joining] = [await newUser('held-leaving'), await newUser('held-joining')];
    const email = address('held-release');
    await confirm(leaving, email, (await add(leaving, email)).token!);
    await add(joining, email);
    await sesControl('', { outageOf: { [email]: 'held' } });
    try {
      expect((await invoke(leaving, 'delete-mail-verified', { emailToDelete: email })).status).toBe(
        200,
      );
      // the list of identities names no address, so it is answered while the delete is held
      await eventually(async () => {
        const state = await fakeState<{ identities: { name: string }[] }>('ses');
        return !state.identities.some((i) => i.name === email);
      });
      await sql(
        `update public.sender_emails set confirmed_at = now(), status = 'verified'
         where user_id = $1 and email = $2`,
        [joining.id, email],
      );
    } finally {
      await sesControl('', { outageOf: { [email]: false } });
    }
    expect(await released(email)).toMatchObject([
      { status: 'done', result: { identity: 'restored' } },
    ]);
    expect(await identity(email)).toEqual({ verified: false });
    const [row] = await sql<{ status: string }>(
      'select status from public.sender_emails where user_id = $1',
      [joining.id],
    );
    expect(row).toEqual({ status: 'not_verified' });
    expect((await check(joining, email)).data).toEqual({
      status: true,
      result: false,
      confirmed: true,
    });
  });

  /** Identities at the SES fake, read without naming an address (answered while one is held). */
  const sesNames = async () =>
    (await fakeState<{ identities: { name: string }[] }>('ses')).identities.map((i) => i.name);

  /**
   * An owner's claim confirmed, SES's identity made and its link not opened yet, and the day of its
   * mails over: "send again" (request-mail-verify) then re-creates the identity.
   */
  async function awaitingSes(label: string) {
    const [owner, email] = [await newUser(label), address(label)];
    const { token } = await add(owner, email);
    const confirmed = await invoke(owner, 'confirm-mail-verify', { token });
    expect(confirmed.data?.state).toBe('awaiting_provider');
    await aDayLater(email);
    return { owner, email };
  }

  /**
   * The owner's "send again" of `email`, held in reserve_sender_confirmation (after it read the
   * claim as confirmed and SES's identity as there) by the owner's lock, taken from SQL, while
   * `during` runs; it goes on when the lock does. Its answer, not awaited.
   */
  async function askHeldInReserve(owner: TestUser, email: string, during: () => Promise<unknown>) {
    let answer: Promise<Answer> | undefined;
    await transaction(async (client) => {
      await client.query(
        `select pg_advisory_xact_lock(hashtextextended('sender_emails_cap:' || $1, 0))`,
        [owner.id],
      );
      answer = invoke(owner, 'request-mail-verify', { emailToVerify: email });
      await callWaitsOnLock('reserve_sender_confirmation', 15_000, await backendPid(client));
      await during();
    });
    return { answer: answer! };
  }

  it('"send again" of a claim its owner deleted meanwhile answers 404 and makes no claim and no identity', async () => {
    // before: the ask wrote a new pending claim (no link) and created the identity again; that
    // claim was never confirmed, so deleting it released nothing: an identity at SES, no claim
    const { owner, email } = await awaitingSes('again-gone');
    const ask = await askHeldInReserve(owner, email, async () => {
      expect((await invoke(owner, 'delete-mail-verified', { emailToDelete: email })).status).toBe(
        200,
      );
      expect(await released(email)).toMatchObject([
        { status: 'done', result: { identity: 'released' } },
      ]);
    });
    expect(await ask.answer).toMatchObject({ status: 404, error: { code: 'not_found' } });
    expect(await sql('select status from public.sender_emails where email = $1', [email])).toEqual(
      [],
    );
    expect(await identity(email)).toBeNull();
  });

  it('an identity "send again" made for a claim deleted while SES answered is released again', async () => {
    // the claim went after the ask read it and before SES created the identity: the claim's
    // release ran in between (nothing to delete) and, before, the new identity stayed
    const { owner, email } = await awaitingSes('again-late');
    let ask: { answer: Promise<Answer> } | undefined;
    try {
      ask = await askHeldInReserve(owner, email, () =>
        sesControl('', { outageOf: { [email]: 'held' } }),
      );
      // the ask deleted the old identity (to make it anew) and waits for SES's answer
      await eventually(async () => !(await sesNames()).includes(email));
      expect((await invoke(owner, 'delete-mail-verified', { emailToDelete: email })).status).toBe(
        200,
      );
      expect(await released(email)).toMatchObject([
        { status: 'done', result: { identity: 'released' } },
      ]);
    } finally {
      await sesControl('', { outageOf: { [email]: false } });
    }
    expect(await ask!.answer).toMatchObject({ status: 404, error: { code: 'not_found' } });
    await eventually(async () => (await identity(email)) === null, 15_000, sesNames);
    expect(await released(email)).toMatchObject([
      { status: 'done', result: { identity: 'released' } },
      { status: 'done', result: { identity: 'released' } },
    ]);
    expect(await sql('select 1 from public.sender_emails where email = $1', [email])).toEqual([]);
  });

  it.each([
    ['a settle (send again)', 'request-mail-verify', { state: 'awaiting_provider' }],
    ['check-mail-verified', 'check-mail-verified', { result: false, confirmed: true }],
  ])(
    '%s writing verified against an identity a release just made again does not leave the claim verified',
    async (_, fn, told) => {
      // the window the release cannot close itself: the call read "SES sends as it", then the last
      // other claim's release deleted the identity, read the claims again and gave it back (not
      // verified: releaseIdentity), and only then the call wrote `verified`; before, the claim
      // stayed verified while SES had an unverified identity. Held open with the claim's row locked
      // from SQL under the call's write.
      const [owner, email] = [await newUser('settle-late'), address('settle-late')];
      await add(owner, email);
      await sql(
        `update public.sender_emails set confirmed_at = now(), status = 'not_verified'
       where user_id = $1`,
        [owner.id],
      );
      await sesControl('/identities', { identity: email, verified: true });
      let answer: Promise<Answer> | undefined;
      await transaction(async (client) => {
        await client.query('select 1 from public.sender_emails where user_id = $1 for update', [
          owner.id,
        ]);
        answer = invoke(owner, fn, { emailToVerify: email });
        await callWaitsOnLock('sender_emails', 15_000, await backendPid(client));
        // the release's delete and its restore, as SES then has it
        await sesControl('/identities', { identity: email, verified: false });
      });
      expect((await answer!).data).toMatchObject({ status: true, ...told });
      expect(
        await sql('select status from public.sender_emails where user_id = $1', [owner.id]),
      ).toEqual([{ status: 'not_verified' }]);
      expect(await identity(email)).toEqual({ verified: false });
    },
  );

  it('an account deleted while SES is down goes at once; its identity goes when SES is back, released once', async () => {
    const leaving = await newUser('leaving-outage');
    const alone = address('outage');
    await confirm(leaving, alone, (await add(leaving, alone)).token!);
    await sesControl('', { outageOf: { [alone]: true } });
    try {
      expect((await invoke(leaving, 'delete-user', {})).status).toBe(200);
      expect(
        await sql('select 1 from public.sender_emails where user_id = $1', [leaving.id]),
      ).toEqual([]);
      // the first attempt fails at SES and is queued again (before: logged, and the identity
      // stayed), caught in its 5 s wait for the retry and held there (due in an hour): the queue's
      // own tick could take the retry before the job is aged below, and a worker holding it then
      // recorded its failure with 10 minutes of backoff over the attempts set (flaky)
      const failed = await eventually(async () => {
        const [job] = await sql<{ email: string; status: string; attempts: number }>(
          `update private.jobs set run_at = now() + interval '1 hour'
            where kind = 'sender.release' and payload ->> 'user_id' = $1
              and status = 'queued' and attempts >= 1
            returning payload ->> 'email' as email, status, attempts`,
          [leaving.id],
        );
        return job;
      });
      expect(failed).toEqual({ email: alone, status: 'queued', attempts: 1 });
      // past the queue's default 8 attempts (10.6 min of backoff): still queued, up to 100 (the
      // held job made due)
      await sql(
        `update private.jobs set attempts = 8, run_at = now()
         where kind = 'sender.release' and payload ->> 'user_id' = $1`,
        [leaving.id],
      );
      // attempt 9 is counted when the job is claimed: wait until it is queued again after it
      await eventually(async () => {
        const [job] = await releaseJobs(leaving);
        return job?.attempts === 9 && job.status === 'queued';
      });
      expect(
        await sql(
          `select status, max_attempts from private.jobs
           where kind = 'sender.release' and payload ->> 'user_id' = $1`,
          [leaving.id],
        ),
      ).toEqual([{ status: 'queued', max_attempts: 100 }]);
    } finally {
      await sesControl('', { outageOf: { [alone]: false } });
    }
    expect(await identity(alone)).toEqual({ verified: true });
    // the retry's backoff (5 s) made due now
    await sql(
      `update private.jobs set run_at = now() where kind = 'sender.release' and payload ->> 'user_id' = $1`,
      [leaving.id],
    );
    await eventually(async () => (await releaseJobs(leaving))[0]?.status === 'done');
    expect(await identity(alone)).toBeNull();
    expect(await releaseJobs(leaving)).toEqual([{ email: alone, status: 'done', attempts: 10 }]);
  });

  it('an identity already gone at SES is released as done (its 404 is no failure)', async () => {
    const leaving = await newUser('leaving-gone');
    const gone = address('gone');
    await confirm(leaving, gone, (await add(leaving, gone)).token!);
    await sesClient(LOCAL_AWS.accessKeyId).send(
      new DeleteEmailIdentityCommand({ EmailIdentity: gone }),
    );
    expect((await invoke(leaving, 'delete-user', {})).status).toBe(200);
    await eventually(async () => (await releaseJobs(leaving))[0]?.status === 'done');
    expect(await releaseJobs(leaving)).toEqual([{ email: gone, status: 'done', attempts: 1 }]);
  });

  it('SES refusing the release for good (a 400) fails the job at once, with its answer; nothing is retried', async () => {
    // before: retried like an outage, 100 times over about 90 hours
    const leaving = await newUser('leaving-denied');
    const denied = address('denied');
    await confirm(leaving, denied, (await add(leaving, denied)).token!);
    await sesControl('', { outageOf: { [denied]: 'denied' } });
    try {
      expect((await invoke(leaving, 'delete-user', {})).status).toBe(200);
      await eventually(async () => (await releaseJobs(leaving))[0]?.status === 'failed');
      expect(await releaseJobs(leaving)).toEqual([
        { email: denied, status: 'failed', attempts: 1 },
      ]);
      const [job] = await sql<{ last_error: string; finished: boolean }>(
        `select last_error, finished_at is not null as finished from private.jobs
         where kind = 'sender.release' and payload ->> 'user_id' = $1`,
        [leaving.id],
      );
      expect(job).toEqual({
        last_error: expect.stringMatching(/^AccessDeniedException: /),
        finished: true,
      });
      // the worker again: nothing of it is claimed
      await runWorker();
      expect(await releaseJobs(leaving)).toEqual([
        { email: denied, status: 'failed', attempts: 1 },
      ]);
    } finally {
      await sesControl('', { outageOf: { [denied]: false } });
    }
    // left at SES, for the operator to delete by hand (docs/architecture.md)
    expect(await identity(denied)).toEqual({ verified: true });
  });
});

// ---------------------------------------------------------------------------------------------
// two owners, one address, every order
// ---------------------------------------------------------------------------------------------

type Step = 'add' | 'verify' | 'delete';
type Event = { who: 0 | 1; step: Step };

/** Every interleaving of two owners' own sequences (each keeps its order). */
function interleavings(a: Step[], b: Step[]): Event[][] {
  if (!a.length) return [b.map((step) => ({ who: 1 as const, step }))];
  if (!b.length) return [a.map((step) => ({ who: 0 as const, step }))];
  return [
    ...interleavings(a.slice(1), b).map((rest) => [{ who: 0 as const, step: a[0]! }, ...rest]),
    ...interleavings(a, b.slice(1)).map((rest) => [{ who: 1 as const, step: b[0]! }, ...rest]),
  ];
}

const FULL: Step[] = ['add', 'verify', 'delete'];
// the second owner as an attacker who never gets the mail
const NEVER_VERIFIES: Step[] = ['add', 'delete'];
const ORDERS = [...interleavings(FULL, FULL), ...interleavings(FULL, NEVER_VERIFIES)];

const label = (order: Event[]) => order.map((e) => `${'AB'[e.who]}.${e.step}`).join(' ');

async function runOrder(order: Event[]) {
  const owners = [await newUser('owner-a'), await newUser('owner-b')] as const;
  const email = address('two');
  const state = [0, 1].map(() => ({ added: false, confirmed: false, token: '' }));
  for (const [i, event] of order.entries()) {
    const owner = owners[event.who];
    const mine = state[event.who]!;
    const where = `${label(order)} at step ${i + 1}`;
    if (event.step === 'add') {
      const { answer, token } = await add(owner, email);
      expect(answer.data?.state, where).toBe('pending');
      Object.assign(mine, { added: true, token });
    } else if (event.step === 'verify') {
      const answer = await confirm(owner, email, mine.token);
      expect(answer.data?.email, where).toBe(email);
      mine.confirmed = true;
    } else {
      const answer = await invoke(owner, 'delete-mail-verified', { emailToDelete: email });
      expect(answer.status, `${where}: ${JSON.stringify(answer.error)}`).toBe(200);
      Object.assign(mine, { added: false, confirmed: false });
      await released(email);
    }
    // what each owner is told, what the database says, what SES holds
    for (const who of [0, 1] as const) {
      const s = state[who]!;
      if (!s.added) {
        // the answer's error in the message: a 500 seen once in CI (b38b38e) said nothing more
        const answer = await check(owners[who], email);
        expect(answer.status, `${where}: ${'AB'[who]} ${JSON.stringify(answer.error)}`).toBe(404);
        continue;
      }
      // the answer's error in the message, as above: a CI run at 00:38 got no data here once
      const checked = await check(owners[who], email);
      expect(checked.data, `${where}: ${'AB'[who]} ${JSON.stringify(checked.error)}`).toEqual({
        status: true,
        result: s.confirmed,
        confirmed: s.confirmed,
      });
    }
    const held = state.some((s) => s.confirmed);
    expect(await identity(email), where).toEqual(held ? { verified: true } : null);
  }
}

describe('two owners, one address, every order of add, verify and delete', () => {
  it(`${ORDERS.length} orders hold: each owner verified only by their own link, the identity kept while a confirmed claim needs it`, async () => {
    expect(ORDERS).toHaveLength(30);
    // a few orders at a time: each has its own owners and address
    const queue = [...ORDERS];
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let order = queue.shift(); order; order = queue.shift()) await runOrder(order);
      }),
    );
  }, 300_000);
});

/** An order written out: 'A.add B.delete ...'. */
const parse = (text: string): Event[] =>
  text.split(' ').map((e) => ({ who: e[0] === 'A' ? 0 : 1, step: e.slice(2) as Step }));

// Re-adding after a delete, by either owner (B never gets the mail): a claim made again starts
// from nothing, and the link of the one before it is dead.
const READDS = [
  'A.add A.verify A.delete A.add A.verify',
  'A.add A.verify B.add A.delete B.delete B.add A.add A.verify',
  'B.add A.add A.verify B.delete B.add A.delete A.add',
  'A.add A.verify A.delete B.add A.add B.delete A.verify B.add',
  'B.add B.delete B.add A.add B.delete A.verify B.add A.delete',
].map(parse);

describe('two owners, one address, re-added after a delete', () => {
  it(`${READDS.length} orders with a re-add hold as the others do`, async () => {
    for (const order of READDS) await runOrder(order);
  }, 180_000);

  it("the link of a deleted claim does not confirm the claim made again, and only the owner's new link does", async () => {
    const owner = await newUser('readd');
    const email = address('readd');
    const first = await add(owner, email);
    const gone = await invoke(owner, 'delete-mail-verified', { emailToDelete: email });
    expect(gone.status).toBe(200);
    const again = await add(owner, email);
    expect(again.token).not.toBe(first.token);
    expect((await invoke(owner, 'confirm-mail-verify', { token: first.token })).error?.code).toBe(
      'invalid_link',
    );
    expect((await check(owner, email)).data).toMatchObject({ result: false, confirmed: false });
    expect((await confirm(owner, email, again.token!)).data?.email).toBe(email);
    expect((await check(owner, email)).data).toMatchObject({ result: true, confirmed: true });
  });
});

describe('sender email input and outages', () => {
  it('a DMARC reject domain sends from the platform address; a bare domain has no SPF', async () => {
    const owner = await newUser('dmarc');
    for (const [email, expected] of [
      [
        `a-${randomUUID().slice(0, 6)}@reject.example`,
        { spfVerified: false, dkimVerified: false, dmarcPolicy: 'reject', sendsAs: 'platform' },
      ],
      [
        `b-${randomUUID().slice(0, 6)}@bare.example`,
        { spfVerified: false, dkimVerified: false, dmarcPolicy: null, sendsAs: 'own' },
      ],
    ] as const) {
      expect((await invoke(owner, 'request-mail-verify', { emailToVerify: email })).status).toBe(
        200,
      );
      const res = await invoke(owner, 'check-spf-dkim', { emailToVerify: email });
      expect(res.data).toEqual({ status: true, result: expected });
    }
  });

  it.each([
    ['an invalid address', { emailToVerify: 'not-an-email' }, 400, 'Invalid email address.'],
    ['61 characters', { emailToVerify: `${'a'.repeat(49)}@example.com` }, 400, 'Too long message'],
    ['a missing field', {}, 400, /Invalid email address/],
    ['an unknown field', { emailToVerify: 'a@example.com', extra: 1 }, 400, /extra|Unrecognized/i],
  ])('refuses %s with a clear 400 and writes nothing', async (_, body, status, message) => {
    const owner = await newUser('bad');
    const res = await callFunction('request-mail-verify', body, owner.accessToken);
    expect(res.status).toBe(status);
    expect(res.json.error?.message).toMatch(message);
    expect((await owner.client.from('sender_emails').select('*')).data).toEqual([]);
  });

  it.each(['request-mail-verify', 'check-mail-verified', 'check-spf-dkim', 'delete-mail-verified'])(
    '%s answers bad input with a clear 4xx and changes nothing',
    async (name) => {
      const owner = await newUser('input');
      const field = name === 'delete-mail-verified' ? 'emailToDelete' : 'emailToVerify';
      const rowsOf = () =>
        sql('select email from public.sender_emails where user_id = $1', [owner.id]);
      const cases: Array<[unknown, number, RegExp]> = [
        [{ [field]: 'not-an-email' }, 400, /Invalid email address\./],
        [{ [field]: 42 }, 400, /Invalid email address\./],
        [{ [field]: `${'a'.repeat(49)}@example.com` }, 400, /Too long message/],
        [{}, 400, /Invalid email address/],
        [{ [field]: 'a@example.com', more: true }, 400, /more|Unrecognized/i],
      ];
      for (const [body, status, message] of cases) {
        const res = await callFunction(name, body, owner.accessToken);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.json.error?.message, JSON.stringify(body)).toMatch(message);
      }
      const notJson = await callFunction(name, '{"x":', owner.accessToken, { raw: true });
      expect(notJson.status).toBe(400);
      expect(notJson.json.error?.code).toBe('invalid_json');
      expect((await callFunction(name, { [field]: 'a@example.com' }, undefined)).status).toBe(401);
      // an address the caller never added
      if (name !== 'request-mail-verify') {
        const res = await callFunction(name, { [field]: 'nobody@example.com' }, owner.accessToken);
        expect(res.status).toBe(404);
      }
      expect(await rowsOf()).toEqual([]);
    },
  );

  it('refuses guests and missing tokens, and says when the provider is down, writing nothing', async () => {
    const guest = await newGuest();
    expect(
      (await invoke(guest, 'request-mail-verify', { emailToVerify: 'g@example.com' })).status,
    ).toBe(403);
    expect(
      (await callFunction('request-mail-verify', { emailToVerify: 'g@example.com' }, undefined))
        .status,
    ).toBe(401);
    const owner = await newUser('outage');
    const down = `down-${randomUUID().slice(0, 8)}@example.com`;
    await sesControl('', { outageOf: { [down]: true } });
    try {
      const res = await invoke(owner, 'request-mail-verify', { emailToVerify: down });
      expect(res.status).toBe(503);
      expect(res.error?.message).toBe(SENDER_MESSAGES.unavailable);
    } finally {
      await sesControl('', { outageOf: { [down]: false } });
    }
    expect((await owner.client.from('sender_emails').select('*')).data).toEqual([]);
    expect(await mailbox(down)).toEqual([]);
    // the mail that did not go spent no day of the address: the owner asks again at once
    expect((await invoke(owner, 'request-mail-verify', { emailToVerify: down })).status).toBe(200);
  });

  it('the mail is in the owner’s language and names the account by its sign-in address only', async () => {
    const owner = await newUser('korean');
    // the owner chooses where this mail goes: a profile name must not make it their advert
    await sql(
      "update public.profiles set language = 'ko', name = 'WIN A FREE IPHONE at spam.example' where id = $1",
      [owner.id],
    );
    const email = address('ko');
    const { mail } = await add(owner, email);
    expect(mail!.subject).toBe('Reaction Blocks 발신 주소를 확인해 주세요');
    expect(mail!.html).toContain('lang="ko"');
    expect(mail!.html).toContain(owner.email);
    expect(mail!.html).not.toContain('IPHONE');
    expect(mail!.text).not.toContain('IPHONE');
  });
});

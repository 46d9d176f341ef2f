// The local providers remember what the database remembers (issue 17): a stack of its own is
// stopped as Ctrl-C stops `npm start` and started again on the same data directory; the sender
// the owner verified is still verified at SES and sends, the connected Notion workspace still
// answers its token, the mailbox still holds its mail (and its verification links still work),
// and a DNS record and a billing key added by hand are still there.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateEmailIdentityCommand,
  GetEmailIdentityCommand,
  SendEmailCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_JWT_SECRET, freePorts, LOCAL_AWS, LOCAL_NOTION } from '../local/config.ts';
import { providersStateDir } from '../local/paths.ts';
import { startStack, type Stack } from '../local/stack.ts';
import { PORTONE_DEFAULTS } from '../local/providers/portone/index.ts';
import { eventually } from './support/providers.ts';

const dir = mkdtempSync(join(tmpdir(), 'rb-restart-'));
const dataDir = join(dir, 'pg');
let running: Stack | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const start = async () =>
  (running = await startStack({
    ports: await freePorts(),
    dataDir,
    jwtSecret: DEFAULT_JWT_SECRET,
    // a throwaway database (stopped cleanly between the two starts)
    durable: false,
    seed: false,
  }));

const ses = (stack: Stack) =>
  new SESv2Client({
    endpoint: `${stack.providersUrl}/ses`,
    region: LOCAL_AWS.region,
    credentials: { accessKeyId: LOCAL_AWS.accessKeyId, secretAccessKey: 'x' },
  });

/** Signs the owner in as tests do with email sign-in off: a link from the admin API, verified. */
async function signIn(stack: Stack, email: string): Promise<SupabaseClient> {
  const admin = createClient(stack.apiUrl, stack.serviceRoleKey, {
    auth: { persistSession: false },
  });
  const link = await admin.auth.admin.generateLink({ type: 'magiclink', email });
  if (link.error) throw link.error;
  const client = createClient(stack.apiUrl, stack.anonKey, { auth: { persistSession: false } });
  const { error } = await client.auth.verifyOtp({
    token_hash: link.data.properties.hashed_token,
    type: 'magiclink',
  });
  if (error) throw error;
  return client;
}

async function call(client: SupabaseClient, name: string, body: object) {
  const { data, error } = await client.functions.invoke(name, { body });
  if (error) {
    const res = (error as { context?: Response }).context;
    throw new Error(`${name}: ${res ? await res.text() : error.message}`);
  }
  return (data as { data: Record<string, unknown> }).data;
}

const mail = async (stack: Stack, to: string) =>
  (await fetch(`${stack.providersUrl}/mailbox/messages?to=${encodeURIComponent(to)}`).then((r) =>
    r.json(),
  )) as Array<{ id: string; subject: string; text: string }>;

const OWNER = 'restart-owner@test.local';
const SENDER = 'restart-sender@ses-ready.example';
const LATER = 'restart-later@ses-ready.example';

describe('a restart of the stack', () => {
  it('keeps what the fakes hold: verified senders, Notion workspaces, the mailbox, DNS, billing keys', async () => {
    // ---- before: an owner verifies a sender and connects Notion through the real flows
    let stack = await start();
    const admin = createClient(stack.apiUrl, stack.serviceRoleKey, {
      auth: { persistSession: false },
    });
    const created = await admin.auth.admin.createUser({
      email: OWNER,
      email_confirm: true,
      app_metadata: { owner: true },
    });
    expect(created.error).toBeNull();
    // Notion is a paid feature
    const paid = await admin
      .from('profiles')
      .update({ paid: true })
      .eq('id', created.data.user!.id);
    expect(paid.error).toBeNull();
    let owner = await signIn(stack, OWNER);

    await call(owner, 'request-mail-verify', { emailToVerify: SENDER });
    const confirmation = await eventually(async () => (await mail(stack, SENDER))[0]);
    const token = /profile\/email\?confirm=([\w-]{43})/.exec(confirmation.text)![1]!;
    expect(await call(owner, 'confirm-mail-verify', { token })).toMatchObject({
      state: 'awaiting_provider',
    });
    const sesMail = await eventually(async () =>
      (await mail(stack, SENDER)).find((m) => m.subject.includes('Verification Request')),
    );
    await fetch(/https?:\/\/\S+\/ses\/verify\?token=[\w-]+/.exec(sesMail.text)![0]);
    expect(await call(owner, 'check-mail-verified', { emailToVerify: SENDER })).toMatchObject({
      result: true,
    });
    // a second address whose SES link is still unopened when the stack stops
    await ses(stack).send(new CreateEmailIdentityCommand({ EmailIdentity: LATER }));
    const pending = await eventually(async () => (await mail(stack, LATER))[0]);

    const redirectUrl = `${stack.webUrl}/oauth/notion`;
    const authorize = new URL(
      ((await call(owner, 'notion-authorize', { redirectUrl })) as { url: string }).url,
    );
    const allowed = await fetch(`${stack.providersUrl}/notion/v1/oauth/authorize`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: stack.providersUrl,
      },
      body: new URLSearchParams({
        client_id: LOCAL_NOTION.clientId,
        redirect_uri: redirectUrl,
        state: authorize.searchParams.get('state')!,
        workspace_id: '',
        workspace_name: 'Kept workspace',
        email: OWNER,
        decision: 'allow',
      }),
      redirect: 'manual',
    });
    const code = new URL(allowed.headers.get('location')!).searchParams.get('code');
    await call(owner, 'set-notion-token', {
      code,
      redirectUrl,
      state: authorize.searchParams.get('state'),
    });
    const found = (await call(owner, 'search-notion-objects', { target: 'database' })) as {
      objects: unknown[];
    };
    expect(found.objects.length).toBeGreaterThan(0);

    const record = {
      name: 'restart.example',
      type: 'TXT',
      value: 'v=spf1 include:amazonses.com ~all',
    };
    expect(
      (
        await fetch(`${stack.providersUrl}/dns/records`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(record),
        })
      ).status,
    ).toBe(201);
    const { billingKey } = (await fetch(`${stack.providersUrl}/portone/_control/billing-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerId: 'restart-customer' }),
    }).then((r) => r.json())) as { billingKey: string };
    expect(billingKey).toBeTruthy();
    const mailIds = (await mail(stack, SENDER)).map((m) => m.id);

    // ---- Ctrl-C, then `npm start` on the same data directory (other ports, as may happen)
    await stack.stop();
    running = undefined;
    expect(readdirSync(providersStateDir(dataDir)).sort()).toEqual(
      expect.arrayContaining(['mailbox.jsonl', 'ses.json', 'notion.json', 'dns.json']),
    );
    stack = await start();
    owner = await signIn(stack, OWNER);

    // SES still has the verified identity: the page says so and a mail from it goes out
    expect(
      (await ses(stack).send(new GetEmailIdentityCommand({ EmailIdentity: SENDER })))
        .VerifiedForSendingStatus,
    ).toBe(true);
    expect(await call(owner, 'check-mail-verified', { emailToVerify: SENDER })).toMatchObject({
      result: true,
      confirmed: true,
    });
    const sent = await ses(stack).send(
      new SendEmailCommand({
        FromEmailAddress: SENDER,
        Destination: { ToAddresses: ['reader@example.com'] },
        Content: {
          Simple: { Subject: { Data: 'After the restart' }, Body: { Text: { Data: 'hello' } } },
        },
      }),
    );
    expect(sent.MessageId).toBeTruthy();
    // the mailbox kept its mail, and the verification link mailed before the stop still works
    expect((await mail(stack, SENDER)).map((m) => m.id)).toEqual(mailIds);
    const link = /https?:\/\/\S+\/ses\/verify\?token=[\w-]+/.exec(pending.text)![0];
    const relinked = link.replace(/^http:\/\/127\.0\.0\.1:\d+/, stack.providersUrl);
    expect((await fetch(relinked)).status).toBe(200);
    expect(
      (await ses(stack).send(new GetEmailIdentityCommand({ EmailIdentity: LATER })))
        .VerifiedForSendingStatus,
    ).toBe(true);

    // Notion still knows the workspace and the token the database holds
    const again = (await call(owner, 'search-notion-objects', { target: 'database' })) as {
      objects: unknown[];
    };
    expect(again.objects.length).toBe(found.objects.length);

    const records = (await fetch(`${stack.providersUrl}/dns/records?name=restart.example`).then(
      (r) => r.json(),
    )) as Array<{ value: string }>;
    expect(records.map((r) => r.value)).toEqual([record.value]);
    const key = await fetch(`${stack.providersUrl}/billing-keys/${billingKey}`, {
      headers: { authorization: `PortOne ${PORTONE_DEFAULTS.apiSecret}` },
    });
    expect(key.status).toBe(200);
  }, 300_000);
});

// The SES v2 fake on the providers server, driven by the unmodified @aws-sdk/client-sesv2
// against the test stack: sending (Simple, Raw) into the mailbox, identities and their
// verification mail, SES's refusals and outages, and event publishing through signed SNS
// messages checked with an implementation of AWS's documented verification algorithm.
// Every test uses an access key id of its own: an account of its own in the fake.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  ListEmailIdentitiesCommand,
  SendEmailCommand,
  type SendEmailCommandInput,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import { randomUUID, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from '../local/functions.ts';
import { Mailbox } from '../local/providers/mailbox.ts';
import { paths } from '../local/paths.ts';
import { SENDER_DOMAIN } from '../local/config.ts';
import {
  eventually,
  fakeState,
  mailbox,
  newAccessKeyId,
  providersUrl,
  sesClient,
  sesControl,
  snsReceiver,
  snsSignatureValid,
  waitForMail,
  type SnsPost,
} from './support/providers.ts';

const FROM = `no-reply@${SENDER_DOMAIN}`;
const rcpt = (label = 'r') => `${label}-${randomUUID().slice(0, 8)}@inbox.example`;

function simple(to: string, subject = `Hello ${randomUUID().slice(0, 6)}`): SendEmailCommandInput {
  return {
    FromEmailAddress: `"Reaction Blocks" <${FROM}>`,
    Destination: { ToAddresses: [to] },
    Content: {
      Simple: {
        Subject: { Data: subject },
        Body: { Html: { Data: '<p>Hi</p>' }, Text: { Data: 'Hi' } },
      },
    },
  };
}

/** The error an SDK call throws (fails the test if it resolves). */
async function failure(
  p: Promise<unknown>,
): Promise<Error & { $metadata: { httpStatusCode?: number; attempts?: number } }> {
  try {
    await p;
  } catch (err) {
    return err as never;
  }
  throw new Error('expected the call to fail');
}

/**
 * An account of the test's own in the fake (its access key id): its client, its control
 * switches, and a simple message sent to `to`.
 */
function ownAccount(opts: { maxAttempts?: number } = {}) {
  const key = newAccessKeyId();
  const client = sesClient(key, opts);
  return {
    key,
    client,
    control: (body: Record<string, unknown>) => sesControl('', body, key),
    send: (to: string) => client.send(new SendEmailCommand(simple(to))),
  };
}

describe('SES fake: sending', () => {
  let ses: SESv2Client;
  beforeAll(() => {
    ses = sesClient(newAccessKeyId());
  });

  it('stores Simple content in the mailbox with SES headers, Cc, Bcc and custom headers', async () => {
    const to = rcpt('to');
    const cc = rcpt('cc');
    const bcc = rcpt('bcc');
    const input = simple(to, 'Café & <b>news</b>');
    input.Destination = { ToAddresses: [`Reader <${to}>`], CcAddresses: [cc], BccAddresses: [bcc] };
    input.ReplyToAddresses = ['replies@reaction-blocks.local'];
    input.Content!.Simple!.Headers = [{ Name: 'X-Block-Id', Value: 'b-123' }];
    const { MessageId, $metadata } = await ses.send(new SendEmailCommand(input));
    expect($metadata.httpStatusCode).toBe(200);
    expect(MessageId).toMatch(/^[0-9a-f]{16}-[0-9a-f-]{36}-000000$/);

    const [mail] = await mailbox(to);
    expect(mail).toMatchObject({
      id: MessageId,
      from: `Reaction Blocks <${FROM}>`,
      to: [`Reader <${to}>`],
      cc: [cc],
      bcc: [bcc],
      replyTo: ['replies@reaction-blocks.local'],
      subject: 'Café & <b>news</b>',
      html: '<p>Hi</p>',
      text: 'Hi',
      source: 'ses',
    });
    expect(mail!.headers).toMatchObject({
      From: `Reaction Blocks <${FROM}>`,
      To: `Reader <${to}>`,
      Cc: cc,
      'Reply-To': 'replies@reaction-blocks.local',
      'X-Block-Id': 'b-123',
      'MIME-Version': '1.0',
      'Message-ID': `<${MessageId}@email.amazonses.com>`,
    });
    expect(mail!.headers.Subject).toBe(
      `=?UTF-8?B?${Buffer.from('Café & <b>news</b>').toString('base64')}?=`,
    );
    expect(Object.keys(mail!.headers).map((h) => h.toLowerCase())).not.toContain('bcc');
    // every recipient finds it, and the filter is exact
    expect((await mailbox(bcc)).map((m) => m.id)).toEqual([MessageId]);
    expect((await mailbox(cc)).map((m) => m.id)).toEqual([MessageId]);
    expect(await mailbox(rcpt())).toEqual([]);
  });

  it('reads Raw content: MIME parts, encoded headers, recipients from the headers, Bcc taken out', async () => {
    const to = rcpt('raw');
    const hidden = rcpt('hidden');
    const subject = '주간 소식 — weekly';
    const raw = [
      `From: =?UTF-8?B?${Buffer.from('리액션 블록').toString('base64')}?= <${FROM}>`,
      `To: ${to}`,
      `Bcc: ${hidden}`,
      `Subject: =?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`,
      'X-Campaign: spring',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative; boundary="part"',
      '',
      '--part',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('안녕하세요\nhttps://example.com/a').toString('base64'),
      '--part',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '<p>caf=C3=A9 <a href=3D"https://example.com/a">link</a></p>',
      '--part--',
      '',
    ].join('\r\n');
    const { MessageId } = await ses.send(
      new SendEmailCommand({ Content: { Raw: { Data: Buffer.from(raw) } } }),
    );
    const [mail] = await mailbox(to);
    expect(mail).toMatchObject({
      id: MessageId,
      from: `리액션 블록 <${FROM}>`,
      to: [to],
      bcc: [hidden],
      subject,
      text: '안녕하세요\nhttps://example.com/a',
    });
    expect(mail!.html).toContain('<p>café <a href="https://example.com/a">link</a></p>');
    expect(mail!.headers['X-Campaign']).toBe('spring');
    expect(mail!.headers.Bcc).toBeUndefined();
    expect((await mailbox(hidden)).map((m) => m.id)).toEqual([MessageId]);
  });

  it('sends Raw content to the Destination given instead of the headers', async () => {
    const listed = rcpt('listed');
    const actual = rcpt('actual');
    const raw = `From: ${FROM}\r\nTo: ${listed}\r\nSubject: envelope\r\n\r\nbody\r\n`;
    await ses.send(
      new SendEmailCommand({
        Destination: { ToAddresses: [actual] },
        Content: { Raw: { Data: Buffer.from(raw) } },
      }),
    );
    const [mail] = await mailbox(actual);
    expect(mail).toMatchObject({
      to: [listed],
      bcc: [actual],
      subject: 'envelope',
      text: 'body\n',
    });
    expect(await mailbox(listed)).toHaveLength(0);
  });

  it('answers what SES refuses with its error shapes, storing nothing', async () => {
    const to = rcpt('refused');
    const cases: Array<[SendEmailCommandInput, string, number, RegExp]> = [
      [{ ...simple(to), Destination: undefined }, 'BadRequestException', 400, /recipients/],
      [{ ...simple(to), Content: {} }, 'BadRequestException', 400, /Simple, Raw or Template/],
      [
        { ...simple(to), FromEmailAddress: undefined },
        'BadRequestException',
        400,
        /FromEmailAddress/,
      ],
      [
        { ...simple(to), FromEmailAddress: 'not an address' },
        'BadRequestException',
        400,
        /Illegal address/,
      ],
      [
        { ...simple(to), Content: { Template: { TemplateName: 't', TemplateData: '{}' } } },
        'BadRequestException',
        400,
        /templates/,
      ],
      [
        { ...simple(to), ConfigurationSetName: 'no-such-set' },
        'NotFoundException',
        404,
        /no-such-set/,
      ],
      [
        { ...simple(to), Destination: { ToAddresses: Array.from({ length: 51 }, () => rcpt()) } },
        'BadRequestException',
        400,
        /exceeds 50/,
      ],
      [
        {
          ...simple(to),
          Content: {
            Simple: {
              Subject: { Data: 's' },
              Body: { Text: { Data: 't' } },
              Attachments: [{ FileName: 'a.txt', RawContent: Buffer.from('a') }],
            },
          },
        },
        'BadRequestException',
        400,
        /attachments/,
      ],
      [
        { ...simple(to), EmailTags: [{ Name: 'bad tag', Value: 'x' }] },
        'BadRequestException',
        400,
        /tag/i,
      ],
    ];
    for (const [input, name, status, message] of cases) {
      const err = await failure(ses.send(new SendEmailCommand(input)));
      expect(err.name, JSON.stringify(input)).toBe(name);
      expect(err.$metadata.httpStatusCode).toBe(status);
      expect(err.message).toMatch(message);
    }
    expect(await mailbox(to)).toEqual([]);
  });

  it('refuses a From whose identity is not verified (MessageRejected), unless the check is off', async () => {
    const { client, control } = ownAccount();
    const to = rcpt('unverified');
    const input = { ...simple(to), FromEmailAddress: 'Someone <someone@unverified.example>' };
    const err = await failure(client.send(new SendEmailCommand(input)));
    expect(err.name).toBe('MessageRejected');
    expect(err.$metadata.httpStatusCode).toBe(400);
    expect(err.message).toBe(
      'Email address is not verified. The following identities failed the check in region US-EAST-1: Someone <someone@unverified.example>, someone@unverified.example',
    );
    expect(await mailbox(to)).toEqual([]);

    // a verified parent domain covers its subdomains, as on SES
    await client.send(
      new SendEmailCommand({ ...simple(to), FromEmailAddress: `news@mail.${SENDER_DOMAIN}` }),
    );

    await control({ verifyFrom: false });
    await client.send(new SendEmailCommand(input));
    expect((await mailbox(to)).map((m) => m.from)).toEqual([
      'Someone <someone@unverified.example>',
      `news@mail.${SENDER_DOMAIN}`,
    ]);
  });

  it('in the sandbox refuses unverified recipients but not the mailbox simulator', async () => {
    const { client, control, send } = ownAccount();
    await control({ sandbox: true });
    const to = rcpt('sandboxed');
    const err = await failure(send(to));
    expect(err.name).toBe('MessageRejected');
    expect(err.message).toContain(to);
    await send('success@simulator.amazonses.com');
    expect((await client.send(new GetAccountCommand({}))).ProductionAccessEnabled).toBe(false);
  });

  it('during an outage answers 503 ServiceUnavailable or throttles, the SDK retries, nothing is stored', async () => {
    const { key, client, control, send } = ownAccount();
    const to = rcpt('outage');
    await control({ outage: true });
    const down = await failure(send(to));
    expect(down.name).toBe('ServiceUnavailable');
    expect(down.$metadata.httpStatusCode).toBe(503);
    expect(down.$metadata.attempts).toBe(3); // the SDK's standard retries, all refused

    await control({ outage: 'throttle' });
    const throttled = await failure(
      sesClient(key, { maxAttempts: 2 }).send(new SendEmailCommand(simple(to))),
    );
    expect(throttled.name).toBe('TooManyRequestsException');
    expect(throttled.$metadata.httpStatusCode).toBe(429);
    expect(throttled.$metadata.attempts).toBe(2);
    const identity = await failure(
      client.send(new GetEmailIdentityCommand({ EmailIdentity: SENDER_DOMAIN })),
    );
    expect(identity.name).toBe('TooManyRequestsException');
    expect(await mailbox(to)).toEqual([]);

    await control({ outage: false });
    await send(to);
    expect(await mailbox(to)).toHaveLength(1);
  });

  it('limits an outage to the addresses named in outageFor, sends and identities alike', async () => {
    const { client, control, send } = ownAccount({ maxAttempts: 1 });
    const down = rcpt('down');
    const up = rcpt('up');
    await control({ outage: true, outageFor: [down.toUpperCase()] });
    expect((await failure(send(down))).name).toBe('ServiceUnavailable');
    // named as a Cc, or as the identity, it is down too
    const cc = { ...simple(up), Destination: { ToAddresses: [up], CcAddresses: [down] } };
    expect((await failure(client.send(new SendEmailCommand(cc)))).name).toBe('ServiceUnavailable');
    expect(
      (await failure(client.send(new CreateEmailIdentityCommand({ EmailIdentity: down })))).name,
    ).toBe('ServiceUnavailable');
    await send(up);
    await client.send(new GetEmailIdentityCommand({ EmailIdentity: SENDER_DOMAIN }));
    expect(await mailbox(up)).toHaveLength(1);
    expect(await mailbox(down)).toEqual([]);
    await expect(control({ outageFor: 'everyone' })).rejects.toThrow(/400/);

    await control({ outage: false, outageFor: [] });
    await send(down);
    expect(await mailbox(down)).toHaveLength(1);
  });

  it('keeps outages of single addresses apart: outageOf sets and clears one address at a time', async () => {
    // test files share the stack's own account: one file's outage must outlive another's reset
    const { control, send } = ownAccount({ maxAttempts: 1 });
    const down = rcpt('down-of');
    const refused = rcpt('refused-of');
    await control({ outageOf: { [down]: true } });
    await control({ outageOf: { [refused.toUpperCase()]: 'denied' } });
    const names = async () => [
      (await failure(send(down))).name,
      (await failure(send(refused))).name,
    ];
    expect(await names()).toEqual(['ServiceUnavailable', 'AccessDeniedException']);
    // the account-wide switch going back up leaves them down
    await control({ outage: false, outageFor: [] });
    expect(await names()).toEqual(['ServiceUnavailable', 'AccessDeniedException']);
    await control({ outageOf: { [down]: false } });
    await send(down);
    expect((await failure(send(refused))).name).toBe('AccessDeniedException');
    await expect(control({ outageOf: { nobody: true } })).rejects.toThrow(/400/);
    await expect(control({ outageOf: { [down]: 'sometimes' } })).rejects.toThrow(/400/);
    await control({ outageOf: { [refused]: false } });
    await send(refused);
    expect(await mailbox(refused)).toHaveLength(1);
  });

  it('limits the sending rate to MaxSendRate when one is set', async () => {
    const { control, send } = ownAccount({ maxAttempts: 1 });
    await control({ maxSendRate: 1 });
    const to = rcpt('rate');
    // three sends span at most two seconds, so at most two get through
    const results = await Promise.allSettled([1, 2, 3].map(() => send(to)));
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason as Error);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const err of refused) {
      expect(err.name).toBe('TooManyRequestsException');
      expect(err.message).toBe('Maximum sending rate exceeded.');
    }
    expect(await mailbox(to)).toHaveLength(3 - refused.length);
  });

  it('refuses other sites and other host names (cross-site forms, DNS rebinding)', async () => {
    const crossSite = await fetch(`${providersUrl()}/ses/_control`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ outage: true }),
    });
    expect(crossSite.status).toBe(403);
    const state = await (await fetch(`${providersUrl()}/ses/_control/state`)).json();
    expect(state.settings.outage).toBe(false);
    const own = await fetch(`${providersUrl()}/dns/records`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: providersUrl() },
      body: `name=form-${randomUUID().slice(0, 8)}.example&type=TXT&value=v%3Dspf1+-all`,
      redirect: 'manual',
    });
    expect(own.status).toBe(303);
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${providersUrl()}/mailbox/messages`);
      request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { host: `rebound.example:${url.port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });

  it('refuses an unsigned request', async () => {
    const res = await fetch(`${providersUrl()}/ses/v2/email/outbound-emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(simple(rcpt())),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
  });
});

describe('SES fake: control API', () => {
  it('resets one account, leaving the others', async () => {
    const key = newAccessKeyId();
    const other = newAccessKeyId();
    const domain = `reset-${randomUUID().slice(0, 8)}.example`;
    await sesClient(key).send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
    await sesClient(other).send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
    await sesControl('', { outage: true, sandbox: true }, key);
    const fresh = await sesControl<{
      settings: { outage: boolean; sandbox: boolean };
      identities: Array<{ name: string }>;
    }>('/reset', {}, key);
    expect(fresh.settings).toMatchObject({ outage: false, sandbox: false });
    expect(fresh.identities.map((i) => i.name)).toEqual([SENDER_DOMAIN]);
    expect(
      (await sesClient(other).send(new GetEmailIdentityCommand({ EmailIdentity: domain })))
        .IdentityType,
    ).toBe('DOMAIN');
    await expect(sesControl('', { outage: 'sometimes' }, key)).rejects.toThrow(/400/);
  });
});

describe('SES fake: identities', () => {
  it('verifies an address through the link in the verification mail, then deletes it', async () => {
    const ses = sesClient(newAccessKeyId());
    const address = rcpt('sender');
    const created = await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: address }));
    expect(created).toMatchObject({
      IdentityType: 'EMAIL_ADDRESS',
      VerifiedForSendingStatus: false,
    });
    expect(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: address }))).toMatchObject({
      VerificationStatus: 'PENDING',
      VerifiedForSendingStatus: false,
    });
    const again = await failure(
      ses.send(new CreateEmailIdentityCommand({ EmailIdentity: address })),
    );
    expect(again.name).toBe('AlreadyExistsException');

    // not yet verified: it cannot send
    const blocked = await failure(
      ses.send(new SendEmailCommand({ ...simple(rcpt()), FromEmailAddress: address })),
    );
    expect(blocked.name).toBe('MessageRejected');

    const mail = await waitForMail(address);
    expect(mail.from).toBe('no-reply-aws@amazon.com');
    expect(mail.subject).toBe(
      'Amazon Web Services – Email Address Verification Request in region US East (N. Virginia)',
    );
    const link = /https?:\/\/\S+\/ses\/verify\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    // the mailbox page shows the link clickable
    const view = await (await fetch(`${providersUrl()}/mailbox/${mail.id}`)).text();
    expect(view).toContain(`<a href="${link}"`);

    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('successfully verified');
    expect(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: address }))).toMatchObject({
      IdentityType: 'EMAIL_ADDRESS',
      VerificationStatus: 'SUCCESS',
      VerifiedForSendingStatus: true,
    });
    const to = rcpt();
    await ses.send(new SendEmailCommand({ ...simple(to), FromEmailAddress: address }));
    expect((await mailbox(to))[0]!.from).toBe(address);
    // a used link does not work twice
    expect((await fetch(link!)).status).toBe(400);

    const listed = await ses.send(new ListEmailIdentitiesCommand({}));
    expect(listed.EmailIdentities?.map((i) => i.IdentityName)).toContain(address);

    await ses.send(new DeleteEmailIdentityCommand({ EmailIdentity: address }));
    const gone = await failure(ses.send(new GetEmailIdentityCommand({ EmailIdentity: address })));
    expect(gone.name).toBe('NotFoundException');
    expect(gone.$metadata.httpStatusCode).toBe(404);
    expect(
      (await failure(ses.send(new DeleteEmailIdentityCommand({ EmailIdentity: address })))).name,
    ).toBe('NotFoundException');
  });

  it('gives a domain DKIM tokens and verifies it once the zone publishes the CNAMEs', async () => {
    const ses = sesClient(newAccessKeyId());
    const domain = `d-${randomUUID().slice(0, 8)}.example`;
    const created = await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
    expect(created.IdentityType).toBe('DOMAIN');
    expect(created.DkimAttributes?.Status).toBe('PENDING');
    const tokens = created.DkimAttributes!.Tokens!;
    expect(tokens).toHaveLength(3);
    for (const t of tokens) expect(t).toMatch(/^[a-z2-7]{32}$/);

    for (const t of tokens.slice(0, 2))
      await addRecord(`${t}._domainkey.${domain}`, 'CNAME', `${t}.dkim.amazonses.com`);
    expect(
      (await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }))).DkimAttributes
        ?.Status,
    ).toBe('PENDING');
    await addRecord(
      `${tokens[2]}._domainkey.${domain}`,
      'CNAME',
      `${tokens[2]}.dkim.amazonses.com`,
    );
    const verified = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
    expect(verified).toMatchObject({
      VerificationStatus: 'SUCCESS',
      VerifiedForSendingStatus: true,
    });
    expect(verified.DkimAttributes).toMatchObject({
      Status: 'SUCCESS',
      SigningEnabled: true,
      Tokens: tokens,
    });
    const to = rcpt();
    await ses.send(new SendEmailCommand({ ...simple(to), FromEmailAddress: `hello@${domain}` }));
    expect(await mailbox(to)).toHaveLength(1);
  });

  it('verifies the seeded ses-ready.example at once, and lets tests set a status', async () => {
    const key = newAccessKeyId();
    const ses = sesClient(key);
    const created = await ses.send(
      new CreateEmailIdentityCommand({ EmailIdentity: 'ses-ready.example' }),
    );
    expect(created.DkimAttributes?.Status).toBe('SUCCESS');
    await sesControl('/identities', { identity: 'ses-ready.example', status: 'FAILED' }, key);
    expect(
      await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'ses-ready.example' })),
    ).toMatchObject({
      VerificationStatus: 'FAILED',
      VerifiedForSendingStatus: false,
    });
    const err = await failure(
      ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'not a domain' })),
    );
    expect(err.name).toBe('BadRequestException');
  });
});

async function addRecord(name: string, type: string, value: string) {
  const res = await fetch(`${providersUrl()}/dns/records`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, type, value }),
  });
  expect(res.status).toBe(201);
}

describe('SES fake: events through SNS', () => {
  let receiver: Awaited<ReturnType<typeof snsReceiver>>;
  let key: string;
  let ses: SESv2Client;
  let certPem: string;
  const notifications = (messageId: string) =>
    receiver.posts.filter(
      (p) =>
        p.body.Type === 'Notification' &&
        (JSON.parse(p.body.Message!) as { mail: { messageId: string } }).mail.messageId ===
          messageId,
    );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read through, checked by toMatchObject
  const event = (p: SnsPost) => JSON.parse(p.body.Message!) as Record<string, any>;
  const waitForEvent = (messageId: string, type: string) =>
    receiver.waitFor(
      (p) =>
        p.body.Type === 'Notification' &&
        event(p).eventType === type &&
        event(p).mail.messageId === messageId,
    );
  const send = async (extra: Partial<SendEmailCommandInput> = {}) => {
    const to = rcpt('events');
    const { MessageId } = await ses.send(
      new SendEmailCommand({
        ...simple(to),
        ConfigurationSetName: 'reaction-blocks',
        EmailTags: [{ Name: 'job', Value: 'j-42' }],
        ...extra,
      }),
    );
    return { to, messageId: MessageId! };
  };

  beforeAll(async () => {
    receiver = await snsReceiver();
    key = newAccessKeyId();
    ses = sesClient(key);
    await sesControl(
      '',
      { deliveryDelayMs: 0, retry: { numRetries: 3, minDelayMs: 20, maxDelayMs: 100 } },
      key,
    );
  });
  afterAll(() => receiver.close());

  it('confirms the subscription first; until then events are dropped, as SNS does', async () => {
    const early = await send();
    const state = await sesControl<{ subscription: { status: string } }>(
      '/webhook',
      { url: receiver.url },
      key,
    );
    expect(state.subscription.status).toBe('PendingConfirmation');

    const confirmation = await receiver.waitFor((p) => p.body.Type === 'SubscriptionConfirmation');
    expect(confirmation.headers).toMatchObject({
      'x-amz-sns-message-type': 'SubscriptionConfirmation',
      'x-amz-sns-message-id': confirmation.body.MessageId,
      'x-amz-sns-topic-arn': confirmation.body.TopicArn,
      'content-type': 'text/plain; charset=UTF-8',
    });
    expect(confirmation.body).toMatchObject({ SignatureVersion: '1' });
    expect(confirmation.body.Token).toMatch(/^[0-9a-f]{64,}$/);
    expect(confirmation.body.SubscribeURL).toContain('Action=ConfirmSubscription');
    const certUrl = confirmation.body.SigningCertURL!;
    expect(certUrl.startsWith(`${providersUrl()}/`)).toBe(true);
    expect(certUrl).toMatch(/\/SimpleNotificationService-[0-9a-f]+\.pem$/);
    certPem = await (await fetch(certUrl)).text();
    // a well-formed X.509 certificate, self-signed, valid now
    const cert = new X509Certificate(certPem);
    expect(cert.subject).toContain('CN=sns.amazonaws.com');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now());
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now());
    expect(snsSignatureValid(confirmation.body, certPem)).toBe(true);

    // a send while pending: its events are dropped
    const pending = await send();
    await eventually(async () => {
      const { deliveries } = await fakeState<{
        deliveries: Array<{ status: string; summary: Record<string, string> }>;
      }>('ses', `?account=${key}`);
      return deliveries.some(
        (d) =>
          d.status === 'dropped' &&
          d.summary.messageId === pending.messageId &&
          d.summary.eventType === 'Delivery',
      );
    });
    const confirmed = await fetch(confirmation.body.SubscribeURL!);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('<SubscriptionArn>');
    expect(
      (await fakeState<{ subscription: { status: string } }>('ses', `?account=${key}`)).subscription
        .status,
    ).toBe('Confirmed');

    const after = await send();
    await waitForEvent(after.messageId, 'Delivery');
    expect(notifications(early.messageId)).toEqual([]);
    expect(notifications(pending.messageId)).toEqual([]);
  });

  it('publishes Send and Delivery in SES event format, signed (SignatureVersion 1)', async () => {
    const { to, messageId } = await send();
    const sendPost = await waitForEvent(messageId, 'Send');
    const delivery = await waitForEvent(messageId, 'Delivery');
    for (const post of [sendPost, delivery]) {
      expect(post.headers).toMatchObject({
        'x-amz-sns-message-type': 'Notification',
        'x-amz-sns-message-id': post.body.MessageId,
        'x-amz-sns-topic-arn': post.body.TopicArn,
      });
      expect(post.headers['x-amz-sns-subscription-arn']).toMatch(
        new RegExp(`^${post.body.TopicArn}:`),
      );
      expect(post.body).toMatchObject({ Type: 'Notification', SignatureVersion: '1' });
      expect(post.body.UnsubscribeURL).toContain('Action=Unsubscribe');
      expect(snsSignatureValid(post.body, certPem)).toBe(true);
    }
    expect(event(sendPost)).toMatchObject({ eventType: 'Send', send: {} });
    const record = event(delivery);
    expect(record.mail).toMatchObject({
      source: `"Reaction Blocks" <${FROM}>`,
      messageId,
      destination: [to],
      headersTruncated: false,
      commonHeaders: { from: [`Reaction Blocks <${FROM}>`], to: [to], messageId },
      tags: {
        'ses:configuration-set': ['reaction-blocks'],
        'ses:from-domain': [SENDER_DOMAIN],
        'ses:caller-identity': [key],
        job: ['j-42'],
      },
    });
    expect(record.mail.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(record.mail.headers).toEqual(expect.arrayContaining([{ name: 'To', value: to }]));
    expect(record.delivery).toMatchObject({
      recipients: [to],
      smtpResponse: '250 2.6.0 Message received',
    });
  });

  it('publishes Open when the tracking pixel is fetched, and Bounce, Complaint, Reject on demand', async () => {
    const { to, messageId } = await send();
    const [mail] = await mailbox(to);
    const pixel = /<img alt="" src="([^"]+\/ses\/open\/[\w-]+)"/.exec(mail!.html!)?.[1];
    expect(pixel).toBeDefined();
    const img = await fetch(pixel!, { headers: { 'user-agent': 'TestMail/1.0' } });
    expect(img.headers.get('content-type')).toBe('image/gif');
    const open = event(await waitForEvent(messageId, 'Open'));
    expect(open.open).toMatchObject({ userAgent: 'TestMail/1.0', ipAddress: '127.0.0.1' });

    const bounced = await sesControl<{ snsMessageId: string }>('/bounce', {
      messageId,
      type: 'Permanent',
    });
    expect(bounced.snsMessageId).toMatch(/^[0-9a-f-]{36}$/);
    const bounce = event(await waitForEvent(messageId, 'Bounce')).bounce;
    expect(bounce).toMatchObject({
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [{ emailAddress: to, action: 'failed', status: '5.1.1' }],
    });
    await sesControl('/complaint', { messageId });
    expect(event(await waitForEvent(messageId, 'Complaint')).complaint).toMatchObject({
      complainedRecipients: [{ emailAddress: to }],
      complaintFeedbackType: 'abuse',
    });
    await sesControl('/reject', { messageId });
    expect(event(await waitForEvent(messageId, 'Reject')).reject).toEqual({
      reason: 'Bad content',
    });
    for (const post of notifications(messageId))
      expect(snsSignatureValid(post.body, certPem)).toBe(true);
  });

  it("bounces and complains for the mailbox simulator's addresses by itself", async () => {
    const { messageId } = await send({
      Destination: {
        ToAddresses: ['bounce@simulator.amazonses.com', 'complaint@simulator.amazonses.com'],
      },
    });
    expect(
      event(await waitForEvent(messageId, 'Bounce')).bounce.bouncedRecipients[0].emailAddress,
    ).toBe('bounce@simulator.amazonses.com');
    expect(event(await waitForEvent(messageId, 'Delivery')).delivery.recipients).toEqual([
      'complaint@simulator.amazonses.com',
    ]);
    await waitForEvent(messageId, 'Complaint');
  });

  it('signs with SHA256 under SignatureVersion 2; a tampered message fails verification', async () => {
    await sesControl('', { signatureVersion: '2' }, key);
    const { messageId } = await send();
    const post = await waitForEvent(messageId, 'Delivery');
    expect(post.body.SignatureVersion).toBe('2');
    expect(snsSignatureValid(post.body, certPem)).toBe(true);
    // a v2 signature does not pass as v1, and no field can change unnoticed
    expect(snsSignatureValid({ ...post.body, SignatureVersion: '1' }, certPem)).toBe(false);
    const tampered = { ...post.body, Message: post.body.Message!.replace('Delivery', 'Bounce') };
    expect(snsSignatureValid(tampered, certPem)).toBe(false);
    expect(snsSignatureValid({ ...post.body, TopicArn: `${post.body.TopicArn}x` }, certPem)).toBe(
      false,
    );
    const v1 = receiver.posts.find(
      (p) => p.body.SignatureVersion === '1' && p.body.Type === 'Notification',
    )!;
    expect(snsSignatureValid({ ...v1.body, Timestamp: new Date().toISOString() }, certPem)).toBe(
      false,
    );
    await sesControl('', { signatureVersion: '1' }, key);
  });

  it('retries a failing endpoint with the same MessageId, and duplicates on demand', async () => {
    const failures = new Map<string, number>();
    receiver.respond((post) => {
      const id = post.body.MessageId!;
      const n = failures.get(id) ?? 0;
      failures.set(id, n + 1);
      return post.body.Type === 'Notification' && n < 2 ? 500 : 200;
    });
    try {
      const { messageId } = await send();
      await eventually(
        () =>
          notifications(messageId).filter((p) => event(p).eventType === 'Delivery').length === 3,
      );
      const deliveries = notifications(messageId).filter((p) => event(p).eventType === 'Delivery');
      expect(new Set(deliveries.map((p) => p.body.MessageId)).size).toBe(1);
      expect(new Set(deliveries.map((p) => p.raw)).size).toBe(1);
      const state = await fakeState<{
        deliveries: Array<{ snsMessageId: string; status: string; attempts: number }>;
      }>('ses', `?account=${key}`);
      expect(
        state.deliveries.find((d) => d.snsMessageId === deliveries[0]!.body.MessageId),
      ).toMatchObject({
        status: 'delivered',
        attempts: 3,
      });
    } finally {
      receiver.respond(200);
    }

    await sesControl('', { duplicates: true }, key);
    const { messageId } = await send();
    await eventually(
      () => notifications(messageId).filter((p) => event(p).eventType === 'Delivery').length === 2,
    );
    const twice = notifications(messageId).filter((p) => event(p).eventType === 'Delivery');
    expect(twice[0]!.body.MessageId).toBe(twice[1]!.body.MessageId);
    await sesControl('', { duplicates: false }, key);
  });

  it('adds List-Unsubscribe for list mail; following it publishes a Subscription event', async () => {
    const { to, messageId } = await send({
      ListManagementOptions: { ContactListName: 'letters', TopicName: 'weekly' },
      Content: {
        Simple: {
          Subject: { Data: 'Letter' },
          Body: { Html: { Data: '<a href="{{amazonSESUnsubscribeUrl}}">Unsubscribe</a>' } },
        },
      },
    });
    const [mail] = await mailbox(to);
    expect(mail!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<(.+)>$/.exec(mail!.headers['List-Unsubscribe']!)![1]!;
    expect(mail!.html).toContain(`<a href="${url}">Unsubscribe</a>`);
    const oneClick = await fetch(url, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    expect(event(await waitForEvent(messageId, 'Subscription')).subscription).toMatchObject({
      contactList: 'letters',
      source: 'UnsubscribeHeader',
      newTopicPreferences: {
        unsubscribeAll: true,
        topicSubscriptionStatus: [{ topicName: 'weekly', subscriptionStatus: 'OptOut' }],
      },
    });
  });

  it("diverts one recipient's events to another endpoint, signed as ever, and only theirs", async () => {
    const elsewhere = await snsReceiver();
    try {
      const diverted = rcpt('diverted');
      await sesControl('/divert', { recipient: diverted, url: elsewhere.url }, key);
      const mine = await send({ Destination: { ToAddresses: [diverted] } });
      const other = await send();
      const away = await elsewhere.waitFor(
        (p) =>
          p.body.Type === 'Notification' &&
          event(p).eventType === 'Delivery' &&
          event(p).mail.messageId === mine.messageId,
      );
      expect(snsSignatureValid(away.body, certPem)).toBe(true);
      await waitForEvent(other.messageId, 'Delivery');
      expect(notifications(mine.messageId)).toEqual([]);
      expect(elsewhere.posts.some((p) => p.raw.includes(other.messageId))).toBe(false);

      // ended: the subscription has them again
      await sesControl('/divert', { recipient: diverted, url: null }, key);
      const again = await send({ Destination: { ToAddresses: [diverted] } });
      await waitForEvent(again.messageId, 'Delivery');
      await expect(sesControl('/divert', { recipient: 'nobody', url: null }, key)).rejects.toThrow(
        /400/,
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('sends an UnsubscribeConfirmation and stops when the UnsubscribeURL is followed', async () => {
    const { messageId } = await send();
    const delivery = await waitForEvent(messageId, 'Delivery');
    const res = await fetch(delivery.body.UnsubscribeURL!);
    expect(res.status).toBe(200);
    const bye = await receiver.waitFor((p) => p.body.Type === 'UnsubscribeConfirmation');
    expect(snsSignatureValid(bye.body, certPem)).toBe(true);
    const later = await send();
    const state = await fakeState<{
      subscription: unknown;
    }>('ses', `?account=${key}`);
    expect(state.subscription).toBeNull();
    expect(notifications(later.messageId)).toEqual([]);
  });
});

describe('mailbox', () => {
  it('renders the developer page with every subject escaped, and each mail with its HTML sandboxed', async () => {
    const ses = sesClient(newAccessKeyId());
    const to = rcpt('page');
    const subject = `<script>alert(1)</script> ${randomUUID().slice(0, 6)}`;
    const input = simple(to, subject);
    input.Content!.Simple!.Body = {
      Html: { Data: '<p>Body <script>alert(2)</script><a href="https://example.com/x">x</a></p>' },
    };
    const { MessageId } = await ses.send(new SendEmailCommand(input));

    const index = await fetch(`${providersUrl()}/`);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await index.text();
    expect(html).toContain(
      subject.replace('<script>', '&lt;script&gt;').replace('</script>', '&lt;/script&gt;'),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain(`href="/mailbox/${MessageId}"`);

    const view = await (await fetch(`${providersUrl()}/mailbox/${MessageId}`)).text();
    expect(view).not.toContain('<script>');
    expect(view).toContain(
      `<iframe title="HTML part of the mail" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" src="/mailbox/messages/${MessageId}/html">`,
    );
    const frame = await fetch(`${providersUrl()}/mailbox/messages/${MessageId}/html`);
    const csp = frame.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox allow-popups');
    expect(csp).not.toContain('allow-scripts');
    expect(await frame.text()).toMatch(/^<base target="_blank"><p>Body/);

    const one = await (await fetch(`${providersUrl()}/mailbox/messages/${MessageId}`)).json();
    expect(one).toMatchObject({ id: MessageId, subject, to: [to] });
    expect((await fetch(`${providersUrl()}/mailbox/messages/nope`)).status).toBe(404);
  });

  it('keeps a bounded number of messages and bytes, dropping the oldest', () => {
    const box = new Mailbox({ maxMessages: 3, maxBytes: 4000 });
    const add = (id: string, size = 10) =>
      box.add({
        id,
        from: 'a@x.example',
        to: [`T <${id}@x.example>`],
        subject: id,
        html: 'h'.repeat(size),
        text: null,
        headers: {},
        source: 'test',
      });
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) add(id);
    expect(box.list().map((m) => m.id)).toEqual(['m5', 'm4', 'm3']);
    expect(box.get('m1')).toBeUndefined();
    expect(box.list({ to: 'M4@x.example' }).map((m) => m.id)).toEqual(['m4']);
    add('big', 3000); // with the 512-byte allowance per mail, only it and one more fit
    expect(box.list().map((m) => m.id)).toEqual(['big']);
    expect(box.clear()).toBe(1);
    expect(box.size).toBe(0);
  });

  it('clears one recipient’s mail with DELETE ?to=, leaving the rest', async () => {
    const ses = sesClient(newAccessKeyId());
    const a = rcpt('a');
    const b = rcpt('b');
    await ses.send(new SendEmailCommand(simple(a)));
    await ses.send(new SendEmailCommand(simple(b)));
    const res = await fetch(`${providersUrl()}/mailbox/messages?to=${encodeURIComponent(a)}`, {
      method: 'DELETE',
    });
    expect(await res.json()).toEqual({ deleted: 1 });
    expect(await mailbox(a)).toEqual([]);
    expect(await mailbox(b)).toHaveLength(1);
  });
});

describe('SES fake from Deno', () => {
  it('takes mail from the SDK as the functions import it (npm: specifier in deno.json)', async () => {
    const to = rcpt('deno');
    const script = `
      import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
      const ses = new SESv2Client({ endpoint: Deno.env.get('SES_ENDPOINT'), region: 'us-east-1',
        credentials: { accessKeyId: 'AKIADENOTEST0000000', secretAccessKey: 'x' } });
      const out = await ses.send(new SendEmailCommand({ FromEmailAddress: '${FROM}',
        Destination: { ToAddresses: ['${to}'] },
        Content: { Simple: { Subject: { Data: 'from deno' }, Body: { Text: { Data: 'hi' } } } } }));
      console.log(out.MessageId);`;
    const { stdout } = await promisify(execFile)(
      denoBinary(),
      ['eval', '--config', join(paths.functions, 'deno.json'), script],
      {
        cwd: paths.root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DENO_NO_UPDATE_CHECK: '1',
          SES_ENDPOINT: `${providersUrl()}/ses`,
        },
        timeout: 60_000,
      },
    );
    const [mail] = await mailbox(to);
    expect(mail).toMatchObject({ id: stdout.trim(), subject: 'from deno', text: 'hi' });
  });
});

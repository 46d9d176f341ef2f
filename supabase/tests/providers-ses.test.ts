// The SES v2 fake on the providers server, driven by the unmodified @aws-sdk/client-sesv2
// against the test stack: sending (Simple, Raw) into the mailbox, SES's refusals and outages,
// the mailbox itself, and the SDK from Deno. Identities and the control API are in
// providers-ses-identities.test.ts, event publishing through signed SNS messages in
// providers-ses-events.test.ts; the messages the three send in support/providers.ts.
// Every test uses an access key id of its own: an account of its own in the fake.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CreateEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  SendEmailCommand,
  type SendEmailCommandInput,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from '../local/functions.ts';
import { Mailbox } from '../local/providers/mailbox.ts';
import { paths } from '../local/paths.ts';
import { SENDER_DOMAIN } from '../local/config.ts';
import {
  simple,
  newAccessKeyId,
  sesClient,
  sesControl,
  mailbox,
  rcpt,
  FROM,
  failure,
  providersUrl,
} from './support/providers.ts';

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

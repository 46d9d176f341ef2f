// The SES v2 fake's identities (an address verified through the link in its mail, a domain
// through DKIM records in the zone, the seeded ones) and its control API, driven by the
// unmodified @aws-sdk/client-sesv2 against the test stack (sending: providers-ses.test.ts).
// Every test uses an access key id of its own: an account of its own in the fake.
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  ListEmailIdentitiesCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SENDER_DOMAIN } from '../local/config.ts';
import {
  newAccessKeyId,
  sesClient,
  sesControl,
  rcpt,
  failure,
  waitForMail,
  mailbox,
  providersUrl,
  simple,
} from './support/providers.ts';

async function addRecord(name: string, type: string, value: string) {
  const res = await fetch(`${providersUrl()}/dns/records`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, type, value }),
  });
  expect(res.status).toBe(201);
}

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

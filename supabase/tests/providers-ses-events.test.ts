// The SES v2 fake's event publishing through signed SNS messages, checked with an implementation
// of AWS's documented verification algorithm (support/providers.ts), driven by the unmodified
// @aws-sdk/client-sesv2 against the test stack (sending: providers-ses.test.ts).
import {
  SendEmailCommand,
  type SendEmailCommandInput,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENDER_DOMAIN } from '../local/config.ts';
import {
  snsReceiver,
  type SnsPost,
  rcpt,
  newAccessKeyId,
  sesClient,
  sesControl,
  providersUrl,
  snsSignatureValid,
  eventually,
  fakeState,
  FROM,
  mailbox,
  simple,
} from './support/providers.ts';

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

// Amazon SNS as an SES configuration set's event destination sees it: one topic per account
// with one HTTP(S) subscription (the events webhook). As SNS does it:
// - subscribing POSTs a signed SubscriptionConfirmation; notifications are delivered only
//   once its SubscribeURL has been followed (ConfirmSubscription);
// - every message is signed (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA) over SNS's
//   canonical string (defined once, in functions/_shared/sns.ts, which checks it), with the
//   certificate served at SigningCertURL;
// - a delivery that does not answer 2xx within 15 s is retried (`DeliveryPolicy`), and the
//   retry carries the same MessageId.
import { randomBytes, randomUUID, sign } from 'node:crypto';
import type { Log } from '../../process.ts';
import type { SigningIdentity } from './x509.ts';
import {
  canonicalString,
  type SnsMessage as SignedSnsMessage,
} from '../../../functions/_shared/sns.ts';

export type SignatureVersion = '1' | '2';

export interface DeliveryPolicy {
  /** Retries after the first attempt. SNS's default HTTP policy: 3. */
  numRetries: number;
  /** First retry delay; doubled for each retry up to maxDelayMs. */
  minDelayMs: number;
  maxDelayMs: number;
}

/** An SNS message as SNS posts it: its shape and signed fields are the production check's. */
export interface SnsMessage extends SignedSnsMessage {
  SignatureVersion: SignatureVersion;
}

export interface DeliveryRecord {
  snsMessageId: string;
  type: SnsMessage['Type'];
  /** What was in it, e.g. the SES eventType and messageId. */
  summary: Record<string, string>;
  endpoint: string;
  /** dropped: published while the subscription was not confirmed (never sent, as on SNS). */
  status: 'pending' | 'delivered' | 'failed' | 'dropped';
  attempts: number;
  /** HTTP status of the last attempt, or its error. */
  last?: string;
  at: string;
}

interface Job {
  url: string;
  body: string;
  headers: Record<string, string>;
  policy: DeliveryPolicy;
  record: DeliveryRecord;
  /** Deliveries still to make (2 when duplicating) and attempts at the current one. */
  copies: number;
  tries?: number;
  onDone?: (ok: boolean) => void;
}

/** Sends webhook POSTs with a bound on concurrency and SNS-like retries. */
export class Dispatcher {
  private readonly queue: Job[] = [];
  private inFlight = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly controllers = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly log: Log,
    private readonly maxInFlight = 32,
    private readonly maxQueued = 50_000,
  ) {}

  send(job: Job): void {
    if (this.closed) return;
    if (this.queue.length >= this.maxQueued) {
      job.record.status = 'failed';
      job.record.last = 'dropped: delivery queue full';
      this.log('providers', `sns: delivery queue full, dropped ${job.record.snsMessageId}`);
      job.onDone?.(false);
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.maxInFlight && this.queue.length) {
      const job = this.queue.shift()!;
      this.inFlight++;
      void this.attempt(job).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async attempt(job: Job): Promise<void> {
    const { record } = job;
    record.attempts++;
    job.tries = (job.tries ?? 0) + 1;
    const controller = new AbortController();
    this.controllers.add(controller);
    const timeout = setTimeout(() => controller.abort(), 15_000);
    let ok = false;
    try {
      const res = await fetch(job.url, {
        method: 'POST',
        headers: job.headers,
        body: job.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      ok = res.status >= 200 && res.status < 300;
      record.last = String(res.status);
    } catch (err) {
      record.last = (err as Error).message;
    } finally {
      clearTimeout(timeout);
      this.controllers.delete(controller);
    }
    if (this.closed) return;
    if (ok) {
      if (--job.copies > 0) {
        job.tries = 0;
        this.queue.push(job); // a duplicate delivery, as SNS may make: same body, same MessageId
        return;
      }
      record.status = 'delivered';
      job.onDone?.(true);
      return;
    }
    const retry = job.tries; // 1 for the first retry
    if (retry > job.policy.numRetries) {
      record.status = 'failed';
      this.log(
        'providers',
        `sns: gave up on ${record.snsMessageId} to ${job.url} (${record.last})`,
      );
      job.onDone?.(false);
      return;
    }
    const delay = Math.min(job.policy.maxDelayMs, job.policy.minDelayMs * 2 ** (retry - 1));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.send(job);
    }, delay);
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const c of this.controllers) c.abort();
    this.timers.clear();
    this.queue.length = 0;
  }
}

export interface Subscription {
  subscriptionArn: string;
  endpoint: string;
  status: 'PendingConfirmation' | 'Confirmed';
  token: string;
  /** Whether a SubscriptionConfirmation reached the endpoint (answered 2xx). */
  confirmationDelivered: boolean;
  confirmationInFlight: boolean;
}

export interface TopicSettings {
  signatureVersion: SignatureVersion;
  retry: DeliveryPolicy;
  /** Deliver every notification twice (same MessageId), as SNS may. */
  duplicates: boolean;
}

export class SnsTopic {
  subscription: Subscription | undefined;
  readonly deliveries: DeliveryRecord[] = [];
  /** Recipient (lower case) → endpoint that gets the notifications about mail to it instead. */
  private readonly diverted = new Map<string, string>();

  constructor(
    readonly topicArn: string,
    private readonly env: {
      /** e.g. http://127.0.0.1:54327/ses/sns */
      snsUrl: string;
      certUrl: string;
      identity: SigningIdentity;
      dispatcher: Dispatcher;
      settings: () => TopicSettings;
    },
  ) {}

  private signed(
    fields: Omit<SnsMessage, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>,
  ): SnsMessage {
    const version = this.env.settings().signatureVersion;
    const signature = sign(
      version === '1' ? 'sha1' : 'sha256',
      Buffer.from(canonicalString(fields), 'utf8'),
      this.env.identity.privateKey,
    ).toString('base64');
    const { UnsubscribeURL, ...rest } = fields;
    return {
      ...rest,
      SignatureVersion: version,
      Signature: signature,
      SigningCertURL: this.env.certUrl,
      ...(UnsubscribeURL ? { UnsubscribeURL } : {}),
    };
  }

  private post(
    message: SnsMessage,
    endpoint: string,
    summary: Record<string, string>,
    onDone?: (ok: boolean) => void,
  ): DeliveryRecord {
    const record: DeliveryRecord = {
      snsMessageId: message.MessageId,
      type: message.Type,
      summary,
      endpoint,
      status: 'pending',
      attempts: 0,
      at: new Date().toISOString(),
    };
    this.remember(record);
    const headers: Record<string, string> = {
      'content-type': 'text/plain; charset=UTF-8',
      'user-agent': 'Amazon Simple Notification Service Agent',
      'x-amz-sns-message-type': message.Type,
      'x-amz-sns-message-id': message.MessageId,
      'x-amz-sns-topic-arn': message.TopicArn,
    };
    if (message.Type === 'Notification' && this.subscription) {
      headers['x-amz-sns-subscription-arn'] = this.subscription.subscriptionArn;
    }
    const settings = this.env.settings();
    this.env.dispatcher.send({
      url: endpoint,
      body: JSON.stringify(message, null, 2),
      headers,
      policy: settings.retry,
      record,
      copies: message.Type === 'Notification' && settings.duplicates ? 2 : 1,
      onDone,
    });
    return record;
  }

  private remember(record: DeliveryRecord): void {
    this.deliveries.push(record);
    if (this.deliveries.length > 500) this.deliveries.splice(0, this.deliveries.length - 500);
  }

  /** Subscribes `endpoint` (replacing any subscription) and sends its confirmation; null unsubscribes. */
  subscribe(endpoint: string | null): Subscription | undefined {
    this.subscription = undefined;
    if (!endpoint) return undefined;
    this.subscription = {
      subscriptionArn: `${this.topicArn}:${randomUUID()}`,
      endpoint,
      status: 'PendingConfirmation',
      token: randomBytes(64).toString('hex'),
      confirmationDelivered: false,
      confirmationInFlight: false,
    };
    this.sendConfirmation();
    return this.subscription;
  }

  /** (Re)sends the SubscriptionConfirmation of a pending subscription. */
  sendConfirmation(): void {
    const sub = this.subscription;
    if (!sub || sub.status !== 'PendingConfirmation' || sub.confirmationInFlight) return;
    sub.confirmationInFlight = true;
    const message = this.signed({
      Type: 'SubscriptionConfirmation',
      MessageId: randomUUID(),
      Token: sub.token,
      TopicArn: this.topicArn,
      Message: `You have chosen to subscribe to the topic ${this.topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
      SubscribeURL: `${this.env.snsUrl}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(this.topicArn)}&Token=${sub.token}`,
      Timestamp: new Date().toISOString(),
    });
    this.post(message, sub.endpoint, {}, (ok) => {
      sub.confirmationInFlight = false;
      if (ok) sub.confirmationDelivered = true;
    });
  }

  confirm(token: string): Subscription | undefined {
    const sub = this.subscription;
    if (!sub || sub.token !== token) return undefined;
    sub.status = 'Confirmed';
    return sub;
  }

  /** Ends the subscription and tells the endpoint, as SNS does (UnsubscribeConfirmation). */
  unsubscribe(subscriptionArn: string): boolean {
    const sub = this.subscription;
    if (!sub || sub.subscriptionArn !== subscriptionArn) return false;
    this.subscription = undefined;
    const token = randomBytes(64).toString('hex');
    const message = this.signed({
      Type: 'UnsubscribeConfirmation',
      MessageId: randomUUID(),
      Token: token,
      TopicArn: this.topicArn,
      Message: `You have been unsubscribed from the topic ${this.topicArn}.\nTo resubscribe, visit the SubscribeURL included in this message.`,
      SubscribeURL: `${this.env.snsUrl}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(this.topicArn)}&Token=${token}`,
      Timestamp: new Date().toISOString(),
    });
    this.post(message, sub.endpoint, {});
    return true;
  }

  /** Sends the notifications about mail to `recipient` to `endpoint` instead; null ends that. */
  divert(recipient: string, endpoint: string | null): void {
    if (endpoint) this.diverted.set(recipient.toLowerCase(), endpoint);
    else this.diverted.delete(recipient.toLowerCase());
  }

  /** Whether a publish now would reach anyone (cheap: callers skip building events otherwise). */
  get listening(): boolean {
    return this.subscription !== undefined;
  }

  /**
   * Publishes to the subscription. While it is not confirmed the message is dropped, as SNS
   * does; if no confirmation ever reached the endpoint, it is sent again (local convenience:
   * the endpoint may have come up after the subscription was made).
   */
  publish(
    message: string,
    summary: Record<string, string>,
    recipients: string[] = [],
    as: Partial<{
      /** The MessageId and Timestamp to post with (an event published again after a restart). */
      messageId: string;
      timestamp: string;
      /** Called once the delivery ended: 2xx, or the retries given up. */
      onDone: (ok: boolean) => void;
    }> = {},
  ): DeliveryRecord | undefined {
    const sub = this.subscription;
    if (!sub) return undefined;
    const divertedTo = recipients
      .map((r) => this.diverted.get(r.toLowerCase()))
      .find((e) => e !== undefined);
    if (sub.status !== 'Confirmed' && !divertedTo) {
      this.remember({
        snsMessageId: '',
        type: 'Notification',
        summary,
        endpoint: sub.endpoint,
        status: 'dropped',
        attempts: 0,
        last: 'subscription not confirmed',
        at: new Date().toISOString(),
      });
      if (!sub.confirmationDelivered) this.sendConfirmation();
      return undefined;
    }
    const signedMessage = this.signed({
      Type: 'Notification',
      MessageId: as.messageId ?? randomUUID(),
      TopicArn: this.topicArn,
      Message: message,
      Timestamp: as.timestamp ?? new Date().toISOString(),
      UnsubscribeURL: `${this.env.snsUrl}/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(sub.subscriptionArn)}`,
    });
    return this.post(signedMessage, divertedTo ?? sub.endpoint, summary, as.onDone);
  }
}

// The SES fake's running parts around its state (state.ts): the stack's default account and its
// events webhook, the events a send publishes later, and the views the control API answers.
// It is the context the API's operations (api.ts) get.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FakeContext } from '../fake.ts';
import { HttpError, sendJson, type JsonObject } from '../http.ts';
import { identityView, type SendContext } from './api.ts';
import {
  bounceDetail,
  complaintDetail,
  deliveryDetail,
  eventRecord,
  type EventType,
  type SentMail,
} from './events.ts';
import { Outbox, type PendingEvent } from './outbox.ts';
import { Dispatcher } from './sns.ts';
import { SesState, type Account, type SesFakeOptions } from './state.ts';
import { makeSigningIdentity, type SigningIdentity } from './x509.ts';

/** A handler of the fake's requests under one path (`path` is what follows it). */
export type SesRoute = (
  rt: SesRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
) => Promise<void>;

export class SesRuntime implements SendContext {
  readonly state: SesState;
  readonly mailbox: FakeContext['mailbox'];
  readonly baseUrl: string;
  readonly region: string;
  readonly options: SesFakeOptions;
  readonly dispatcher: Dispatcher;
  /** Events published and not yet delivered, journaled in the state directory. */
  readonly outbox: Outbox;
  /** Where the SNS signing certificate is served, under /ses. */
  readonly certPath: string;
  /** The stack is up: the default account's events webhook may be subscribed. */
  private started = false;

  private constructor(
    ctx: FakeContext<SesFakeOptions>,
    readonly identity: SigningIdentity,
  ) {
    this.options = ctx.options;
    this.mailbox = ctx.mailbox;
    this.baseUrl = ctx.baseUrl;
    this.region = ctx.options.region;
    this.certPath = `/sns/SimpleNotificationService-${createHash('sha256').update(identity.certDer).digest('hex').slice(0, 32)}.pem`;
    this.dispatcher = new Dispatcher(ctx.log);
    this.state = new SesState({
      options: ctx.options,
      baseUrl: ctx.baseUrl,
      certUrl: `${ctx.baseUrl}/ses${this.certPath}`,
      identity,
      dispatcher: this.dispatcher,
      zone: ctx.zone,
    });
    this.outbox = new Outbox(
      (event, done) =>
        this.state
          .account(event.account)
          .topic.publish(event.message, event.summary, event.recipients, {
            messageId: event.id,
            timestamp: new Date(event.due).toISOString(),
            onDone: done,
          }),
      ctx.stateDir ? join(ctx.stateDir, 'ses-events.jsonl') : undefined,
      ctx.log,
    );
    this.outbox.load((messageId) => ctx.mailbox.accepted(messageId), ctx.log);
  }

  static async create(ctx: FakeContext<SesFakeOptions>): Promise<SesRuntime> {
    const identity = await makeSigningIdentity({
      commonName: 'sns.amazonaws.com',
      organization: 'Reaction Blocks local providers (not Amazon)',
    });
    return new SesRuntime(ctx, identity);
  }

  /** Subscribes the default account's events webhook (once everything is up). */
  start(): void {
    const existed = this.state.accounts.has(this.state.defaultAccessKeyId);
    this.started = true;
    const account = this.defaultAccount(); // made now, it subscribes itself
    if (existed && this.options.eventsWebhook) account.topic.subscribe(this.options.eventsWebhook);
  }

  reset(): void {
    this.state.reset();
    this.outbox.forget();
    if (this.started) this.defaultAccount();
  }

  /** Stops; the events not delivered yet stay in the journal for the next start. */
  close(): void {
    this.outbox.close();
    this.dispatcher.close();
  }

  /** The account of a control call: `account` in the query or body, else the stack's own. */
  controlAccount(url: URL, body: JsonObject = {}): Account {
    const id =
      url.searchParams.get('account') ??
      (typeof body.account === 'string' ? body.account : undefined);
    return this.state.account(id || this.state.defaultAccessKeyId);
  }

  /** The stack's own account; made anew, it subscribes the events webhook once started. */
  defaultAccount(): Account {
    const { state, options } = this;
    const isNew = !state.accounts.has(state.defaultAccessKeyId);
    const account = state.account(state.defaultAccessKeyId);
    if (isNew && this.started && options.eventsWebhook)
      account.topic.subscribe(options.eventsWebhook);
    return account;
  }

  /** An event about `mail`, as the outbox keeps it until delivered. */
  private event(
    account: Account,
    mail: SentMail,
    type: EventType,
    detail: Record<string, unknown>,
    due = Date.now(),
  ): PendingEvent {
    return {
      id: randomUUID(),
      account: account.accessKeyId,
      message: JSON.stringify(eventRecord(mail, type, detail)),
      summary: { eventType: type, messageId: mail.messageId },
      recipients: mail.destination,
      due,
    };
  }

  /** Publishes an event now (the pixel, List-Unsubscribe, the control API); undefined: dropped. */
  publish(account: Account, mail: SentMail, type: EventType, detail: Record<string, unknown>) {
    if (!account.topic.listening) return undefined;
    return this.outbox.now(this.event(account, mail, type, detail));
  }

  /**
   * The events of a send, journaled before the mail goes to the mailbox (SendEmail answers once
   * both are on the disk: `durable`) and published by `sent`: Send at once, then Delivery (or
   * the mailbox simulator's outcome).
   */
  accepting(account: Account, mail: SentMail, recipients: string[]): PendingEvent[] {
    this.state.trim();
    if (!mail.configurationSet || !account.topic.listening) return [];
    const events = [
      this.event(account, mail, 'Send', {}),
      ...this.outcome(account, mail, recipients, Date.now() + account.settings.deliveryDelayMs),
    ];
    this.outbox.add(events);
    return events;
  }

  sent(events: PendingEvent[]): void {
    this.outbox.schedule(events);
  }

  /** The send failed after `accepting`: its events are not published. */
  unsent(events: PendingEvent[]): void {
    this.outbox.drop(events);
  }

  /** Resolves once the mailbox and the events journal hold what was sent so far on the disk. */
  async durable(): Promise<void> {
    await Promise.all([this.outbox.sync(), this.mailbox.sync()]);
  }

  /** What becomes of a sent mail: delivered, or the mailbox simulator's bounce or complaint. */
  private outcome(account: Account, mail: SentMail, recipients: string[], due: number) {
    const event = (type: EventType, detail: Record<string, unknown>) =>
      this.event(account, mail, type, detail, due);
    const is = (box: string) => (r: string) => r.toLowerCase() === `${box}@simulator.amazonses.com`;
    const bounced = recipients.filter(is('bounce'));
    const suppressed = recipients.filter(is('suppressionlist'));
    const delivered = recipients.filter((r) => !bounced.includes(r) && !suppressed.includes(r));
    const complained = delivered.filter(is('complaint'));
    return [
      ...(delivered.length ? [event('Delivery', deliveryDetail(mail, delivered, due))] : []),
      ...(bounced.length ? [event('Bounce', bounceDetail(bounced))] : []),
      ...(suppressed.length
        ? [event('Bounce', bounceDetail(suppressed, 'Permanent', 'OnAccountSuppressionList'))]
        : []),
      ...(complained.length ? [event('Complaint', complaintDetail(complained))] : []),
    ];
  }

  /** A mail in the mailbox that this fake sent, with its account (control API). */
  sentMail(messageId: unknown): { mail: SentMail; account: Account } {
    if (typeof messageId !== 'string') throw new HttpError(400, 'messageId is required');
    const mail = this.mailbox.meta(messageId) as SentMail | undefined;
    if (!mail?.accessKeyId) throw new HttpError(404, `No mail ${messageId} in the mailbox`);
    return { mail, account: this.state.account(mail.accessKeyId) };
  }

  /** Answers a control call that published an event: its SNS id, or why none was sent. */
  published(res: ServerResponse, account: Account, record: ReturnType<SesRuntime['publish']>) {
    const sub = account.topic.subscription;
    sendJson(res, 200, {
      snsMessageId: record?.snsMessageId ?? null,
      ...(record
        ? {}
        : {
            reason: sub
              ? 'the subscription is not confirmed yet'
              : 'no events webhook is subscribed',
          }),
    });
  }

  accountState(account: Account) {
    return {
      account: account.accessKeyId,
      accountId: account.accountId,
      settings: account.settings,
      sent: account.sent,
      topicArn: account.topic.topicArn,
      subscription: account.topic.subscription
        ? {
            subscriptionArn: account.topic.subscription.subscriptionArn,
            endpoint: account.topic.subscription.endpoint,
            status: account.topic.subscription.status,
            confirmationDelivered: account.topic.subscription.confirmationDelivered,
          }
        : null,
      identities: [...account.identities.values()].map((i) => ({
        name: i.name,
        ...identityView(account, i),
      })),
      deliveries: account.topic.deliveries.slice(-200),
      signingCertUrl: `${this.baseUrl}/ses${this.certPath}`,
    };
  }
}

// The SES fake's running parts around its state (state.ts): the stack's default account and its
// events webhook, the events a send publishes later, and the views the control API answers.
// It is the context the API's operations (api.ts) get.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
  /** Where the SNS signing certificate is served, under /ses. */
  readonly certPath: string;
  private readonly timers = new Set<NodeJS.Timeout>();
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
    this.started = true;
    if (this.options.eventsWebhook)
      this.defaultAccount().topic.subscribe(this.options.eventsWebhook);
  }

  reset(): void {
    this.state.reset();
    this.clearTimers();
    if (this.started) this.defaultAccount();
  }

  close(): void {
    this.clearTimers();
    this.dispatcher.close();
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
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

  publish(account: Account, mail: SentMail, type: EventType, detail: Record<string, unknown>) {
    return account.topic.publish(
      JSON.stringify(eventRecord(mail, type, detail)),
      { eventType: type, messageId: mail.messageId },
      mail.destination,
    );
  }

  /** Events of a send: Send at once, then Delivery (or the mailbox simulator's outcome). */
  sent(account: Account, mail: SentMail, recipients: string[]): void {
    this.state.trim();
    if (!mail.configurationSet || !account.topic.listening) return;
    setImmediate(() => this.publish(account, mail, 'Send', {}));
    this.later(account.settings.deliveryDelayMs, () => this.outcome(account, mail, recipients));
  }

  /** What becomes of a sent mail: delivered, or the mailbox simulator's bounce or complaint. */
  private outcome(account: Account, mail: SentMail, recipients: string[]): void {
    const publish = this.publish.bind(this);
    const is = (box: string) => (r: string) => r.toLowerCase() === `${box}@simulator.amazonses.com`;
    const bounced = recipients.filter(is('bounce'));
    const suppressed = recipients.filter(is('suppressionlist'));
    const delivered = recipients.filter((r) => !bounced.includes(r) && !suppressed.includes(r));
    if (delivered.length) publish(account, mail, 'Delivery', deliveryDetail(mail, delivered));
    if (bounced.length) publish(account, mail, 'Bounce', bounceDetail(bounced));
    if (suppressed.length) {
      publish(
        account,
        mail,
        'Bounce',
        bounceDetail(suppressed, 'Permanent', 'OnAccountSuppressionList'),
      );
    }
    const complained = delivered.filter(is('complaint'));
    if (complained.length) publish(account, mail, 'Complaint', complaintDetail(complained));
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

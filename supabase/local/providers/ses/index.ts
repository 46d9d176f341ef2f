// The Amazon SES v2 fake at /ses, with SES event publishing through a fake SNS topic.
//   /ses/v2/email/...                 the SES v2 API (see api.ts); SESv2Client `endpoint` = <providers>/ses
//   /ses/verify?token=                the link in an identity's verification mail
//   /ses/open/<token>                 the open-tracking pixel (an Open event)
//   /ses/unsubscribe/<token>          List-Unsubscribe (GET link, POST one-click): a Subscription event
//   /ses/sns/?Action=ConfirmSubscription|Unsubscribe   SubscribeURL / UnsubscribeURL
//   /ses/sns/SimpleNotificationService-<hash>.pem      SigningCertURL
//   /ses/_control...                  for tests and developers, see README.md
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeContext, ProviderFake } from '../fake.ts';
import {
  escapeHtml,
  HttpError,
  isObject,
  page,
  readBody,
  readJson,
  sendHtml,
  sendJson,
  sendText,
  type JsonObject,
} from '../http.ts';
import {
  createEmailIdentity,
  deleteEmailIdentity,
  getAccount,
  getEmailIdentity,
  identityName,
  identityView,
  listEmailIdentities,
  MAX_MESSAGE_BYTES,
  SesError,
  sendEmail,
} from './api.ts';
import {
  bounceDetail,
  complaintDetail,
  deliveryDelayDetail,
  deliveryDetail,
  eventRecord,
  openDetail,
  rejectDetail,
  subscriptionDetail,
  type BounceType,
  type EventType,
  type SentMail,
} from './events.ts';
import { Dispatcher } from './sns.ts';
import {
  SesState,
  VERIFICATION_STATUSES,
  type Account,
  type Identity,
  type SesFakeOptions,
  type Settings,
  type VerificationStatus,
} from './state.ts';
import { makeSigningIdentity } from './x509.ts';
import { entriesOf, refill } from '../state-store.ts';

export type { SesFakeOptions } from './state.ts';

export interface SesFake extends ProviderFake {
  /** Subscribes the default account's events webhook (the stack calls it once everything is up). */
  start(): void;
  state: SesState;
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const BOUNCE_TYPES: BounceType[] = ['Permanent', 'Transient', 'Undetermined'];

function sendSesError(res: ServerResponse, err: SesError): void {
  sendJson(
    res,
    err.status,
    { message: err.message },
    {
      'x-amzn-errortype': err.code,
      'x-amzn-requestid': randomUUID(),
    },
  );
}

/** The access key id of a SigV4-signed request (header or presigned query). */
function accessKeyOf(req: IncomingMessage, url: URL): string | undefined {
  const header = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '');
  if (header) return header[1];
  return /^([^/]+)\//.exec(url.searchParams.get('X-Amz-Credential') ?? '')?.[1];
}

function snsXml(res: ServerResponse, status: number, xml: string) {
  sendText(res, status, `<?xml version="1.0"?>\n${xml}\n`, 'text/xml');
}

const snsError = (code: string, message: string) =>
  `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${escapeHtml(message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;

function validateSettings(input: JsonObject): Partial<Settings> {
  const out: Partial<Settings> = {};
  const bool = (key: 'verifyFrom' | 'sandbox' | 'duplicates') => {
    if (input[key] === undefined) return;
    if (typeof input[key] !== 'boolean') throw new HttpError(400, `${key} must be true or false`);
    out[key] = input[key];
  };
  bool('verifyFrom');
  bool('sandbox');
  bool('duplicates');
  if (input.outage !== undefined) {
    if (input.outage !== true && input.outage !== false && input.outage !== 'throttle') {
      throw new HttpError(400, "outage must be true, false or 'throttle'");
    }
    out.outage = input.outage;
  }
  if (input.outageFor !== undefined) {
    const list = input.outageFor;
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string' && a.includes('@'))) {
      throw new HttpError(400, 'outageFor must be a list of addresses');
    }
    out.outageFor = (list as string[]).map((a) => a.toLowerCase());
  }
  const int = (value: unknown, key: string, max: number) => {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) {
      throw new HttpError(400, `${key} must be an integer from 0 to ${max}`);
    }
    return value as number;
  };
  if (input.maxSendRate !== undefined)
    out.maxSendRate = int(input.maxSendRate, 'maxSendRate', 100_000);
  if (input.deliveryDelayMs !== undefined) {
    out.deliveryDelayMs = int(input.deliveryDelayMs, 'deliveryDelayMs', 60_000);
  }
  if (input.signatureVersion !== undefined) {
    const v = String(input.signatureVersion);
    if (v !== '1' && v !== '2') throw new HttpError(400, "signatureVersion must be '1' or '2'");
    out.signatureVersion = v;
  }
  if (input.retry !== undefined) {
    if (!isObject(input.retry)) throw new HttpError(400, 'retry must be an object');
    const r = input.retry;
    out.retry = {
      numRetries: int(r.numRetries ?? 3, 'retry.numRetries', 10),
      minDelayMs: int(r.minDelayMs ?? 1000, 'retry.minDelayMs', 3_600_000),
      maxDelayMs: int(r.maxDelayMs ?? 20_000, 'retry.maxDelayMs', 3_600_000),
    };
  }
  if (input.configurationSets !== undefined) {
    const sets = input.configurationSets;
    if (!Array.isArray(sets) || !sets.every((s) => typeof s === 'string' && s !== '')) {
      throw new HttpError(400, 'configurationSets must be a list of names');
    }
    out.configurationSets = sets as string[];
  }
  return out;
}

/** An identity's own API path: GET and DELETE /v2/email/identities/{name}. */
const IDENTITY_PATH = /^\/v2\/email\/identities\/([^/]+)$/;

/** A control call's webhook URL: http(s), or null for none. */
function webhookUrl(value: unknown): string | null {
  if (value !== null && (typeof value !== 'string' || !/^https?:\/\//.test(value))) {
    throw new HttpError(400, 'url must be an http(s) URL or null');
  }
  return value;
}

/** Whether an API call names one of `addresses`: a destination of a send, or the identity. */
function namesAny(path: string, body: JsonObject | undefined, addresses: string[]): boolean {
  const named: unknown[] = [];
  const identity = IDENTITY_PATH.exec(path)?.[1];
  if (identity) named.push(decodeURIComponent(identity));
  if (body) {
    named.push(body.EmailIdentity);
    const to = isObject(body.Destination) ? body.Destination : {};
    for (const key of ['ToAddresses', 'CcAddresses', 'BccAddresses']) {
      if (Array.isArray(to[key])) named.push(...(to[key] as unknown[]));
    }
  }
  // a destination may carry a display name ("Name <a@b.c>")
  return named.some(
    (a) => typeof a === 'string' && addresses.some((x) => a.toLowerCase().includes(x)),
  );
}

export async function createSesFake(ctx: FakeContext<SesFakeOptions>): Promise<SesFake> {
  const options = ctx.options;
  const identity = await makeSigningIdentity({
    commonName: 'sns.amazonaws.com',
    organization: 'Reaction Blocks local providers (not Amazon)',
  });
  const certPath = `/sns/SimpleNotificationService-${createHash('sha256').update(identity.certDer).digest('hex').slice(0, 32)}.pem`;
  const dispatcher = new Dispatcher(ctx.log);
  const state = new SesState({
    options,
    baseUrl: ctx.baseUrl,
    certUrl: `${ctx.baseUrl}/ses${certPath}`,
    identity,
    dispatcher,
    zone: ctx.zone,
  });
  const region = options.region;
  const timers = new Set<NodeJS.Timeout>();
  let started = false;

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  /** The account of a control call: `account` in the query or body, else the stack's own. */
  const controlAccount = (url: URL, body: JsonObject = {}): Account => {
    const id =
      url.searchParams.get('account') ??
      (typeof body.account === 'string' ? body.account : undefined);
    return state.account(id || state.defaultAccessKeyId);
  };

  const defaultAccount = (): Account => {
    const isNew = !state.accounts.has(state.defaultAccessKeyId);
    const account = state.account(state.defaultAccessKeyId);
    if (isNew && started && options.eventsWebhook) account.topic.subscribe(options.eventsWebhook);
    return account;
  };

  const publish = (
    account: Account,
    mail: SentMail,
    type: EventType,
    detail: Record<string, unknown>,
  ) =>
    account.topic.publish(
      JSON.stringify(eventRecord(mail, type, detail)),
      { eventType: type, messageId: mail.messageId },
      mail.destination,
    );

  /** Events of a send: Send at once, then Delivery (or the mailbox simulator's outcome). */
  const afterSend = (account: Account, mail: SentMail, recipients: string[]) => {
    state.trim();
    if (!mail.configurationSet || !account.topic.listening) return;
    setImmediate(() => publish(account, mail, 'Send', {}));
    later(account.settings.deliveryDelayMs, () => {
      const is = (box: string) => (r: string) =>
        r.toLowerCase() === `${box}@simulator.amazonses.com`;
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
    });
  };

  const sentMail = (messageId: unknown): { mail: SentMail; account: Account } => {
    if (typeof messageId !== 'string') throw new HttpError(400, 'messageId is required');
    const mail = ctx.mailbox.meta(messageId) as SentMail | undefined;
    if (!mail?.accessKeyId) throw new HttpError(404, `No mail ${messageId} in the mailbox`);
    return { mail, account: state.account(mail.accessKeyId) };
  };

  const recipientsFrom = (body: JsonObject, mail: SentMail): string[] => {
    if (body.recipients === undefined) return mail.destination;
    if (!Array.isArray(body.recipients) || !body.recipients.every((r) => typeof r === 'string')) {
      throw new HttpError(400, 'recipients must be a list of addresses');
    }
    return body.recipients as string[];
  };

  const published = (res: ServerResponse, account: Account, record: ReturnType<typeof publish>) => {
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
  };

  const accountState = (account: Account) => ({
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
    signingCertUrl: `${ctx.baseUrl}/ses${certPath}`,
  });

  async function api(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    const accessKeyId = accessKeyOf(req, url);
    if (!accessKeyId) {
      throw new SesError(
        403,
        'MissingAuthenticationTokenException',
        'Missing Authentication Token',
      );
    }
    const account =
      accessKeyId === state.defaultAccessKeyId ? defaultAccount() : state.account(accessKeyId);
    // the body is read before answering, as a real endpoint does, even during an outage
    const raw =
      req.method === 'POST' || req.method === 'PUT'
        ? await readBody(req, Math.ceil(MAX_MESSAGE_BYTES * 1.4))
        : Buffer.alloc(0);
    let body: JsonObject | undefined;
    if (raw.length) {
      try {
        const parsed: unknown = JSON.parse(raw.toString('utf8'));
        if (isObject(parsed)) body = parsed;
      } catch {
        // answered below, after the outage (a real endpoint that is down reads nothing)
      }
    }
    const { outage, outageFor } = account.settings;
    if (outage !== false && (!outageFor.length || namesAny(path, body, outageFor))) {
      if (outage === true) {
        throw new SesError(
          503,
          'ServiceUnavailable',
          'Service is unavailable. Please try again later.',
        );
      }
      throw new SesError(
        429,
        'TooManyRequestsException',
        'Too many requests have been made to the operation.',
      );
    }
    if (raw.length && !body) {
      throw new SesError(400, 'BadRequestException', 'The request body is not a JSON object');
    }
    body ??= {};
    const identityCtx = { state, mailbox: ctx.mailbox, baseUrl: ctx.baseUrl, region };
    const reply = (result: unknown) =>
      sendJson(res, 200, result, { 'x-amzn-requestid': randomUUID() });
    const identityPath = IDENTITY_PATH.exec(path);
    if (path === '/v2/email/outbound-emails' && req.method === 'POST') {
      return reply(await sendEmail({ ...identityCtx, sent: afterSend }, account, body));
    }
    if (path === '/v2/email/identities' && req.method === 'POST') {
      return reply(createEmailIdentity(identityCtx, account, body));
    }
    if (identityPath && req.method === 'GET') {
      return reply(getEmailIdentity(account, decodeURIComponent(identityPath[1]!)));
    }
    if (identityPath && req.method === 'DELETE') {
      return reply(deleteEmailIdentity(account, decodeURIComponent(identityPath[1]!)));
    }
    if (path === '/v2/email/identities' && req.method === 'GET') {
      const size = url.searchParams.get('PageSize');
      return reply(
        listEmailIdentities(
          account,
          size ? Number(size) : undefined,
          url.searchParams.get('NextToken') ?? undefined,
        ),
      );
    }
    if (path === '/v2/email/list-identities' && req.method === 'POST') {
      const size = typeof body.PageSize === 'number' ? body.PageSize : undefined;
      const next = typeof body.NextToken === 'string' ? body.NextToken : undefined;
      return reply(listEmailIdentities(account, size, next));
    }
    if (path === '/v2/email/account' && req.method === 'GET') return reply(getAccount(account));
    throw new SesError(
      404,
      'UnknownOperationException',
      `The local SES fake does not implement ${req.method} ${path}`,
    );
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    if (path === '/state' && req.method === 'GET')
      return sendJson(res, 200, accountState(controlAccount(url)));
    if (req.method !== 'POST') throw new HttpError(405, 'POST');
    const body = await readJson(req);
    switch (path) {
      case '': {
        const account = controlAccount(url, body);
        Object.assign(account.settings, validateSettings(body));
        return sendJson(res, 200, accountState(account));
      }
      case '/reset': {
        const account = controlAccount(url, body);
        state.accounts.delete(account.accessKeyId);
        const fresh =
          account.accessKeyId === state.defaultAccessKeyId
            ? defaultAccount()
            : state.account(account.accessKeyId);
        return sendJson(res, 200, accountState(fresh));
      }
      case '/webhook': {
        const account = controlAccount(url, body);
        account.topic.subscribe(webhookUrl(body.url));
        return sendJson(res, 200, accountState(account));
      }
      case '/divert': {
        // notifications about mail to `recipient` go to `url` instead of the subscription (as a
        // second subscription with a filter policy on the destination would, with the first one's
        // policy excluding it): a test captures its own events without taking the stack's away
        const account = controlAccount(url, body);
        const recipient = body.recipient;
        if (typeof recipient !== 'string' || !recipient.includes('@')) {
          throw new HttpError(400, 'recipient must be an address');
        }
        account.topic.divert(recipient, webhookUrl(body.url));
        return sendJson(res, 200, accountState(account));
      }
      case '/webhook/confirmation': {
        const account = controlAccount(url, body);
        if (!account.topic.subscription) throw new HttpError(409, 'No webhook is subscribed');
        account.topic.sendConfirmation();
        return sendJson(res, 200, accountState(account));
      }
      case '/identities': {
        const account = controlAccount(url, body);
        const { name, type } = identityName(body.identity);
        let identity = account.identities.get(name);
        if (!identity) {
          createEmailIdentity(
            { state, mailbox: ctx.mailbox, baseUrl: ctx.baseUrl, region },
            account,
            {
              EmailIdentity: name,
            },
          );
          identity = account.identities.get(name)!;
        }
        if (body.status !== undefined) {
          if (
            body.status !== null &&
            !VERIFICATION_STATUSES.includes(body.status as VerificationStatus)
          ) {
            throw new HttpError(
              400,
              `status must be one of ${VERIFICATION_STATUSES.join(', ')} or null`,
            );
          }
          identity.statusOverride = (body.status ?? undefined) as VerificationStatus | undefined;
        }
        if (body.verified !== undefined) identity.verified = body.verified === true;
        return sendJson(res, 200, { name, type, ...identityView(account, identity) });
      }
      case '/bounce': {
        const { mail, account } = sentMail(body.messageId);
        const type = (body.type ?? 'Permanent') as BounceType;
        if (!BOUNCE_TYPES.includes(type))
          throw new HttpError(400, `type must be one of ${BOUNCE_TYPES.join(', ')}`);
        const subType = typeof body.subType === 'string' ? body.subType : undefined;
        return published(
          res,
          account,
          publish(account, mail, 'Bounce', bounceDetail(recipientsFrom(body, mail), type, subType)),
        );
      }
      case '/complaint': {
        const { mail, account } = sentMail(body.messageId);
        const feedback = typeof body.feedbackType === 'string' ? body.feedbackType : 'abuse';
        return published(
          res,
          account,
          publish(
            account,
            mail,
            'Complaint',
            complaintDetail(recipientsFrom(body, mail), feedback),
          ),
        );
      }
      case '/reject': {
        const { mail, account } = sentMail(body.messageId);
        const reason = typeof body.reason === 'string' ? body.reason : undefined;
        return published(res, account, publish(account, mail, 'Reject', rejectDetail(reason)));
      }
      case '/delivery-delay': {
        const { mail, account } = sentMail(body.messageId);
        return published(
          res,
          account,
          publish(account, mail, 'DeliveryDelay', deliveryDelayDetail(recipientsFrom(body, mail))),
        );
      }
      default:
        throw new HttpError(404, 'Not found');
    }
  }

  function sns(req: IncomingMessage, res: ServerResponse, url: URL) {
    const action = url.searchParams.get('Action');
    const arnOf = (value: string | null) =>
      [...state.accounts.values()].find(
        (a) => value !== null && value.startsWith(a.topic.topicArn),
      );
    if (action === 'ConfirmSubscription') {
      const account = arnOf(url.searchParams.get('TopicArn'));
      const sub = account?.topic.confirm(url.searchParams.get('Token') ?? '');
      if (!sub) return snsXml(res, 400, snsError('InvalidParameter', 'Invalid token'));
      return snsXml(
        res,
        200,
        `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${escapeHtml(sub.subscriptionArn)}</SubscriptionArn></ConfirmSubscriptionResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></ConfirmSubscriptionResponse>`,
      );
    }
    if (action === 'Unsubscribe') {
      const arn = url.searchParams.get('SubscriptionArn');
      const account = arnOf(arn);
      if (!account || !arn || !account.topic.unsubscribe(arn)) {
        return snsXml(res, 404, snsError('NotFound', 'Subscription does not exist'));
      }
      return snsXml(
        res,
        200,
        `<UnsubscribeResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></UnsubscribeResponse>`,
      );
    }
    return snsXml(res, 400, snsError('InvalidAction', 'Unknown Action'));
  }

  function verify(res: ServerResponse, url: URL) {
    const token = url.searchParams.get('token') ?? '';
    const pending = state.verifications.get(token);
    const identity =
      pending && state.accounts.get(pending.accessKeyId)?.identities.get(pending.identity);
    if (!pending || !identity || pending.expires < Date.now()) {
      return sendHtml(
        res,
        400,
        page(
          'Verification failed',
          '<h1>Verification failed</h1><p>This link is not valid or has expired (links work for 24 hours). Ask for a new verification mail.</p>',
        ),
      );
    }
    identity.verified = true;
    state.verifications.delete(token);
    sendHtml(
      res,
      200,
      page(
        'Email address verified',
        `<h1 class="ok">Congratulations!</h1><p>You have successfully verified <strong>${escapeHtml(identity.name)}</strong>. You can now start sending email from this address (Amazon SES, region ${escapeHtml(region)}; local fake).</p><p><a href="/">Back to the mailbox</a></p>`,
      ),
    );
  }

  function open(req: IncomingMessage, res: ServerResponse, token: string) {
    res.writeHead(200, {
      'content-type': 'image/gif',
      'content-length': GIF.length,
      'cache-control': 'no-store',
    });
    res.end(GIF);
    const messageId = state.pixels.get(token);
    const mail = messageId ? (ctx.mailbox.meta(messageId) as SentMail | undefined) : undefined;
    if (!mail?.accessKeyId) return;
    const account = state.account(mail.accessKeyId);
    publish(
      account,
      mail,
      'Open',
      openDetail(req.socket.remoteAddress ?? '127.0.0.1', req.headers['user-agent'] ?? ''),
    );
  }

  async function unsubscribe(req: IncomingMessage, res: ServerResponse, token: string) {
    const entry = state.unsubscribes.get(token);
    if (req.method === 'POST') await readBody(req, 64 * 1024);
    if (!entry) throw new HttpError(404, 'Unknown unsubscribe link');
    if (!entry.used) {
      entry.used = true;
      const mail = ctx.mailbox.meta(entry.messageId) as SentMail | undefined;
      if (mail?.accessKeyId) {
        const source = req.method === 'POST' ? 'UnsubscribeHeader' : 'UnsubscribeLink';
        publish(
          state.account(mail.accessKeyId),
          mail,
          'Subscription',
          subscriptionDetail(entry.contactList, entry.topic, source),
        );
      }
    }
    sendHtml(
      res,
      200,
      page(
        'Unsubscribed',
        `<h1>Unsubscribed</h1><p>${escapeHtml(entry.recipient)} will no longer get mail from the list <strong>${escapeHtml(entry.contactList)}</strong>${entry.topic ? ` (topic ${escapeHtml(entry.topic)})` : ''}.</p>`,
      ),
    );
  }

  async function route(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    try {
      if (path.startsWith('/v2/')) return await api(req, res, path, url);
    } catch (err) {
      if (err instanceof SesError) return sendSesError(res, err);
      if (err instanceof HttpError) {
        return sendSesError(
          res,
          new SesError(
            err.status,
            err.status === 413 ? 'MessageRejected' : 'BadRequestException',
            err.message,
          ),
        );
      }
      throw err;
    }
    if (path === '/_control' || path.startsWith('/_control/')) {
      return control(req, res, path.slice('/_control'.length), url);
    }
    if (path === certPath && req.method === 'GET') {
      return sendText(res, 200, identity.certPem, 'application/x-pem-file');
    }
    if ((path === '/sns' || path === '/sns/') && req.method === 'GET') return sns(req, res, url);
    if (path === '/verify' && req.method === 'GET') return verify(res, url);
    const pixel = /^\/open\/([\w-]+)$/.exec(path);
    if (pixel && req.method === 'GET') return open(req, res, pixel[1]!);
    const unsub = /^\/unsubscribe\/([\w-]+)$/.exec(path);
    if (unsub && (req.method === 'GET' || req.method === 'POST'))
      return unsubscribe(req, res, unsub[1]!);
    throw new HttpError(404, 'Not found');
  }

  return {
    prefix: '/ses',
    title: 'Amazon SES v2 (fake)',
    state,
    start() {
      started = true;
      if (options.eventsWebhook) defaultAccount().topic.subscribe(options.eventsWebhook);
    },
    // kept across restarts: the identities (what verified senders rest on) and the links of the
    // verification mails still in the mailbox; not the settings, events or tracking links
    persistent: {
      marksChanges: true,
      save: () => ({
        accounts: [...state.accounts.values()].map((a) => [
          a.accessKeyId,
          [...a.identities.values()],
        ]),
        verifications: entriesOf(state.verifications),
      }),
      load(saved) {
        const { accounts, verifications } = saved as {
          accounts: Array<[string, Identity[]]>;
          verifications: unknown;
        };
        for (const [accessKeyId, identities] of accounts) {
          const account = state.account(accessKeyId);
          for (const identity of identities) account.identities.set(identity.name, identity);
        }
        refill(state.verifications, verifications);
      },
    },
    async handle(req, res, path, url) {
      try {
        return await route(req, res, path, url);
      } finally {
        // what changes identities: the API's writes, the control API, a verification link
        if (
          (path.startsWith('/v2/email/identities') && req.method !== 'GET') ||
          (path.startsWith('/_control') && req.method === 'POST') ||
          path === '/verify'
        )
          ctx.changed('/ses');
      }
    },
    section() {
      const account = defaultAccount();
      const s = accountState(account);
      const identities = s.identities
        .map(
          (i) =>
            `<tr><td class="wrap">${escapeHtml(i.name)}</td><td>${i.IdentityType}</td><td class="${i.VerifiedForSendingStatus ? 'ok' : 'bad'}">${i.VerificationStatus}</td><td>${i.DkimAttributes.Status}</td></tr>`,
        )
        .join('');
      const deliveries = s.deliveries
        .slice(-15)
        .reverse()
        .map(
          (d) =>
            `<tr><td>${escapeHtml(d.at.slice(11, 19))}</td><td>${escapeHtml(d.type)}</td><td>${escapeHtml(d.summary.eventType ?? '')}</td><td>${d.status}</td><td>${d.attempts}</td><td>${escapeHtml(d.last ?? '')}</td></tr>`,
        )
        .join('');
      const sub = s.subscription;
      return `<p>Endpoint for <code>SESv2Client</code>: <code>${escapeHtml(ctx.baseUrl)}/ses</code> · region ${escapeHtml(region)} · access key <code>${escapeHtml(account.accessKeyId)}</code> · configuration sets: ${escapeHtml(s.settings.configurationSets.join(', ') || 'none')}</p>
<p>Settings: outage <strong>${String(s.settings.outage)}</strong> · From check ${s.settings.verifyFrom ? 'on' : 'off'} · sandbox ${s.settings.sandbox ? 'on' : 'off'} · max send rate ${s.settings.maxSendRate || 'unlimited'}/s · SNS SignatureVersion ${s.settings.signatureVersion} · <a href="/ses/_control/state">state (JSON)</a> · <a href="${escapeHtml(s.signingCertUrl)}">signing certificate</a></p>
<h3>Identities</h3>${identities ? `<table><thead><tr><th scope="col">Identity</th><th scope="col">Type</th><th scope="col">Verification</th><th scope="col">DKIM</th></tr></thead><tbody>${identities}</tbody></table>` : '<p class="muted">None.</p>'}
<h3>Events (SNS)</h3><p>${sub ? `Webhook <code>${escapeHtml(sub.endpoint)}</code>: <strong class="${sub.status === 'Confirmed' ? 'ok' : 'bad'}">${sub.status}</strong>` : 'No events webhook subscribed.'}</p>
${deliveries ? `<table><thead><tr><th scope="col">Time</th><th scope="col">Message</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead><tbody>${deliveries}</tbody></table>` : ''}`;
    },
    reset() {
      state.reset();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (started) defaultAccount();
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      dispatcher.close();
    },
  };
}

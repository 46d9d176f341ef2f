// The Amazon SES v2 operations the fake answers (restJson1, as @aws-sdk/client-sesv2 speaks it):
//   POST   /v2/email/outbound-emails            SendEmail (Simple or Raw content)
//   POST   /v2/email/identities                 CreateEmailIdentity
//   GET    /v2/email/identities/{EmailIdentity} GetEmailIdentity
//   DELETE /v2/email/identities/{EmailIdentity} DeleteEmailIdentity
//   GET    /v2/email/identities                 ListEmailIdentities (older SDKs)
//   POST   /v2/email/list-identities            ListEmailIdentities
//   GET    /v2/email/account                    GetAccount
// Errors: the HTTP status of the error's model, `x-amzn-ErrorType: <Code>` and `{"message"}`.
import { randomBytes } from 'node:crypto';
import type { Mailbox as LocalMailbox } from '../mailbox.ts';
import { isObject, type JsonObject } from '../http.ts';
import { dkimTokens } from './dkim.ts';
import type { SentMail } from './events.ts';
import type { PendingEvent } from './outbox.ts';
import {
  buildSimple,
  displayAddress,
  domainOf,
  formatAddress,
  MimeError,
  parseAddress,
  parseRaw,
  withPixel,
  type BuiltMail,
  type Mailbox,
} from './mail.ts';
import { newMessageId, type Account, type Identity, type SesState } from './state.ts';

export class SesError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new SesError(400, 'BadRequestException', message);
const notFound = (message: string) => new SesError(404, 'NotFoundException', message);

/** Largest message SES v2 accepts (40 MB, attachments included). */
export const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;
const MAX_RECIPIENTS = 50;
const TAG = /^[A-Za-z0-9_-]{1,256}$/;
const SIMULATOR = /@simulator\.amazonses\.com$/i;

const REGION_NAMES: Record<string, string> = {
  'us-east-1': 'US East (N. Virginia)',
  'us-east-2': 'US East (Ohio)',
  'us-west-2': 'US West (Oregon)',
  'eu-west-1': 'Europe (Ireland)',
  'eu-central-1': 'Europe (Frankfurt)',
  'ap-northeast-2': 'Asia Pacific (Seoul)',
  'ap-northeast-1': 'Asia Pacific (Tokyo)',
};

function string(value: unknown, field: string, required = true): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw badRequest(`${field} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}

/**
 * An address as SES parses it: 7-bit ASCII only, the "friendly" name included (SES has no
 * SMTPUTF8; a name in another script must come as RFC 2047 encoded-words, =?UTF-8?B?...?=).
 */
function address(raw: unknown, field: string): Mailbox {
  if (typeof raw === 'string' && /[^\t\n\r\x20-\x7e]/.test(raw)) {
    throw badRequest(
      `Illegal address in ${field}: ${raw} (only 7-bit ASCII: encode a Unicode name as an RFC 2047 encoded-word)`,
    );
  }
  const parsed = typeof raw === 'string' ? parseAddress(raw) : undefined;
  if (!parsed) throw badRequest(`Illegal address in ${field}: ${String(raw)}`);
  return parsed;
}

function addresses(value: unknown, field: string): Mailbox[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`${field} must be a list of addresses`);
  return value.map((raw) => address(raw, field));
}

export interface SendContext {
  state: SesState;
  mailbox: LocalMailbox;
  baseUrl: string;
  region: string;
  /** Before the message is stored: journals its events (Send, Delivery, ...). */
  accepting(account: Account, mail: SentMail, recipients: string[]): PendingEvent[];
  /** After: publishes them when due; or, when storing failed, forgets them. */
  sent(events: PendingEvent[]): void;
  unsent(events: PendingEvent[]): void;
  /** Resolves once the message and its events are on the disk. */
  durable(): Promise<void>;
}

type Envelope = { to: Mailbox[]; cc: Mailbox[]; bcc: Mailbox[] };

/** The mail and its envelope from SendEmail's Content (Simple or Raw) and Destination. */
interface ReadMail {
  mail: BuiltMail;
  envelope: Envelope;
  /** FromEmailAddress as the caller gave it, if they did. */
  fromGiven: string | undefined;
}

const envelopeOf = (destination: JsonObject | null | undefined): Envelope => ({
  to: addresses(destination?.ToAddresses, 'Destination.ToAddresses'),
  cc: addresses(destination?.CcAddresses, 'Destination.CcAddresses'),
  bcc: addresses(destination?.BccAddresses, 'Destination.BccAddresses'),
});

async function readMail(body: JsonObject): Promise<ReadMail> {
  const content = body.Content;
  if (!isObject(content)) throw badRequest('Content is required');
  const kinds = (['Simple', 'Raw', 'Template'] as const).filter((k) => content[k] != null);
  if (kinds.length !== 1)
    throw badRequest('Content must have exactly one of Simple, Raw or Template');
  if (kinds[0] === 'Template') {
    throw badRequest('The local SES fake does not render templates: send Simple or Raw content');
  }
  const destination = body.Destination;
  if (destination != null && !isObject(destination))
    throw badRequest('Destination must be an object');
  const fromGiven = string(body.FromEmailAddress, 'FromEmailAddress', false);
  const replyTo = addresses(body.ReplyToAddresses, 'ReplyToAddresses');
  return kinds[0] === 'Simple'
    ? readSimple(content.Simple, destination, fromGiven, replyTo)
    : readRaw(content.Raw, destination, fromGiven, replyTo);
}

function readSimple(
  simple: unknown,
  destination: JsonObject | null | undefined,
  fromGiven: string | undefined,
  replyTo: Mailbox[],
): ReadMail {
  if (!isObject(simple)) throw badRequest('Content.Simple must be an object');
  if (!isObject(simple.Subject)) throw badRequest('Content.Simple.Subject is required');
  const subject = string(simple.Subject.Data, 'Content.Simple.Subject.Data')!;
  if (!isObject(simple.Body)) throw badRequest('Content.Simple.Body is required');
  const part = (key: 'Html' | 'Text') => {
    const p = (simple.Body as JsonObject)[key];
    if (p == null) return null;
    if (!isObject(p)) throw badRequest(`Content.Simple.Body.${key} must be an object`);
    return string(p.Data, `Content.Simple.Body.${key}.Data`)!;
  };
  if (simple.Attachments != null) {
    throw badRequest(
      'The local SES fake does not take attachments in Simple content: send Raw content',
    );
  }
  const html = part('Html');
  const text = part('Text');
  if (html === null && text === null) throw badRequest('Content.Simple.Body needs Html or Text');
  if (!fromGiven) throw badRequest('FromEmailAddress is required with Simple content');
  const from = address(fromGiven, 'FromEmailAddress');
  const headerList = simple.Headers ?? [];
  if (!Array.isArray(headerList)) throw badRequest('Content.Simple.Headers must be a list');
  const extraHeaders = headerList.map((h: unknown) => {
    if (!isObject(h)) throw badRequest('Each header needs Name and Value');
    const name = string(h.Name, 'Header Name')!;
    const value = string(h.Value, 'Header Value')!;
    if (!/^[\x21-\x39\x3b-\x7e]{1,126}$/.test(name) || /[\r\n]/.test(value)) {
      throw badRequest(`Invalid header: ${name}`);
    }
    return { name, value };
  });
  const envelope = envelopeOf(destination);
  return {
    mail: buildSimple({ from, ...envelope, replyTo, subject, html, text, extraHeaders }),
    envelope,
    fromGiven,
  };
}

async function readRaw(
  raw: unknown,
  destination: JsonObject | null | undefined,
  fromGiven: string | undefined,
  replyTo: Mailbox[],
): Promise<ReadMail> {
  if (!isObject(raw)) throw badRequest('Content.Raw must be an object');
  const data = string(raw.Data, 'Content.Raw.Data')!;
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > MAX_MESSAGE_BYTES) {
    throw new SesError(
      400,
      'MessageRejected',
      `Message length is more than ${MAX_MESSAGE_BYTES} bytes long: '${bytes.length}'.`,
    );
  }
  let parsed: Awaited<ReturnType<typeof parseRaw>>;
  try {
    parsed = await parseRaw(bytes);
  } catch (err) {
    if (err instanceof MimeError) throw badRequest(err.message);
    throw err;
  }
  const from = fromGiven ? address(fromGiven, 'FromEmailAddress') : parsed.fromHeader;
  if (!from)
    throw badRequest(
      fromGiven
        ? `Illegal address: ${fromGiven}`
        : 'Missing From address: give FromEmailAddress or a From header',
    );
  return {
    mail: { ...parsed, from, replyTo: parsed.replyTo.length ? parsed.replyTo : replyTo },
    envelope: destination
      ? envelopeOf(destination)
      : { to: parsed.to, cc: parsed.cc, bcc: parsed.bcc },
    fromGiven,
  };
}

/** The configuration set, tags and list management of a SendEmail. */
function readOptions(account: Account, body: JsonObject) {
  const configurationSet = string(body.ConfigurationSetName, 'ConfigurationSetName', false);
  if (
    configurationSet !== undefined &&
    !account.settings.configurationSets.includes(configurationSet)
  ) {
    throw notFound(`Configuration set <${configurationSet}> does not exist.`);
  }
  const tagList = body.EmailTags ?? [];
  if (!Array.isArray(tagList)) throw badRequest('EmailTags must be a list');
  const tags: Record<string, string[]> = {};
  for (const tag of tagList) {
    if (!isObject(tag) || typeof tag.Name !== 'string' || typeof tag.Value !== 'string') {
      throw badRequest('Each EmailTag needs Name and Value');
    }
    if (!TAG.test(tag.Name) || !TAG.test(tag.Value)) {
      throw badRequest(`Invalid tag ${tag.Name}: names and values use only A-Z a-z 0-9 _ -`);
    }
    tags[tag.Name] = [tag.Value];
  }
  let list: { contactList: string; topic?: string } | undefined;
  if (body.ListManagementOptions != null) {
    const lmo = body.ListManagementOptions;
    if (!isObject(lmo)) throw badRequest('ListManagementOptions must be an object');
    list = {
      contactList: string(lmo.ContactListName, 'ListManagementOptions.ContactListName')!,
      topic: string(lmo.TopicName, 'ListManagementOptions.TopicName', false),
    };
  }
  return { configurationSet, tags, list };
}

/**
 * What SES adds to the stored mail: the one-click unsubscribe link (list management: the
 * placeholder in the body and the List-Unsubscribe headers), the open pixel (a configuration set,
 * HTML only), Date and Message-ID when the mail has none.
 */
function deliveredForm(
  ctx: SendContext,
  mail: BuiltMail,
  messageId: string,
  timestamp: Date,
  options: ReturnType<typeof readOptions>,
  recipient: string,
) {
  let html = mail.html;
  let text = mail.text;
  const headers = [...mail.headers];
  const { list, configurationSet } = options;
  if (list) {
    const token = randomBytes(18).toString('base64url');
    const url = `${ctx.baseUrl}/ses/unsubscribe/${token}`;
    ctx.state.unsubscribes.set(token, {
      messageId,
      contactList: list.contactList,
      topic: list.topic,
      recipient,
      used: false,
    });
    html = html?.replaceAll('{{amazonSESUnsubscribeUrl}}', url) ?? null;
    text = text?.replaceAll('{{amazonSESUnsubscribeUrl}}', url) ?? null;
    headers.push(
      { name: 'List-Unsubscribe', value: `<${url}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    );
  }
  if (configurationSet && html !== null) {
    // open tracking: SES adds a 1x1 image to the HTML of mail sent with a configuration set
    const token = randomBytes(18).toString('base64url');
    ctx.state.pixels.set(token, messageId);
    html = withPixel(html, `${ctx.baseUrl}/ses/open/${token}`);
  }
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name);
  if (!has('date'))
    headers.push({ name: 'Date', value: timestamp.toUTCString().replace('GMT', '+0000') });
  if (!has('message-id'))
    headers.push({ name: 'Message-ID', value: `<${messageId}@email.amazonses.com>` });
  const headerMap: Record<string, string> = {};
  for (const h of headers) {
    headerMap[h.name] =
      headerMap[h.name] === undefined ? h.value : `${headerMap[h.name]}, ${h.value}`;
  }
  return { html, text, headers: headerMap };
}

export async function sendEmail(
  ctx: SendContext,
  account: Account,
  body: JsonObject,
): Promise<{ MessageId: string }> {
  const { mail, envelope, fromGiven } = await readMail(body);
  const recipients = [...envelope.to, ...envelope.cc, ...envelope.bcc].map((m) => m.address);
  if (recipients.length === 0)
    throw badRequest('Missing required header: no recipients (Destination)');
  if (recipients.length > MAX_RECIPIENTS)
    throw badRequest(`Recipient count exceeds ${MAX_RECIPIENTS}.`);
  const options = readOptions(account, body);
  const { configurationSet } = options;

  // identities, as SES checks them: the sender always, the recipients in the sandbox
  const authority = account.authorising(mail.from.address);
  if (account.settings.verifyFrom && !authority) {
    const failed = [fromGiven ?? mail.from.address];
    if (fromGiven && fromGiven !== mail.from.address) failed.push(mail.from.address);
    throw rejectedIdentities(ctx.region, failed);
  }
  if (account.settings.sandbox) {
    const failed = recipients.filter((r) => !SIMULATOR.test(r) && !account.authorising(r));
    if (failed.length) throw rejectedIdentities(ctx.region, failed);
  }
  if (!account.takeSendSlot()) {
    throw new SesError(429, 'TooManyRequestsException', 'Maximum sending rate exceeded.');
  }

  const messageId = newMessageId();
  const timestamp = new Date();
  const delivered = deliveredForm(ctx, mail, messageId, timestamp, options, recipients[0]!);
  const listed = new Set([...mail.to, ...mail.cc].map((m) => m.address.toLowerCase()));

  const source = fromGiven ?? formatAddress(mail.from);
  const commonHeaders: Record<string, unknown> = {
    from: [formatAddress(mail.from)],
    ...(mail.replyTo.length ? { replyTo: mail.replyTo.map(formatAddress) } : {}),
    date: delivered.headers.Date,
    ...(mail.to.length ? { to: mail.to.map(formatAddress) } : {}),
    ...(mail.cc.length ? { cc: mail.cc.map(formatAddress) } : {}),
    messageId,
    subject: mail.subject,
  };
  const sent: SentMail = {
    accessKeyId: account.accessKeyId,
    timestamp: timestamp.toISOString(),
    source,
    sourceArn: `arn:aws:ses:${ctx.region}:${account.accountId}:identity/${authority?.name ?? mail.from.address}`,
    sendingAccountId: account.accountId,
    messageId,
    destination: recipients,
    headers: mail.headers,
    commonHeaders,
    tags: {
      ...(configurationSet ? { 'ses:configuration-set': [configurationSet] } : {}),
      'ses:source-ip': ['127.0.0.1'],
      'ses:from-domain': [domainOf(mail.from.address)],
      'ses:caller-identity': [account.accessKeyId],
      ...options.tags,
    },
    configurationSet,
  };
  // the events first: a crash between the two leaves events of a mail the mailbox never took,
  // which the next start drops (a mail without its Send event would be sent again)
  const events = ctx.accepting(account, sent, recipients);
  try {
    ctx.mailbox.add({
      id: messageId,
      from: displayAddress(mail.from),
      to: mail.to.map(displayAddress),
      cc: mail.cc.map(displayAddress),
      // envelope recipients the To and Cc headers do not show
      bcc: [...envelope.to, ...envelope.cc, ...envelope.bcc]
        .filter((m) => {
          const key = m.address.toLowerCase();
          if (listed.has(key)) return false;
          listed.add(key);
          return true;
        })
        .map(displayAddress),
      replyTo: mail.replyTo.map(displayAddress),
      subject: mail.subject,
      html: delivered.html,
      text: delivered.text,
      headers: delivered.headers,
      source: 'ses',
      recipients,
      meta: sent,
    });
  } catch (err) {
    ctx.unsent(events);
    throw err;
  }
  account.sent++;
  ctx.sent(events);
  // answered once SES would have it: the mail and its events survive a crash from here on
  await ctx.durable();
  return { MessageId: messageId };
}

function rejectedIdentities(region: string, failed: string[]): SesError {
  return new SesError(
    400,
    'MessageRejected',
    `Email address is not verified. The following identities failed the check in region ${region.toUpperCase()}: ${failed.join(', ')}`,
  );
}

const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Normalises the name of an email identity; a BadRequestException when it is neither kind. */
export function identityName(raw: unknown): { name: string; type: Identity['type'] } {
  if (typeof raw !== 'string' || raw === '') throw badRequest('EmailIdentity is required');
  const name = raw.trim().toLowerCase();
  if (name.includes('@')) {
    const parsed = parseAddress(name);
    if (!parsed || parsed.address !== name) throw badRequest(`Invalid email address: ${raw}`);
    return { name, type: 'EMAIL_ADDRESS' };
  }
  if (!DOMAIN.test(name)) throw badRequest(`Invalid domain name: ${raw}`);
  return { name, type: 'DOMAIN' };
}

export function identityView(account: Account, identity: Identity) {
  const status = account.status(identity);
  return {
    IdentityType: identity.type,
    FeedbackForwardingStatus: true,
    VerifiedForSendingStatus: status === 'SUCCESS',
    DkimAttributes: {
      SigningEnabled: identity.type === 'DOMAIN',
      Status: account.dkimStatus(identity),
      Tokens: identity.dkimTokens ?? [],
      SigningAttributesOrigin: 'AWS_SES',
      NextSigningKeyLength: 'RSA_2048_BIT',
      CurrentSigningKeyLength: 'RSA_2048_BIT',
      LastKeyGenerationTimestamp: Math.floor(Date.parse(identity.createdAt) / 1000),
    },
    MailFromAttributes: { BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
    Policies: {},
    Tags: identity.tags,
    ...(identity.configurationSetName
      ? { ConfigurationSetName: identity.configurationSetName }
      : {}),
    VerificationStatus: status,
  };
}

export interface IdentityContext {
  state: SesState;
  mailbox: LocalMailbox;
  baseUrl: string;
  region: string;
}

export function createEmailIdentity(ctx: IdentityContext, account: Account, body: JsonObject) {
  const { name, type } = identityName(body.EmailIdentity);
  if (account.identities.has(name)) {
    throw new SesError(400, 'AlreadyExistsException', `Email identity ${name} already exist.`);
  }
  const tags = body.Tags ?? [];
  if (
    !Array.isArray(tags) ||
    !tags.every((t) => isObject(t) && typeof t.Key === 'string' && typeof t.Value === 'string')
  ) {
    throw badRequest('Tags must be a list of {Key, Value}');
  }
  if (body.DkimSigningAttributes != null) {
    throw badRequest('The local SES fake supports Easy DKIM only (no DkimSigningAttributes)');
  }
  const identity: Identity = {
    name,
    type,
    createdAt: new Date().toISOString(),
    verified: false,
    dkimTokens: type === 'DOMAIN' ? dkimTokens(name) : undefined,
    tags: tags as Identity['tags'],
    configurationSetName: string(body.ConfigurationSetName, 'ConfigurationSetName', false),
  };
  account.identities.set(name, identity);
  if (type === 'EMAIL_ADDRESS') sendVerificationMail(ctx, account, name);
  const view = identityView(account, identity);
  return {
    IdentityType: view.IdentityType,
    VerifiedForSendingStatus: view.VerifiedForSendingStatus,
    ...(type === 'DOMAIN' ? { DkimAttributes: view.DkimAttributes } : {}),
  };
}

/** The mail Amazon sends to an address being verified, with the link that verifies it. */
function sendVerificationMail(ctx: IdentityContext, account: Account, address: string) {
  const token = ctx.state.newVerificationToken(account.accessKeyId, address);
  const link = `${ctx.baseUrl}/ses/verify?token=${token}`;
  const region = REGION_NAMES[ctx.region] ?? ctx.region;
  const text = `Dear Amazon Web Services Customer,

We have received a request to authorize this email address for use with Amazon SES in region ${region}. If you requested this verification, please go to the following URL to confirm that you are authorized to use this email address:

${link}

Your request will not be processed unless you confirm the address using this URL. This link expires 24 hours after your original verification request.

If you did NOT request to verify this email address, do not click on the link.

Sincerely,

The Amazon Web Services Team.

(Sent by the local SES fake; nothing left this machine.)`;
  const id = newMessageId();
  const subject = `Amazon Web Services – Email Address Verification Request in region ${region}`;
  ctx.mailbox.add({
    id,
    from: 'no-reply-aws@amazon.com',
    to: [address],
    subject,
    html: null,
    text,
    headers: {
      From: 'no-reply-aws@amazon.com',
      To: address,
      Subject: subject,
      'MIME-Version': '1.0',
      'Content-Type': 'text/plain; charset=UTF-8',
      'Message-ID': `<${id}@email.amazonses.com>`,
      Date: new Date().toUTCString().replace('GMT', '+0000'),
    },
    source: 'ses',
  });
}

export function getEmailIdentity(account: Account, rawName: string) {
  const identity = account.identities.get(rawName.trim().toLowerCase());
  if (!identity) throw notFound(`Email identity ${rawName} does not exist.`);
  return identityView(account, identity);
}

export function deleteEmailIdentity(account: Account, rawName: string) {
  const name = rawName.trim().toLowerCase();
  if (!account.identities.delete(name)) throw notFound(`Email identity ${rawName} does not exist.`);
  return {};
}

export function listEmailIdentities(
  account: Account,
  pageSize: number | undefined,
  nextToken: string | undefined,
) {
  const all = [...account.identities.values()].sort((a, b) => a.name.localeCompare(b.name));
  const start = nextToken ? Number(nextToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > all.length) {
    throw new SesError(400, 'BadRequestException', 'Invalid NextToken');
  }
  const size = Math.min(Math.max(pageSize ?? 100, 1), 1000);
  const page = all.slice(start, start + size);
  return {
    EmailIdentities: page.map((i) => ({
      IdentityType: i.type,
      IdentityName: i.name,
      SendingEnabled: true,
      VerificationStatus: account.status(i),
    })),
    ...(start + size < all.length ? { NextToken: String(start + size) } : {}),
  };
}

export function getAccount(account: Account) {
  const sandbox = account.settings.sandbox;
  return {
    DedicatedIpAutoWarmupEnabled: false,
    EnforcementStatus: 'HEALTHY',
    ProductionAccessEnabled: !sandbox,
    SendQuota: {
      Max24HourSend: sandbox ? 200 : 1_000_000,
      MaxSendRate: account.settings.maxSendRate || 1000,
      SentLast24Hours: account.sent,
    },
    SendingEnabled: true,
    SuppressionAttributes: { SuppressedReasons: [] },
  };
}

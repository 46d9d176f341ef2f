// The mail path, narrowed to what the product needs: send a mail, manage sender identities, and
// read the provider's events. One implementation, Amazon SES v2 through its official client; the
// endpoint is configurable (SES_ENDPOINT), so locally and in tests it is the providers server's
// SES fake (supabase/local/providers/). SES is the provider because its model is the spec's:
// an email-address identity verified by a link is the sender verification, and its event types
// (send, delivery, open, bounce, reject, complaint) are the spec's delivery counts.
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  SendEmailCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { convert } from 'html-to-text';
import { optionalEnv } from './env.ts';
import { classify, MailError, type AwsError } from './mail-errors.ts';

export interface OutgoingMail {
  /** The From address; `fromName` is its display name. */
  from: string;
  fromName?: string;
  to: string[];
  replyTo?: string[];
  subject: string;
  html: string;
  /** The text part; made from the HTML when absent. Every mail has one. */
  text?: string;
  headers?: Record<string, string>;
  /** Provider tags, echoed in its events (delivery id, kind). Values [A-Za-z0-9_.-@]. */
  tags?: Record<string, string>;
}

export interface Identity {
  verified: boolean;
  /** DKIM signing state as SES reports it (SUCCESS, PENDING, FAILED, ...), if any. */
  dkimStatus?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  /** Starts verification of an email address: the provider mails it a link. */
  createIdentity(email: string): Promise<void>;
  /** null when the provider has no such identity. */
  getIdentity(emailOrDomain: string): Promise<Identity | null>;
  deleteIdentity(email: string): Promise<void>;
}

/** The text part of a mail from its HTML: links as "text [url]", images dropped. */
export function textOf(html: string): string {
  return convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
}

/**
 * `"Name" <addr>` with the name quoted as RFC 5322 wants, or, for a name that is not plain ASCII
 * (a Korean owner's), `=?UTF-8?B?...?= <addr>`: SES takes only 7-bit ASCII in an address, the
 * friendly name included, and refuses the whole send otherwise. Control characters become spaces.
 */
export function formatAddress(address: string, name?: string): string {
  const clean = (name ?? '').replace(/\p{Cc}+/gu, ' ').trim();
  if (!clean) return address;
  if (/[^\x20-\x7e]/.test(clean)) return `${encodedWords(clean)} <${address}>`;
  return `"${clean.replace(/(["\\])/g, '\\$1')}" <${address}>`;
}

/**
 * RFC 2047 B encoded-words of at most 45 UTF-8 bytes each (72 characters a word, under the 75 the
 * RFC allows), split between characters, never inside one; a reader joins adjacent words.
 */
export function encodedWords(text: string): string {
  const encoder = new TextEncoder();
  const words: number[][] = [];
  let chunk: number[] = [];
  for (const char of text) {
    const bytes = encoder.encode(char);
    if (chunk.length + bytes.length > 45) {
      words.push(chunk);
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length) words.push(chunk);
  return words.map((b) => `=?UTF-8?B?${btoa(String.fromCharCode(...b))}?=`).join(' ');
}

let client: SESv2Client | undefined;

function ses(): SESv2Client {
  client ??= new SESv2Client({
    region: optionalEnv('AWS_REGION', 'us-east-1'),
    endpoint: Deno.env.get('SES_ENDPOINT') || undefined,
    // our queue retries with its own backoff and knows what may not be re-sent; the SDK's own
    // retries would re-send after a timeout
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: 3_000,
      requestTimeout: 15_000,
      // a fresh connection for every call: Deno's HTTP client sends a request again, unasked,
      // when a reused keep-alive connection closes before the answer, even after the server took
      // it (seen with SES's fake: one SendEmail, two mails 26 ms apart; Node's client does not).
      // SES has no idempotency key, so a reused connection could mail twice.
      // (agent options: the SDK makes its node:http and node:https agents with them)
      httpAgent: { keepAlive: false },
      httpsAgent: { keepAlive: false },
    },
  });
  return client;
}

/** Tags SES accepts: letters, digits, _ - . @ only. */
function tagValue(value: string): string {
  return value.replace(/[^A-Za-z0-9_.@-]/g, '_').slice(0, 256);
}

export function sesMailer(): Mailer {
  const configurationSet = Deno.env.get('SES_CONFIGURATION_SET') || undefined;
  return {
    async send(mail) {
      const headers = Object.entries(mail.headers ?? {}).map(([Name, Value]) => ({ Name, Value }));
      try {
        const out = await ses().send(
          new SendEmailCommand({
            FromEmailAddress: formatAddress(mail.from, mail.fromName),
            Destination: { ToAddresses: mail.to },
            ReplyToAddresses: mail.replyTo,
            ConfigurationSetName: configurationSet,
            EmailTags: Object.entries(mail.tags ?? {}).map(([Name, Value]) => ({
              Name,
              Value: tagValue(Value),
            })),
            Content: {
              Simple: {
                // a header: one line whatever the caller built (a line break would start a new one)
                Subject: { Data: mail.subject.replace(/[\r\n]+/g, ' '), Charset: 'UTF-8' },
                Body: {
                  Html: { Data: mail.html, Charset: 'UTF-8' },
                  Text: { Data: mail.text ?? textOf(mail.html), Charset: 'UTF-8' },
                },
                Headers: headers.length ? headers : undefined,
              },
            },
          }),
        );
        if (!out.MessageId) throw new MailError('SES answered without a MessageId', 'unknown');
        return { messageId: out.MessageId };
      } catch (err) {
        throw err instanceof MailError ? err : classify(err);
      }
    },
    async createIdentity(email) {
      try {
        await ses().send(
          new CreateEmailIdentityCommand({
            EmailIdentity: email,
            ConfigurationSetName: configurationSet,
          }),
        );
      } catch (err) {
        if ((err as AwsError).name === 'AlreadyExistsException') return;
        throw classify(err);
      }
    },
    async getIdentity(emailOrDomain) {
      try {
        const out = await ses().send(new GetEmailIdentityCommand({ EmailIdentity: emailOrDomain }));
        return {
          verified: out.VerifiedForSendingStatus === true,
          dkimStatus: out.DkimAttributes?.Status,
        };
      } catch (err) {
        if ((err as AwsError).name === 'NotFoundException') return null;
        throw classify(err);
      }
    },
    async deleteIdentity(email) {
      try {
        await ses().send(new DeleteEmailIdentityCommand({ EmailIdentity: email }));
      } catch (err) {
        if ((err as AwsError).name === 'NotFoundException') return;
        throw classify(err);
      }
    },
  };
}

/** A provider event, as the database applies it (public.record_mail_event). */
export interface MailEvent {
  type: 'send' | 'delivery' | 'open' | 'bounce' | 'complaint' | 'reject' | 'other';
  messageId: string;
  bounceType?: string;
  recipients?: string[];
  /** The send's email tags, one value each (letters carry `delivery`, platform mails `job`). */
  tags?: Record<string, string>;
  /**
   * What SES says of the mail itself (every event type has it): its To addresses, its From and
   * subject. The database records from them a platform mail whose worker never did (rev-mail3 D5).
   */
  destination?: string[];
  source?: string;
  subject?: string;
}

/**
 * Reads an SES event: the JSON that a configuration set's SNS destination puts in the SNS
 * message (`eventType`), or an identity notification (`notificationType`). null when it is not one.
 */
export function parseSesEvent(message: string): MailEvent | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(message) as Record<string, unknown>;
  } catch {
    return null;
  }
  const kind = String(raw.eventType ?? raw.notificationType ?? '').toLowerCase();
  const mail = raw.mail as { messageId?: unknown } | undefined;
  if (!kind || typeof mail?.messageId !== 'string') return null;
  const known = ['send', 'delivery', 'open', 'bounce', 'complaint', 'reject'] as const;
  const type = (known as readonly string[]).includes(kind) ? (kind as MailEvent['type']) : 'other';
  const event: MailEvent = { type, messageId: mail.messageId };
  const about = mail as {
    destination?: unknown;
    source?: unknown;
    commonHeaders?: { subject?: unknown };
  };
  if (Array.isArray(about.destination)) {
    event.destination = about.destination
      .filter((a): a is string => typeof a === 'string')
      .slice(0, 50)
      .map((a) => a.slice(0, 320));
  }
  if (typeof about.source === 'string') event.source = about.source.slice(0, 320);
  if (typeof about.commonHeaders?.subject === 'string')
    event.subject = about.commonHeaders.subject.slice(0, 500);
  const tags = (mail as { tags?: Record<string, unknown> }).tags;
  if (tags && typeof tags === 'object') {
    const picked: Record<string, string> = {};
    for (const [name, values] of Object.entries(tags)) {
      const value = Array.isArray(values) ? values[0] : values;
      if (typeof value === 'string' && !name.startsWith('ses:')) picked[name] = value.slice(0, 256);
    }
    if (Object.keys(picked).length) event.tags = picked;
  }
  const bounce = raw.bounce as
    { bounceType?: string; bouncedRecipients?: Array<{ emailAddress?: string }> } | undefined;
  const complaint = raw.complaint as
    { complainedRecipients?: Array<{ emailAddress?: string }> } | undefined;
  if (type === 'bounce' && bounce) {
    event.bounceType = bounce.bounceType;
    event.recipients = (bounce.bouncedRecipients ?? [])
      .map((r) => r.emailAddress)
      .filter((a): a is string => !!a);
  }
  if (type === 'complaint' && complaint) {
    event.recipients = (complaint.complainedRecipients ?? [])
      .map((r) => r.emailAddress)
      .filter((a): a is string => !!a);
  }
  return event;
}

// Helpers for tests of code that reaches outside providers through the local fakes: the
// mailbox, the SES fake's control API, an SNS endpoint that records what it is sent, and an
// SNS signature check written from AWS's documentation (independent of the fake's code).
import { createVerify, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { SENDER_DOMAIN } from '../../local/config.ts';
import { eventually } from '../../../scripts/poll.ts';
import { stack } from './clients.ts';

/** The one poll (scripts/poll.ts), which the tests take from here with the fakes' helpers. */
export { eventually };

export const providersUrl = () => stack().providersUrl;

export interface Mail {
  id: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  source: string;
  sentAt: string;
}

/** The one-click unsubscribe URL a mail's List-Unsubscribe header carries (RFC 2369). */
export const oneClickLink = (mail: Mail): string =>
  /<([^>]+)>/.exec(
    Object.entries(mail.headers).find(([k]) => k.toLowerCase() === 'list-unsubscribe')![1],
  )![1]!;

/** The POST a mail client makes on that link (RFC 8058 one-click). */
export const clickOneClick = (link: string): Promise<Response> =>
  fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });

/** An address no other test writes to: a mailbox of its own. */
export const inbox = (label = 'reader') => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** The mailbox, newest first (only mail to `to` when given). */
export async function mailbox(to?: string): Promise<Mail[]> {
  const res = await fetch(
    `${providersUrl()}/mailbox/messages${to ? `?to=${encodeURIComponent(to)}` : ''}`,
  );
  if (!res.ok) throw new Error(`mailbox: ${res.status}`);
  return (await res.json()) as Mail[];
}

/** Waits for mail to `to` (matching `match`) and returns the newest such. */
export const waitForMail = (to: string, match: (m: Mail) => boolean = () => true) =>
  eventually(async () => (await mailbox(to)).find(match));

/** An access key id of its own: an account of its own in the SES fake. */
export const newAccessKeyId = () =>
  `AKIATEST${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

/** The unmodified SDK client pointed at the fake. */
export function sesClient(accessKeyId: string, opts: { maxAttempts?: number } = {}): SESv2Client {
  return new SESv2Client({
    endpoint: `${providersUrl()}/ses`,
    region: 'us-east-1',
    credentials: { accessKeyId, secretAccessKey: 'local-test-secret' },
    ...opts,
  });
}

// The SES tests' messages and refusals (providers-ses.test.ts, providers-ses-identities.test.ts,
// providers-ses-events.test.ts).

export const FROM = `no-reply@${SENDER_DOMAIN}`;
export const rcpt = (label = 'r') => `${label}-${randomUUID().slice(0, 8)}@inbox.example`;

export function simple(
  to: string,
  subject = `Hello ${randomUUID().slice(0, 6)}`,
): SendEmailCommandInput {
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
export async function failure(
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
 * POSTs to a fake's control API (`/<fake>/_control<path>` of the providers server) and answers
 * its JSON; a refusal throws with the fake's answer.
 */
export async function fakeControl<T = Record<string, unknown>>(
  fake: string,
  path: string,
  body: unknown = {},
): Promise<T> {
  const res = await fetch(`${providersUrl()}/${fake}/_control${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${fake} control ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** What a fake holds (`/<fake>/_control/state<query>`), as its control API shows it. */
export async function fakeState<T>(fake: string, query = ''): Promise<T> {
  const res = await fetch(`${providersUrl()}/${fake}/_control/state${query}`);
  if (!res.ok) throw new Error(`${fake} state: ${res.status}`);
  return (await res.json()) as T;
}

/** POSTs to the SES fake's control API (`/ses/_control<path>`) for `account`. */
export const sesControl = <T = Record<string, unknown>>(
  path: string,
  body: Record<string, unknown>,
  account?: string,
): Promise<T> => fakeControl<T>('ses', path, account ? { account, ...body } : body);

export interface SnsPost {
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, string>;
}

/** An HTTP endpoint standing in for an SNS subscriber: records every POST. */
export async function snsReceiver(): Promise<{
  url: string;
  posts: SnsPost[];
  /** Status to answer with (default 200); a function sees how many posts came before. */
  respond: (status: number | ((post: SnsPost) => number)) => void;
  waitFor: (match: (p: SnsPost) => boolean, ms?: number) => Promise<SnsPost>;
  close: () => Promise<void>;
}> {
  const posts: SnsPost[] = [];
  let status: number | ((post: SnsPost) => number) = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const post: SnsPost = {
        headers: req.headers,
        raw,
        body: JSON.parse(raw) as Record<string, string>,
      };
      posts.push(post);
      res.writeHead(typeof status === 'function' ? status(post) : status);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/sns`,
    posts,
    respond: (s) => (status = s),
    waitFor: (match, ms) => eventually(() => posts.find(match), ms),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Verifies an SNS message's signature as AWS documents it ("Verifying the signatures of Amazon
 * SNS messages"): the string to sign is "Key\nValue\n" for Message, MessageId, Subject (if
 * present), Timestamp, TopicArn, Type for a Notification, and Message, MessageId, SubscribeURL,
 * Timestamp, Token, TopicArn, Type for (Un)SubscriptionConfirmation; the signature is
 * base64 SHA1withRSA (SignatureVersion 1) or SHA256withRSA (2) by the certificate's key.
 */
export function snsSignatureValid(message: Record<string, string>, certPem: string): boolean {
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = keys
    .filter((k) => message[k] !== undefined)
    .map((k) => `${k}\n${message[k]}\n`)
    .join('');
  const algorithm = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' }[message.SignatureVersion ?? ''];
  if (!algorithm) return false;
  return createVerify(algorithm)
    .update(text, 'utf8')
    .verify(certPem, message.Signature ?? '', 'base64');
}

// ---------------------------------------------------------------------------------------------
// Notion fake (/notion): the authorise page as a browser submits it, and its control API
// ---------------------------------------------------------------------------------------------

/** The Notion OAuth client of the local stack (what the functions and the fake share). */
export { LOCAL_NOTION } from '../../local/config.ts';

/**
 * Submits the local authorise page as a person pressing "Allow access" (or Cancel) would, and
 * answers where Notion sends the browser back: the code, the state, or the error.
 */
export async function notionAuthorize(opts: {
  clientId: string;
  redirectUri: string;
  state?: string;
  workspaceId?: string;
  workspaceName?: string;
  email?: string;
  decision?: 'allow' | 'deny';
}): Promise<{ code: string | null; state: string | null; error: string | null; location: URL }> {
  const form = new URLSearchParams({
    client_id: opts.clientId,
    redirect_uri: opts.redirectUri,
    state: opts.state ?? '',
    workspace_id: opts.workspaceId ?? '',
    workspace_name: opts.workspaceName ?? 'Test workspace',
    email: opts.email ?? 'owner@example.com',
    decision: opts.decision ?? 'allow',
  });
  return decide(`${providersUrl()}/notion/v1/oauth/authorize`, form, 303, 'authorize');
}

/** POSTs to the Notion fake's control API (`/notion/_control<path>`). */
export const notionControl = <T = Record<string, unknown>>(
  path: string,
  body: Record<string, unknown>,
): Promise<T> => fakeControl<T>('notion', path, body);

export interface NotionWorkspaceState {
  id: string;
  name: string;
  failure: { mode: string; remaining: number | null; retryAfter: number } | null;
  tokens: Array<{ revoked: boolean }>;
  dataSources: Array<{
    id: string;
    title: string;
    gone: boolean;
    properties: Array<{ name: string; type: string }>;
  }>;
  pages: Array<{
    id: string;
    title: string;
    parent: { type: string; data_source_id?: string; page_id?: string };
    properties: Record<string, Record<string, unknown>>;
    children: Array<Record<string, unknown>>;
  }>;
  /** The last 200 calls, oldest first (`at`: when, ISO). */
  log: Array<{ at: string; method: string; path: string; status: number }>;
}

export const notionWorkspace = (workspaceId: string) =>
  fakeState<NotionWorkspaceState>('notion', `?workspace_id=${workspaceId}`);

// ---- Cafe24 fake -------------------------------------------------------------------------------

export { LOCAL_CAFE24 } from '../../local/config.ts';

/** A mall id no other test uses: a mall of its own in the Cafe24 fake. */
export const newMallId = () => `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** The operator's answer on the Cafe24 fake's consent page (the form the page posts). */
export async function cafe24Consent(authorizeUrl: string, decision: 'allow' | 'deny' = 'allow') {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams({
    client_id: url.searchParams.get('client_id') ?? '',
    redirect_uri: url.searchParams.get('redirect_uri') ?? '',
    state: url.searchParams.get('state') ?? '',
    scope: url.searchParams.get('scope') ?? '',
    decision,
  });
  return decide(`${url.origin}${url.pathname}`, form, 302, 'consent');
}

export interface Cafe24MallState {
  mallId: string;
  failure: string | null;
  bucket: number;
  scriptTags: Array<{
    script_no: string;
    client_id: string;
    src: string;
    display_location: string[];
    integrity: string | null;
  }>;
  tokens: Array<{ ended: boolean; scopes: string[] }>;
  log: Array<{ method: string; path: string; status: number }>;
}

export const cafe24Mall = (mallId: string) =>
  fakeState<Cafe24MallState>('cafe24', `?mall=${mallId}`);

/** Switches of one mall of the Cafe24 fake (README: failure, refuseRefresh, expireAccess, ...). */
export const cafe24Control = (mallId: string, body: Record<string, unknown>) =>
  fakeControl<Cafe24MallState>('cafe24', `/malls/${mallId}`, body);

/**
 * Posts a consent page's decision as the page's form does (same origin) and reads where the fake
 * sends the browser back: the code, state or error of the redirect (`status`, the fake's).
 */
async function decide(action: string, form: URLSearchParams, status: number, what: string) {
  const res = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: providersUrl() },
    body: form,
    redirect: 'manual',
  });
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  const location = new URL(res.headers.get('location')!);
  return {
    code: location.searchParams.get('code'),
    state: location.searchParams.get('state'),
    error: location.searchParams.get('error'),
    location,
  };
}

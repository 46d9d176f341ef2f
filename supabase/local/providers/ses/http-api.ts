// The SES fake's HTTP face of the v2 API under /ses/v2: the account of the request's SigV4 access
// key, its outage switches, then the operation (api.ts). Errors carry SES's status,
// x-amzn-ErrorType and {"message"}, so the SDK throws its own classes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, readBody, sendJson, type JsonObject } from '../http.ts';
import {
  createEmailIdentity,
  deleteEmailIdentity,
  getAccount,
  getEmailIdentity,
  listEmailIdentities,
  MAX_MESSAGE_BYTES,
  SesError,
  sendEmail,
} from './api.ts';
import type { SesRoute, SesRuntime } from './runtime.ts';
import type { Account, Outage } from './state.ts';

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

/** An identity's own API path: GET and DELETE /v2/email/identities/{name}. */
const IDENTITY_PATH = /^\/v2\/email\/identities\/([^/]+)$/;

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

/**
 * What SES answers while down in the way `kind` says (Settings.outage); `lost` answers nothing,
 * `held` answers late.
 */
function outageError(kind: Exclude<Outage, 'lost' | 'held'>): SesError {
  if (kind === true) {
    return new SesError(
      503,
      'ServiceUnavailable',
      'Service is unavailable. Please try again later.',
    );
  }
  if (kind === 'denied') {
    return new SesError(
      400,
      'AccessDeniedException',
      'User: arn:aws:iam::000000000000:user/local is not authorized to perform this action',
    );
  }
  return new SesError(
    429,
    'TooManyRequestsException',
    'Too many requests have been made to the operation.',
  );
}

/**
 * The request's account and JSON body. The body is read before answering, as a real endpoint
 * does, even during an outage; an outage switched on for the account (or for the addresses the
 * call names) answers before the body is checked.
 */
async function accountAndBody(
  rt: SesRuntime,
  req: IncomingMessage,
  path: string,
  url: URL,
): Promise<{ account: Account; body: JsonObject; lost: boolean; held: boolean }> {
  const { state } = rt;
  const accessKeyId = accessKeyOf(req, url);
  if (!accessKeyId) {
    throw new SesError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  }
  const account =
    accessKeyId === state.defaultAccessKeyId ? rt.defaultAccount() : state.account(accessKeyId);
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
  const outages = outagesOf(account, path, body);
  const refusal = outages.find((kind) => kind !== 'lost' && kind !== 'held');
  if (refusal !== undefined) throw outageError(refusal);
  if (raw.length && !body) {
    throw new SesError(400, 'BadRequestException', 'The request body is not a JSON object');
  }
  return {
    account,
    body: body ?? {},
    lost: outages.includes('lost'),
    held: outages.includes('held'),
  };
}

/** The outages a call meets now: the account's (when it names one of outageFor) and its addresses'. */
function outagesOf(account: Account, path: string, body: JsonObject | undefined): Outage[] {
  const { outage, outageFor, outageOf } = account.settings;
  const outages: Outage[] = Object.entries(outageOf)
    .filter(([address]) => namesAny(path, body, [address]))
    .map(([, kind]) => kind);
  if (outage !== false && (!outageFor.length || namesAny(path, body, outageFor))) {
    outages.unshift(outage);
  }
  return outages;
}

/** Resolves once no `held` outage meets the call any more, or its caller gave up. */
async function heldAnswer(
  req: IncomingMessage,
  account: Account,
  path: string,
  body: JsonObject,
): Promise<void> {
  while (!req.socket.destroyed && outagesOf(account, path, body).includes('held')) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The operation a request names, run for its account. */
async function operation(
  rt: SesRuntime,
  account: Account,
  body: JsonObject,
  req: IncomingMessage,
  path: string,
  url: URL,
): Promise<unknown> {
  const identityPath = IDENTITY_PATH.exec(path);
  if (path === '/v2/email/outbound-emails' && req.method === 'POST')
    return sendEmail(rt, account, body);
  if (path === '/v2/email/identities' && req.method === 'POST')
    return createEmailIdentity(rt, account, body);
  if (identityPath && req.method === 'GET')
    return getEmailIdentity(account, decodeURIComponent(identityPath[1]!));
  if (identityPath && req.method === 'DELETE')
    return deleteEmailIdentity(account, decodeURIComponent(identityPath[1]!));
  if (path === '/v2/email/identities' && req.method === 'GET') {
    const size = url.searchParams.get('PageSize');
    return listEmailIdentities(
      account,
      size ? Number(size) : undefined,
      url.searchParams.get('NextToken') ?? undefined,
    );
  }
  if (path === '/v2/email/list-identities' && req.method === 'POST') {
    const size = typeof body.PageSize === 'number' ? body.PageSize : undefined;
    const next = typeof body.NextToken === 'string' ? body.NextToken : undefined;
    return listEmailIdentities(account, size, next);
  }
  if (path === '/v2/email/account' && req.method === 'GET') return getAccount(account);
  throw new SesError(
    404,
    'UnknownOperationException',
    `The local SES fake does not implement ${req.method} ${path}`,
  );
}

/** Answers a /v2/... request, errors in SES's shape. */
export const v2Api: SesRoute = async (rt, req, res, path, url) => {
  try {
    const { account, body, lost, held } = await accountAndBody(rt, req, path, url);
    const result = await operation(rt, account, body, req, path, url);
    // done, and the answer never comes: the caller's socket closes under it
    if (lost) return void req.socket.destroy();
    // done (a send's events go out), and the answer waits until the outage is cleared
    if (held) await heldAnswer(req, account, path, body);
    sendJson(res, 200, result, { 'x-amzn-requestid': randomUUID() });
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
};

// Small HTTP helpers for the auth server: body parsing, JSON replies and GoTrue-shaped errors.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An error with the status and `error_code` GoTrue would answer with. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, msg: string) => new AuthError(400, code, msg);
export const unauthorized = (code: string, msg: string) => new AuthError(401, code, msg);
export const forbidden = (code: string, msg: string) => new AuthError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthError(404, code, msg);
export const unprocessable = (code: string, msg: string) => new AuthError(422, code, msg);

const MAX_BODY = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY) throw new AuthError(413, 'request_too_large', 'Request body too large');
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type JsonObject = Record<string, unknown>;

/** Parses a JSON object body; an empty body is `{}`, anything else that is not an object is a 400. */
export async function readJson(req: IncomingMessage): Promise<JsonObject> {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object');
  }
  return value as JsonObject;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readBody(req));
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status = 204): void {
  res.writeHead(status, { 'Cache-Control': 'no-store' });
  res.end();
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    // no scripts at all; form-action is left open on purpose: Chromium applies it to the
    // redirect that follows the form post, which goes to the app's origin.
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(html);
}

export function redirect(res: ServerResponse, status: 302 | 303, location: string): void {
  res.writeHead(status, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}

/**
 * GoTrue's error body: `{code, error_code, msg}`. The token endpoint also gets the OAuth2
 * fields `error` and `error_description`, as older clients read those.
 */
export function sendError(res: ServerResponse, err: AuthError, oauth = false): void {
  const body: JsonObject = {
    code: err.status,
    error_code: err.errorCode,
    msg: err.message,
    ...err.extra,
  };
  if (oauth) {
    body.error =
      err.status === 401
        ? 'invalid_client'
        : err.errorCode === 'unsupported_grant_type'
          ? 'unsupported_grant_type'
          : 'invalid_grant';
    body.error_description = err.message;
  }
  sendJson(res, err.status, body);
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const isPlainObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// Request parameters as GoTrue reads and refuses them.
import { isObject, parseJsonObject, type JsonObject } from '../http.ts';
import type { AuthCtx, AuthSettings } from './context.ts';
import { AuthError, badRequest } from './errors.ts';
import { normaliseEmail } from './users.ts';

/** A JSON object body ({} when empty); a 400 `bad_json` otherwise. */
export async function readJsonBody(c: AuthCtx): Promise<JsonObject> {
  return parseJsonObject(await c.req.text());
}

export async function readFormBody(c: AuthCtx): Promise<URLSearchParams> {
  return new URLSearchParams(await c.req.text());
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export function requireEmail(value: unknown): string {
  const email = typeof value === 'string' ? normaliseEmail(value) : undefined;
  if (!email)
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email;
}

export function checkPassword(settings: AuthSettings, password: string): void {
  if (password.length < settings.passwordMinLength) {
    throw new AuthError(
      422,
      'weak_password',
      `Password should be at least ${settings.passwordMinLength} characters.`,
      { weak_password: { reasons: ['length'] } },
    );
  }
}

export function metadataParam(value: unknown, field: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest('validation_failed', `${field} must be an object`);
  return value;
}

/** Go's time.ParseDuration for the units an admin would use ("24h", "1h30m", "90s"). */
export function parseDuration(text: string): number | undefined {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    total += Number(match[1]) * units[match[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : undefined;
}

// What the webhook functions share: the paid check (paid.ts), and whether an endpoint's address leads to
// a public server (the SSRF guard's own check, before anything is ever sent there).
import { WEBHOOK_MESSAGES } from '@reaction-blocks/contracts/webhooks';
import { dbError, type DbFailure, HttpError } from './http.ts';
import { requirePaid } from './paid.ts';
import { isPublicAddress } from './special-addresses.ts';
import { resolveHost } from './letter/runtime.ts';

export { requirePaid };

/** Refuses an address whose host has no address, or one that is not public. */
export async function requirePublicHost(url: string): Promise<void> {
  const host = new URL(url).hostname.toLowerCase();
  let addresses: string[] = [];
  try {
    addresses = await resolveHost(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a)))
    throw new HttpError(400, 'invalid_input', WEBHOOK_MESSAGES.unreachable);
}

/** The database's refusals as the functions answer them. */
export function endpointError(error: DbFailure, status: number): never {
  if (error.code === 'PT404') throw new HttpError(404, 'not_found', WEBHOOK_MESSAGES.notFound);
  if (error.code === 'P0001' && error.message === WEBHOOK_MESSAGES.tooMany)
    throw new HttpError(409, 'too_many', WEBHOOK_MESSAGES.tooMany);
  throw dbError(error, status);
}

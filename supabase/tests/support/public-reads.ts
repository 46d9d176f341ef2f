// The cacheable public reads (get_block_public, get_block_counts) as the elements send them, and
// what makes them safe for a shared cache: the same bytes for every caller.
import { expect } from 'vitest';
import { stack } from './clients.ts';
import { expiredToken, forgedToken } from './jwt.ts';

export interface PublicRead {
  res: Response;
  text: string;
}

/** The URL of a GET of the RPC `name` with `params`. */
export const rpcUrl = (name: string, params: Record<string, string>) =>
  `${stack().apiUrl}/rest/v1/rpc/${name}?${new URLSearchParams(params)}`;

/** A GET of the RPC `name` as the element sends it (the anon key), or with another bearer. */
export async function publicRead(
  name: string,
  params: Record<string, string>,
  bearer?: string,
  extra: Record<string, string> = {},
): Promise<PublicRead> {
  const res = await fetch(rpcUrl(name, params), {
    headers: {
      apikey: stack().anonKey,
      Authorization: `Bearer ${bearer ?? stack().anonKey}`,
      Accept: 'application/json',
      ...extra,
    },
  });
  return { res, text: await res.text() };
}

/**
 * `read` answers each of `bearers` (guests', users', the owner's tokens) with the bytes it gives
 * anon; a token the project did not sign, or an expired one (of `sub`), gets no answer at all
 * (401), never a cacheable one made for it.
 */
export async function expectSameForEveryCaller(
  read: (bearer?: string) => Promise<PublicRead>,
  bearers: string[],
  sub: string,
) {
  // a view's block says the oldest transaction running when it was read (read_xmin): the one
  // part that is not the same twice
  const bytes = (text: string) => text.replace(/"read_xmin": \d+/g, '"read_xmin": 0');
  const anon = bytes((await read()).text);
  for (const token of bearers) {
    const { res, text } = await read(token);
    expect(res.status).toBe(200);
    expect(bytes(text)).toBe(anon);
  }
  for (const token of [await forgedToken(sub), await expiredToken(sub)]) {
    const { res } = await read(token);
    expect(res.status).toBe(401);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/public/);
  }
}

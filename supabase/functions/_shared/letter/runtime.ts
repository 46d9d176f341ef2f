// The letter pipeline's outside world in the edge runtime: DNS (Deno.resolveDns, with
// DNS_NAMESERVER locally), fetch, the origin override of the local `/pages` fake, the Notion API
// base URL, and Supabase Storage for copied images.
import { serviceClient } from '../clients.ts';
import { resolveOptions } from '../dns.ts';
import { env, optionalEnv } from '../env.ts';
import type { GuardDeps } from './fetch-guard.ts';
import type { LoadDeps } from './load.ts';

/** A host's A and AAAA addresses ([] when it has none), through DNS_NAMESERVER when set. */
export async function resolveHost(host: string): Promise<string[]> {
  const out: string[] = [];
  for (const type of ['A', 'AAAA'] as const) {
    try {
      out.push(...(await Deno.resolveDns(host, type, resolveOptions())));
    } catch (err) {
      // no such name, or no record of this type: an answer, not a failure
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return out;
}

export function guardDeps(): GuardDeps {
  return {
    resolve: resolveHost,
    fetch: (input, init) => fetch(input, init),
    originOverride: optionalEnv('PAGES_ORIGIN_OVERRIDE', '') || undefined,
  };
}

/** The bucket of copied letter images (public: mail clients load them without a session). */
export const imagesBucket = () => optionalEnv('LETTER_IMAGES_BUCKET', 'letter-images');

/** Origins whose images a letter may show besides https ones: the project's storage. */
export function imageOrigins(): string[] {
  return [env('SUPABASE_URL')];
}

export function loadDeps(ownerId: string): LoadDeps {
  return {
    guard: guardDeps(),
    notionApiBaseUrl: optionalEnv('NOTION_API_BASE_URL', 'https://www.notion.so/api/v3'),
    async storeImage(bytes, contentType, name) {
      const storage = serviceClient().storage.from(imagesBucket());
      const path = `${ownerId}/${name}`;
      const { error } = await storage.upload(path, bytes, { contentType, upsert: true });
      if (error) throw new Error(`storage: ${error.message}`);
      return storage.getPublicUrl(path).data.publicUrl;
    },
  };
}

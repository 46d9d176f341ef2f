// Runtime configuration. The server may answer /env.js with window.__REACTION_ENV__; otherwise
// the values replaced at build time (SUPABASE_URL, SUPABASE_ANON_KEY, SDK_URL) are used.

export interface ReactionEnv {
  supabaseUrl: string;
  anonKey: string;
  /** URL of the SDK's CDN loader (a classic script) that defines the <reaction-*> elements. */
  sdkUrl?: string;
  /**
   * Owner and block ids of the public demo blocks shown on /reaction and /showcase (optional);
   * `ko`, the same blocks with the owner's texts in Korean, shown on a Korean page.
   */
  demo?: {
    ownerId: string;
    blocks: Partial<Record<string, string>>;
    ko?: Partial<Record<string, string>>;
  };
  /** The payment providers' browser settings (docs/self-hosting.md, "Payments"). */
  payments?: PaymentsEnv;
}

export interface PaymentsEnv {
  /** PortOne V2: the store, the KCP billing channel (Korean cards) and a wallet channel. */
  portone?: { storeId: string; cardChannelKey: string; walletChannelKey?: string; sdkUrl?: string };
  /** PayPal: the client id, the subscription plan ($1 a unit a month) and the JS SDK's URL. */
  paypal?: { clientId: string; planId: string; sdkBaseUrl?: string };
}

declare global {
  interface Window {
    __REACTION_ENV__?: Partial<ReactionEnv>;
  }
}

/** The seed's ids: 00000000-0000-4000-8000-0000000001NN (supabase/seed/01-demo-owner.sql). */
const seeded = (tail: string) => `00000000-0000-4000-8000-000000000${tail}`;
/** The six reaction blocks' ids, NN from `first` on, in REACTION_TYPES' order. */
const demoBlocks = (first: number) =>
  Object.fromEntries(
    ['comment', 'qna', 'like', 'button', 'ab', 'form'].map((type, i) => [
      type,
      seeded(String(first + i)),
    ]),
  );

/** The demo owner and blocks of the seed (supabase/seed/); production sets `demo` in /env.js. */
export const DEFAULT_DEMO: NonNullable<ReactionEnv['demo']> = {
  ownerId: seeded('001'),
  blocks: demoBlocks(101),
  ko: demoBlocks(111),
};

export function readEnv(): ReactionEnv {
  const runtime = (typeof window !== 'undefined' && window.__REACTION_ENV__) || {};
  return {
    supabaseUrl: runtime.supabaseUrl || process.env.SUPABASE_URL || 'http://127.0.0.1:54321',
    anonKey: runtime.anonKey || process.env.SUPABASE_ANON_KEY || '',
    // The local stack serves the SDK's CDN loader at /sdk/cdn/reaction.js.
    sdkUrl:
      runtime.sdkUrl ||
      process.env.SDK_URL ||
      (typeof window !== 'undefined' ? `${window.location.origin}/sdk/cdn/reaction.js` : undefined),
    demo: runtime.demo ?? DEFAULT_DEMO,
    payments: runtime.payments,
  };
}

export const env = readEnv();

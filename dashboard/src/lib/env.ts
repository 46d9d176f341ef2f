// Runtime configuration. The server may answer /env.js with window.__REACTION_ENV__; otherwise
// the values replaced at build time (SUPABASE_URL, SUPABASE_ANON_KEY, SDK_URL) are used.

export interface ReactionEnv {
  supabaseUrl: string;
  anonKey: string;
  /** URL of the SDK's CDN loader (a classic script) that defines the <reaction-*> elements. */
  sdkUrl?: string;
  /** Owner and block ids of the public demo blocks shown on /reaction (optional). */
  demo?: { ownerId: string; blocks: Partial<Record<string, string>> };
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

/** The demo owner and blocks of supabase/seed.sql; production sets `demo` in /env.js. */
export const DEFAULT_DEMO: NonNullable<ReactionEnv['demo']> = {
  ownerId: '00000000-0000-4000-8000-000000000001',
  blocks: {
    comment: '00000000-0000-4000-8000-000000000101',
    qna: '00000000-0000-4000-8000-000000000102',
    like: '00000000-0000-4000-8000-000000000103',
    button: '00000000-0000-4000-8000-000000000104',
    ab: '00000000-0000-4000-8000-000000000105',
    form: '00000000-0000-4000-8000-000000000106',
  },
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

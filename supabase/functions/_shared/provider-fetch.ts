// The fetch every provider client that writes goes through (Cafe24, Notion, PayPal, Turnstile;
// docs/architecture.md "Delivery guarantee"). Deno's HTTP client sends a request again by itself
// when a reused keep-alive connection closes before the answer, even after the server took the
// request (measured with Deno 2.9.6: a POST whose answer was dropped reached the server twice, on
// the pooled connection and on a fresh one; Node's client sends it once). A write re-sent that way
// makes a second script tag, spends a code twice or writes a second Notion page. So a write never
// takes a pooled connection: it goes through an HTTP client that keeps no idle connection
// (`poolMaxIdlePerHost: 0`, HTTP/1.1 only, as measured), with `Connection: close`; a write on a
// fresh connection that fails is not sent again. A `Connection: close` header alone is not enough:
// the request still takes an idle connection a read left in the pool (measured: sent twice).
// Reads (GET, HEAD) stay on the shared pool: re-sending one changes nothing. Where the runtime has
// no Deno.createHttpClient, every provider call gets `Connection: close`, so no provider
// connection is ever left idle to be reused. The SES client is the one writer outside: the AWS SDK
// has its own transport, kept off reused connections by its agent options (mail.ts); PortOne's SDK
// calls the global fetch, and every PortOne write is keyed (plan-flows.ts).

const READS = new Set(['GET', 'HEAD']);

let unpooled: Deno.HttpClient | null | undefined;

/** The HTTP client of writes: a connection for each request, none kept idle. */
function writesClient(): Deno.HttpClient | null {
  if (unpooled === undefined) {
    unpooled =
      typeof Deno.createHttpClient === 'function'
        ? Deno.createHttpClient({ poolMaxIdlePerHost: 0, http2: false })
        : null;
  }
  return unpooled;
}

function methodOf(input: string | URL | Request, init?: RequestInit): string {
  return (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
}

/**
 * fetch for a provider's API: a write (any method but GET and HEAD) on a fresh connection of its
 * own, never re-sent by the runtime; a read as fetch sends it.
 */
export function providerFetch(
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const client = writesClient();
  const write = !READS.has(methodOf(input, init));
  if (!write && client) return fetch(input, init);
  const headers = new Headers(
    init.headers ?? (input instanceof Request ? input.headers : undefined),
  );
  headers.set('connection', 'close');
  return fetch(input, { ...init, headers, ...(write && client ? { client } : {}) });
}

/**
 * What a provider call that failed with no answer may have done (one definition for every
 * provider client). `unavailable`: the request never left, so nothing reached the provider: the
 * connection or its name lookup failed (Deno: "client error (Connect)", measured with Deno 2.9.6
 * for a refused port and an unknown host; Node: ECONNREFUSED, ENOTFOUND), or the runtime refused
 * the port. `uncertain` for anything else: a connection closed or reset before the answer
 * ("client error (SendRequest): connection closed before message completed", the fakes' `lost`
 * outage), a timeout. The request may have been carried out and its answer lost, so a write's
 * caller must treat it as maybe done: look before writing again, or never repeat it. A read may
 * treat either as `unavailable`.
 */
export function unanswered(err: unknown): 'unavailable' | 'uncertain' {
  const cause = (err as { cause?: { message?: unknown; code?: unknown } } | null)?.cause;
  const text = `${(err as Error)?.message ?? err} ${cause?.message ?? ''}`;
  if (/client error \(Connect\)|dns error|Requests to port \d+ are blocked/i.test(text))
    return 'unavailable';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(String(cause?.code ?? '')))
    return 'unavailable';
  return 'uncertain';
}

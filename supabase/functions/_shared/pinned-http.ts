// One HTTP/1.1 request to an address chosen beforehand: the SSRF guard's (letter/fetch-guard.ts)
// pinned transport for webhooks. fetch resolves a host itself, so a name whose DNS answers a public
// address to the guard's check and an inside one to fetch's own lookup (DNS rebinding) would get
// the request inside; here the socket goes to the address the guard approved, and TLS still checks
// the certificate and sends SNI for the URL's host name (Deno.startTls with that name).
// Only what a webhook needs: a request with a small body, the answer's status line and headers;
// the answer's body is not read. `Connection: close`, one request per connection.
//
// `override` (WEBHOOK_ORIGIN_OVERRIDE locally): the connection goes to that origin instead, plain
// HTTP, the request to `<override path>/<host><path>`, and `Forwarded: by=<address>` says the
// address it was meant for (RFC 7239: the interface the request came in on), so the local receiver
// records which address a delivery was pinned to.

const MAX_HEAD_BYTES = 16 * 1024;
const encoder = new TextEncoder();

export interface PinnedInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Certificates to trust besides the system's (tests: a receiver with a certificate of their own). */
  caCerts?: string[];
  override?: string;
}

/** A header name or value we send must not end the line or the head early. */
function headerLine(name: string, value: string): string {
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(name) || /[\r\n\0]/.test(value))
    throw new TypeError(`invalid header ${name}`);
  return `${name}: ${value}\r\n`;
}

function forwardedBy(address: string): string {
  return address.includes(':') ? `by="[${address}]"` : `by=${address}`;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** The status line and headers of one answer head (without its closing CRLF CRLF). */
function parseHead(text: string): { status: number; headers: Headers } {
  const [first, ...lines] = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(first ?? '');
  if (!m) throw new Error('not an HTTP/1.1 answer');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // a header Headers refuses: not one we read
    }
  }
  return { status: Number(m[1]), headers };
}

/** Reads heads up to the final answer's (interim 1xx ones are skipped); its status and headers. */
async function readHead(conn: Deno.Conn): Promise<{ status: number; headers: Headers }> {
  const buf = new Uint8Array(MAX_HEAD_BYTES);
  let size = 0;
  let start = 0;
  for (;;) {
    const n = await conn.read(buf.subarray(size));
    if (n === null) throw new Error('connection closed before the answer');
    size += n;
    // latin1: one character a byte, so offsets in the text are offsets in the buffer
    let text = new TextDecoder('latin1').decode(buf.subarray(start, size));
    for (let end = text.indexOf('\r\n\r\n'); end >= 0; end = text.indexOf('\r\n\r\n')) {
      const head = parseHead(text.slice(0, end));
      if (head.status >= 200) return head;
      start += end + 4;
      text = text.slice(end + 4);
    }
    if (size === buf.length) throw new Error(`answer head over ${MAX_HEAD_BYTES} bytes`);
  }
}

/** A TCP connection, given up when `signal` aborts first (a connection made after that is closed). */
async function connect(hostname: string, port: number, signal: AbortSignal): Promise<Deno.TcpConn> {
  signal.throwIfAborted();
  const pending = Deno.connect({ hostname, port });
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([pending, aborted]);
  } catch (err) {
    pending.then(
      (late) => late.close(),
      () => {},
    );
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A connection to the first of `addresses` that accepts one, and that address. */
async function connectFirst(
  addresses: string[],
  port: number,
  signal: AbortSignal,
): Promise<{ conn: Deno.TcpConn; address: string }> {
  let last: unknown = new Error('no address');
  for (const address of addresses) {
    try {
      return { conn: await connect(address, port, signal), address };
    } catch (err) {
      if (signal.aborted) throw err;
      last = err;
    }
  }
  throw last;
}

/**
 * Sends one request for `url` over a connection to one of `addresses` (IP literals the caller
 * checked, tried in turn until one accepts a connection); answers the status and headers as a
 * Response without a body.
 */
export async function pinnedRequest(
  url: URL,
  addresses: string[],
  init: PinnedInit,
): Promise<Response> {
  const local = init.override ? new URL(init.override) : null;
  const secure = local ? local.protocol === 'https:' : url.protocol === 'https:';
  const port = local
    ? Number(local.port || (secure ? 443 : 80))
    : Number(url.port || (secure ? 443 : 80));
  const target = local
    ? `${local.pathname.replace(/\/+$/, '')}/${url.hostname}${url.pathname}${url.search}`
    : `${url.pathname}${url.search}`;
  const host = local ? local.host : url.host;

  const connected = local
    ? { conn: await connect(local.hostname, port, init.signal), address: addresses[0]! }
    : await connectFirst(addresses, port, init.signal);
  const address = connected.address;
  let conn: Deno.Conn = connected.conn;
  const abort = () => {
    try {
      conn.close();
    } catch {
      // already closed
    }
  };
  init.signal.addEventListener('abort', abort, { once: true });
  try {
    if (secure) {
      conn = await Deno.startTls(connected.conn, {
        hostname: local ? local.hostname : url.hostname,
        caCerts: init.caCerts,
      });
    }
    const body = encoder.encode(init.body ?? '');
    let head = `${init.method} ${target} HTTP/1.1\r\n${headerLine('host', host)}`;
    for (const [name, value] of Object.entries(init.headers)) {
      if (
        ['host', 'content-length', 'connection', 'transfer-encoding'].includes(name.toLowerCase())
      )
        continue;
      head += headerLine(name, value);
    }
    if (local) head += headerLine('forwarded', forwardedBy(address));
    if (init.method === 'POST' || body.length)
      head += headerLine('content-length', `${body.length}`);
    head += 'connection: close\r\n\r\n';
    await writeAll(conn, encoder.encode(head));
    if (body.length) await writeAll(conn, body);
    const { status, headers } = await readHead(conn);
    if (status < 200 || status > 599) throw new Error(`status ${status}`);
    return new Response(null, { status, headers });
  } finally {
    init.signal.removeEventListener('abort', abort);
    abort();
  }
}

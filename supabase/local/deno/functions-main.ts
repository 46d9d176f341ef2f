// Local edge runtime: one Deno process serving every supabase/functions/<name>/index.ts at
// /<name> (the gateway maps /functions/v1/<name> here). Each function calls Deno.serve(handler)
// at module load, exactly as on Supabase; we capture that handler instead of opening a port.
type Handler = (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

const functionsDir = new URL('../../functions/', import.meta.url);

// Supabase's edge runtime keeps a worker alive until the promises given to
// EdgeRuntime.waitUntil settle; this process lives on anyway, so the promise only has to run
// (and its failure be logged rather than crash the runner).
(globalThis as unknown as { EdgeRuntime: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime = {
  waitUntil(promise) {
    promise.catch((err) => console.error('EdgeRuntime.waitUntil:', err));
  },
};
const handlers = new Map<string, Promise<Handler | undefined>>();
const realServe = Deno.serve.bind(Deno);
let capture: ((h: Handler) => void) | undefined;

(Deno as unknown as { serve: (...args: unknown[]) => unknown }).serve = (...args: unknown[]) => {
  const handler = args.find((a) => typeof a === 'function') as Handler | undefined;
  const opts = args.find((a) => typeof a === 'object' && a !== null) as
    { handler?: Handler } | undefined;
  const h = handler ?? opts?.handler;
  if (h && capture) capture(h);
  return {
    finished: Promise.resolve(),
    shutdown: async () => {},
    ref() {},
    unref() {},
    addr: null,
  };
};

let importChain: Promise<unknown> = Promise.resolve();

function load(name: string): Promise<Handler | undefined> {
  let pending = handlers.get(name);
  if (!pending) {
    // imports are serialised so each captured handler belongs to the module being imported
    pending = importChain.then(async () => {
      let found: Handler | undefined;
      capture = (h) => (found ??= h);
      try {
        await import(new URL(`${name}/index.ts`, functionsDir).href);
      } finally {
        capture = undefined;
      }
      return found;
    });
    importChain = pending.catch(() => undefined);
    handlers.set(name, pending);
  }
  return pending;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const port = Number(Deno.env.get('FUNCTIONS_PORT') ?? '54326');
realServe(
  { hostname: '127.0.0.1', port, onListen: () => console.log(`functions listening on ${port}`) },
  async (req, info) => {
    const url = new URL(req.url);
    const name = url.pathname.split('/')[1] ?? '';
    if (url.pathname === '/_health') return new Response('ok');
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
      return json(404, { error: { code: 'not_found', message: 'Function not found' } });
    try {
      await Deno.stat(new URL(`${name}/index.ts`, functionsDir));
    } catch {
      return json(404, { error: { code: 'not_found', message: `Function ${name} not found` } });
    }
    try {
      const handler = await load(name);
      if (!handler)
        return json(500, {
          error: { code: 'no_handler', message: `Function ${name} did not call Deno.serve` },
        });
      return await handler(req, info);
    } catch (err) {
      handlers.delete(name);
      console.error(`function ${name} failed:`, err);
      return json(500, { error: { code: 'internal_error', message: 'Function failed' } });
    }
  },
);

// One-click unsubscribe from notification mails (and, later, letters). The mail's link carries a
// signed token (_shared/unsubscribe-token.ts); nobody can unsubscribe an address without a mail
// sent to it.
//   GET  ?token=...   what the link would unsubscribe (for the /unsubscribe page to confirm)
//   POST ?token=...   RFC 8058 one-click (mail clients post "List-Unsubscribe=One-Click")
//   POST {token}      the /unsubscribe page's confirm button
// Not a user call: verify_jwt is off, the token is the authorisation.
import { serviceClient } from '../_shared/clients.ts';
import { corsHeaders, json } from '../_shared/http.ts';
import { ZUnsubscribe } from '@reaction-blocks/contracts/schemas';
import { verifyUnsubscribe, type UnsubscribeClaim } from '../_shared/unsubscribe-token.ts';

const cors = { ...corsHeaders, 'access-control-allow-methods': 'GET, POST, OPTIONS' };
const fail = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });

/** a***@example.com: enough for its owner to recognise, little for anyone else. */
function masked(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

async function tokenOf(req: Request, url: URL): Promise<string | null> {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  if (req.method !== 'POST') return null;
  const text = await req.text();
  if (text.length > 4000) return null;
  try {
    const parsed = ZUnsubscribe.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.token : null;
  } catch {
    return null;
  }
}

async function record(claim: UnsubscribeClaim): Promise<void> {
  const db = serviceClient();
  if (claim.s === 'letter') {
    if (!claim.u) throw new Error('a letter token names its owner');
    const { error } = await db
      .from('unsubscribes')
      .upsert(
        { user_id: claim.u, block_id: claim.b, email: claim.e },
        { onConflict: 'user_id,email', ignoreDuplicates: true },
      );
    if (error) throw new Error(error.message);
    return;
  }
  const { error } = await db.rpc('record_mail_optout', {
    p_email: claim.e,
    p_scope: claim.s,
    p_block_id: claim.b,
  });
  if (error) throw new Error(error.message);
}

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  if (req.method !== 'GET' && req.method !== 'POST')
    return fail(405, 'method_not_allowed', 'Use GET or POST');
  const url = new URL(req.url);
  const token = await tokenOf(req, url);
  const parsed = ZUnsubscribe.safeParse({ token });
  const claim = parsed.success ? await verifyUnsubscribe(parsed.data.token) : null;
  if (!claim) return fail(400, 'invalid_link', 'Invalid link');
  if (req.method === 'GET') {
    const { data } = await serviceClient()
      .from('blocks')
      .select('name')
      .eq('id', claim.b)
      .maybeSingle();
    return json(200, {
      data: {
        scope: claim.s,
        email: masked(claim.e),
        blockName: (data as { name?: string } | null)?.name ?? null,
      },
    });
  }
  try {
    await record(claim);
  } catch (err) {
    console.error('[unsubscribe]', err);
    return fail(500, 'internal_error', 'Could not unsubscribe; try again');
  }
  return json(200, { data: { status: true, scope: claim.s, email: masked(claim.e) } });
});

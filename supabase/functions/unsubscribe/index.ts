// One-click unsubscribe from notification mails (and, later, letters). The mail's link carries a
// signed token (_shared/unsubscribe-token.ts); nobody can unsubscribe an address without a mail
// sent to it.
//   GET  ?token=...   what the link would unsubscribe, and whether it already is (for the
//                     /unsubscribe page to confirm, or to say it is done already)
//   POST ?token=...   RFC 8058 one-click (mail clients post "List-Unsubscribe=One-Click")
//   POST {token}      the /unsubscribe page's confirm button
// Not a user call: verify_jwt is off, the token is the authorisation.
import { serviceClient } from '../_shared/clients.ts';
import { corsHeaders, dbError, errorResponse, HttpError, json } from '../_shared/http.ts';
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

/**
 * What the link would do now: 'out' (the address already left what it stops: the page then says
 * so at once), 'in', or 'gone' (a notification link of a deleted block with no owner left to stop
 * mailing: mail_optout_state).
 */
type LinkState = 'in' | 'out' | 'gone';

async function linkState(claim: UnsubscribeClaim): Promise<LinkState> {
  const db = serviceClient();
  if (claim.s === 'letter') {
    if (!claim.u) return 'in';
    // by mailbox, as every letter path checks it: another spelling's unsubscribe counts
    const { data, error, status } = await db.rpc('letter_optout_exists', {
      p_owner_id: claim.u,
      p_email: claim.e,
    });
    if (error) throw dbError(error, status);
    return data === true ? 'out' : 'in';
  }
  const state = await mailOptout('mail_optout_state', claim);
  return state === 'out' || state === 'gone' ? state : 'in';
}

/**
 * What a notification link's opt-out RPC (mail_optout_state, record_mail_optout) answers of its
 * address, scope, block and owner.
 */
async function mailOptout(fn: 'mail_optout_state' | 'record_mail_optout', claim: UnsubscribeClaim) {
  const { data, error, status } = await serviceClient().rpc(fn, {
    p_email: claim.e,
    p_scope: claim.s,
    p_block_id: claim.b,
    p_owner_id: claim.u ?? undefined,
  });
  if (error) throw dbError(error, status);
  return data;
}

/** Records the unsubscribe; 'gone' when a notification link has nothing left to stop. */
async function record(claim: UnsubscribeClaim): Promise<'recorded' | 'gone'> {
  const db = serviceClient();
  if (claim.s === 'letter') {
    if (!claim.u) throw new Error('a letter token names its owner');
    // The link outlives what it names: the letter's block may be deleted since the mail went
    // (the row then keeps no block, as it does when the block goes later), and a deleted owner
    // sends no more letters, so there is nothing left to record (a foreign key refusal, 23503).
    for (const blockId of [claim.b, null]) {
      const { error, status } = await db
        .from('unsubscribes')
        .upsert(
          { user_id: claim.u, block_id: blockId, email: claim.e },
          { onConflict: 'user_id,email', ignoreDuplicates: true },
        );
      if (!error) return 'recorded';
      if (error.code !== '23503') throw dbError(error, status);
    }
    return 'recorded';
  }
  // the block's owner; once the block is deleted, the link's owner if the mail log shows their
  // digests went to the address (record_mail_optout), else nothing is left to stop
  return (await mailOptout('record_mail_optout', claim)) === 'gone' ? 'gone' : 'recorded';
}

/**
 * What a letter's recipient saw of it: the sender's name the mail showed (the send's From name,
 * else the owner's name, as the letter's footer says it), and its subject when the address got
 * one letter of this block (with more, the link does not say which). The block's own name is the
 * owner's internal one, which no recipient sees. Read through the block's sends (index on
 * block_id) and each one's delivery to the address (unique (publish_id, email)).
 */
async function letterSeen(
  claim: UnsubscribeClaim,
): Promise<{ sender: string | null; title: string | null }> {
  const db = serviceClient();
  const [sends, owner] = await Promise.all([
    db
      .from('publishes')
      .select('subject, mail_name, deliveries!inner(email)')
      .eq('block_id', claim.b)
      .eq('user_id', claim.u ?? '')
      .eq('deliveries.email', claim.e)
      .neq('deliveries.status', 'skipped')
      .order('created_at', { ascending: false })
      .limit(2),
    db
      .from('profiles')
      .select('name')
      .eq('id', claim.u ?? '')
      .maybeSingle(),
  ]);
  if (sends.error) throw dbError(sends.error, sends.status);
  const letters = sends.data as Array<{ subject: string; mail_name: string | null }>;
  const ownerName = (owner.data as { name?: string | null } | null)?.name || null;
  return {
    sender: letters[0]?.mail_name || ownerName,
    title: letters.length === 1 ? letters[0]!.subject || null : null,
  };
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
    const [{ data }, seen, state] = await Promise.all([
      claim.s === 'letter'
        ? { data: null }
        : serviceClient().from('blocks').select('name').eq('id', claim.b).maybeSingle(),
      claim.s === 'letter'
        ? letterSeen(claim).catch((err: unknown) => {
            console.error('[unsubscribe] letter', err);
            return { sender: null, title: null };
          })
        : null,
      // not knowing is not a reason to refuse the page: it then asks, and the POST is idempotent
      linkState(claim).catch((err: unknown): LinkState => {
        console.error('[unsubscribe] state', err);
        return 'in';
      }),
    ]);
    return json(200, {
      data: {
        scope: claim.s,
        email: masked(claim.e),
        blockName: (data as { name?: string } | null)?.name ?? null,
        // letters: the sender and, for one letter, its title (what the mail showed)
        ...(seen ?? {}),
        unsubscribed: state === 'out',
        // a deleted block's link with nothing left to stop: the page says so, with no button
        gone: state === 'gone',
      },
    });
  }
  let recorded: 'recorded' | 'gone';
  try {
    recorded = await record(claim);
  } catch (err) {
    if (err instanceof HttpError) return errorResponse(err);
    console.error('[unsubscribe]', err);
    return fail(500, 'internal_error', 'Could not unsubscribe; try again');
  }
  // 200 either way (RFC 8058's one-click needs no more): nothing to stop is not a failure
  return json(200, {
    data: { status: true, scope: claim.s, email: masked(claim.e), gone: recorded === 'gone' },
  });
});

// The answer to a confirmation mail (double opt-in of an address a visitor typed, issue 17;
// schemas/mail-consent.sql). The /confirm-email page of the mail's link calls it:
//   GET  ?token=...               what the link confirms, for which address (masked), and the
//                                 address the mails would come from: what the mail says, no
//                                 word of the owner's (no block or account name)
//   POST {token, answer}          confirm, or "not me" (the address is suppressed: nothing more)
// Not a user call: verify_jwt is off, the single-use token is the authorisation. A token that is
// unknown, spent or expired is refused alike (400 invalid_link).
import { serviceClient } from '../_shared/clients.ts';
import { corsHeaders, dbError, errorResponse, HttpError, json } from '../_shared/http.ts';
import { ZMailConsent } from '@reaction-blocks/contracts/schemas';
import { tokenHash } from '../_shared/sender-emails.ts';
import { platformSender } from '../_shared/mail-delivery.ts';

const cors = { ...corsHeaders, 'access-control-allow-methods': 'GET, POST, OPTIONS' };
const fail = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });
const invalid = () => fail(400, 'invalid_link', 'Invalid link');

/** a***@example.com: enough for its owner to recognise, little for anyone else. */
function masked(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

async function bodyOf(req: Request, url: URL): Promise<unknown> {
  if (req.method === 'GET') return { token: url.searchParams.get('token'), answer: 'confirm' };
  const text = await req.text();
  if (text.length > 2000) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  if (req.method !== 'GET' && req.method !== 'POST')
    return fail(405, 'method_not_allowed', 'Use GET or POST');
  const parsed = ZMailConsent.safeParse(await bodyOf(req, new URL(req.url)));
  if (!parsed.success) return invalid();
  const db = serviceClient();
  const hash = await tokenHash(parsed.data.token);
  try {
    if (req.method === 'GET') {
      const { data, error, status } = await db.rpc('mail_consent_info', { p_token_hash: hash });
      if (error) throw dbError(error, status);
      if (!data) return invalid();
      const info = data as {
        scope: string;
        email: string;
        sender?: string | null;
        owner_email: string | null;
      };
      return json(200, {
        data: {
          scope: info.scope,
          email: masked(info.email),
          // a consent token's answer has `sender` (null: the platform's address); a "Not me"
          // token alone has none and names nothing (mail_consent_info)
          sender: 'sender' in info ? info.sender || platformSender().address : null,
          ownerEmail: info.owner_email || null,
        },
      });
    }
    const { data, error, status } = await db.rpc('answer_mail_consent', {
      p_token_hash: hash,
      p_confirm: parsed.data.answer === 'confirm',
    });
    if (error) throw dbError(error, status);
    const answer = data as { outcome: string; scope?: string; email?: string };
    if (answer.outcome === 'invalid' || !answer.email) return invalid();
    return json(200, {
      data: { outcome: answer.outcome, scope: answer.scope, email: masked(answer.email) },
    });
  } catch (err) {
    if (err instanceof HttpError) return errorResponse(err);
    console.error('[confirm-email]', err);
    return fail(500, 'internal_error', 'Could not read this link; try again');
  }
});

// checkSpfDkim: SPF from the domain's TXT record (does it include the mail provider?), DKIM from
// the provider's identity (the address's, else its domain's), and the domain's DMARC policy. A
// domain whose DMARC policy is quarantine or reject would have letters sent through us as this
// address land in spam or bounce unless SPF or DKIM align, so such letters go out from the
// platform address with Reply-To this one (sendsAs: 'platform'), and the screen says so.
import { serviceClient } from '../_shared/clients.ts';
import { dmarcPolicy, spfAllowsProvider } from '../_shared/dns.ts';
import { dbError, ownerHandler } from '../_shared/http.ts';
import { sesMailer } from '../_shared/mail.ts';
import { ZMailVerify } from '@reaction-blocks/contracts/schemas';
import { domainOf, ownSenderEmail, providerError } from '../_shared/sender-emails.ts';

Deno.serve(
  ownerHandler(ZMailVerify, async ({ body, user }) => {
    const db = serviceClient();
    const row = await ownSenderEmail(db, user.id, body.emailToVerify);
    const domain = domainOf(row.email);
    let dkimVerified: boolean;
    try {
      const mailer = sesMailer();
      const own = await mailer.getIdentity(row.email);
      const dkim = own?.dkimStatus ?? (await mailer.getIdentity(domain))?.dkimStatus;
      dkimVerified = dkim === 'SUCCESS';
    } catch (err) {
      throw providerError(err, 'check-spf-dkim');
    }
    const [spfVerified, policy] = await Promise.all([
      spfAllowsProvider(domain),
      dmarcPolicy(domain),
    ]);
    const { error, status } = await db
      .from('sender_emails')
      .update({
        spf_verified: spfVerified,
        dkim_verified: dkimVerified,
        dmarc_policy: policy,
        checked_at: new Date().toISOString(),
      })
      .eq('id', row.id);
    if (error) throw dbError(error, status);
    const strict = policy === 'quarantine' || policy === 'reject';
    return {
      status: true,
      result: {
        spfVerified,
        dkimVerified,
        dmarcPolicy: policy,
        sendsAs: strict && !dkimVerified ? 'platform' : 'own',
      },
    };
  }),
);

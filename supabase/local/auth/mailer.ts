// The auth server's mail: the links and codes GoTrue mails (an email change, a sign-up
// confirmation), sent through Amazon SES v2 with the official client (locally: the SES fake,
// whose mailbox shows them). Hosted Supabase sends the same mails through its SMTP settings.
import { createHash, randomInt } from 'node:crypto';
import { escapeHtml } from '../http.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface SesMailerOptions {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The sender address: an address of a verified identity. */
  from: string;
  fromName?: string;
}

/** A mailer over SES v2 (the SDK is loaded on the first mail: most starts send none). */
export function sesMailer(opts: SesMailerOptions): Mailer {
  let client: Promise<{ send: (mail: Mail) => Promise<void> }> | undefined;
  const connect = async () => {
    const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    const ses = new SESv2Client({
      region: opts.region,
      endpoint: opts.endpoint,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      maxAttempts: 1,
    });
    const from = opts.fromName ? `"${opts.fromName}" <${opts.from}>` : opts.from;
    return {
      send: async (mail: Mail) => {
        await ses.send(
          new SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: [mail.to] },
            Content: {
              Simple: {
                Subject: { Data: mail.subject, Charset: 'UTF-8' },
                Body: {
                  Text: { Data: mail.text, Charset: 'UTF-8' },
                  Html: { Data: mail.html, Charset: 'UTF-8' },
                },
              },
            },
          }),
        );
      },
    };
  };
  return {
    async send(mail) {
      client ??= connect();
      await (await client).send(mail);
    },
  };
}

/** A six-digit code (GOTRUE_MAILER_OTP_LENGTH's default). */
export const newOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** What is stored for a mailed code: GoTrue's hash of the address and the code. */
export const tokenHash = (email: string, otp: string) =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex');

export type LinkType = 'signup' | 'magiclink' | 'recovery' | 'email_change';

/** GoTrue's confirmation URL: `<external URL>/verify?token=<hash>&type=...&redirect_to=...`. */
export function actionLink(
  externalUrl: string,
  hash: string,
  type: LinkType,
  redirectTo: string,
): string {
  const url = new URL(`${externalUrl}/verify`);
  url.searchParams.set('token', hash);
  url.searchParams.set('type', type);
  url.searchParams.set('redirect_to', redirectTo);
  return url.toString();
}

function mail(to: string, subject: string, lines: string[], link: string, otp: string): Mail {
  const text = `${lines.join('\n\n')}\n\n${link}\n\nOr enter this code: ${otp}\n`;
  const html =
    `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(subject)}</a></p>` +
    `<p>Or enter this code: <strong>${escapeHtml(otp)}</strong></p>`;
  return { to, subject, text, html };
}

export function signupMail(to: string, link: string, otp: string): Mail {
  return mail(
    to,
    'Confirm your sign-up',
    ['Follow this link to confirm your email address and finish signing up.'],
    link,
    otp,
  );
}

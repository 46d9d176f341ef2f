// The SES fake's links a mail or a subscriber follows: SNS's SubscribeURL and UnsubscribeURL,
// an identity's verification link, the open-tracking pixel and List-Unsubscribe.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, HttpError, page, readBody, sendHtml, sendText } from '../http.ts';
import { openDetail, subscriptionDetail, type SentMail } from './events.ts';
import type { SesRuntime } from './runtime.ts';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function snsXml(res: ServerResponse, status: number, xml: string) {
  sendText(res, status, `<?xml version="1.0"?>\n${xml}\n`, 'text/xml');
}

const snsError = (code: string, message: string) =>
  `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${escapeHtml(message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;

/** GET /sns/?Action=ConfirmSubscription|Unsubscribe */
export function sns(rt: SesRuntime, res: ServerResponse, url: URL) {
  const { state } = rt;
  const action = url.searchParams.get('Action');
  const arnOf = (value: string | null) =>
    [...state.accounts.values()].find((a) => value !== null && value.startsWith(a.topic.topicArn));
  if (action === 'ConfirmSubscription') {
    const account = arnOf(url.searchParams.get('TopicArn'));
    const sub = account?.topic.confirm(url.searchParams.get('Token') ?? '');
    if (!sub) return snsXml(res, 400, snsError('InvalidParameter', 'Invalid token'));
    // events the last run had not delivered go out now
    rt.outbox.resume(account!.accessKeyId);
    return snsXml(
      res,
      200,
      `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${escapeHtml(sub.subscriptionArn)}</SubscriptionArn></ConfirmSubscriptionResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></ConfirmSubscriptionResponse>`,
    );
  }
  if (action === 'Unsubscribe') {
    const arn = url.searchParams.get('SubscriptionArn');
    const account = arnOf(arn);
    if (!account || !arn || !account.topic.unsubscribe(arn)) {
      return snsXml(res, 404, snsError('NotFound', 'Subscription does not exist'));
    }
    return snsXml(
      res,
      200,
      `<UnsubscribeResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></UnsubscribeResponse>`,
    );
  }
  return snsXml(res, 400, snsError('InvalidAction', 'Unknown Action'));
}

/** GET /verify?token=: the link in an identity's verification mail. */
export function verify({ state, region }: SesRuntime, res: ServerResponse, url: URL) {
  const token = url.searchParams.get('token') ?? '';
  const pending = state.verifications.get(token);
  const identity =
    pending && state.accounts.get(pending.accessKeyId)?.identities.get(pending.identity);
  if (!pending || !identity || pending.expires < Date.now()) {
    return sendHtml(
      res,
      400,
      page(
        'Verification failed',
        '<h1>Verification failed</h1><p>This link is not valid or has expired (links work for 24 hours). Ask for a new verification mail.</p>',
      ),
    );
  }
  identity.verified = true;
  state.verifications.delete(token);
  sendHtml(
    res,
    200,
    page(
      'Email address verified',
      `<h1 class="ok">Congratulations!</h1><p>You have successfully verified <strong>${escapeHtml(identity.name)}</strong>. You can now start sending email from this address (Amazon SES, region ${escapeHtml(region)}; local fake).</p><p><a href="/">Back to the mailbox</a></p>`,
    ),
  );
}

/** GET /open/<token>: the pixel, and an Open event for its mail. */
export function open(rt: SesRuntime, req: IncomingMessage, res: ServerResponse, token: string) {
  const { state } = rt;
  res.writeHead(200, {
    'content-type': 'image/gif',
    'content-length': GIF.length,
    'cache-control': 'no-store',
  });
  res.end(GIF);
  const messageId = state.pixels.get(token);
  const mail = messageId ? (rt.mailbox.meta(messageId) as SentMail | undefined) : undefined;
  if (!mail?.accessKeyId) return;
  const account = state.account(mail.accessKeyId);
  rt.publish(
    account,
    mail,
    'Open',
    openDetail(req.socket.remoteAddress ?? '127.0.0.1', req.headers['user-agent'] ?? ''),
  );
}

/** GET (the link) or POST (one-click) /unsubscribe/<token>: a Subscription event, once. */
export async function unsubscribe(
  rt: SesRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
) {
  const { state } = rt;
  const entry = state.unsubscribes.get(token);
  if (req.method === 'POST') await readBody(req, 64 * 1024);
  if (!entry) throw new HttpError(404, 'Unknown unsubscribe link');
  if (!entry.used) {
    entry.used = true;
    const mail = rt.mailbox.meta(entry.messageId) as SentMail | undefined;
    if (mail?.accessKeyId) {
      const source = req.method === 'POST' ? 'UnsubscribeHeader' : 'UnsubscribeLink';
      rt.publish(
        state.account(mail.accessKeyId),
        mail,
        'Subscription',
        subscriptionDetail(entry.contactList, entry.topic, source),
      );
    }
  }
  sendHtml(
    res,
    200,
    page(
      'Unsubscribed',
      `<h1>Unsubscribed</h1><p>${escapeHtml(entry.recipient)} will no longer get mail from the list <strong>${escapeHtml(entry.contactList)}</strong>${entry.topic ? ` (topic ${escapeHtml(entry.topic)})` : ''}.</p>`,
    ),
  );
}

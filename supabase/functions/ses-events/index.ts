// Mail events from Amazon SES: the configuration set publishes send, delivery, open, bounce,
// complaint and reject events to an SNS topic, which posts them here. Each post is checked (SNS
// signature, certificate host, our topic, age), a subscription is confirmed, and a notification
// is applied once per SNS MessageId (public.record_mail_event): the outbound mail's state, the
// letter delivery and its counts, suppression after a hard bounce or a complaint.
import { serviceClient } from '../_shared/clients.ts';
import { optionalEnv } from '../_shared/env.ts';
import { dbError, json, retriedFailure } from '../_shared/http.ts';
import { parseSesEvent } from '../_shared/mail.ts';
import { isSnsUrl, SnsError, verifySnsMessage, type SnsPolicy } from '../_shared/sns.ts';

const list = (name: string) =>
  optionalEnv(name, '')
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);

function policy(): SnsPolicy {
  return {
    extraOrigins: list('SNS_CERT_HOSTS'),
    topics: list('SNS_TOPIC_ARNS'),
    maxAgeSeconds: Number(optionalEnv('SNS_MAX_AGE_SECONDS', '3600')),
  };
}

/** Postgres's lock_not_available: record_mail_event's lock_timeout passed. */
const LOCK_NOT_AVAILABLE = '55P03';

const fail = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });

Deno.serve(async (req) => {
  if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'Use POST');
  const body = await req.text();
  if (body.length > 256 * 1024) return fail(413, 'too_large', 'The message is too large');
  try {
    const rules = policy();
    const message = await verifySnsMessage(body, rules);
    if (message.Type === 'SubscriptionConfirmation') {
      if (!isSnsUrl(message.SubscribeURL, rules))
        return fail(403, 'forbidden', 'The subscribe URL is not on an SNS host');
      const res = await fetch(message.SubscribeURL!, {
        redirect: 'error',
        signal: AbortSignal.timeout(5_000),
      });
      await res.body?.cancel();
      if (!res.ok) return fail(502, 'confirm_failed', 'Could not confirm the subscription');
      return json(200, { data: { confirmed: true } });
    }
    if (message.Type === 'UnsubscribeConfirmation') {
      console.warn('[ses-events] the topic subscription was removed:', message.TopicArn);
      return json(200, { data: { unsubscribed: true } });
    }
    const event = parseSesEvent(message.Message);
    if (!event) return json(200, { data: { applied: false, reason: 'not an SES event' } });
    const { data, error, status } = await serviceClient().rpc('record_mail_event', {
      p_event: {
        event_id: message.MessageId,
        type: event.type,
        message_id: event.messageId,
        bounce_type: event.bounceType,
        recipients: event.recipients,
        tags: event.tags,
        destination: event.destination,
        source: event.source,
        subject: event.subject,
      },
    });
    // its mail's record under way past record_mail_event's lock_timeout (55P03): nothing was
    // kept, and SNS posts it again (the record is done by then); not an error worth a log
    if (error?.code === LOCK_NOT_AVAILABLE)
      return json(
        503,
        { error: { code: 'busy', message: 'The mail is being recorded: send the event again' } },
        { 'retry-after': '1' },
      );
    // SNS retries a failed post: a database error is worth a 500 (logged whole: its code,
    // details and hint), one in transit a 503
    if (error)
      return retriedFailure(dbError(error, status, error), 'ses-events', {
        code: 'record_failed',
        message: 'Could not record the event',
      });
    return json(200, { data });
  } catch (err) {
    if (err instanceof SnsError)
      return fail(err.status, err.status === 403 ? 'forbidden' : 'invalid_message', err.message);
    console.error('[ses-events]', err);
    return fail(500, 'internal_error', 'Something went wrong');
  }
});

// SES event publishing's records ("Contents of event data that Amazon SES publishes to Amazon
// SNS"): `{ eventType, mail, <eventType-specific object> }`, one per SNS notification.
import { randomUUID } from 'node:crypto';

/** What the fake remembers of a sent mail (the mailbox keeps it beside the message). */
export interface SentMail {
  accessKeyId: string;
  timestamp: string;
  source: string;
  sourceArn: string;
  sendingAccountId: string;
  messageId: string;
  destination: string[];
  headers: Array<{ name: string; value: string }>;
  commonHeaders: Record<string, unknown>;
  tags: Record<string, string[]>;
  configurationSet?: string;
}

export type EventType =
  | 'Send'
  | 'Delivery'
  | 'Open'
  | 'Bounce'
  | 'Complaint'
  | 'Reject'
  | 'DeliveryDelay'
  | 'Subscription';

/** The field that carries each event type's own object. */
const DETAIL_KEY: Record<EventType, string> = {
  Send: 'send',
  Delivery: 'delivery',
  Open: 'open',
  Bounce: 'bounce',
  Complaint: 'complaint',
  Reject: 'reject',
  DeliveryDelay: 'deliveryDelay',
  Subscription: 'subscription',
};

export function mailObject(mail: SentMail, extraTags: Record<string, string[]> = {}) {
  return {
    timestamp: mail.timestamp,
    source: mail.source,
    sourceArn: mail.sourceArn,
    sendingAccountId: mail.sendingAccountId,
    messageId: mail.messageId,
    destination: mail.destination,
    headersTruncated: false,
    headers: mail.headers,
    commonHeaders: mail.commonHeaders,
    tags: { ...mail.tags, ...extraTags },
  };
}

export function eventRecord(
  mail: SentMail,
  eventType: EventType,
  detail: Record<string, unknown>,
): Record<string, unknown> {
  const extra: Record<string, string[]> =
    eventType === 'Delivery' ? { 'ses:outgoing-ip': ['127.0.0.1'] } : {};
  return { eventType, mail: mailObject(mail, extra), [DETAIL_KEY[eventType]]: detail };
}

const feedbackId = () => `0100${Date.now().toString(16).padStart(12, '0')}-${randomUUID()}-000000`;

export function deliveryDetail(mail: SentMail, recipients: string[], at = Date.now()) {
  return {
    timestamp: new Date(at).toISOString(),
    processingTimeMillis: Math.max(0, at - Date.parse(mail.timestamp)),
    recipients,
    smtpResponse: '250 2.6.0 Message received',
    reportingMTA: 'a8-1.smtp-out.amazonses.com',
  };
}

export type BounceType = 'Permanent' | 'Transient' | 'Undetermined';

export function bounceDetail(
  recipients: string[],
  bounceType: BounceType = 'Permanent',
  bounceSubType = bounceType === 'Permanent'
    ? 'General'
    : bounceType === 'Transient'
      ? 'General'
      : 'Undetermined',
) {
  const permanent = bounceType === 'Permanent';
  return {
    bounceType,
    bounceSubType,
    bouncedRecipients: recipients.map((emailAddress) => ({
      emailAddress,
      action: 'failed',
      status: permanent ? '5.1.1' : '4.4.7',
      diagnosticCode: permanent
        ? 'smtp; 550 5.1.1 user unknown'
        : 'smtp; 421 4.4.7 message expired',
    })),
    timestamp: new Date().toISOString(),
    feedbackId: feedbackId(),
    reportingMTA: 'dsn; a8-1.smtp-out.amazonses.com',
  };
}

export function complaintDetail(recipients: string[], complaintFeedbackType = 'abuse') {
  const now = new Date().toISOString();
  return {
    complainedRecipients: recipients.map((emailAddress) => ({ emailAddress })),
    timestamp: now,
    feedbackId: feedbackId(),
    userAgent: 'Local providers fake',
    complaintFeedbackType,
    arrivalDate: now,
  };
}

export const openDetail = (ipAddress: string, userAgent: string) => ({
  ipAddress,
  timestamp: new Date().toISOString(),
  userAgent,
});

export const rejectDetail = (reason = 'Bad content') => ({ reason });

export function deliveryDelayDetail(recipients: string[]) {
  const now = Date.now();
  return {
    timestamp: new Date(now).toISOString(),
    delayType: 'TransientCommunicationFailure',
    expirationTime: new Date(now + 12 * 3600_000).toISOString(),
    delayedRecipients: recipients.map((emailAddress) => ({
      emailAddress,
      status: '4.4.1',
      diagnosticCode: 'smtp; 421 4.4.1 Unable to connect to remote host',
    })),
  };
}

export function subscriptionDetail(
  contactList: string,
  topic: string | undefined,
  source: 'UnsubscribeHeader' | 'UnsubscribeLink',
) {
  const topics = topic ? [{ topicName: topic, subscriptionStatus: 'OptOut' }] : [];
  return {
    contactList,
    timestamp: new Date().toISOString(),
    source,
    newTopicPreferences: { unsubscribeAll: true, topicSubscriptionStatus: topics },
    oldTopicPreferences: {
      unsubscribeAll: false,
      topicSubscriptionStatus: topics.map((t) => ({ ...t, subscriptionStatus: 'OptIn' })),
    },
  };
}

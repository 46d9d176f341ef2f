// Amazon SNS messages posted to an HTTPS endpoint: the signature check as AWS documents it
// (canonical string of the message's fields, RSA with SHA1 for SignatureVersion 1 and SHA256 for
// 2, the certificate fetched from SigningCertURL, which must be on an SNS host), the topic check
// (a valid signature only proves the message came from SNS, not from OUR topic), and a maximum
// age against replays. Duplicates are left to the caller (the MessageId). The message's shape
// and its canonical string are defined here once; the local SNS fake signs with them.
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';

export interface SnsMessage {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Subject?: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  SubscribeURL?: string;
  Token?: string;
  UnsubscribeURL?: string;
}

export class SnsError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The fields SNS signs of a (un)subscription confirmation, in its order. */
const CONFIRMATION_FIELDS: Array<keyof SnsMessage> = [
  'Message',
  'MessageId',
  'SubscribeURL',
  'Timestamp',
  'Token',
  'TopicArn',
  'Type',
];

/** The fields SNS signs, in its order, for each message type. */
const FIELDS: Record<SnsMessage['Type'], Array<keyof SnsMessage>> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: CONFIRMATION_FIELDS,
  UnsubscribeConfirmation: CONFIRMATION_FIELDS,
};

/** The string SNS signs: "Name\nvalue\n" for each field present, in this order. */
export function canonicalString(
  message: Omit<SnsMessage, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>,
): string {
  const fields = message as Partial<Record<keyof SnsMessage, unknown>>;
  return FIELDS[message.Type]
    .filter((key) => fields[key] !== undefined && fields[key] !== null)
    .map((key) => `${key}\n${fields[key]}\n`)
    .join('');
}

export interface SnsPolicy {
  /** Extra origins allowed to serve signing certificates and subscribe URLs (SNS_CERT_HOSTS). */
  extraOrigins: string[];
  /** The topics we subscribed to (SNS_TOPIC_ARNS). */
  topics: string[];
  maxAgeSeconds: number;
}

const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** An https URL on an SNS host, or on one of the configured origins (the local fake). */
export function isSnsUrl(value: string | undefined, policy: SnsPolicy): boolean {
  const url = value ? URL.parse(value) : null;
  if (!url) return false;
  if (policy.extraOrigins.includes(url.origin)) return true;
  return url.protocol === 'https:' && SNS_HOST.test(url.hostname) && !url.username && !url.port;
}

/** The public key (SubjectPublicKeyInfo, DER) of a PEM certificate, for WebCrypto's 'spki'. */
function publicKeyOf(pem: string): ArrayBuffer {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(pem);
  if (!match) throw new Error('not a PEM certificate');
  const der = base64Bytes(match[1]!.replace(/\s+/g, ''));
  if (!der) throw new Error('not a PEM certificate');
  const certificate = AsnConvert.parse(der, Certificate);
  return AsnConvert.serialize(certificate.tbsCertificate.subjectPublicKeyInfo);
}

const certs = new Map<string, ArrayBuffer>();

/** The signing certificate's public key (SPKI DER), cached per URL. */
async function certificateKey(url: string): Promise<ArrayBuffer> {
  const cached = certs.get(url);
  if (cached) return cached;
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new SnsError(403, 'Cannot fetch the signing certificate');
  const pem = await res.text();
  if (pem.length > 20_000) throw new SnsError(403, 'Not a signing certificate');
  let spki: ArrayBuffer;
  try {
    spki = publicKeyOf(pem);
  } catch {
    throw new SnsError(403, 'Not a signing certificate');
  }
  if (certs.size > 20) certs.clear();
  certs.set(url, spki);
  return spki;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Parses and checks an SNS post; throws SnsError with the status to answer. */
export async function verifySnsMessage(
  body: string,
  policy: SnsPolicy,
  now = Date.now(),
): Promise<SnsMessage> {
  let message: SnsMessage;
  try {
    message = JSON.parse(body) as SnsMessage;
  } catch {
    throw new SnsError(400, 'Not an SNS message');
  }
  const strings: Array<keyof SnsMessage> = [
    'Type',
    'MessageId',
    'TopicArn',
    'Message',
    'Timestamp',
    'Signature',
    'SigningCertURL',
  ];
  if (
    typeof message !== 'object' ||
    message === null ||
    strings.some((k) => typeof message[k] !== 'string')
  ) {
    throw new SnsError(400, 'Not an SNS message');
  }
  if (!(message.Type in FIELDS)) throw new SnsError(400, 'Unknown SNS message type');
  if (message.SignatureVersion !== '1' && message.SignatureVersion !== '2') {
    throw new SnsError(403, 'Unsupported signature version');
  }
  if (!isSnsUrl(message.SigningCertURL, policy) || !message.SigningCertURL.endsWith('.pem')) {
    throw new SnsError(403, 'The signing certificate is not on an SNS host');
  }
  if (!policy.topics.includes(message.TopicArn)) throw new SnsError(403, 'Not our topic');
  const spki = await certificateKey(message.SigningCertURL);
  const signature = base64Bytes(message.Signature);
  let valid = false;
  if (signature) {
    try {
      const algorithm = {
        name: 'RSASSA-PKCS1-v1_5',
        hash: message.SignatureVersion === '2' ? 'SHA-256' : 'SHA-1',
      };
      const key = await crypto.subtle.importKey('spki', spki, algorithm, false, ['verify']);
      valid = await crypto.subtle.verify(
        algorithm,
        key,
        signature,
        new TextEncoder().encode(canonicalString(message)),
      );
    } catch {
      valid = false;
    }
  }
  if (!valid) throw new SnsError(403, 'Bad signature');
  const sent = Date.parse(message.Timestamp);
  if (!Number.isFinite(sent) || now - sent > policy.maxAgeSeconds * 1000) {
    throw new SnsError(400, 'The message is too old');
  }
  return message;
}

// The SES fake's state. An "account" is what one AWS access key id reaches: its identities,
// its settings (outage, verification checks, rate) and its event destination (an SNS topic
// with one webhook subscription). Tests use their own access key id, so switching an outage
// on or pointing the events elsewhere does not disturb other tests running at the same time.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Zone } from '../dns/zone.ts';
import { dkimRecordName, dkimTarget, dkimTokens } from './dkim.ts';
import { domainOf } from './mail.ts';
import { Dispatcher, SnsTopic, type DeliveryPolicy, type SignatureVersion } from './sns.ts';
import type { SigningIdentity } from './x509.ts';

export type VerificationStatus =
  'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE' | 'NOT_STARTED';
export const VERIFICATION_STATUSES: VerificationStatus[] = [
  'PENDING',
  'SUCCESS',
  'FAILED',
  'TEMPORARY_FAILURE',
  'NOT_STARTED',
];

/**
 * How a provider that is down answers: 503, 429, a 400 refusal, (`lost`) not at all: the call
 * is carried out and the connection drops before its answer, as a timeout after SES took a mail,
 * or (`held`) late: the call is carried out and its answer waits until the outage is cleared, as
 * an answer slow to come back while SES already publishes the mail's events (see Settings.outage).
 */
export type Outage = true | 'throttle' | 'denied' | 'lost' | 'held';

export interface Settings {
  /**
   * true: every API call answers 503 ServiceUnavailable; 'throttle': 429 TooManyRequestsException;
   * 'denied': 400 AccessDeniedException, as when the account's IAM policy does not allow the call
   * (a refusal for good, one of SES's common errors); 'lost': the call is carried out, then the
   * connection drops unanswered (the caller cannot know whether a mail went); 'held': the call is
   * carried out and answered once the outage is cleared (or the caller gave up).
   */
  outage: boolean | Exclude<Outage, true>;
  /**
   * Addresses the outage is limited to (lower case): only calls naming one of them, as a
   * destination or as the identity, fail. Empty: every call. Lets a test on the stack's own
   * account take the provider down for its own mail without failing other tests' mail.
   */
  outageFor: string[];
  /**
   * Outages of single addresses (lower case), each with its own kind, beside the account's: a
   * call naming one of them fails so. Set and cleared one address at a time (`outageOf` in the
   * control API), so test files sharing the stack's own account cannot undo each other's.
   */
  outageOf: Record<string, Outage>;
  /** Refuse a From address whose identity (address, domain or parent domain) is not verified (SES always does). */
  verifyFrom: boolean;
  /** SES sandbox: recipients must be verified identities too (mailbox simulator excepted). */
  sandbox: boolean;
  /** Sends per second before TooManyRequestsException "Maximum sending rate exceeded."; 0 = no limit. */
  maxSendRate: number;
  /** The topic's SignatureVersion ('1' is SNS's default). */
  signatureVersion: SignatureVersion;
  /** Deliver every notification twice with the same MessageId. */
  duplicates: boolean;
  /** Delay between a send and its Delivery event. */
  deliveryDelayMs: number;
  retry: DeliveryPolicy;
  /** Configuration sets that exist (sending with another is a NotFoundException). */
  configurationSets: string[];
}

export interface Identity {
  name: string;
  type: 'EMAIL_ADDRESS' | 'DOMAIN';
  createdAt: string;
  /** Email identities: whether the link in the verification mail was followed. */
  verified: boolean;
  /** Set through the control API; wins over what the zone says. */
  statusOverride?: VerificationStatus;
  dkimTokens?: string[];
  tags: Array<{ Key: string; Value: string }>;
  configurationSetName?: string;
}

export interface SesFakeOptions {
  region: string;
  /** The stack's own key (its functions send with it); its account gets `eventsWebhook`. */
  defaultAccessKeyId: string;
  /** Configuration sets that exist in every account (events are published for these). */
  configurationSets: string[];
  /** Identities verified in every account from the start (the platform's own sender domain). */
  verifiedIdentities: string[];
  /** Where the default account's event destination POSTs SNS messages. */
  eventsWebhook?: string;
  settings?: Partial<Settings>;
}

export const DEFAULT_SETTINGS: Settings = {
  outage: false,
  outageFor: [],
  outageOf: {},
  verifyFrom: true,
  sandbox: false,
  maxSendRate: 0,
  signatureVersion: '1',
  duplicates: false,
  deliveryDelayMs: 50,
  retry: { numRetries: 3, minDelayMs: 1000, maxDelayMs: 20_000 },
  configurationSets: [],
};

/** A 12-digit account id for an access key id (fixed for the stack's own key). */
function accountIdOf(accessKeyId: string, isDefault: boolean): string {
  if (isDefault) return '123456789012';
  const n = createHash('sha256').update(accessKeyId).digest().readBigUInt64BE(0) % 10n ** 12n;
  return n.toString().padStart(12, '0');
}

export class Account {
  readonly accountId: string;
  settings: Settings;
  readonly identities = new Map<string, Identity>();
  readonly topic: SnsTopic;
  sent = 0;
  private rateSecond = 0;
  private rateCount = 0;

  constructor(
    readonly accessKeyId: string,
    isDefault: boolean,
    private readonly env: SesEnv,
  ) {
    this.accountId = accountIdOf(accessKeyId, isDefault);
    this.settings = structuredClone({
      ...DEFAULT_SETTINGS,
      configurationSets: env.options.configurationSets,
      ...env.options.settings,
    });
    this.topic = new SnsTopic(`arn:aws:sns:${env.options.region}:${this.accountId}:ses-events`, {
      snsUrl: `${env.baseUrl}/ses/sns`,
      certUrl: env.certUrl,
      identity: env.identity,
      dispatcher: env.dispatcher,
      settings: () => this.settings,
    });
    for (const name of env.options.verifiedIdentities) {
      const type = name.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN';
      this.identities.set(name.toLowerCase(), {
        name: name.toLowerCase(),
        type,
        createdAt: new Date(0).toISOString(),
        verified: true,
        statusOverride: 'SUCCESS',
        dkimTokens: type === 'DOMAIN' ? dkimTokens(name) : undefined,
        tags: [],
      });
    }
  }

  /** Counts a send against MaxSendRate; false when over it. */
  takeSendSlot(): boolean {
    const limit = this.settings.maxSendRate;
    if (!limit) return true;
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.rateSecond) {
      this.rateSecond = second;
      this.rateCount = 0;
    }
    if (this.rateCount >= limit) return false;
    this.rateCount++;
    return true;
  }

  /** Easy DKIM: SUCCESS once the zone has all three CNAMEs. */
  dkimStatus(identity: Identity): VerificationStatus {
    if (identity.statusOverride) return identity.statusOverride;
    const domain = identity.type === 'DOMAIN' ? identity.name : domainOf(identity.name);
    const tokens = identity.dkimTokens ?? dkimTokens(domain);
    const published = tokens.every((t) =>
      this.env.zone
        .at(dkimRecordName(domain, t))
        .some((r) => r.type === 'CNAME' && r.value === dkimTarget(t)),
    );
    return published ? 'SUCCESS' : identity.type === 'DOMAIN' ? 'PENDING' : 'NOT_STARTED';
  }

  status(identity: Identity): VerificationStatus {
    if (identity.statusOverride) return identity.statusOverride;
    if (identity.type === 'EMAIL_ADDRESS') return identity.verified ? 'SUCCESS' : 'PENDING';
    return this.dkimStatus(identity);
  }

  /**
   * The verified identity that lets `address` be used: the address itself, its domain or a
   * parent domain (SES lets a verified domain's subdomains send). Undefined when none is.
   */
  authorising(address: string): Identity | undefined {
    const a = address.toLowerCase();
    const own = this.identities.get(a);
    if (own && this.status(own) === 'SUCCESS') return own;
    let domain = domainOf(a);
    for (;;) {
      const identity = this.identities.get(domain);
      if (identity && this.status(identity) === 'SUCCESS') return identity;
      const dot = domain.indexOf('.');
      if (dot < 0) return undefined;
      domain = domain.slice(dot + 1);
    }
  }
}

export interface SesEnv {
  options: SesFakeOptions;
  baseUrl: string;
  certUrl: string;
  identity: SigningIdentity;
  dispatcher: Dispatcher;
  zone: Zone;
}

export interface PendingVerification {
  accessKeyId: string;
  identity: string;
  expires: number;
}

export class SesState {
  readonly accounts = new Map<string, Account>();
  /** Verification-mail tokens -> what they verify (24 h, as SES's links). */
  readonly verifications = new Map<string, PendingVerification>();
  /** Open-tracking pixel tokens -> mailbox message id. */
  readonly pixels = new Map<string, string>();
  /** List-Unsubscribe tokens -> what they unsubscribe. */
  readonly unsubscribes = new Map<
    string,
    { messageId: string; contactList: string; topic?: string; recipient: string; used: boolean }
  >();

  constructor(readonly env: SesEnv) {}

  get defaultAccessKeyId(): string {
    return this.env.options.defaultAccessKeyId;
  }

  account(accessKeyId: string): Account {
    let account = this.accounts.get(accessKeyId);
    if (!account) {
      account = new Account(accessKeyId, accessKeyId === this.defaultAccessKeyId, this.env);
      this.accounts.set(accessKeyId, account);
    }
    return account;
  }

  newVerificationToken(accessKeyId: string, identity: string): string {
    const token = randomBytes(24).toString('base64url');
    this.verifications.set(token, { accessKeyId, identity, expires: Date.now() + 24 * 3600_000 });
    return token;
  }

  /** Bounded maps: drop the oldest entries past `max` (Map keeps insertion order). */
  trim(): void {
    const cap = (map: Map<string, unknown>, max: number) => {
      for (const key of map.keys()) {
        if (map.size <= max) break;
        map.delete(key);
      }
    };
    cap(this.pixels, 20_000);
    cap(this.unsubscribes, 20_000);
    cap(this.verifications, 5_000);
  }

  reset(): void {
    this.accounts.clear();
    this.verifications.clear();
    this.pixels.clear();
    this.unsubscribes.clear();
  }
}

/** SES-style message ids: `0100` + time + a UUID + `-000000`. */
export function newMessageId(): string {
  return `0100${Date.now().toString(16).padStart(12, '0')}-${randomUUID()}-000000`;
}

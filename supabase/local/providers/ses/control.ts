// The SES fake's control API under /ses/_control, for tests and developers (README.md): an
// account's state and settings, its events webhook, forced identity statuses, and events
// (bounce, complaint, reject, delivery delay) for a mail in the mailbox.
import type { ServerResponse } from 'node:http';
import { HttpError, isObject, readJson, sendJson, type JsonObject } from '../http.ts';
import { createEmailIdentity, identityName, identityView } from './api.ts';
import {
  bounceDetail,
  complaintDetail,
  deliveryDelayDetail,
  rejectDetail,
  type BounceType,
} from './events.ts';
import type { SesRoute, SesRuntime } from './runtime.ts';
import {
  VERIFICATION_STATUSES,
  type Outage,
  type Settings,
  type VerificationStatus,
} from './state.ts';

const BOUNCE_TYPES: BounceType[] = ['Permanent', 'Transient', 'Undetermined'];

/** A settings change; `outageOf` names only the addresses it changes (false: back up). */
type SettingsPatch = Partial<Omit<Settings, 'outageOf'>> & {
  outageOf?: Record<string, Outage | false>;
};

function validateSettings(input: JsonObject): SettingsPatch {
  const out: SettingsPatch = {};
  const bool = (key: 'verifyFrom' | 'sandbox' | 'duplicates') => {
    if (input[key] === undefined) return;
    if (typeof input[key] !== 'boolean') throw new HttpError(400, `${key} must be true or false`);
    out[key] = input[key];
  };
  bool('verifyFrom');
  bool('sandbox');
  bool('duplicates');
  const outageKind = (value: unknown, key: string) => {
    if (![true, false, 'throttle', 'denied', 'lost', 'held'].includes(value as boolean | string)) {
      throw new HttpError(
        400,
        `${key} must be true, false, 'throttle', 'denied', 'lost' or 'held'`,
      );
    }
    return value as Outage | false;
  };
  if (input.outage !== undefined) out.outage = outageKind(input.outage, 'outage');
  if (input.outageFor !== undefined) {
    const list = input.outageFor;
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string' && a.includes('@'))) {
      throw new HttpError(400, 'outageFor must be a list of addresses');
    }
    out.outageFor = (list as string[]).map((a) => a.toLowerCase());
  }
  if (input.outageOf !== undefined) {
    if (!isObject(input.outageOf) || !Object.keys(input.outageOf).every((a) => a.includes('@'))) {
      throw new HttpError(400, 'outageOf must map addresses to an outage');
    }
    out.outageOf = Object.fromEntries(
      Object.entries(input.outageOf).map(([a, kind]) => [
        a.toLowerCase(),
        outageKind(kind, `outageOf['${a}']`),
      ]),
    );
  }
  const int = (value: unknown, key: string, max: number) => {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) {
      throw new HttpError(400, `${key} must be an integer from 0 to ${max}`);
    }
    return value as number;
  };
  if (input.maxSendRate !== undefined)
    out.maxSendRate = int(input.maxSendRate, 'maxSendRate', 100_000);
  if (input.deliveryDelayMs !== undefined) {
    out.deliveryDelayMs = int(input.deliveryDelayMs, 'deliveryDelayMs', 60_000);
  }
  if (input.signatureVersion !== undefined) {
    const v = String(input.signatureVersion);
    if (v !== '1' && v !== '2') throw new HttpError(400, "signatureVersion must be '1' or '2'");
    out.signatureVersion = v;
  }
  if (input.retry !== undefined) {
    if (!isObject(input.retry)) throw new HttpError(400, 'retry must be an object');
    const r = input.retry;
    out.retry = {
      numRetries: int(r.numRetries ?? 3, 'retry.numRetries', 10),
      minDelayMs: int(r.minDelayMs ?? 1000, 'retry.minDelayMs', 3_600_000),
      maxDelayMs: int(r.maxDelayMs ?? 20_000, 'retry.maxDelayMs', 3_600_000),
    };
  }
  if (input.configurationSets !== undefined) {
    const sets = input.configurationSets;
    if (!Array.isArray(sets) || !sets.every((s) => typeof s === 'string' && s !== '')) {
      throw new HttpError(400, 'configurationSets must be a list of names');
    }
    out.configurationSets = sets as string[];
  }
  return out;
}

/** A control call's webhook URL: http(s), or null for none. */
function webhookUrl(value: unknown): string | null {
  if (value !== null && (typeof value !== 'string' || !/^https?:\/\//.test(value))) {
    throw new HttpError(400, 'url must be an http(s) URL or null');
  }
  return value;
}

/** POST /identities: creates the identity if needed and forces its status. */
function forceIdentity(rt: SesRuntime, res: ServerResponse, url: URL, body: JsonObject) {
  const account = rt.controlAccount(url, body);
  const { name, type } = identityName(body.identity);
  let identity = account.identities.get(name);
  if (!identity) {
    createEmailIdentity(rt, account, { EmailIdentity: name });
    identity = account.identities.get(name)!;
  }
  if (body.status !== undefined) {
    if (
      body.status !== null &&
      !VERIFICATION_STATUSES.includes(body.status as VerificationStatus)
    ) {
      throw new HttpError(400, `status must be one of ${VERIFICATION_STATUSES.join(', ')} or null`);
    }
    identity.statusOverride = (body.status ?? undefined) as VerificationStatus | undefined;
  }
  if (body.verified !== undefined) identity.verified = body.verified === true;
  return sendJson(res, 200, { name, type, ...identityView(account, identity) });
}

const recipientsFrom = (body: JsonObject, mail: { destination: string[] }): string[] => {
  if (body.recipients === undefined) return mail.destination;
  if (!Array.isArray(body.recipients) || !body.recipients.every((r) => typeof r === 'string')) {
    throw new HttpError(400, 'recipients must be a list of addresses');
  }
  return body.recipients as string[];
};

/** POST /bounce, /complaint, /reject, /delivery-delay: an event for a mail in the mailbox. */
function publishEvent(rt: SesRuntime, res: ServerResponse, path: string, body: JsonObject) {
  const { mail, account } = rt.sentMail(body.messageId);
  const publish = (...args: Parameters<SesRuntime['publish']>) =>
    rt.published(res, account, rt.publish(...args));
  switch (path) {
    case '/bounce': {
      const type = (body.type ?? 'Permanent') as BounceType;
      if (!BOUNCE_TYPES.includes(type))
        throw new HttpError(400, `type must be one of ${BOUNCE_TYPES.join(', ')}`);
      const subType = typeof body.subType === 'string' ? body.subType : undefined;
      return publish(
        account,
        mail,
        'Bounce',
        bounceDetail(recipientsFrom(body, mail), type, subType),
      );
    }
    case '/complaint': {
      const feedback = typeof body.feedbackType === 'string' ? body.feedbackType : 'abuse';
      return publish(
        account,
        mail,
        'Complaint',
        complaintDetail(recipientsFrom(body, mail), feedback),
      );
    }
    case '/reject': {
      const reason = typeof body.reason === 'string' ? body.reason : undefined;
      return publish(account, mail, 'Reject', rejectDetail(reason));
    }
    default:
      return publish(
        account,
        mail,
        'DeliveryDelay',
        deliveryDelayDetail(recipientsFrom(body, mail)),
      );
  }
}

const EVENT_PATHS = new Set(['/bounce', '/complaint', '/reject', '/delivery-delay']);
/** The calls on an account's settings and webhook. */
const ACCOUNT_PATHS = new Set(['', '/reset', '/webhook', '/divert', '/webhook/confirmation']);

export const control: SesRoute = async (rt, req, res, path, url) => {
  const { state } = rt;
  if (path === '/state' && req.method === 'GET')
    return sendJson(res, 200, rt.accountState(rt.controlAccount(url)));
  if (req.method !== 'POST') throw new HttpError(405, 'POST');
  const body = await readJson(req);
  if (path === '/identities') return forceIdentity(rt, res, url, body);
  if (EVENT_PATHS.has(path)) return publishEvent(rt, res, path, body);
  if (!ACCOUNT_PATHS.has(path)) throw new HttpError(404, 'Not found');
  const account = rt.controlAccount(url, body);
  switch (path) {
    case '': {
      const { outageOf, ...settings } = validateSettings(body);
      Object.assign(account.settings, settings);
      // merged address by address; false clears one
      const merged = { ...account.settings.outageOf, ...outageOf };
      for (const [address, kind] of Object.entries(merged)) {
        if (kind === false) delete merged[address];
      }
      account.settings.outageOf = merged as Settings['outageOf'];
      return sendJson(res, 200, rt.accountState(account));
    }
    case '/reset': {
      state.accounts.delete(account.accessKeyId);
      rt.outbox.forget(account.accessKeyId);
      const fresh =
        account.accessKeyId === state.defaultAccessKeyId
          ? rt.defaultAccount()
          : state.account(account.accessKeyId);
      return sendJson(res, 200, rt.accountState(fresh));
    }
    case '/webhook':
      account.topic.subscribe(webhookUrl(body.url));
      return sendJson(res, 200, rt.accountState(account));
    case '/divert': {
      // notifications about mail to `recipient` go to `url` instead of the subscription (as a
      // second subscription with a filter policy on the destination would, with the first one's
      // policy excluding it): a test captures its own events without taking the stack's away
      const recipient = body.recipient;
      if (typeof recipient !== 'string' || !recipient.includes('@')) {
        throw new HttpError(400, 'recipient must be an address');
      }
      account.topic.divert(recipient, webhookUrl(body.url));
      return sendJson(res, 200, rt.accountState(account));
    }
    case '/webhook/confirmation':
      if (!account.topic.subscription) throw new HttpError(409, 'No webhook is subscribed');
      account.topic.sendConfirmation();
      return sendJson(res, 200, rt.accountState(account));
  }
};

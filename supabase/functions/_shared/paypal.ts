// PayPal's REST API, the calls the payment functions make, through a small typed client: PayPal's
// official server SDK cannot change its base URL, and this one can (PAYPAL_API_URL; locally the
// providers server's fake at /paypal). OAuth client credentials, Subscriptions v1 (with a
// subscription's transactions), the Payments v2 refund of a captured payment, and the webhook
// signature check. Configuration is passed in (paypal-env.ts reads it from the functions'
// environment), so the tests drive the same client from Node.

export type PayPalSubscriptionStatus =
  'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';

export interface PayPalLink {
  href: string;
  rel: string;
  method?: string;
}

export interface PayPalSubscription {
  id: string;
  plan_id: string;
  status: PayPalSubscriptionStatus;
  quantity?: string;
  custom_id?: string;
  start_time?: string;
  create_time?: string;
  billing_info?: {
    next_billing_time?: string;
    last_payment?: { amount: { currency_code: string; value: string }; time: string };
    /** Consecutive failures; at the plan's payment_failure_threshold PayPal suspends it. */
    failed_payments_count?: number;
    /** The last failed payment, and when PayPal tries it again. */
    last_failed_payment?: {
      amount?: { currency_code: string; value: string };
      time?: string;
      reason_code?: string;
      next_payment_retry_time?: string;
    };
  };
  links?: PayPalLink[];
}

/** A payment of a subscription, as "List transactions for subscription" answers it. */
export interface PayPalTransaction {
  /** The captured payment's id: what the Payments v2 refund takes. */
  id: string;
  status?: 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'PENDING' | 'REFUNDED' | 'FAILED';
  amount_with_breakdown: { gross_amount: { currency_code: string; value: string } };
  time: string;
}

export interface PayPalRefund {
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'CANCELLED' | 'FAILED';
}

export interface PayPalRevision {
  plan_id: string;
  quantity?: string;
  links?: PayPalLink[];
}

/** PayPal's error answer: `name` (RESOURCE_NOT_FOUND, UNPROCESSABLE_ENTITY, ...) and the issue. */
export class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly name_: string,
    message: string,
    readonly issue?: string,
  ) {
    super(`PayPal ${status} ${name_}${issue ? ` (${issue})` : ''}: ${message}`);
  }
}

export interface WebhookHeaders {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
}

export interface PayPal {
  getSubscription(id: string): Promise<PayPalSubscription>;
  reviseSubscription(
    id: string,
    body: { plan_id: string; quantity: string; application_context?: Record<string, string> },
  ): Promise<PayPalRevision>;
  /** Cancels; an already cancelled or expired subscription is not an error. */
  cancelSubscription(id: string, reason: string): Promise<void>;
  /** The subscription's payments between two times (PayPal requires both). */
  listTransactions(id: string, startTime: string, endTime: string): Promise<PayPalTransaction[]>;
  /**
   * Refunds a captured payment (Payments v2, which takes a subscription's transaction id): in
   * full, or `amount` dollars of it; `requestId` is its PayPal-Request-Id, so a retry answers the
   * same refund.
   */
  refundCapture(
    captureId: string,
    requestId: string,
    noteToPayer: string,
    amount?: string,
  ): Promise<PayPalRefund>;
  /** PayPal's own check of a webhook's signature (verify-webhook-signature). */
  verifyWebhook(headers: WebhookHeaders, event: unknown): Promise<boolean>;
}

export interface PayPalConfig {
  /** PAYPAL_API_URL: https://api-m.paypal.com, https://api-m.sandbox.paypal.com, or the fake. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** PAYPAL_WEBHOOK_ID: the id PayPal gave our webhook. */
  webhookId: string;
}

export function paypalClient(config: PayPalConfig, fetchImpl: typeof fetch = fetch): PayPal {
  const base = config.baseUrl.replace(/\/+$/, '');
  let token: { value: string; until: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const basic = btoa(`${config.clientId}:${config.clientSecret}`);
    const res = await fetchImpl(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await res.json().catch(() => ({}))) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    };
    if (!res.ok || !body.access_token) {
      throw new PayPalError(
        res.status,
        body.error ?? 'AUTHENTICATION_FAILURE',
        body.error_description ?? 'no token',
      );
    }
    token = {
      value: body.access_token,
      until: Date.now() + Math.max(60, (body.expires_in ?? 300) - 60) * 1000,
    };
    return token.value;
  }

  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          'content-type': 'application/json',
          accept: 'application/json',
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status === 401 && attempt === 0) {
        // the token expired early: get a new one once
        token = undefined;
        await res.body?.cancel();
        continue;
      }
      if (res.status === 204) return undefined as T;
      const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) {
        const details = Array.isArray(json.details)
          ? (json.details as Array<{ issue?: string }>)
          : [];
        throw new PayPalError(
          res.status,
          String(json.name ?? 'UNKNOWN_ERROR'),
          String(json.message ?? res.statusText),
          details[0]?.issue,
        );
      }
      return json as T;
    }
  }

  return {
    getSubscription: (id) =>
      call<PayPalSubscription>('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`),
    reviseSubscription: (id, body) =>
      call<PayPalRevision>(
        'POST',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/revise`,
        body,
      ),
    async cancelSubscription(id, reason) {
      try {
        await call<void>('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, {
          reason,
        });
      } catch (err) {
        if (err instanceof PayPalError && err.issue === 'SUBSCRIPTION_STATUS_INVALID') {
          const current = await this.getSubscription(id);
          if (current.status === 'CANCELLED' || current.status === 'EXPIRED') return;
        }
        throw err;
      }
    },
    async listTransactions(id, startTime, endTime) {
      const query = new URLSearchParams({ start_time: startTime, end_time: endTime });
      const answer = await call<{ transactions?: PayPalTransaction[] }>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/transactions?${query}`,
      );
      return answer.transactions ?? [];
    },
    refundCapture: (captureId, requestId, noteToPayer, amount) =>
      call<PayPalRefund>(
        'POST',
        `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
        {
          note_to_payer: noteToPayer.slice(0, 255),
          ...(amount ? { amount: { currency_code: 'USD', value: amount } } : {}),
        },
        { 'paypal-request-id': requestId },
      ),
    async verifyWebhook(headers, event) {
      const answer = await call<{ verification_status?: string }>(
        'POST',
        '/v1/notifications/verify-webhook-signature',
        {
          auth_algo: headers.authAlgo,
          cert_url: headers.certUrl,
          transmission_id: headers.transmissionId,
          transmission_sig: headers.transmissionSig,
          transmission_time: headers.transmissionTime,
          webhook_id: config.webhookId,
          webhook_event: event,
        },
      );
      return answer.verification_status === 'SUCCESS';
    },
  };
}

/** The `approve` link of a PayPal answer. */
export const approveLink = (links: PayPalLink[] | undefined) =>
  links?.find((l) => l.rel === 'approve')?.href ?? null;

/** The day before the next billing (YYYY-MM-DD, UTC): the last day of the period paid for. */
export function periodEndFrom(nextBillingTime: string | undefined): string | null {
  if (!nextBillingTime) return null;
  const t = Date.parse(nextBillingTime);
  if (Number.isNaN(t)) return null;
  return new Date(t - 86_400_000).toISOString().slice(0, 10);
}

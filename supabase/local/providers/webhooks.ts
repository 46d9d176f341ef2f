// Outgoing webhooks of the payment fakes: POST a signed body, retry on failure as the providers
// do (a few times, growing delays), and keep a bounded log a developer and the tests can read.
import type { Log } from '../process.ts';

export interface WebhookDelivery {
  /** The provider's id of the message (PortOne webhook-id, PayPal transmission id). */
  id: string;
  /** What it carried, e.g. the event type and the payment it is about. */
  summary: Record<string, string>;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** Status code or error of the last attempt. */
  last: string;
  at: string;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First retry delay, doubled for each retry. */
  delayMs: number;
}

const MAX_LOG = 500;

export class WebhookSender {
  readonly log: WebhookDelivery[] = [];
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private controllers = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly logLine: Log,
    public policy: RetryPolicy = { retries: 3, delayMs: 500 },
  ) {}

  /** Queues a delivery (sent at once, retried in the background); answers its log entry. */
  send(
    url: string,
    id: string,
    headers: Record<string, string>,
    body: string,
    summary: Record<string, string>,
  ): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id,
      summary,
      url,
      headers,
      body,
      status: 'pending',
      attempts: 0,
      last: '',
      at: new Date().toISOString(),
    };
    this.log.unshift(delivery);
    if (this.log.length > MAX_LOG) this.log.length = MAX_LOG;
    void this.attempt(delivery);
    return delivery;
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    if (this.closed) return;
    delivery.attempts++;
    const controller = new AbortController();
    this.controllers.add(controller);
    const timeout = setTimeout(() => controller.abort(), 15_000);
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...delivery.headers },
        body: delivery.body,
        signal: controller.signal,
      });
      await res.body?.cancel();
      delivery.last = String(res.status);
      if (res.ok) {
        delivery.status = 'delivered';
        return;
      }
    } catch (err) {
      delivery.last = (err as Error).message;
    } finally {
      clearTimeout(timeout);
      this.controllers.delete(controller);
    }
    if (delivery.attempts > this.policy.retries || this.closed) {
      delivery.status = 'failed';
      this.logLine(this.name, `webhook ${delivery.id} to ${delivery.url} failed: ${delivery.last}`);
      return;
    }
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.attempt(delivery);
      },
      this.policy.delayMs * 2 ** (delivery.attempts - 1),
    );
    timer.unref?.();
    this.timers.add(timer);
  }

  clear(): void {
    this.log.length = 0;
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const c of this.controllers) c.abort();
    this.timers.clear();
    this.controllers.clear();
  }
}

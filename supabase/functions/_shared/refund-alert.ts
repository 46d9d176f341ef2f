// plan.refund-alert (registered with the plan jobs, plan-jobs.ts): the operator's mail of a
// payment a job could not give back, or a checkout it could not settle, with what to do.
import { optionalEnv } from './env.ts';
import { type Delivery, type JobHandler, type Outcome } from './jobs.ts';
import { platformMailDelivery } from './mail-delivery.ts';
import { escapeHtml } from './notification-mail.ts';

interface RefundRow {
  subscription_id: string;
  /** Null once the account was deleted. */
  user_id: string | null;
  reason: string;
  status: string;
  error: string | null;
  created_at: string;
}

/** A deleted account's stop, as public.account_stop answers it (what the card alert names). */
interface StopRow {
  id: string;
  user_id: string;
  method: 'iamport' | 'paypal';
  provider_ref: string;
  charge_ids: string[];
  deleted_at: string;
}

/** What the operator is told of a payment not given back: its subject and lines, and its owner. */
interface Alert {
  key: string;
  subject: string;
  lines: string[];
  userId: string | null;
}

/** A PayPal subscription's refund recorded failed (a live owner's, or a deleted account's). */
const paypalAlert = (row: RefundRow): Alert => {
  const what = `PayPal subscription ${row.subscription_id} (${row.user_id ? `owner ${row.user_id}` : 'a deleted account'})`;
  return {
    key: what,
    subject: `PayPal payment not given back: ${row.subscription_id}`,
    userId: row.user_id,
    lines: [
      `The payment of ${what} could not be given back automatically.`,
      `Why it was to be given back: ${row.reason}`,
      `What PayPal or the job answered: ${row.error ?? 'unknown'}`,
      `Queued on ${row.created_at}. Refund it by hand in PayPal (the subscription's transactions), then set public.paypal_refunds.status to 'refunded' for this subscription${row.user_id ? ": the owner's Plan page tells them to contact you until then" : ' (the account is gone: PayPal has the payer)'}.`,
    ],
  };
};

/** A deleted account's card stop that gave up (plan.account-stop: account_stop_failed). */
const cardStopAlert = (stop: StopRow, error: string): Alert => {
  const what = `PortOne billing key ${stop.provider_ref} (a deleted account, ${stop.user_id})`;
  return {
    key: what,
    subject: `PortOne payment not given back: ${stop.provider_ref}`,
    userId: null,
    lines: [
      `The stop of ${what} could not finish automatically: a payment PortOne took for it after the account was deleted may not be given back, or the billing key not deleted.`,
      'Why it was to be given back: The account was deleted',
      `What PortOne or the job answered: ${error}`,
      `The account was deleted on ${stop.deleted_at}. In PortOne's console, cancel any of these payments that is PAID: ${stop.charge_ids.join(', ') || 'none known'} (and any other PAID payment of this billing key after that day), revoke the key's schedules and delete the billing key.`,
    ],
  };
};

/** The part of a PayPal payment that paid no period, not given back (plan.paypal-outstanding). */
const outstandingAlert = (p: Record<string, unknown>): Alert => {
  const what = `PayPal subscription ${String(p.subscription_id)}`;
  return {
    key: what,
    subject: `PayPal payment not given back: ${String(p.amount)} of ${String(p.subscription_id)}`,
    userId: null,
    lines: [
      `$${String(p.amount)} of the $${String(p.billed)} payment of ${what} on ${String(p.paid_at)} could not be given back automatically.`,
      'Why it was to be given back: PayPal collected a billing cycle it could not take before (its outstanding balance) with the next cycle; that cycle gave no plan period.',
      `What PayPal or the job answered: ${String(p.error ?? 'unknown')}`,
      `Refund $${String(p.amount)} of ${p.capture ? `payment ${String(p.capture)}` : 'that payment'} by hand in PayPal (the subscription's transactions).`,
    ],
  };
};

/** A checkout plan.reconcile could not settle through its last attempt (kind 'checkout'). */
const checkoutAlert = (p: Record<string, unknown>): Alert => ({
  key: `checkout ${String(p.charge_id)}`,
  subject: `Checkout not settled: ${String(p.charge_id)}`,
  userId: typeof p.user_id === 'string' ? p.user_id : null,
  lines: [
    `Checkout ${String(p.charge_id)} (owner ${String(p.user_id)}, ${String(p.method)} ${String(p.provider_ref)}) could not be read back from the provider for about a day; it is still pending, and the owner cannot buy another plan until it is settled.`,
    'Why: plan.reconcile failed through its last attempt',
    `What the provider or the database answered: ${String(p.error ?? 'unknown')}`,
    "Look at it in the provider's console: paid, send its webhook again (the plan is recorded); not paid, fail the checkout (public.fail_plan_checkout) so the owner can buy again.",
  ],
});

/** A renewal charged after its Stop or Change, still under way after 14 days (revoke-schedule). */
const cardRenewalAlert = (p: Record<string, unknown>): Alert => ({
  key: `PortOne payment ${String(p.charge_id)}`,
  subject: `PortOne payment not given back: ${String(p.charge_id)}`,
  userId: typeof p.user_id === 'string' ? p.user_id : null,
  lines: [
    `PortOne payment ${String(p.charge_id)} (owner ${String(p.user_id)}), a renewal the owner had stopped or changed, could not be given back automatically.`,
    'Why it was to be given back: the plan was stopped or changed before this renewal was charged',
    `What PortOne or the job answered: ${String(p.error ?? 'unknown')}`,
    "Look at it in PortOne's console: cancel it once it is paid; nothing is to be done if it failed.",
  ],
});

/**
 * plan.refund-alert: a mail to the operator (OPERATOR_EMAIL) about a payment a job could not give
 * back, with what to do: a PayPal subscription's refund recorded failed (payload subscription_id),
 * a deleted account's card stop that gave up (payload stop_id and error), a PayPal outstanding
 * balance collected with a cycle (payload kind 'outstanding') or a card renewal charged after its
 * Stop or Change still under way after 14 days (kind 'card-renewal'), or a checkout
 * plan.reconcile could not settle in its day of attempts (kind 'checkout'); without the setting,
 * an error in the functions' log.
 */
export const refundAlert: JobHandler = {
  async prepare(jobs, { db, mailer }) {
    const ids = jobs.flatMap((j) =>
      j.payload.subscription_id && !j.payload.kind ? [String(j.payload.subscription_id)] : [],
    );
    const byId = new Map<string, RefundRow>();
    if (ids.length) {
      const { data, error } = await db
        .from('paypal_refunds')
        .select('subscription_id, user_id, reason, status, error, created_at')
        .in('subscription_id', ids);
      if (error) throw new Error(`paypal_refunds: ${error.message}`);
      for (const r of data as RefundRow[]) byId.set(r.subscription_id, r);
    }
    const stops = new Map<string, StopRow | null>();
    for (const job of jobs) {
      if (!job.payload.stop_id) continue;
      const id = String(job.payload.stop_id);
      const read = await db.rpc('account_stop', { p_id: id });
      if (read.error) throw new Error(`account_stop: ${read.error.message}`);
      stops.set(id, read.data as StopRow | null);
    }
    const to = optionalEnv('OPERATOR_EMAIL', '');
    return jobs.map((job): Outcome | Delivery => {
      let alert: Alert;
      if (job.payload.kind === 'outstanding') alert = outstandingAlert(job.payload);
      else if (job.payload.kind === 'card-renewal') alert = cardRenewalAlert(job.payload);
      else if (job.payload.kind === 'checkout') alert = checkoutAlert(job.payload);
      else if (job.payload.stop_id) {
        const stop = stops.get(String(job.payload.stop_id));
        if (!stop) return { status: 'done', result: { skipped: 'no such stop' } };
        alert = cardStopAlert(stop, String(job.payload.error ?? 'unknown'));
      } else {
        const row = byId.get(String(job.payload.subscription_id));
        if (row?.status !== 'failed')
          return {
            status: 'done',
            result: { skipped: row ? `now ${row.status}` : 'no such refund' },
          };
        alert = paypalAlert(row);
      }
      if (!to) {
        console.error(`[alert] a payment not given back: ${alert.key}: ${alert.lines[2]}`);
        return { status: 'done', result: { logged: true, skipped: 'no OPERATOR_EMAIL' } };
      }
      return platformMailDelivery(
        (mail) => mailer.send(mail),
        job,
        {
          to,
          subject: alert.subject,
          html: alert.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join(''),
        },
        alert.userId ? { user_id: alert.userId } : {},
      );
    });
  },
};

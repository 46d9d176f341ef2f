// A PayPal subscription the owner approved, kept in this tab until its check answers (U13 of the
// outside tester's report). PayPal bills it at "Agree & Subscribe"; a reload before the check's
// answer used to leave it unchecked, no page said so, and the owner paid again by card while
// plan.paypal-orphan waited its hour to give the first payment back. Now onApprove keeps the
// subscription before it calls the check, and the purchase and plan pages, loaded again, finish
// the check with it and say so meanwhile. A second check of the same subscription records nothing
// more (supabase/tests/plans.test.ts).
import { useEffect, useEffectEvent, useState } from 'react';
import { ZCheckPaypalPayment, type TPlan } from '@reaction-blocks/contracts/plans';
import { isTransient, messageOf } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { checkPaypalPayment } from './plans';

const KEY = 'reactionPaypalApproved';
/**
 * Past this the orphan job has cancelled the subscription and given its payment back; the check
 * would say so, but the owner was told already by the page they left. Kept a little longer than
 * the job's hour, so a check in its last minutes is still finished here.
 */
const KEPT_MS = 90 * 60_000;

interface Approved {
  userId: string;
  subscriptionId: string;
  plan: TPlan;
  at: number;
}

export function keepApproved(userId: string, subscriptionId: string, plan: TPlan): void {
  try {
    const kept: Approved = { userId, subscriptionId, plan, at: Date.now() };
    window.sessionStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or unavailable: the check runs as before, only a reload loses it
  }
}

export function forgetApproved(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}

/** The subscription this owner approved in this tab and no check has answered for, if any. */
export function approvedOf(userId: string): Approved | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEY) ?? 'null') as Approved | null;
    const age = Date.now() - (kept?.at ?? NaN);
    // another owner's, older than the orphan job's time, or dated in the future (forged): none
    if (!kept || kept.userId !== userId || !(age >= 0 && age < KEPT_MS)) return null;
    // what the check takes, read as the server reads it
    const body = ZCheckPaypalPayment.safeParse({
      plan: kept.plan,
      subscriptionId: kept.subscriptionId,
    });
    return body.success ? { ...kept, ...body.data } : null;
  } catch {
    return null;
  }
}

/**
 * A failure that keeps the subscription for another check: one worth trying again (isTransient
 * of lib/errors.ts, the queries' retry rule: no answer, the server or PayPal down, a 429 with a
 * short wait), a 429 with a long one (checked again once its wait is over), or a payment PayPal
 * has not completed yet (409 `payment_pending`, still so after runCheck's tries: billed, not
 * refused; forgetting it freed the buy buttons, rev-break3 P1). Anything else answered for good.
 */
const passing = (cause: unknown) => {
  const { status, code } = (cause ?? {}) as { status?: unknown; code?: unknown };
  return isTransient(cause) || status === 429 || code === 'payment_pending';
};

/**
 * check-paypal-payment for a subscription just approved: PayPal may take a moment to make it
 * ACTIVE, so "not complete yet" is asked again a few times. The subscription is kept meanwhile,
 * and forgotten once the check has answered for good.
 */
export function checkApproved(userId: string, plan: TPlan, subscriptionId: string) {
  // one check at a time per subscription (a page mounted twice, onApprove beside a reload's)
  let running = inFlight.get(subscriptionId);
  if (!running) {
    running = runCheck(userId, plan, subscriptionId).finally(() => inFlight.delete(subscriptionId));
    inFlight.set(subscriptionId, running);
  }
  return running;
}

const inFlight = new Map<string, ReturnType<typeof runCheck>>();

async function runCheck(userId: string, plan: TPlan, subscriptionId: string) {
  keepApproved(userId, subscriptionId, plan);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await checkPaypalPayment(plan, subscriptionId);
        forgetApproved();
        return answer;
      } catch (cause) {
        if (attempt >= 4 || !/not complete yet/.test(messageOf(cause))) throw cause;
        await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
      }
    }
  } catch (cause) {
    if (!passing(cause)) forgetApproved();
    throw cause;
  }
}

type CheckState =
  | { state: 'none' }
  | { state: 'checking' }
  | { state: 'done' }
  /** `again`: still kept and billed: the page holds its buy buttons and offers to check again */
  | { state: 'failed'; cause: unknown; again: boolean };

export type ApprovedCheck = CheckState & {
  /** Checks the kept subscription again (after a failure with `again`). */
  retry: () => void;
};

const initial = (userId: string | undefined) =>
  userId && approvedOf(userId) ? ('checking' as const) : ('none' as const);

/**
 * On a page loaded again after PayPal's approval: finishes the check of the subscription this
 * tab kept for the owner signed in, if any, and calls `onDone` once it is recorded. 'checking'
 * while it runs, and 'failed' with `again` while it is still kept: the page says so and holds its
 * buy buttons. Another owner signing in on the page starts over for them.
 */
export function useApprovedCheck(onDone: () => void | Promise<void>): ApprovedCheck {
  const { user } = useSession();
  const userId = user?.id;
  const [run, setRun] = useState(0);
  const [check, setCheck] = useState<CheckState & { for?: string }>(() => ({
    state: initial(userId),
    for: userId,
  }));
  // the owner changed (signed out, another signed in): what this page says is theirs
  if (check.for !== userId) setCheck({ state: initial(userId), for: userId });
  const finished = useEffectEvent(async () => {
    await onDone();
    setCheck({ state: 'done', for: userId });
  });
  useEffect(() => {
    const kept = userId ? approvedOf(userId) : null;
    if (!kept) return;
    let alive = true;
    checkApproved(kept.userId, kept.plan, kept.subscriptionId).then(
      () => {
        if (alive) void finished();
      },
      (cause: unknown) => {
        if (alive) setCheck({ state: 'failed', cause, again: passing(cause), for: userId });
      },
    );
    return () => {
      alive = false;
    };
  }, [userId, run]);
  const retry = () => {
    setCheck({ state: initial(userId), for: userId });
    setRun((n) => n + 1);
  };
  return { ...check, retry };
}

/** The page holds its buy buttons: a kept subscription is being checked, or is still kept. */
export const holdsBuying = (check: ApprovedCheck) =>
  check.state === 'checking' || check.state === 'done' || (check.state === 'failed' && check.again);

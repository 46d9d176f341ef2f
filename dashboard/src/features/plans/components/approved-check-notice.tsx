// What the purchase and plan pages say while they finish the check of a PayPal subscription
// approved before a reload (api/paypal-approved.ts), and how it ended if it failed.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatWait, reasonAlone, retryAfterOf } from '../../../lib/errors';
import type { ApprovedCheck } from '../api/paypal-approved';
import { paymentFailedText } from '../model/messages';

/** Whether the wait a failure asked for (a 429's Retry-After) is over: at once when it asked none. */
function useWaitOver(cause: unknown) {
  const wait = retryAfterOf(cause);
  const [over, setOver] = useState<unknown>(null);
  useEffect(() => {
    if (wait === undefined) return;
    const timer = setTimeout(() => setOver(cause), wait * 1000);
    return () => clearTimeout(timer);
  }, [cause, wait]);
  return wait === undefined || over === cause;
}

export function ApprovedCheckNotice({ check }: { check: ApprovedCheck }) {
  const { t } = useTranslation();
  // The check starts with the page, so "checking" is there at its first render. A live region
  // inserted with its text already in is often not read (NVDA and JAWS with Chrome): the status
  // region is on the page from that first render, empty, and the text goes into it a frame later,
  // once the region is drawn (rev-break2 A5), so a blind owner who reloaded hears "Do not pay again".
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setDrawn(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const failed = check.state === 'failed' ? check : null;
  const waitOver = useWaitOver(failed?.cause);
  const checking = drawn && check.state === 'checking';
  // still kept (no answer, a 429, a payment PayPal has not completed): PayPal has billed it, so
  // it is a notice in the same status region, not a red "did not go through" (rev-break3 P3)
  const kept = failed?.again ? keptText(t, failed.cause, waitOver) : null;
  // Check again takes itself away while its check runs, and the focus fell to the page: when that
  // check fails, the focus comes back to Check again (to the notice while a Retry-After holds the
  // button, to the message when the check was refused for good), so a keyboard or screen reader
  // user is where the answer is, not at the top of the page.
  const retried = useRef(false);
  const notice = useRef<HTMLDivElement>(null);
  const again = useRef<HTMLButtonElement>(null);
  const refused = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!failed || !retried.current) return;
    retried.current = false;
    (failed.again ? (waitOver ? again : notice) : refused).current?.focus();
  }, [failed, waitOver]);
  return (
    <>
      <div
        ref={notice}
        role="status"
        id="purchase-approved"
        tabIndex={kept ? -1 : undefined}
        className={checking || kept ? 'notice purchase-approved' : 'visually-hidden'}
      >
        {checking ? (
          <>
            <span className="spinner">
              <span className="spinner-ring" aria-hidden="true" />
            </span>
            <span>{t('plans.payment.approvedChecking')}</span>
          </>
        ) : (
          kept
        )}
      </div>
      {failed ? (
        <div className="purchase-approved">
          {kept ? (
            // held while the Retry-After runs (the notice says until when), then pressed at will
            <button
              ref={again}
              type="button"
              className="button"
              disabled={!waitOver}
              aria-describedby="purchase-approved"
              onClick={() => {
                retried.current = true;
                check.retry();
              }}
            >
              {t('plans.payment.approvedRetry')}
            </button>
          ) : (
            <p ref={refused} className="error-text" role="alert" tabIndex={-1}>
              {paymentFailedText(t, failed.cause, 'paypal')}
            </p>
          )}
        </div>
      ) : null}
    </>
  );
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** "We could not check ... yet: it is kept, do not pay again." with why, and when to check again. */
function keptText(t: T, cause: unknown, waitOver: boolean) {
  const code = (cause as { code?: unknown } | null)?.code;
  const wait = retryAfterOf(cause);
  const parts =
    code === 'payment_pending'
      ? [t('plans.payment.approvedPending')]
      : // why, without its "Try again in …": the last sentence says when to check again
        [t('plans.payment.approvedKept'), reasonAlone(cause)];
  parts.push(
    wait !== undefined && !waitOver
      ? t('plans.payment.approvedRetryIn', { in: formatWait(wait) })
      : t('plans.payment.approvedRetryNow'),
  );
  return parts.join(' ');
}

// What the purchase and plan pages say while they finish the check of a PayPal subscription
// approved before a reload (api/paypal-approved.ts), and how it ended if it failed.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovedCheck } from '../api/paypal-approved';
import { paymentFailedText } from '../model/messages';

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
  const checking = drawn && check.state === 'checking';
  return (
    <>
      <div role="status" className={checking ? 'notice purchase-approved' : 'visually-hidden'}>
        {checking ? (
          <>
            <span className="spinner">
              <span className="spinner-ring" aria-hidden="true" />
            </span>
            <span>{t('plans.payment.approvedChecking')}</span>
          </>
        ) : null}
      </div>
      {check.state === 'failed' ? (
        <div className="purchase-approved">
          <p className="error-text" role="alert">
            {paymentFailedText(t, check.cause, 'paypal')}
            {check.again ? ` ${t('plans.payment.approvedAgain')}` : ''}
          </p>
          {check.again ? (
            <button type="button" className="button" onClick={check.retry}>
              {t('plans.payment.approvedRetry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

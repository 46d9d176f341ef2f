// What the purchase and plan pages say while they finish the check of a PayPal subscription
// approved before a reload (api/paypal-approved.ts), and how it ended if it failed.
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import type { ApprovedCheck } from '../api/paypal-approved';
import { paymentFailedText } from '../model/messages';

export function ApprovedCheckNotice({ check }: { check: ApprovedCheck }) {
  const { t } = useTranslation();
  if (check.state === 'checking')
    return (
      <div className="notice purchase-approved">
        <Spinner label={t('plans.payment.approvedChecking')} />
        <span aria-hidden="true">{t('plans.payment.approvedChecking')}</span>
      </div>
    );
  if (check.state !== 'failed') return null;
  return (
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
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { toLanguage } from '../../../lib/i18n';
import { PageHeading } from '../../../components/ui/page-heading';
import { TextList } from '../../../components/ui/text-list';

/** Plan prices of the specification (section 9), in dollars; ko shows {price}000 won. */
export const PLAN_PRICES = { basic: 3, customMinimum: 3 } as const;

export function formatPrice(dollars: number, lng: 'en' | 'ko') {
  return lng === 'ko' ? `${(dollars * 1000).toLocaleString('ko-KR')}원` : `$${dollars}`;
}

export function PricingPage() {
  const { t, i18n } = useTranslation();
  const lng = toLanguage(i18n.language) ?? 'en';
  const plans = [
    {
      id: 'starter',
      price: t('pricing.starter.price'),
      prefix: '',
      suffix: '',
    },
    {
      id: 'basic',
      price: formatPrice(PLAN_PRICES.basic, lng),
      prefix: '',
      suffix: t('pricing.perMonth'),
    },
    {
      id: 'custom',
      price: formatPrice(PLAN_PRICES.customMinimum, lng),
      prefix: t('pricing.from'),
      suffix: t('pricing.perMonth'),
    },
  ] as const;
  return (
    <>
      <section className="section page-head pricing-head">
        <PageHeading>{t('pricing.title')}</PageHeading>
        <p className="lead">{t('pricing.lead')}</p>
      </section>
      <section className="section pricing-plans">
        <ul className="plans">
          {plans.map((plan) => (
            <li key={plan.id} className="plan" aria-labelledby={`plan-${plan.id}`}>
              <h2 id={`plan-${plan.id}`}>{t(`pricing.${plan.id}.name`)}</h2>
              <p className="plan-for">{t(`pricing.${plan.id}.for`)}</p>
              <p className="plan-price" data-testid={`price-${plan.id}`}>
                {plan.prefix ? <span className="plan-prefix">{plan.prefix} </span> : null}
                <strong>{plan.price}</strong>
                {plan.suffix ? <span className="plan-suffix"> {plan.suffix}</span> : null}
              </p>
              <TextList
                className="plan-features"
                lines={t(`pricing.${plan.id}.features`, { returnObjects: true }) as string[]}
              />
              {/* Basic and Custom open Select plan (signed-out visitors sign in there first) */}
              <Link
                to={plan.id === 'starter' ? paths.login : `${paths.purchase}?focus=${plan.id}`}
                className="button button-primary"
                aria-label={t('pricing.startPlan', { plan: t(`pricing.${plan.id}.name`) })}
              >
                {t('pricing.start')}
              </Link>
            </li>
          ))}
        </ul>
        {/* what the one monthly count counts, as the plan page's meter says (rev-owner D7) */}
        <p className="hint pricing-counted">{t('pricing.counted')}</p>
      </section>
    </>
  );
}

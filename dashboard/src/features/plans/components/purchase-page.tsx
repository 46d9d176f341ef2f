// /purchase (Select plan) and /purchase/payment (Payment), with the side step list (spec). The
// basket lives in the URL (`focus=basic|custom`, and for Custom `blocks` and `emails`), so a
// reload or the back button keeps it. An owner with an active plan is sent to /profile/plan; a
// price under $3 on the payment step goes back to /purchase.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { failureReason } from '../../../lib/errors';
import { site } from '../../../config/site';
import { useSession } from '../../../lib/session';
import { planKeys } from '../api/keys';
import { checkIamportPayment } from '../api/plans';
import { checkApproved, holdsBuying, useApprovedCheck } from '../api/paypal-approved';
import { useActivePlans } from '../api/queries';
import { loadPaypal, paymentsConfig, requestBillingKey } from '../api/providers';
import {
  activePlan,
  basketFromSearch,
  basketPrice,
  basketToSearch,
  canBuy,
  formatPlanDate,
  formatPlanPrice,
  periodEnd,
  shownBlocks,
  shownEmails,
  todayUtc,
  toPlan,
  type Basket,
  wonPrice,
} from '../model/plans';
import { checkoutErrorReason, paymentFailedText, paypalErrorText } from '../model/messages';
import { useLang } from '../model/use-lang';
import { registerPlanTranslations } from '../locales';
import { PlanFields } from './plan-fields';
import { ApprovedCheckNotice } from './approved-check-notice';
import { ErrorText } from '../../../components/ui/error-text';
import { TextList } from '../../../components/ui/text-list';

registerPlanTranslations();

const PURCHASE = '/purchase';
const PAYMENT = '/purchase/payment';

function Steps({
  step,
  search,
  payable,
}: {
  step: 'select' | 'payment';
  search: string;
  payable: boolean;
}) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans.steps' });
  return (
    <nav className="purchase-steps" aria-label={s('label')}>
      <ol>
        <li aria-current={step === 'select' ? 'step' : undefined}>
          <Link to={`${PURCHASE}${search}`}>
            <span className="purchase-step-number" aria-hidden="true">
              1
            </span>
            {s('select')}
          </Link>
        </li>
        <li aria-current={step === 'payment' ? 'step' : undefined}>
          {payable ? (
            <Link to={`${PAYMENT}${search}`}>
              <span className="purchase-step-number" aria-hidden="true">
                2
              </span>
              {s('payment')}
            </Link>
          ) : (
            <span className="purchase-step-disabled">
              <span className="purchase-step-number" aria-hidden="true">
                2
              </span>
              {s('payment')}
            </span>
          )}
        </li>
      </ol>
    </nav>
  );
}

function SelectPlan({ basket }: { basket: Basket }) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans' });
  const { lang } = useLang();
  const navigate = useNavigate();
  const price = basketPrice(basket);
  const ok = canBuy(basket);
  const groups = ['general', 'comment', 'like', 'form'] as const;
  return (
    <>
      <h1 id="purchase-title" tabIndex={-1}>
        {s('select.title')}
      </h1>
      <PlanFields
        basket={basket}
        onChange={(b) => navigate(`${PURCHASE}${basketToSearch(b)}`, { replace: true })}
      />
      <dl className="purchase-facts">
        <div>
          <dt>{s('select.start')}</dt>
          <dd>{formatPlanDate(todayUtc())}</dd>
        </div>
        <div>
          <dt>{s('payment.blocks')}</dt>
          <dd>{shownBlocks(basket.blockLimit).toLocaleString()}</dd>
        </div>
        <div>
          <dt>{s('payment.emails')}</dt>
          <dd>{shownEmails(basket.responseMonthlyLimit).toLocaleString()}</dd>
        </div>
      </dl>
      <section className="purchase-included" aria-labelledby="included-title">
        <h2 id="included-title">{s('select.included')}</h2>
        <div className="purchase-groups">
          {groups.map((group) => (
            <div key={group}>
              <h3>{s(`select.groups.${group}`)}</h3>
              <TextList
                lines={t(`plans.select.features.${group}`, { returnObjects: true }) as string[]}
              />
            </div>
          ))}
        </div>
      </section>
      <div className="purchase-total">
        <p className="plan-price-line">
          {s('select.price')}:{' '}
          <strong data-testid="purchase-price">
            {s('select.perMonth', { price: formatPlanPrice(price, lang) })}
          </strong>
        </p>
        {!ok && price < 3 ? (
          <ErrorText>
            {lang === 'ko' ? s('select.minimumPriceKo') : s('select.minimumPrice')}
          </ErrorText>
        ) : null}
        {ok ? (
          <Link
            to={`${PAYMENT}${basketToSearch(basket)}`}
            className="button button-primary button-large"
          >
            {s('select.continue')}
          </Link>
        ) : (
          <button type="button" className="button button-primary button-large" disabled>
            {s('select.continue')}
          </button>
        )}
      </div>
    </>
  );
}

function KoreanBusiness() {
  const { t } = useTranslation();
  const info = site.koreanBusiness;
  if (!info) return null;
  const lines = [
    info.company,
    info.representative,
    info.registrationNumber,
    info.mailOrderNumber,
    info.address,
    info.contact,
  ].filter(Boolean);
  return (
    <section className="purchase-business" aria-label={t('plans.payment.business')}>
      <p className="hint">{lines.join(' · ')}</p>
    </section>
  );
}

/** What the page says when PortOne's checkout ends without a billing key. */
const CHECKOUT_ENDED = {
  cancelled: 'payment.cancelled',
  timeout: 'payment.timeout',
} as const;

/**
 * A purchase recorded: the profile read again and the plan queries marked stale only (read by
 * the plan page; read now, this page would see the new plan and go to the plan page without
 * ?purchased, as it redirects owners with a plan), then the plan page with its thanks.
 */
function usePurchased() {
  const { user, refreshProfile } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await Promise.all([
      refreshProfile(),
      client.invalidateQueries({ queryKey: planKeys.all(user?.id ?? ''), refetchType: 'none' }),
    ]);
    navigate(`${paths.profilePlan}?purchased=1`);
  };
}

function Payment({ basket }: { basket: Basket }) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans' });
  const { lang, fmt } = useLang();
  const navigate = useNavigate();
  const { user, profile } = useSession();
  const [paying, setPaying] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [paypalState, setPaypalState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [paypalError, setPaypalError] = useState<string | null>(null);
  const paypalBox = useRef<HTMLDivElement>(null);
  const config = paymentsConfig();
  const price = basketPrice(basket);
  const start = todayUtc();
  const plan = toPlan(basket);

  const done = usePurchased();

  const payWithPortOne = async (route: 'card' | 'wallet') => {
    if (paying || !user) return;
    setPaying(true);
    setMessage(null);
    try {
      const result = await requestBillingKey({
        route,
        issueName: `Reaction Blocks ${t(`plans.types.${basket.type}`)}`,
        customer: { id: user.id, email: user.email ?? undefined, name: profile?.name || undefined },
        language: lang,
      });
      if (!result.ok) {
        const { reason } = result;
        // the provider's words are for developers; the owner reads checkoutErrorReason's
        if (reason === 'failed')
          console.error('[reaction-dashboard] checkout failed', result.message);
        setMessage(
          reason === 'failed'
            ? {
                text: s('payment.failed', { reason: checkoutErrorReason(t, result.message) }),
                error: true,
              }
            : reason === 'refused'
              ? { text: s(`payment.declined.${route}`), error: true }
              : { text: s(CHECKOUT_ENDED[reason]), error: false },
        );
        return;
      }
      await checkIamportPayment(plan, result.billingKey, route);
      await done();
    } catch (cause) {
      setMessage({ text: paymentFailedText(t, cause, route), error: true });
    } finally {
      setPaying(false);
    }
  };

  // PayPal's button, rendered by its JS SDK into our box
  const paypalConfigured = !!config.paypal;
  const userId = user?.id;
  useEffect(() => {
    if (!paypalConfigured || !userId || !canBuy(basket)) return;
    let alive = true;
    let buttons: { close: () => Promise<void> } | undefined;
    // PayPal can call both onCancel and onError for a popup closed while it loads
    // (paypal-js#613): the first of them leaves the page, the other is ignored
    let left = false;
    const leave = (to: string, notice?: string) => {
      if (left) return;
      left = true;
      navigate(to, notice ? { state: { notice } } : undefined);
    };
    loadPaypal()
      .then(async (paypal) => {
        if (!alive || !paypalBox.current || !paypal.Buttons) return;
        const instance = paypal.Buttons({
          style: { layout: 'vertical', label: 'subscribe' },
          createSubscription: (_data, actions) =>
            actions.subscription.create({
              plan_id: config.paypal!.planId,
              quantity: String(basketPrice(basket)),
              custom_id: userId,
            }),
          onApprove: async (data) => {
            const id = data.subscriptionID;
            if (!id) return;
            setPaying(true);
            try {
              // kept in this tab first: a reload before the answer finishes it (U13)
              await checkApproved(userId, toPlan(basket), id);
              await done();
            } catch (cause) {
              // spec: an error on the international route returns to the plan page
              leave(paths.profilePlan, paymentFailedText(t, cause, 'paypal'));
            } finally {
              setPaying(false);
            }
          },
          onCancel: () => leave(`${paths.profilePlan}?paypal=cancelled`),
          // PayPal's catch-all (its words are for developers): what happened and what to do
          onError: (error) => leave(paths.profilePlan, paypalErrorText(t, error)),
        });
        buttons = instance;
        await instance.render(paypalBox.current);
        if (alive) setPaypalState('ready');
      })
      .catch((cause: unknown) => {
        if (!alive) return;
        console.error('[reaction-dashboard] PayPal did not load', cause);
        setPaypalState('failed');
        setPaypalError(checkoutErrorReason(t, cause));
      });
    return () => {
      alive = false;
      void buttons?.close().catch(() => {});
    };
    // the basket is in the URL: a new basket is a new page
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [paypalConfigured, userId, basket.type, basket.blockLimit, basket.responseMonthlyLimit]);

  const won = wonPrice(price, lang);
  const dollars = formatPlanPrice(price, 'en');
  return (
    <>
      <h1 id="purchase-title" tabIndex={-1}>
        {s('payment.title')}
      </h1>
      <section className="purchase-summary" aria-labelledby="summary-title">
        <h2 id="summary-title">{s('payment.summary')}</h2>
        <dl>
          <div>
            <dt>{s('payment.plan')}</dt>
            <dd>{t(`plans.types.${basket.type}`)}</dd>
          </div>
          <div>
            <dt>{s('payment.period')}</dt>
            <dd>
              {s('payment.periodValue', {
                start: formatPlanDate(start),
                end: formatPlanDate(periodEnd(start)),
              })}
            </dd>
          </div>
          <div>
            <dt>{s('payment.blocks')}</dt>
            <dd>{fmt(shownBlocks(basket.blockLimit))}</dd>
          </div>
          <div>
            <dt>{s('payment.emails')}</dt>
            <dd>{fmt(shownEmails(basket.responseMonthlyLimit))}</dd>
          </div>
          <div>
            <dt>{s('payment.price')}</dt>
            <dd data-testid="payment-price">{s('payment.priceValue', { won, dollars })}</dd>
          </div>
        </dl>
      </section>

      {lang === 'ko' ? (
        <p className="purchase-terms">
          {s('payment.termsNote')}{' '}
          <a href={site.locales.ko.terms} target="_blank" rel="noopener noreferrer">
            {s('payment.terms')}
          </a>
        </p>
      ) : null}

      <section className="purchase-methods" aria-labelledby="methods-title" aria-busy={paying}>
        <h2 id="methods-title">{s('payment.choose')}</h2>
        {(['card', 'wallet'] as const).map((route) => (
          <div className="purchase-method" key={route}>
            <h3>{s(`payment.${route}`)}</h3>
            <p className="hint">{s(`payment.${route}Hint`, { price: won })}</p>
            {config.portone?.[`${route}ChannelKey`] ? (
              <button
                type="button"
                className={route === 'card' ? 'button button-primary' : 'button'}
                disabled={paying}
                onClick={() => void payWithPortOne(route)}
              >
                {s(route === 'card' ? 'payment.payCard' : 'payment.payWallet')}
              </button>
            ) : (
              <p className="hint">{s('payment.notConfigured')}</p>
            )}
          </div>
        ))}
        <div className="purchase-method">
          <h3>{s('payment.paypal')}</h3>
          <p className="hint">{s('payment.paypalHint', { price: dollars })}</p>
          {paypalConfigured ? (
            <>
              {paypalState === 'loading' ? <Spinner label={s('payment.paypalLoading')} /> : null}
              {paypalState === 'failed' ? (
                <ErrorText>{s('payment.paypalFailed', { reason: paypalError ?? '' })}</ErrorText>
              ) : null}
              <div ref={paypalBox} className="purchase-paypal" hidden={paying} />
            </>
          ) : (
            <p className="hint">{s('payment.notConfigured')}</p>
          )}
        </div>
      </section>

      {paying ? (
        <div className="purchase-paying">
          <Spinner label={s('payment.paying')} />
          <span aria-hidden="true">{s('payment.paying')}</span>
        </div>
      ) : null}
      {message ? (
        <p
          className={message.error ? 'error-text' : 'notice'}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}

      <p>
        <Link to={`${PURCHASE}${basketToSearch(basket)}`}>{s('payment.back')}</Link>
      </p>
      {lang === 'ko' ? <KoreanBusiness /> : null}
    </>
  );
}

export function PurchasePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const location = useLocation();
  // a PayPal subscription approved in this tab before a reload: its check finished here (U13)
  const approved = useApprovedCheck(usePurchased());
  const onPayment = location.pathname === PAYMENT || location.pathname === `${PAYMENT}/`;
  const basket = basketFromSearch(location.search);
  // spec: the payment history is read on load; an owner with an active plan goes to the plan page
  const plans = useActivePlans(user?.id);

  if (plans.data && activePlan(plans.data)) return <Navigate to={paths.profilePlan} replace />;
  if (onPayment && !canBuy(basket))
    return <Navigate to={`${PURCHASE}${basketToSearch(basket)}`} replace />;
  const search = basketToSearch(basket);
  return (
    <div className="purchase-page">
      <Steps step={onPayment ? 'payment' : 'select'} search={search} payable={canBuy(basket)} />
      <section className="purchase-main" aria-labelledby="purchase-title">
        <ApprovedCheckNotice check={approved} />
        {holdsBuying(approved) ? null : !plans.data && !plans.error ? (
          <Spinner />
        ) : onPayment ? (
          <Payment basket={basket} />
        ) : (
          <SelectPlan basket={basket} />
        )}
        {plans.error ? (
          <ErrorText>{t('plans.loadFailed', { reason: failureReason(plans.error) })}</ErrorText>
        ) : null}
      </section>
    </div>
  );
}

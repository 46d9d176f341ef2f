// /profile/plan: the active plan (spec: the first history row that is active and basic, custom or
// subscription) with Stop and Change, the coupon dialog, usage gauges for blocks and this month's
// emails (capped at 100%), and the plan history.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { paths } from '../../../config/paths';
import { FormDialog } from '../../../components/ui/form-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/session';
import { failureReason } from '../../../lib/errors';
import { useSubmit } from '../../../lib/use-submit';
import { cancelPayment, changePayment, type FailedRefund } from '../api/plans';
import { site } from '../../../config/site';
import { PAYPAL_ENDED_REASON } from '@reaction-blocks/contracts/plans';
import {
  activeCoupons,
  activePlan,
  basketOf,
  heldBasketOf,
  blocksAllowedFrom,
  blocksDropAfter,
  basketPrice,
  canBuy,
  couponsRunUntil,
  dayAfter,
  formatPlanDate,
  routePrice,
  limitsOn,
  rowBlocks,
  rowEmails,
  rowPrice,
  renewalState,
  retryLine,
  shownBlocks,
  shownEmails,
  STARTER,
  toPlan,
  upcomingPlans,
  type Basket,
  type PlanRow,
} from '../model/plans';
import { planChangeReason } from '../model/messages';
import { useLang } from '../model/use-lang';
import { registerPlanTranslations } from '../locales';
import { useInvalidatePlans } from '../api/keys';
import { usePlanHistory, usePlanOverview } from '../api/queries';
import { holdsBuying, useApprovedCheck } from '../api/paypal-approved';
import { ApprovedCheckNotice } from './approved-check-notice';
import { CouponDialog } from './coupon-dialog';
import { HistoryTable } from './history-table';
import { PlanFields } from './plan-fields';
import { UsageGauge } from './usage-gauge';
import { ErrorText } from '../../../components/ui/error-text';
import { LoadFailed } from '../../../components/ui/load-failed';

registerPlanTranslations();

const sameBasket = (a: Basket, b: Basket): boolean =>
  a.type === b.type &&
  a.blockLimit === b.blockLimit &&
  a.responseMonthlyLimit === b.responseMonthlyLimit;

/** The notice of each PayPal return to this page (?paypal=...). */
const PAYPAL_NOTICES = new Map([
  ['cancelled', 'notices.paypalCancelled'],
  ['change-cancelled', 'notices.paypalChangeCancelled'],
  ['approved', 'notices.paypalApproved'],
]);

/**
 * Back from the revise's "Cancel and return" (?paypal=change-cancelled) with a PayPal change still
 * pending: the change is dropped on the server (change-paypal-payment, declined, with the plan
 * held), once per plan; `dropped` then reloads the plans. A change PayPal bills already (approved
 * before) is refused there and stays, and so does the notice that says how to drop it. The
 * parameter is read once, at the page's first render, and `asked` takes it off the address as the
 * drop is asked: a reload must not drop a change asked again later in this tab (rev-break3 P2).
 */
function useDeclinedChange(
  plan: PlanRow | undefined,
  declined: boolean,
  dropped: () => void,
  asked: () => void,
) {
  const askedFor = useRef<string | null>(null);
  const pending =
    declined && plan?.method === 'paypal' && upcomingPlans(plan).some((next) => !next.paid);
  useEffect(() => {
    if (!pending || !plan || askedFor.current === plan.id) return;
    askedFor.current = plan.id;
    asked();
    changePayment(plan, toPlan(heldBasketOf(plan)), true).then(dropped, () => {
      // refused (approved at PayPal) or not answered: the notice says how to drop it by hand
    });
  }, [pending, plan, dropped, asked]);
  return declined && !!plan && !pending;
}

function ChangeDialog({
  row,
  blocksInUse,
  coupons,
  onClose,
  onChanged,
}: {
  row: PlanRow;
  /** The owner's blocks now (usage), to warn when the new plan allows fewer. */
  blocksInUse?: number;
  /** The active coupons: one still running when the new plan starts adds to its limit. */
  coupons: PlanRow[];
  onClose: () => void;
  onChanged: (row: PlanRow, link: string | null, tab: Window | null) => void;
}) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans' });
  const { lang, fmt } = useLang();
  const [basket, setBasket] = useState<Basket>(() => basketOf(row));
  const { busy, error, run } = useSubmit();
  const price = basketPrice(basket);
  // a change not yet charged (a PayPal one waiting for its approval too) can be asked again, or
  // dropped by asking the plan held: only the plan held with no change pending is refused (U8, U9)
  const held = heldBasketOf(row);
  const isHeld = sameBasket(held, basket);
  const same = isHeld && sameBasket(held, basketOf(row));
  const paypal = row.method === 'paypal';
  // as the server counts when the new plan starts (the day after this period)
  const starts = row.end_date ? dayAfter(row.end_date) : '';
  const newLimit = blocksAllowedFrom(basket, coupons, starts);
  const byCoupon = newLimit > shownBlocks(basket.blockLimit);
  const used = blocksInUse ?? 0;
  // the coupons running then end later: the limit falls again, below what is in use or kept
  const drop = blocksDropAfter(basket, coupons, starts, Math.min(used, newLimit));
  const overLimit = !same && blocksInUse !== undefined && (newLimit < used || drop !== null);
  const warning = (): string => {
    const counts = { used: fmt(used), limit: fmt(newLimit) };
    const later = drop && { lowest: fmt(drop.limit), date: formatPlanDate(drop.date) };
    if (newLimit >= used && later) return s('change.overLimitLater', { ...counts, ...later });
    if (!byCoupon) return s('change.overLimit', counts);
    return later
      ? s('change.overLimitCouponEnds', { ...counts, ...later })
      : s('change.overLimitCoupon', counts);
  };

  const submit = () => {
    // a tab opened now, while the click counts, is not blocked; PayPal's link goes into it
    const tab = paypal ? window.open('about:blank', '_blank') : null;
    void run(
      async () => {
        try {
          const answer = await changePayment(row, toPlan(basket));
          const link = answer.links?.[0]?.href ?? null;
          if (tab && link) {
            tab.opener = null;
            tab.location.href = link;
          } else if (tab) tab.close();
          onChanged(answer.payment, link, tab);
        } catch (cause) {
          tab?.close();
          throw cause;
        }
      },
      (cause) => s('failed', { reason: planChangeReason(t, cause) }),
    );
  };

  return (
    <FormDialog
      title={s('change.title')}
      onClose={onClose}
      onSubmit={submit}
      className="plan-change-dialog"
      submitLabel={s('change.save')}
      canSubmit={!same && canBuy(basket)}
      busy={busy}
      error={error}
    >
      <p className="hint">
        {paypal
          ? s('change.paypalIntro')
          : s(row.paid_next_from ? 'change.introPaid' : 'change.intro', {
              date: row.end_date ? formatPlanDate(dayAfter(row.end_date)) : '',
              paid: row.paid_next_from ? formatPlanDate(row.paid_next_from) : '',
            })}
      </p>
      <PlanFields basket={basket} onChange={setBasket} dollars={paypal} />
      <p className="plan-price-line">
        {s('select.price')}:{' '}
        <strong>{s('select.perMonth', { price: routePrice(price, row.method, lang) })}</strong>
      </p>
      {price < 3 ? (
        <ErrorText>
          {lang === 'ko' && !paypal ? s('select.minimumPriceKo') : s('select.minimumPrice')}
        </ErrorText>
      ) : null}
      {same ? (
        <p className="hint">
          {s(upcomingPlans(row).at(-1)?.paid ? 'change.samePaid' : 'change.same')}
        </p>
      ) : isHeld ? (
        <p className="hint">{s('change.keep')}</p>
      ) : null}
      {/* as the Stop dialog says: the blocks beyond the new limit are deactivated */}
      <p className={overLimit ? 'warning-note' : 'visually-hidden'} role="status">
        {overLimit ? warning() : null}
      </p>
    </FormDialog>
  );
}

/**
 * The PayPal payments the refund job could not give back (a refund PayPal refused, or one it gave
 * up on): what happened and whom to write to (the site's contact address, else Help).
 */
function FailedRefunds({ refunds }: { refunds: FailedRefund[] }) {
  const { t } = useTranslation();
  const { lang } = useLang();
  const email = site.locales[lang].contactEmail;
  return (
    <section className="plan-refunds warning-note" aria-labelledby="plan-refunds-title">
      <h2 id="plan-refunds-title">{t('plans.refundFailed.heading')}</h2>
      {refunds.map((r) => (
        <p key={r.subscription_id}>
          {t(
            r.reason === PAYPAL_ENDED_REASON
              ? 'plans.refundFailed.ended'
              : 'plans.refundFailed.text',
            {
              id: r.subscription_id,
              date: formatPlanDate(r.created_at.slice(0, 10)),
            },
          )}{' '}
          {email ? (
            <a href={`mailto:${email}?subject=${encodeURIComponent(r.subscription_id)}`}>
              {t('plans.refundFailed.email', { email })}
            </a>
          ) : (
            <Link to={paths.help}>{t('plans.refundFailed.help')}</Link>
          )}
        </p>
      ))}
    </section>
  );
}

/**
 * The active plan's renewal line: when it renews, or why and when it ends; a failed PayPal renewal
 * PayPal retries says when it tries again, until when the plan stays on, and what the owner can do.
 */
function RenewalLine({
  plan,
  paidFrom,
}: {
  plan: PlanRow & { end_date: string };
  /** The first day of a period paid already (a stopped plan's line names it). */
  paidFrom?: string;
}) {
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans' });
  const state = renewalState(plan);
  if (state === 'retrying') {
    const { retry, until } = retryLine(plan);
    return (
      <div className="plan-retrying warning-note" data-testid="renewal">
        <p>
          {s(retry ? 'active.retrying' : 'active.retryingSoon', {
            retry: retry ? formatPlanDate(retry) : '',
            until: formatPlanDate(until),
          })}
        </p>
        <p>{s('active.retryingWhat')}</p>
      </div>
    );
  }
  return (
    <p data-testid="renewal">
      {s(`active.${state}${paidFrom && state === 'stopped' ? 'Paid' : ''}`, {
        date: formatPlanDate(state === 'renews' ? dayAfter(plan.end_date) : plan.end_date),
        paid: paidFrom ? formatPlanDate(paidFrom) : '',
        // a plan that does not renew: a new one can be bought once it has ended (stop.final)
        after: formatPlanDate(dayAfter(plan.end_date)),
      })}
    </p>
  );
}

/** The plan page's dialogs, each opened by the button of its action (`plans.actions`). */
type PlanDialog = 'stop' | 'change' | 'coupon';

export function PlanPage() {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans' });
  const { lang, fmt } = useLang();
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const state = usePlanOverview(user?.id);
  const history = usePlanHistory(user?.id);
  const [dialog, setDialog] = useState<PlanDialog | null>(null);
  /** A button opening one of the page's dialogs, labelled with its action. */
  const opens = (name: PlanDialog, className = 'button button-ghost') => (
    <button type="button" className={className} onClick={() => setDialog(name)}>
      {s(`actions.${name}`)}
    </button>
  );
  const [notice, setNotice] = useState<{ text: string; link?: string } | null>(null);

  const plan = state.data ? activePlan(state.data.active) : undefined;
  const params = new URLSearchParams(location.search);
  const stateNotice = (location.state as { notice?: string } | null)?.notice;
  // ?purchased thanks only beside the plan it thanks for: a kept or shared address, or a purchase
  // refused later, must not thank an owner on Starter (U4 of the outside tester's report)
  const reload = useInvalidatePlans();
  // the change the owner did not approve at PayPal is dropped; then the notice says so (U8)
  const [declined] = useState(() => params.get('paypal') === 'change-cancelled');
  const changeDropped = useDeclinedChange(plan, declined, reload, () =>
    navigate(location.pathname, { replace: true }),
  );
  const queryKey = params.has('purchased')
    ? plan && 'notices.purchased'
    : changeDropped
      ? 'notices.paypalChangeDropped'
      : PAYPAL_NOTICES.get(declined ? 'change-cancelled' : (params.get('paypal') ?? ''));
  const queryNotice = stateNotice || (queryKey ? s(queryKey) : null);

  // a PayPal subscription approved in this tab before a reload: its check finished here (U13)
  const approved = useApprovedCheck(() => {
    reload();
    setNotice({ text: s('notices.purchased') });
  });

  if (!user) return <Spinner />;
  const coupons = state.data ? activeCoupons(state.data.active) : [];
  // a coupon running past the plan's end keeps its limits until it ends, as the server counts
  const stopCoupons = plan?.end_date ? couponsRunUntil(coupons, dayAfter(plan.end_date)) : null;
  // a period charged already for a changed plan starts before the end Stop names (stop.textPaid*)
  const stopPaid = plan ? upcomingPlans(plan).find((next) => next.paid) : undefined;
  // the paid period's limits beside the coupons running on its first day, as the server counts
  const paidLimits = stopPaid ? limitsOn(stopPaid.content, coupons, stopPaid.from) : undefined;
  const usage = state.data?.usage;
  const shownNotice = notice?.text ?? queryNotice;

  return (
    <section className="plan-page" aria-labelledby="plan-title">
      <h1 id="plan-title" tabIndex={-1}>
        {s('title')}
      </h1>
      <div role="status" aria-live="polite" className={shownNotice ? 'notice' : 'visually-hidden'}>
        {shownNotice}
        {notice?.link ? (
          <>
            {' '}
            <a href={notice.link} target="_blank" rel="noopener noreferrer">
              {s('notices.openPaypal')}
            </a>
          </>
        ) : null}
      </div>

      <ApprovedCheckNotice check={approved} />
      <LoadFailed onRetry={() => void state.refetch()}>
        {state.error ? s('loadFailed', { reason: failureReason(state.error) }) : null}
      </LoadFailed>
      {!state.data && !state.error ? <Spinner /> : null}
      {state.data?.failedRefunds.length ? (
        <FailedRefunds refunds={state.data.failedRefunds} />
      ) : null}

      {state.data ? (
        <div className="plan-top">
          <section className="plan-card" aria-labelledby="plan-active-title">
            <h2 id="plan-active-title">{s('active.heading')}</h2>
            {plan ? (
              <>
                <p className="plan-card-name">
                  <strong>
                    {plan.content?.planName?.startsWith('$')
                      ? plan.content.planName
                      : s(`types.${plan.type}`)}
                  </strong>
                  <span className="plan-card-price">
                    {s('active.perMonth', { price: routePrice(rowPrice(plan), plan.method, lang) })}
                  </span>
                </p>
                <p>
                  {s('active.limits', {
                    blocks: fmt(rowBlocks(plan)),
                    emails: fmt(rowEmails(plan)),
                  })}
                </p>
                <p className="hint">
                  {s('active.period', {
                    start: formatPlanDate(plan.start_date),
                    end: plan.end_date ? formatPlanDate(plan.end_date) : '',
                  })}
                  {plan.method ? ` · ${s(`active.method.${plan.method}`)}` : ''}
                </p>
                {plan.end_date ? (
                  <RenewalLine
                    plan={{ ...plan, end_date: plan.end_date }}
                    paidFrom={stopPaid?.from}
                  />
                ) : null}
                {upcomingPlans(plan).map((next) => (
                  <p key={next.from} className="hint">
                    {s(
                      plan.method === 'paypal' && !next.paid ? 'active.nextPaypal' : 'active.next',
                      {
                        date: formatPlanDate(next.from),
                        blocks: fmt(shownBlocks(next.content.blockLimit ?? 0)),
                        emails: fmt(shownEmails(next.content.responseMonthlyLimit ?? 0)),
                        price: routePrice(next.price, plan.method, lang),
                      },
                    )}
                  </p>
                ))}
                {plan.auto_renew && plan.method ? (
                  <div className="plan-actions">
                    {opens('change', 'button')}
                    {opens('stop')}
                  </div>
                ) : null}
              </>
            ) : (
              <>
                <p className="plan-card-name">
                  <strong>{s('starter')}</strong>
                </p>
                <p>{s('starterLine', { blocks: STARTER.blocks, emails: STARTER.emails })}</p>
                <div className="plan-actions">
                  {holdsBuying(approved) ? (
                    <button type="button" className="button button-primary" disabled>
                      {s('upgrade')}
                    </button>
                  ) : (
                    <Link to={paths.purchase} className="button button-primary">
                      {s('upgrade')}
                    </Link>
                  )}
                </div>
              </>
            )}
            {coupons.map((c) => (
              <p key={c.id} className="plan-coupon">
                {s(c.end_date ? 'active.coupon' : 'active.couponNoEnd', {
                  name: c.content?.coupon ?? c.content?.planName ?? '',
                  blocks: fmt(rowBlocks(c)),
                  emails: fmt(rowEmails(c)),
                  date: c.end_date ? formatPlanDate(c.end_date) : '',
                })}
              </p>
            ))}
            {opens('coupon', 'button button-ghost plan-coupon-button')}
          </section>

          {usage ? (
            <section className="plan-card plan-usage" aria-labelledby="plan-usage-title">
              <h2 id="plan-usage-title">{s('usage.heading')}</h2>
              <UsageGauge count="blocks" used={usage.block_count} limit={usage.block_limit} />
              <UsageGauge
                count="emails"
                hint={s('usage.emailsHint')}
                used={usage.response_monthly_count}
                limit={usage.response_monthly_limit}
              />
            </section>
          ) : null}
        </div>
      ) : null}

      <HistoryTable history={history} />

      {plan ? (
        <ConfirmDialog
          open={dialog === 'stop'}
          title={s('stop.title')}
          cancelLabel={s('stop.cancel')}
          confirmLabel={s('stop.confirm')}
          onCancel={() => setDialog(null)}
          errorText={(cause) => s('failed', { reason: planChangeReason(t, cause) })}
          onConfirm={async () => {
            const answer = await cancelPayment(plan);
            setDialog(null);
            setNotice({
              text: s('notices.stopped', { date: formatPlanDate(answer.payment.end_date ?? '') }),
            });
            reload();
          }}
        >
          <p>
            {s(
              `stop.text${stopPaid ? 'Paid' : ''}${
                !stopCoupons ? '' : stopCoupons.until ? 'WithCoupon' : 'WithLastingCoupon'
              }`,
              {
                date: plan.end_date ? formatPlanDate(plan.end_date) : '',
                until: stopCoupons?.until ? formatPlanDate(stopCoupons.until) : '',
                paid: stopPaid ? formatPlanDate(stopPaid.from) : '',
                paidBlocks: fmt(paidLimits?.blocks ?? 0),
                paidEmails: fmt(paidLimits?.emails ?? 0),
                blocks: STARTER.blocks,
                emails: STARTER.emails,
              },
            )}
          </p>
          {/* a stop is final (U2): no resume, buy again once the plan has ended (docs/plans.md) */}
          <p>
            {s('stop.final', {
              date: plan.end_date ? formatPlanDate(plan.end_date) : '',
              after: plan.end_date ? formatPlanDate(dayAfter(plan.end_date)) : '',
            })}
          </p>
        </ConfirmDialog>
      ) : null}
      {plan && dialog === 'change' ? (
        <ChangeDialog
          row={plan}
          blocksInUse={usage?.block_count}
          coupons={coupons}
          onClose={() => setDialog(null)}
          onChanged={(row, link, tab) => {
            setDialog(null);
            setNotice(
              link
                ? tab
                  ? { text: s('notices.changeLink'), link }
                  : { text: s('notices.changeLinkBlocked'), link }
                : upcomingPlans(row).some((next) => !next.paid)
                  ? {
                      text: s('notices.changed', {
                        date: row.end_date ? formatPlanDate(dayAfter(row.end_date)) : '',
                      }),
                    }
                  : { text: s('notices.kept') },
            );
            reload();
          }}
        />
      ) : null}
      {dialog === 'coupon' ? (
        <CouponDialog
          onClose={() => setDialog(null)}
          onApplied={() => {
            setDialog(null);
            setNotice({ text: s('notices.coupon') });
            if (location.search) navigate(location.pathname, { replace: true });
            reload();
          }}
        />
      ) : null}
    </section>
  );
}

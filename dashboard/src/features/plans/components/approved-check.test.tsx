// A PayPal subscription approved, then the tab reloaded before its check answered (U13 of the
// outside tester's report): onApprove keeps it first, and the purchase and plan pages loaded again
// finish its check, saying so meanwhile and holding their buy buttons.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Route, Routes, useLocation } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeExports, fakeUser, renderWithProviders, signedInSession } from '../../../test/utils';
import { SessionContext, type SessionValue } from '../../../lib/session';
import * as plansApi from '../api/plans';
import * as providersApi from '../api/providers';
import { approvedOf, keepApproved, useApprovedCheck } from '../api/paypal-approved';
import { standInPaypal } from '../test/fixtures';
import { PlanPage } from './plan-page';
import { PurchasePage } from './purchase-page';

vi.mock(import('../api/plans'), async (original) =>
  fakeExports(original, [
    ...(await import('../test/fixtures')).PLAN_PAGE_READS,
    'checkPaypalPayment',
  ]),
);
const api = vi.mocked(plansApi);
vi.mock(import('../api/providers'), (original) =>
  fakeExports(original, ['loadPaypal', 'paymentsConfig']),
);
const providers = vi.mocked(providersApi);

const USER = 'user-1'; // signedInSession's
const SUB = 'I-APPROVED42';
const BASIC = { type: 'basic', blockLimit: 8, responseMonthlyLimit: 1000 } as const;

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

/** The payment page (PayPal's button a stand-in) and the plan page (unless left out), at `route`. */
function open(route: string, withPlanPage = true) {
  const page = standInPaypal(providers.loadPaypal);
  renderWithProviders(
    <>
      <Routes>
        <Route path="/purchase/payment" element={<PurchasePage />} />
        {withPlanPage ? <Route path="/profile/plan" element={<PlanPage />} /> : null}
      </Routes>
      <Where />
    </>,
    { route, session: signedInSession() },
  );
  return page;
}

/** A check that answers when `answer` is called. */
function heldCheck() {
  let answer!: () => void;
  let fail!: (cause: unknown) => void;
  api.checkPaypalPayment.mockReturnValue(
    new Promise((ok, ko) => {
      answer = () => ok({ status: true, payment: {} as never });
      fail = ko;
    }),
  );
  return { answer: () => act(answer), fail: (cause: unknown) => act(() => fail(cause)) };
}

/** What invokeFunction throws when the request got no answer (supabase-js's FunctionsFetchError). */
const NO_ANSWER = Object.assign(new Error('Failed to send a request to the Edge Function'), {
  name: 'FunctionsFetchError',
});

/** The failure said with the subscription still kept for another check. */
async function stillKept() {
  expect((await screen.findByRole('alert')).textContent).toMatch(
    / Your PayPal payment is still kept: do not pay again\. It is checked again when you reload this page\.$/,
  );
  expect(approvedOf(USER)?.subscriptionId).toBe(SUB);
}

const CHECKING =
  'Checking the PayPal payment you approved. Do not pay again: your plan appears here in a moment.';
/** The notice, as a screen reader is told it (the spinner's status) and as it is seen. */
const checkingSaid = (text = CHECKING) => screen.findByText(text, { selector: '[role=status] *' });

beforeEach(() => {
  sessionStorage.clear();
  api.checkPaypalPayment.mockReset();
  providers.paymentsConfig.mockReturnValue({ paypal: { clientId: 'c', planId: 'P-1' } });
  api.listActivePlans.mockResolvedValue([]);
  api.listPlanHistory.mockResolvedValue([]);
  api.listFailedRefunds.mockResolvedValue([]);
  api.loadUsage.mockResolvedValue({
    block_count: 1,
    block_limit: 3,
    response_monthly_count: 0,
    response_monthly_limit: 100,
  });
});

describe('a PayPal subscription approved before a reload', () => {
  it('is kept before its check is called, and the payment page loaded again finishes it', async () => {
    // before: a reload here lost the subscription; no page said it was billed
    const page = open('/purchase/payment?focus=basic', false);
    await waitFor(() => expect(page.buttons).toBeDefined());
    // the check's answer never reaches this tab (the reload, or the network)
    let keptAtCall: ReturnType<typeof approvedOf> = null;
    api.checkPaypalPayment.mockImplementation(async () => {
      keptAtCall = approvedOf(USER);
      throw Object.assign(new TypeError('Failed to fetch'), { status: undefined });
    });
    await act(() => page.buttons!.onApprove!({ subscriptionID: SUB } as never, {} as never));
    expect(keptAtCall).toMatchObject({ userId: USER, subscriptionId: SUB, plan: BASIC });
    expect(approvedOf(USER)?.subscriptionId).toBe(SUB);

    cleanup();
    const check = heldCheck();
    open('/purchase/payment?focus=basic');
    await checkingSaid();
    // no way to pay again while it is checked
    expect(screen.queryByRole('button', { name: 'Pay by card' })).toBeNull();
    expect(api.checkPaypalPayment).toHaveBeenLastCalledWith(BASIC, SUB);
    await check.answer();
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/profile/plan?purchased=1'),
    );
    expect(approvedOf(USER)).toBeNull();
  });

  it('says it in a status region that was on the page before its text (rev-break2 A5)', async () => {
    // a live region inserted with its text already in is often not read by a screen reader
    keepApproved(USER, SUB, BASIC);
    const check = heldCheck();
    const changes: MutationRecord[] = [];
    const watch = new MutationObserver((records) => changes.push(...records));
    watch.observe(document.body, { childList: true, subtree: true, characterData: true });
    open('/profile/plan');
    const region = (await checkingSaid()).closest('[role=status]')!;
    changes.push(...watch.takeRecords());
    watch.disconnect();
    // the region came in empty, and the text went into it afterwards
    const added = changes.findIndex((r) => [...r.addedNodes].some((n) => n.contains(region)));
    expect(added).toBeGreaterThanOrEqual(0);
    expect(
      changes.slice(added + 1).some((r) => r.target === region && r.addedNodes.length > 0),
    ).toBe(true);
    await check.answer();
  });

  it('the plan page finishes it too, its Upgrade held meanwhile (en, ko)', async () => {
    for (const language of ['en', 'ko'] as const) {
      cleanup();
      await i18next.changeLanguage(language);
      keepApproved(USER, SUB, BASIC);
      const check = heldCheck();
      open('/profile/plan');
      await checkingSaid(
        language === 'en'
          ? CHECKING
          : '승인하신 PayPal 결제를 확인하고 있습니다. 다시 결제하지 마세요. 잠시 후 이곳에 플랜이 표시됩니다.',
      );
      const upgrade = await screen.findByRole('button', {
        name: language === 'en' ? 'Upgrade' : '업그레이드',
      });
      expect((upgrade as HTMLButtonElement).disabled).toBe(true);
      await check.answer();
      expect(
        await screen.findByText(
          language === 'en'
            ? 'Your plan is active. Thank you!'
            : '플랜이 시작되었습니다. 감사합니다!',
        ),
      ).toBeTruthy();
      expect(approvedOf(USER)).toBeNull();
    }
    await i18next.changeLanguage('en');
  });

  it('a check refused for good is said and forgotten; one with no answer is kept for the next load', async () => {
    keepApproved(USER, SUB, BASIC);
    let check = heldCheck();
    open('/profile/plan');
    await checkingSaid();
    await check.fail(
      Object.assign(new Error('Failed to payment: The subscription is cancelled'), {
        status: 409,
        code: 'checkout_failed',
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The payment did not go through: we could not confirm this payment for your order (it was cancelled, not found, or the checkout had already ended). No plan was added; start again.',
    );
    expect(approvedOf(USER)).toBeNull();
    expect(screen.getByRole('link', { name: 'Upgrade' })).toBeTruthy();

    cleanup();
    keepApproved(USER, SUB, BASIC);
    check = heldCheck();
    open('/profile/plan');
    await checkingSaid();
    await check.fail(NO_ANSWER);
    await stillKept();
    // still kept and billed: no way to pay again, a way to check again (rev-break2 A2)
    expect((screen.getByRole('button', { name: 'Upgrade' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    const again = heldCheck();
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await checkingSaid();
    await again.answer();
    expect(await screen.findByText('Your plan is active. Thank you!')).toBeTruthy();
  });

  it('a check answered 429 keeps the subscription for another check, whatever the wait', async () => {
    // before: any 4xx forgot it, a rate limit too, and the owner was free to pay again
    for (const retryAfter of [2, 120]) {
      cleanup();
      keepApproved(USER, SUB, BASIC);
      const check = heldCheck();
      open('/profile/plan');
      await checkingSaid();
      await check.fail(Object.assign(new Error('Too many requests'), { status: 429, retryAfter }));
      await stillKept();
      expect(screen.getByRole('button', { name: 'Check again' })).toBeTruthy();
    }
  });

  it("is the signed-in owner's: another owner signing in on the page is not told of it, and its owner back is (rev-break2 A1)", async () => {
    keepApproved(USER, SUB, BASIC);
    heldCheck();
    function Probe() {
      return <p data-testid="state">{useApprovedCheck(() => {}).state}</p>;
    }
    const as = (session: SessionValue) => (
      <SessionContext.Provider value={session}>
        <Probe />
      </SessionContext.Provider>
    );
    const { rerender } = render(as(signedInSession()));
    const state = () => screen.getByTestId('state').textContent;
    expect(state()).toBe('checking');
    rerender(as(signedInSession({ user: fakeUser({ id: 'user-2' }) })));
    expect(state()).toBe('none');
    rerender(as(signedInSession()));
    expect(state()).toBe('checking');
  });

  it("another owner's kept subscription, or one past the orphan job's time, is not checked", async () => {
    keepApproved('someone-else', SUB, BASIC);
    open('/profile/plan');
    expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
    cleanup();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      keepApproved(USER, SUB, BASIC);
      vi.setSystemTime(Date.now() + 91 * 60_000);
      open('/profile/plan');
      expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
    // one dated in the future (a forged value) is not kept for good (rev-break2 A4)
    cleanup();
    keepApproved(USER, SUB, BASIC);
    sessionStorage.setItem(
      'reactionPaypalApproved',
      JSON.stringify({
        ...JSON.parse(sessionStorage.getItem('reactionPaypalApproved')!),
        at: Date.now() + 3_600_000,
      }),
    );
    open('/profile/plan');
    expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
    expect(api.checkPaypalPayment).not.toHaveBeenCalled();
  });
});

import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { Route, Routes, useLocation } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  alertsAfterClicks,
  fakeExports,
  renderWithProviders,
  signedInSession,
} from '../../../test/utils';
import * as plansApi from '../api/plans';
import * as providersApi from '../api/providers';
import type { PlanRow } from '../model/plans';
import { PurchasePage } from './purchase-page';
import { standInPaypal } from '../test/fixtures';

vi.mock(import('../api/plans'), (original) =>
  fakeExports(original, ['listActivePlans', 'checkIamportPayment', 'checkPaypalPayment']),
);
const api = vi.mocked(plansApi);
vi.mock(import('../api/providers'), (original) =>
  fakeExports(original, ['requestBillingKey', 'loadPaypal', 'paymentsConfig']),
);
const providers = vi.mocked(providersApi);

const location = () => screen.getByTestId('location').textContent;
/** A refusal of the payment provider as invokeFunction throws it (supabase/functions plan-flows). */
const refused = () =>
  Object.assign(new Error('Failed to payment: Declined: local test card 4000 0000 0000 0002'), {
    status: 402,
    code: 'payment_failed',
  });
function NoticeProbe() {
  const { state, search } = useLocation() as { state: { notice?: string } | null; search: string };
  return (
    <>
      <p data-testid="notice">{state?.notice}</p>
      <p data-testid="search">{search}</p>
    </>
  );
}
const render = (route: string) =>
  renderWithProviders(<PurchasePage />, { route, session: signedInSession() });

beforeEach(() => {
  api.listActivePlans.mockResolvedValue([]);
  providers.paymentsConfig.mockReturnValue({
    portone: { storeId: 's', cardChannelKey: 'card', walletChannelKey: 'wallet' },
  });
});

describe('select plan', () => {
  it('preselects Basic from focus and shows its fixed counts and price', async () => {
    render('/purchase?focus=basic');
    expect(await screen.findByRole('heading', { level: 1, name: 'Select plan' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: /Basic/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Extra blocks')).toBeNull();
    expect(screen.getByTestId('purchase-price').textContent).toBe('$3 a month');
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(
      '/purchase/payment?focus=basic',
    );
  });

  it('rounds Custom counts, recomputes the price, and refuses under $3', async () => {
    render('/purchase?focus=custom');
    const blocks = (await screen.findByLabelText('Extra blocks')) as HTMLInputElement;
    fireEvent.change(blocks, { target: { value: '21' } });
    fireEvent.blur(blocks);
    await waitFor(() => expect(location()).toBe('/purchase?focus=custom&blocks=24&emails=1000'));
    expect(screen.getByTestId('purchase-price').textContent).toBe('$7 a month');
    // past the maximum it is cut to it, and the hint has said the maximum (walk F8)
    fireEvent.change(blocks, { target: { value: '99999' } });
    fireEvent.blur(blocks);
    await waitFor(() => expect(location()).toBe('/purchase?focus=custom&blocks=400&emails=1000'));
    expect(
      screen.getByText(
        'In steps of 4, at most 400, on top of the 3 of Starter: 403 blocks in all.',
      ),
    ).toBeTruthy();
    fireEvent.change(blocks, { target: { value: '24' } });
    fireEvent.blur(blocks);
    await waitFor(() => expect(location()).toBe('/purchase?focus=custom&blocks=24&emails=1000'));
    const emails = screen.getByLabelText('Extra emails and answers a month') as HTMLInputElement;
    fireEvent.change(emails, { target: { value: '-5' } });
    fireEvent.blur(emails);
    expect(emails.value).toBe('1000');
    fireEvent.change(blocks, { target: { value: '0' } });
    fireEvent.change(emails, { target: { value: '2000' } });
    await waitFor(() =>
      expect(screen.getByTestId('purchase-price').textContent).toBe('$2 a month'),
    );
    expect(screen.getByRole('alert').textContent).toBe('Minimum price for subscription is $3');
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('says under the field why a typed count changed: down when shrinking, up when growing (walk F8)', async () => {
    render('/purchase?focus=custom&blocks=400');
    const blocks = (await screen.findByLabelText('Extra blocks')) as HTMLInputElement;
    const note = () =>
      document.getElementById(blocks.getAttribute('aria-describedby')!.split(' ')[1]!)!;
    // a polite status, in the field's description, empty until a number is changed
    expect(note().getAttribute('role')).toBe('status');
    expect(note().textContent).toBe('');
    // what is typed, how the field is left, the count the basket keeps, and the note
    const steps: Array<[string, 'Enter' | 'blur' | 'typed', number, string]> = [
      [
        '13',
        'Enter',
        12,
        '13 is between steps of 4 and less than 400, so it became 12, the step below.',
      ],
      [
        '13',
        'blur',
        16,
        '13 is between steps of 4 and more than 12, so it became 16, the step above.',
      ],
      ['99999', 'blur', 400, '99,999 is more than the most you can add, 400, so it became 400.'],
      ['-5', 'blur', 400, '-5 is below 0: enter 0 or more. It stays 400.'],
      ['', 'blur', 400, 'Enter a number, 0 or more. It stays 400.'],
      // a fraction is said with every digit typed (break8 F4: "12 ... so it became 12")
      [
        '12.0004',
        'blur',
        12,
        '12.0004 is between steps of 4 and less than 400, so it became 12, the step below.',
      ],
      // a count taken as typed clears the note
      ['24', 'typed', 24, ''],
    ];
    for (const [value, left, kept, said] of steps) {
      fireEvent.change(blocks, { target: { value } });
      if (left === 'Enter') fireEvent.keyDown(blocks, { key: 'Enter' });
      if (left === 'blur') fireEvent.blur(blocks);
      await waitFor(() =>
        expect(location()).toBe(`/purchase?focus=custom&blocks=${kept}&emails=1000`),
      );
      expect(blocks.value, value).toBe(String(kept));
      expect(note().textContent).toBe(said);
      expect(document.activeElement).not.toBe(note());
    }
    const emails = screen.getByLabelText('Extra emails and answers a month') as HTMLInputElement;
    fireEvent.change(emails, { target: { value: '1001' } });
    fireEvent.blur(emails);
    await waitFor(() => expect(location()).toBe('/purchase?focus=custom&blocks=24&emails=2000'));
    await act(() => i18next.changeLanguage('ko'));
    expect(
      screen.getByText(
        '1,001건은 1,000건 단위가 아니고 1,000건보다 많아서 위 단위인 2,000건으로 올렸습니다.',
      ),
    ).toBeTruthy();
  });

  it('sends an owner with an active plan to the plan page', async () => {
    api.listActivePlans.mockResolvedValue([{ id: 'p', type: 'basic', is_active: true } as PlanRow]);
    render('/purchase');
    await waitFor(() => expect(location()).toBe('/profile/plan'));
  });

  it('shows won in Korean', async () => {
    await i18next.changeLanguage('ko');
    render('/purchase?focus=basic');
    expect((await screen.findByTestId('purchase-price')).textContent).toBe('월 3,000원');
  });
});

describe('payment', () => {
  it('goes back to Select plan when the price is under $3', async () => {
    render('/purchase/payment?focus=custom&blocks=0&emails=1000');
    await waitFor(() => expect(location()).toBe('/purchase?focus=custom&blocks=0&emails=1000'));
  });

  it('pays by Korean card: a billing key from PortOne, then the server, then the plan page', async () => {
    providers.requestBillingKey.mockResolvedValue({ ok: true, billingKey: 'billing-key-1' });
    api.checkIamportPayment.mockResolvedValue({ status: true, payment: { id: 'p' } as PlanRow });
    render('/purchase/payment?focus=custom&blocks=12&emails=2000');
    expect((await screen.findByTestId('payment-price')).textContent).toBe(
      '₩5,000 a month by Korean card or wallet, $5 a month with PayPal',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Pay by card' }));
    await waitFor(() => expect(location()).toBe('/profile/plan?purchased=1'));
    expect(providers.requestBillingKey.mock.calls[0]![0]).toMatchObject({
      route: 'card',
      customer: { id: 'user-1' },
    });
    expect(api.checkIamportPayment).toHaveBeenCalledWith(
      { type: 'custom', blockLimit: 12, responseMonthlyLimit: 2000 },
      'billing-key-1',
      'card',
    );
  });

  it('stays with a note when the checkout was closed, and says why a payment failed', async () => {
    providers.requestBillingKey.mockResolvedValueOnce({ ok: false, reason: 'cancelled' });
    render('/purchase/payment?focus=basic');
    fireEvent.click(await screen.findByRole('button', { name: 'Pay with the wallet' }));
    expect(
      await screen.findByText('The payment window was closed. Nothing was charged.'),
    ).toBeTruthy();
    providers.requestBillingKey.mockResolvedValueOnce({ ok: true, billingKey: 'k' });
    // an answer without one of our codes: a translated sentence, not the server's words
    api.checkIamportPayment.mockRejectedValueOnce(new Error('Failed to payment: no answer'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay with the wallet' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The payment did not go through: Something went wrong on our side. Try again in a moment.',
    );
    expect(location()).toBe('/purchase/payment?focus=basic');
  });

  it('a refused wallet payment speaks of the wallet, not of a card', async () => {
    providers.requestBillingKey.mockResolvedValueOnce({ ok: false, reason: 'refused' });
    render('/purchase/payment?focus=basic');
    fireEvent.click(await screen.findByRole('button', { name: 'Pay with the wallet' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The payment did not go through. Try another way to pay, or ask the payment service why it was declined.',
    );
    providers.requestBillingKey.mockResolvedValueOnce({ ok: true, billingKey: 'k' });
    api.checkIamportPayment.mockRejectedValueOnce(refused());
    fireEvent.click(screen.getByRole('button', { name: 'Pay with the wallet' }));
    await waitFor(() => expect(api.checkIamportPayment).toHaveBeenCalled());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'The payment did not go through. Try another way to pay, or ask the payment service why it was declined.',
      ),
    );
  });

  it("says what to do when the card is declined, without the provider's words, in Korean too", async () => {
    providers.requestBillingKey.mockResolvedValue({ ok: true, billingKey: 'k' });
    api.checkIamportPayment.mockRejectedValue(refused());
    render('/purchase/payment?focus=basic');
    fireEvent.click(await screen.findByRole('button', { name: 'Pay by card' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The payment did not go through. Try another card, or ask your card issuer why it was declined.',
    );
    await alertsAfterClicks([
      [
        'ko',
        '카드로 결제',
        '결제가 완료되지 않았습니다. 다른 카드로 다시 시도하거나 카드사에 거절 사유를 문의해 주세요.',
      ],
    ]);
    // the same when PortOne's own checkout refuses the card
    providers.requestBillingKey.mockResolvedValue({
      ok: false,
      reason: 'refused',
      message: '[KCP] 카드 한도 초과 (Card limit exceeded)',
    });
    fireEvent.click(screen.getByRole('button', { name: '카드로 결제' }));
    await waitFor(() => expect(providers.requestBillingKey).toHaveBeenCalledTimes(3));
    expect(screen.getByRole('alert').textContent).toBe(
      '결제가 완료되지 않았습니다. 다른 카드로 다시 시도하거나 카드사에 거절 사유를 문의해 주세요.',
    );
  });

  it("says why a checkout could not start without the provider's words (PortOne, PayPal; en, ko)", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // PortOne's SDK that did not load, then its answer to our request (a developer's words)
    providers.requestBillingKey
      .mockResolvedValueOnce({
        ok: false,
        reason: 'failed',
        message:
          'Failed to fetch dynamically imported module: https://cdn.portone.io/v2/browser-sdk.js',
      })
      .mockResolvedValueOnce({ ok: false, reason: 'failed', message: 'No such channel' });
    render('/purchase/payment?focus=basic');
    await screen.findByRole('button', { name: 'Pay by card' });
    await alertsAfterClicks([
      [
        'en',
        'Pay by card',
        'The payment did not go through: the payment service could not be reached (the connection, or a blocker in the browser). Check the connection and reload the page; nothing was charged.',
      ],
      [
        'ko',
        '카드로 결제',
        '결제가 완료되지 않았습니다: 결제 서비스에서 오류가 발생했습니다. 결제된 금액은 없으니 페이지를 새로 고쳐 다시 시도하거나 다른 결제 수단을 이용해 주세요.',
      ],
    ]);
    // PayPal's script refused (paypal-js's own words name the URL)
    cleanup();
    providers.paymentsConfig.mockReturnValue({ paypal: { clientId: 'c', planId: 'P-1' } });
    providers.loadPaypal.mockRejectedValue(
      new Error(
        'The script "https://www.paypal.com/sdk/js?client-id=c" failed to load. Check the HTTP status code and response body in DevTools to learn more.',
      ),
    );
    render('/purchase/payment?focus=basic');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'PayPal을 불러오지 못했습니다: 결제 서비스에 연결하지 못했습니다(인터넷 연결 문제이거나 브라우저의 차단 기능 때문입니다). 연결을 확인하고 페이지를 새로 고쳐 주세요. 결제된 금액은 없습니다.',
    );
  });

  /** The payment page with a stand-in PayPal button, and the plan page as a probe of the notice. */
  function paypalPage() {
    providers.paymentsConfig.mockReturnValue({ paypal: { clientId: 'c', planId: 'P-1' } });
    const page = standInPaypal(providers.loadPaypal);
    const open = async () => {
      cleanup();
      page.buttons = undefined;
      renderWithProviders(
        <Routes>
          <Route path="/purchase/payment" element={<PurchasePage />} />
          <Route path="/profile/plan" element={<NoticeProbe />} />
        </Routes>,
        { route: '/purchase/payment?focus=basic', session: signedInSession() },
      );
      await waitFor(() => expect(page.buttons).toBeDefined());
      return page.buttons!;
    };
    return open;
  }

  it("a failed PayPal payment returns to the plan page saying what to do, not PayPal's words", async () => {
    const renderPayment = paypalPage();
    api.checkPaypalPayment.mockRejectedValue(refused());
    let buttons = await renderPayment();
    const text =
      'The PayPal payment did not go through. Try another way to pay in PayPal, or ask PayPal why it was declined.';
    await act(() => buttons.onApprove!({ subscriptionID: 'I-1' } as never, {} as never));
    expect((await screen.findByTestId('notice')).textContent).toBe(text);

    buttons = await renderPayment();
    act(() => buttons.onError!({ message: 'INSTRUMENT_DECLINED: debug_id 12ab' }));
    expect((await screen.findByTestId('notice')).textContent).toBe(text);
  });

  it("PayPal's other errors say what happened, not that the payment was declined (en, ko)", async () => {
    const renderPayment = paypalPage();
    // PayPal's catch-all onError: a popup closed while loading, a wrong plan id, a failed call
    const cases: Array<[string, string, string]> = [
      [
        'Detected popup close',
        'The payment did not go through: the PayPal window closed before the payment was finished. Nothing was charged; try again.',
        '결제가 완료되지 않았습니다: 결제가 끝나기 전에 PayPal 창이 닫혔습니다. 결제된 금액은 없으니 다시 시도해 주세요.',
      ],
      [
        'RESOURCE_NOT_FOUND',
        'The payment did not go through: PayPal refused our subscription plan, a fault on our side. Nothing was charged; try again later, or pay another way.',
        '결제가 완료되지 않았습니다: PayPal이 구독 플랜을 받아들이지 않았습니다(저희 쪽 문제입니다). 결제된 금액은 없으니 나중에 다시 시도하거나 다른 결제 수단을 이용해 주세요.',
      ],
      [
        'Failed to fetch',
        'The payment did not go through: PayPal could not be reached. Check your connection and try again; nothing was charged.',
        '결제가 완료되지 않았습니다: PayPal에 연결하지 못했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요. 결제된 금액은 없습니다.',
      ],
      // the SDK's own call with no answer (status 0)
      [
        'Request to post https://www.sandbox.paypal.com/smart/api/vault/create failed with 0 error. Correlation id: 5a1b',
        'The payment did not go through: PayPal could not be reached. Check your connection and try again; nothing was charged.',
        '결제가 완료되지 않았습니다: PayPal에 연결하지 못했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요. 결제된 금액은 없습니다.',
      ],
      [
        'The PayPal window was blocked',
        'The payment did not go through: your browser blocked the PayPal window. Allow pop-ups for this site and try again.',
        '결제가 완료되지 않았습니다: 브라우저가 PayPal 창을 막았습니다. 이 사이트의 팝업을 허용한 뒤 다시 시도해 주세요.',
      ],
      [
        'zoid destroyed all components',
        'The payment did not go through: PayPal stopped with an error. Nothing was charged; try again, or pay another way.',
        '결제가 완료되지 않았습니다: PayPal에서 오류가 발생했습니다. 결제된 금액은 없으니 다시 시도하거나 다른 결제 수단을 이용해 주세요.',
      ],
    ];
    for (const [language, column] of [
      ['en', 1],
      ['ko', 2],
    ] as const) {
      await i18next.changeLanguage(language);
      for (const row of cases) {
        const buttons = await renderPayment();
        act(() => buttons.onError!(new Error(row[0]) as never));
        expect((await screen.findByTestId('notice')).textContent).toBe(row[column]);
      }
    }
  });

  it('a popup closed while loading leaves once, though PayPal calls both onCancel and onError', async () => {
    const renderPayment = paypalPage();
    const navigations = () => screen.getByTestId('search').textContent;
    // paypal-js#613: both are called, in either order; the first one decides
    let buttons = await renderPayment();
    act(() => buttons.onCancel!({} as never, {} as never));
    act(() => buttons.onError!(new Error('Detected popup close') as never));
    expect(await screen.findByTestId('search')).toBeTruthy();
    expect(navigations()).toBe('?paypal=cancelled');
    expect(screen.getByTestId('notice').textContent).toBe('');

    buttons = await renderPayment();
    act(() => buttons.onError!(new Error('Detected popup close') as never));
    act(() => buttons.onCancel!({} as never, {} as never));
    expect((await screen.findByTestId('notice')).textContent).toBe(
      'The payment did not go through: the PayPal window closed before the payment was finished. Nothing was charged; try again.',
    );
    expect(navigations()).toBe('');
  });

  it('a checkout our own reading ended is not told as a decline (en, ko)', async () => {
    const renderPayment = paypalPage();
    // the server's checkout_failed (plan-answers checkoutAnswer): here a cancelled subscription
    api.checkPaypalPayment.mockRejectedValue(
      Object.assign(new Error('Failed to payment: The subscription is cancelled'), {
        status: 409,
        code: 'checkout_failed',
      }),
    );
    let buttons = await renderPayment();
    await act(() => buttons.onApprove!({ subscriptionID: 'I-1' } as never, {} as never));
    expect((await screen.findByTestId('notice')).textContent).toBe(
      'The payment did not go through: we could not confirm this payment for your order (it was cancelled, not found, or the checkout had already ended). No plan was added; start again.',
    );
    await i18next.changeLanguage('ko');
    buttons = await renderPayment();
    await act(() => buttons.onApprove!({ subscriptionID: 'I-1' } as never, {} as never));
    expect((await screen.findByTestId('notice')).textContent).toBe(
      '결제가 완료되지 않았습니다: 주문의 결제를 확인하지 못했습니다(결제가 취소되었거나, 찾을 수 없거나, 이미 끝난 결제입니다). 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
    );
  });

  /** Each failure of the card payment's check, as the page says it in en and in ko. */
  async function expectCardFailures(cases: ReadonlyArray<readonly [Error, string, string]>) {
    providers.requestBillingKey.mockResolvedValue({ ok: true, billingKey: 'k' });
    for (const [language, column, pay, failed] of [
      ['en', 1, 'Pay by card', 'The payment did not go through: '],
      ['ko', 2, '카드로 결제', '결제가 완료되지 않았습니다: '],
    ] as const) {
      cleanup();
      await i18next.changeLanguage(language);
      render('/purchase/payment?focus=basic');
      for (const row of cases) {
        api.checkIamportPayment.mockRejectedValueOnce(row[0]);
        fireEvent.click(await screen.findByRole('button', { name: pay }));
        await waitFor(() =>
          expect(screen.getByRole('alert').textContent).toBe(failed + row[column]),
        );
      }
    }
  }

  it("says the payment functions' other failures in the reader's language, never their English (en, ko)", async () => {
    const failure = (code: string, message: string) =>
      Object.assign(new Error(message), { status: 409, code });
    const cases: Array<[Error, string, string]> = [
      [
        failure('refunded', 'The payment does not match the order. The payment was given back.'),
        'the payment was taken but your plan could not be recorded, so it was given back. No plan was added; start again.',
        '결제는 되었지만 플랜을 기록하지 못해 결제를 취소(환불)했습니다. 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      ],
      // a second purchase refused: read by its code (contracts' SECOND_PURCHASE_CODES), whatever
      // the server's English says
      [
        failure('second_plan_refused', 'The server may word this any way.'),
        'you already have an active plan, so this PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days).',
        '이미 이용 중인 플랜이 있어 이 PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다).',
      ],
      [
        failure('second_checkout_refused', 'The server may word this any way.'),
        'another payment of yours is being completed, so this PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days). Your plan appears on the Plan page once the other payment is done.',
        '다른 결제가 처리되는 중이라 이 PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다). 다른 결제가 끝나면 플랜 페이지에 플랜이 표시됩니다.',
      ],
      // the same, the payment given back at once (SECOND_PURCHASE_REFUNDED_CODES)
      [
        failure('second_plan_refunded', 'The server may word this any way.'),
        'you already have an active plan, so this PayPal subscription was cancelled and its payment was given back.',
        '이미 이용 중인 플랜이 있어 이 PayPal 구독을 취소했으며, 결제 금액은 환불되었습니다.',
      ],
      [
        failure('second_checkout_refunded', 'The server may word this any way.'),
        'another payment of yours is being completed, so this PayPal subscription was cancelled and its payment was given back. Your plan appears on the Plan page once the other payment is done.',
        '다른 결제가 처리되는 중이라 이 PayPal 구독을 취소했으며, 결제 금액은 환불되었습니다. 다른 결제가 끝나면 플랜 페이지에 플랜이 표시됩니다.',
      ],
      // PayPal refused the refund at once: said now, not "will be given back"
      [
        failure('refund_failed', 'The server may word this any way.'),
        'no plan was added and the PayPal subscription was cancelled, but PayPal refused to give its payment back, so it could not be given back automatically. We have been told; the Plan page says whom to write to.',
        '플랜은 추가되지 않았고 PayPal 구독은 취소했지만, PayPal이 환불을 거절해 결제 금액을 자동으로 돌려드리지 못했습니다. 담당자에게 알렸으며, 문의할 곳은 플랜 페이지에 안내되어 있습니다.',
      ],
      // checked after plan.paypal-orphan's hour (the tab came back late): given back, buy again
      [
        failure('approval_expired_refunded', 'The server may word this any way.'),
        'the purchase was not completed within an hour of your approval (the page was closed or the connection was lost), so the PayPal subscription was cancelled and its payment was given back. No plan was added; buy again.',
        '승인 후 한 시간 안에 구매가 완료되지 않아(페이지가 닫혔거나 연결이 끊겼습니다) PayPal 구독을 취소하고 결제 금액을 환불했습니다. 플랜은 추가되지 않았으니 다시 구매해 주세요.',
      ],
      [
        failure('approval_expired', 'The server may word this any way.'),
        'the purchase was not completed within an hour of your approval (the page was closed or the connection was lost), so the PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days). No plan was added; buy again.',
        '승인 후 한 시간 안에 구매가 완료되지 않아(페이지가 닫혔거나 연결이 끊겼습니다) PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다). 플랜은 추가되지 않았으니 다시 구매해 주세요.',
      ],
      [
        failure('refund_pending', 'The subscription is cancelled. The payment will be given back.'),
        'your plan could not be recorded, so the PayPal subscription was cancelled and its payment will be given back (PayPal may take a few days). No plan was added; start again.',
        '플랜을 기록하지 못해 PayPal 구독을 취소했으며, 결제 금액은 환불될 예정입니다(PayPal 처리에 며칠 걸릴 수 있습니다). 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      ],
      [
        failure('provider_unavailable', 'The payment service did not answer.'),
        'the payment service did not answer. Nothing changed on your plan; try again in a moment.',
        '결제 서비스가 응답하지 않았습니다. 플랜에는 바뀐 것이 없으니 잠시 후 다시 시도해 주세요.',
      ],
      [
        failure('payment_pending', 'The payment is not complete yet.'),
        'the payment is not complete yet. Your plan appears on the Plan page as soon as it is; do not pay again.',
        '결제가 아직 끝나지 않았습니다. 결제가 끝나는 대로 플랜 페이지에 표시되니 다시 결제하지 마세요.',
      ],
      [
        failure('plan_mismatch', 'Failed to payment: The subscription is not on our plan'),
        'the PayPal subscription does not match the plan you chose, so it was cancelled and any payment made for it will be given back. No plan was added; start again.',
        'PayPal 구독이 선택한 플랜과 맞지 않아 구독을 취소했으며, 결제된 금액이 있으면 환불됩니다. 플랜은 추가되지 않았으니 처음부터 다시 시도해 주세요.',
      ],
      [
        failure('subscription_in_use', 'This subscription already pays for your plan.'),
        'this PayPal subscription already pays for your plan, or its payment is still being completed. Nothing changed.',
        '이 PayPal 구독은 이미 이용 중인 플랜의 결제이거나, 아직 결제가 처리되는 중입니다. 바뀐 것은 없습니다.',
      ],
      [
        failure(
          'checkout_cancelled',
          'The subscription was cancelled before its first payment. No plan was added and nothing was charged.',
        ),
        'the PayPal subscription was cancelled before its first payment went through, so no plan was added and nothing was charged. If PayPal still takes that payment, it is given back.',
        '첫 결제가 끝나기 전에 PayPal 구독이 취소되어 플랜은 추가되지 않았고, 결제된 금액도 없습니다. 그래도 PayPal이 그 결제를 가져가면 환불해 드립니다.',
      ],
      [
        failure('invalid_billing_key', 'Invalid billing key'),
        'the card or wallet you registered cannot be used (not found, deleted, or not the way to pay you chose). Nothing was charged; register it again.',
        '등록한 카드나 간편결제 수단을 사용할 수 없습니다(찾을 수 없거나, 삭제되었거나, 선택한 결제 방식과 다릅니다). 결제된 금액은 없으니 다시 등록해 주세요.',
      ],
      [
        failure('forbidden', 'This subscription belongs to another account'),
        'this payment is not for this account, or this account cannot buy a plan. Sign in with your Google or Apple account and start again.',
        '이 계정의 결제가 아니거나, 이 계정으로는 플랜을 구매할 수 없습니다. Google 또는 Apple 계정으로 로그인한 뒤 처음부터 다시 시도해 주세요.',
      ],
      // one of the shared plan messages: its own text
      [
        failure('conflict', 'You already have an active plan'),
        'You already have an active plan',
        '이미 이용 중인 플랜이 있습니다',
      ],
      // a code we do not know: a translated sentence, not the server's words
      [
        failure('internal_error', 'Something went wrong'),
        'Something went wrong on our side. Try again in a moment.',
        '서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ],
    ];
    await expectCardFailures(cases);
  });

  it('says how long to wait when a payment call answers 503 with Retry-After, whatever its code (en, ko)', async () => {
    await expectCardFailures([
      // a 503 asking to wait, with a code we do not know, and the shared unavailable one: the wait
      [
        Object.assign(new Error('The payment service is restarting'), {
          status: 503,
          code: 'provider_restarting',
          retryAfter: 120,
        }),
        'The service is briefly unavailable. Try again in 2 minutes.',
        '서비스가 잠시 응답하지 않습니다. 2분 후 다시 시도해 주세요.',
      ],
      [
        Object.assign(new Error('The service is briefly unavailable'), {
          status: 503,
          code: 'unavailable',
          retryAfter: 2,
        }),
        'The service is briefly unavailable. Try again in 2 seconds.',
        '서비스가 잠시 응답하지 않습니다. 2초 후 다시 시도해 주세요.',
      ],
    ]);
  });

  it('in Korean shows the terms note', async () => {
    await i18next.changeLanguage('ko');
    render('/purchase/payment?focus=basic');
    expect(await screen.findByText(/결제하면 이용약관과 개인정보 처리방침에 동의/)).toBeTruthy();
  });
});

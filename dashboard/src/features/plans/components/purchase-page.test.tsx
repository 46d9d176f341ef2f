import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeExports, renderWithProviders, signedInSession } from '../../../test/utils';
import * as plansApi from '../api/plans';
import * as providersApi from '../api/providers';
import type { PlanRow } from '../model/plans';
import { PurchasePage } from './purchase-page';

vi.mock(import('../api/plans'), (original) =>
  fakeExports(original, ['listActivePlans', 'checkIamportPayment', 'checkPaypalPayment']),
);
const api = vi.mocked(plansApi);
vi.mock(import('../api/providers'), (original) =>
  fakeExports(original, ['requestBillingKey', 'loadPaypal', 'paymentsConfig']),
);
const providers = vi.mocked(providersApi);

const location = () => screen.getByTestId('location').textContent;
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
    const emails = screen.getByLabelText('Extra emails a month') as HTMLInputElement;
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
  it('goes back to Select Plan when the price is under $3', async () => {
    render('/purchase/payment?focus=custom&blocks=0&emails=1000');
    await waitFor(() => expect(location()).toBe('/purchase?focus=custom&blocks=0&emails=1000'));
  });

  it('pays by Korean card: a billing key from PortOne, then the server, then the plan page', async () => {
    providers.requestBillingKey.mockResolvedValue({ ok: true, billingKey: 'billing-key-1' });
    api.checkIamportPayment.mockResolvedValue({ status: true, payment: { id: 'p' } as PlanRow });
    render('/purchase/payment?focus=custom&blocks=12&emails=2000');
    expect((await screen.findByTestId('payment-price')).textContent).toBe(
      '5,000원 a month by Korean card or wallet, $5 a month with PayPal',
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
    api.checkIamportPayment.mockRejectedValueOnce(new Error('Failed to payment: Declined'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay with the wallet' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The payment did not go through: Failed to payment: Declined',
    );
    expect(location()).toBe('/purchase/payment?focus=basic');
  });

  it('in Korean shows the terms note', async () => {
    await i18next.changeLanguage('ko');
    render('/purchase/payment?focus=basic');
    expect(await screen.findByText(/결제하면 이용약관과 개인정보 처리방침에 동의/)).toBeTruthy();
  });
});

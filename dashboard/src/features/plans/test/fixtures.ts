// A plan row as listActivePlans and listPlanHistory read it, for the plans tests: a Custom plan
// paid with PayPal, running from 2026-11-23, renewing, with no change asked or paid for.
import type { PayPalButtonsComponentOptions, PayPalNamespace } from '@paypal/paypal-js';
import type { Mock } from 'vitest';
import type { PlanRow } from '../model/plans';

export const planRow = (over: Partial<PlanRow> = {}): PlanRow => ({
  id: 'plan-1',
  type: 'custom',
  price: 5,
  method: 'paypal',
  start_date: '2026-11-23',
  end_date: '2026-12-22',
  is_active: true,
  content: { planName: 'Custom', blockLimit: 12, responseMonthlyLimit: 2000 },
  auto_renew: true,
  stopped_at: null,
  renewal_failed_at: null,
  renewal_retry_at: null,
  next_content: null,
  next_price: null,
  paid_next_content: null,
  paid_next_price: null,
  paid_next_from: null,
  created_at: '2026-11-23T00:00:00Z',
  ...over,
});

/** The calls of api/plans the plan page makes as it loads (the tests fake them, and more). */
export const PLAN_PAGE_READS = [
  'listActivePlans',
  'listPlanHistory',
  'loadUsage',
  'listFailedRefunds',
] as const;

/**
 * PayPal's JS SDK as api/providers' loadPaypal (faked by the test) answers it, its button a
 * stand-in: the options the page gives the button are in `page.buttons` once it rendered it.
 */
export function standInPaypal(loadPaypal: Mock) {
  const page = { buttons: undefined as PayPalButtonsComponentOptions | undefined };
  loadPaypal.mockResolvedValue({
    Buttons: (options: PayPalButtonsComponentOptions) => {
      page.buttons = options;
      return { render: async () => {}, close: async () => {}, isEligible: () => true };
    },
  } as unknown as PayPalNamespace);
  return page;
}

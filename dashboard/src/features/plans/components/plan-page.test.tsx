import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fakeExports,
  functionError,
  opensInKorean,
  renderWithProviders,
  signedInSession,
} from '../../../test/utils';
import * as plansApi from '../api/plans';
import type { PlanRow } from '../model/plans';
import { planRow as row } from '../test/fixtures';
import { PlanPage } from './plan-page';
import { PAYPAL_ENDED_REASON } from '@reaction-blocks/contracts/plans';

vi.mock(import('../api/plans'), async (original) =>
  fakeExports(original, [
    ...(await import('../test/fixtures')).PLAN_PAGE_READS,
    'cancelPayment',
    'changePayment',
    'useCoupon',
  ]),
);
const api = vi.mocked(plansApi);

const render = () =>
  renderWithProviders(<PlanPage />, { route: '/profile/plan', session: signedInSession() });

/** The page with these active rows and blocks in use, its Change dialog open. */
async function openChange(active: PlanRow[], blocksInUse: number) {
  api.listActivePlans.mockResolvedValue(active);
  api.loadUsage.mockResolvedValue({
    block_count: blocksInUse,
    block_limit: 15,
    response_monthly_count: 0,
    response_monthly_limit: 2100,
  });
  render();
  fireEvent.click(await screen.findByRole('button', { name: 'Change' }));
  return screen.getByRole('dialog', { name: 'Change your plan' });
}

/** The Change dialog's status about blocks beyond the new limit (not a count field's note). */
const blocksWarning = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('status')
    .find((el) => !el.classList.contains('plan-count-note'))!;
/** A coupon row adding 8 blocks, ending on `end` (null: it has no end date). */
const couponRow = (id: string, end: string | null) =>
  row({
    id,
    type: 'coupon',
    price: 0,
    method: null,
    end_date: end,
    content: { planName: 'Coupon', blockLimit: 8, responseMonthlyLimit: 0 },
    auto_renew: false,
  });

/** The Stop dialog's text on the page with these active rows. */
async function stopText(active: PlanRow[]) {
  cleanup();
  api.listActivePlans.mockResolvedValue(active);
  render();
  fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
  return screen.getByRole('alertdialog', { name: 'Stop your plan?' }).querySelector('p')!;
}

/** An element's text with the page in Korean (switched back to English after). */
async function inKorean(el: Element) {
  await act(() => i18next.changeLanguage('ko'));
  try {
    return el.textContent;
  } finally {
    await act(() => i18next.changeLanguage('en'));
  }
}

/** The page with one refund PayPal refused: its box, once shown. */
async function failedRefund(refund: plansApi.FailedRefund): Promise<HTMLElement> {
  api.listFailedRefunds.mockResolvedValue([refund]);
  render();
  const heading = await screen.findByRole('heading', {
    name: 'A PayPal payment was not given back',
  });
  return heading.closest('section')!;
}

beforeEach(() => {
  api.loadUsage.mockResolvedValue({
    block_count: 20,
    block_limit: 15,
    response_monthly_count: 300,
    response_monthly_limit: 2100,
  });
  api.listPlanHistory.mockResolvedValue([]);
  api.listFailedRefunds.mockResolvedValue([]);
});

describe('plan page', () => {
  it('shows Starter with an Upgrade link when no plan is active', async () => {
    api.listActivePlans.mockResolvedValue([]);
    render();
    expect(await screen.findByText('Starter')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/purchase');
    expect(await screen.findByText('No plans yet.')).toBeTruthy();
  });

  it('says which PayPal payment could not be given back and whom to write to (en, ko); nothing when none', async () => {
    // before: the owner kept reading "will be given back" after the refund job gave up
    api.listActivePlans.mockResolvedValue([row()]);
    render();
    expect(await screen.findByText('Your plan')).toBeTruthy();
    expect(
      screen.queryByRole('heading', { name: 'A PayPal payment was not given back' }),
    ).toBeNull();
    cleanup();
    const box = await failedRefund({
      subscription_id: 'I-REFUSED00001',
      created_at: '2026-11-20T08:00:00Z',
      reason: 'The subscription was approved but the purchase was never completed',
    });
    expect(box.querySelector('p')!.textContent).toBe(
      'We cancelled your PayPal subscription I-REFUSED00001 of 26.11.20 without a plan, and could not give its payment back automatically. Nothing is lost: write to us with this subscription id and we give it back by hand. Contact us through Help',
    );
    // no contact address set at build time (config/site.ts): the Help page
    expect(
      within(box).getByRole('link', { name: 'Contact us through Help' }).getAttribute('href'),
    ).toBe('/help');
    expect(await inKorean(box)).toBe(
      '돌려드리지 못한 PayPal 결제가 있습니다26.11.20의 PayPal 구독 I-REFUSED00001을(를) 플랜 없이 취소했지만, 결제 금액을 자동으로 돌려드리지 못했습니다. 금액은 사라지지 않았습니다. 이 구독 ID와 함께 연락해 주시면 직접 환불해 드립니다. 도움말에서 문의하기',
    );
  });

  it('says a payment PayPal took after the plan had ended in its own words, not "without a plan" (en, ko)', async () => {
    api.listActivePlans.mockResolvedValue([]);
    const box = await failedRefund({
      subscription_id: 'I-ENDED000001',
      created_at: '2026-11-21T08:00:00Z',
      reason: PAYPAL_ENDED_REASON,
    });
    expect(box.querySelector('p')!.textContent).toBe(
      'PayPal took a payment on your subscription I-ENDED000001 after your plan had ended. We cancelled the subscription, and on 26.11.21 we could not give that payment back automatically. Nothing is lost: write to us with this subscription id and we give it back by hand. Contact us through Help',
    );
    expect(await inKorean(box)).toBe(
      '돌려드리지 못한 PayPal 결제가 있습니다플랜이 끝난 뒤 PayPal이 구독 I-ENDED000001에서 결제를 한 번 더 받았습니다. 구독은 취소했지만, 26.11.21에 그 결제 금액을 자동으로 돌려드리지 못했습니다. 금액은 사라지지 않았습니다. 이 구독 ID와 함께 연락해 주시면 직접 환불해 드립니다. 도움말에서 문의하기',
    );
  });

  it("says why the plan could not be read in the reader's language, not the server's words", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    api.listActivePlans.mockRejectedValue({
      code: 'PGRST303',
      message: 'JWT expired',
      details: '',
      hint: '',
    });
    await opensInKorean(
      render,
      '플랜을 불러오지 못했습니다: 로그인이 만료되었습니다. 다시 로그인한 뒤 시도해 주세요.',
    );
  });

  it('says there are no plans yet only once the history is read, not while it loads', async () => {
    api.listActivePlans.mockResolvedValue([]);
    let answer: (rows: PlanRow[]) => void = () => {};
    api.listPlanHistory.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    render();
    expect(await screen.findByText('Starter')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'History' })).toBeTruthy();
    expect(api.listPlanHistory).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('No plans yet.')).toBeNull();
    await act(async () => answer([]));
    expect(await screen.findByText('No plans yet.')).toBeTruthy();
  });

  it('thanks for a purchase only beside an active plan (?purchased=1 kept or shared, U4)', async () => {
    const purchased = () =>
      renderWithProviders(<PlanPage />, {
        route: '/profile/plan?purchased=1',
        session: signedInSession(),
      });
    api.listActivePlans.mockResolvedValue([]);
    purchased();
    expect(await screen.findByText('No plans yet.')).toBeTruthy();
    expect(screen.queryByText('Your plan is active. Thank you!')).toBeNull();
    cleanup();
    api.listActivePlans.mockResolvedValue([row()]);
    purchased();
    expect(await screen.findByText('Your plan is active. Thank you!')).toBeTruthy();
  });

  it('shows the active plan, its renewal and usage capped at 100%', async () => {
    api.listActivePlans.mockResolvedValue([row()]);
    render();
    expect(await screen.findByText('15 blocks · 2,100 emails and answers a month')).toBeTruthy();
    expect(screen.getByText('$5 a month')).toBeTruthy();
    expect(screen.getByTestId('renewal').textContent).toBe('Renews on 26.12.23.');
    const blocks = screen.getByRole('meter', { name: 'Blocks' });
    expect(blocks.getAttribute('aria-valuenow')).toBe('100');
    expect(blocks.getAttribute('aria-valuetext')).toBe('20 of 15 blocks (100%)');
    const emails = screen.getByRole('meter', { name: 'Emails and answers this month' });
    expect(emails.getAttribute('aria-valuenow')).toBe('14');
    // what the monthly count counts is said, not only "emails" (rev-owner D7)
    const hint = () => document.getElementById(emails.getAttribute('aria-describedby') ?? '');
    expect(hint()?.textContent).toMatch(/^Answers to your forms and A\/B blocks count here too/);
    await act(() => i18next.changeLanguage('ko'));
    expect(screen.getByRole('meter', { name: '이번 달 이메일·응답' })).toBe(emails);
    expect(hint()?.textContent).toMatch(/폼·A\/B 블록에 받은 응답도 여기에 셉니다/);
  });

  it('shows a card plan charged 3 days early beside the current one until it starts, and a second change after it (en, ko)', async () => {
    // Basic until 26.12.22; 26.12.23 – 27.01.22 paid as Custom 20/5000; a second change after
    const charged = row({
      type: 'basic',
      price: 3,
      method: 'iamport',
      end_date: '2027-01-22',
      content: { planName: 'Basic', blockLimit: 8, responseMonthlyLimit: 1000 },
      paid_next_content: { planName: 'Custom', blockLimit: 20, responseMonthlyLimit: 5000 },
      paid_next_price: 10,
      paid_next_from: '2026-12-23',
    });
    const dialog = await openChange(
      [
        {
          ...charged,
          next_content: { planName: 'Custom', blockLimit: 12, responseMonthlyLimit: 3000 },
          next_price: 6,
        },
      ],
      6,
    );
    expect(screen.getByText('11 blocks · 1,100 emails and answers a month')).toBeTruthy();
    expect(
      screen.getByText(
        'From 26.12.23: 23 blocks, 5,100 emails and answers a month, ₩10,000 a month.',
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'From 27.01.23: 15 blocks, 3,100 emails and answers a month, ₩6,000 a month.',
      ),
    ).toBeTruthy();
    expect(
      within(dialog).getByText(
        'Your next period, from 26.12.23, is paid already and keeps the plan shown. The change starts with the period after it, on 27.01.23.',
      ),
    ).toBeTruthy();
    // the dialog starts from the last plan asked for
    expect((within(dialog).getByLabelText('Extra blocks') as HTMLInputElement).value).toBe('12');
    cleanup();

    await act(() => i18next.changeLanguage('ko'));
    try {
      api.listActivePlans.mockResolvedValue([charged]);
      render();
      fireEvent.click(await screen.findByRole('button', { name: '변경' }));
      const ko = screen.getByRole('dialog', { name: '플랜 변경' });
      expect(
        screen.getByText('26.12.23부터: 블록 23개, 월 이메일·응답 5,100건, 월 10,000원.'),
      ).toBeTruthy();
      expect(
        within(ko).getByText(
          '26.12.23부터의 다음 기간은 이미 결제되어 표시된 플랜이 유지됩니다. 변경 내용은 그다음 기간(27.01.23)부터 적용됩니다.',
        ),
      ).toBeTruthy();
      // from the plan paid for: Custom, though the row is Basic until then
      expect((within(ko).getByLabelText('추가 블록') as HTMLInputElement).value).toBe('20');
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('in the renewal window: a stopped plan names the paid period, a change that never starts has no line, Change names the paid plan (en, ko)', async () => {
    // Custom 12 until 26.12.22; 26.12.23 – 27.01.21 paid already for Custom 4/2000
    const paid = {
      method: 'iamport' as const,
      end_date: '2027-01-21',
      paid_next_content: { planName: 'Custom', blockLimit: 4, responseMonthlyLimit: 2000 },
      paid_next_price: 3,
      paid_next_from: '2026-12-23',
    };
    const stopped = row({ ...paid, auto_renew: false, stopped_at: 'x' });
    api.listActivePlans.mockResolvedValue([stopped]);
    render();
    const renewal = await screen.findByTestId('renewal');
    expect(renewal.textContent).toBe(
      'Stopped: it ends on 27.01.21. The plan of the period paid already applies from 26.12.23. You can buy a plan again from 27.01.22.',
    );
    expect(
      screen.getByText(
        'From 26.12.23: 7 blocks, 2,100 emails and answers a month, ₩3,000 a month.',
      ),
    ).toBeTruthy();
    expect(await inKorean(renewal)).toBe(
      '중지됨: 27.01.21에 종료됩니다. 26.12.23부터는 이미 결제한 기간의 플랜이 적용됩니다. 새 플랜은 27.01.22부터 구매할 수 있습니다.',
    );
    cleanup();

    // a failed renewal leaves next_content on the row: no "From 26.12.23" for it
    api.listActivePlans.mockResolvedValue([
      row({
        auto_renew: false,
        renewal_failed_at: 'x',
        next_content: { planName: 'Custom', blockLimit: 20, responseMonthlyLimit: 5000 },
        next_price: 10,
      }),
    ]);
    render();
    expect((await screen.findByTestId('renewal')).textContent).toBe(
      'The renewal payment failed: the plan ends on 26.12.22. You can buy a plan again from 26.12.23.',
    );
    expect(screen.queryByText(/^From /)).toBeNull();
    cleanup();

    // Change starts from the paid plan and says so
    const dialog = await openChange([row(paid)], 6);
    const same = within(dialog).getByText('That is the plan of your next period, paid already.');
    expect(await inKorean(same)).toBe('이미 결제한 다음 기간의 플랜입니다.');
  });

  it('a PayPal renewal that failed while PayPal retries says so, when PayPal tries again, until when the plan stays on and what to do (en, ko)', async () => {
    // before: "Renews on 26.12.23." (the plan still renews: PayPal keeps the subscription ACTIVE)
    const retrying = {
      auto_renew: true,
      renewal_failed_at: '2026-12-23T00:20:00+00:00',
      renewal_retry_at: '2099-12-28T01:00:00+00:00',
    };
    api.listActivePlans.mockResolvedValue([row(retrying)]);
    render();
    const line = await screen.findByTestId('renewal');
    expect(line.textContent).toBe(
      'The renewal payment failed. PayPal will try again on 99.12.28. Your plan stays on until 26.12.29, and renews as soon as a payment goes through.' +
        'To keep it, check the card or the balance in your PayPal account. If you no longer want it, stop it, and PayPal will not try again.',
    );
    expect(await inKorean(line)).toBe(
      '갱신 결제가 실패했습니다. PayPal이 99.12.28에 다시 결제를 시도합니다. 플랜은 26.12.29까지 유지되며, 결제가 되면 바로 갱신됩니다.' +
        '계속 이용하시려면 PayPal 계정의 카드나 잔액을 확인해 주세요. 더 이상 원하지 않으시면 플랜을 중지하세요. PayPal이 다시 결제하지 않습니다.',
    );
    // Stop and Change stay: the plan renews
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    cleanup();

    // PayPal's retry time not known (or passed): "in a few days"
    api.listActivePlans.mockResolvedValue([row({ ...retrying, renewal_retry_at: null })]);
    render();
    expect((await screen.findByTestId('renewal')).textContent).toMatch(
      /^The renewal payment failed\. PayPal will try again in a few days\. Your plan stays on until 26\.12\.29,/,
    );
  });

  it('stops after confirmation and says until when the plan runs', async () => {
    api.listActivePlans.mockResolvedValue([row()]);
    api.cancelPayment.mockResolvedValue({
      status: true,
      payment: row({ auto_renew: false, stopped_at: 'x' }),
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Stop your plan?' });
    expect(within(dialog).getByText(/You keep your blocks and emails until 26.12.22/)).toBeTruthy();
    // U2: the dialog says a stop is final and how to go on
    const final = within(dialog).getByText(/^A stop cannot be undone/);
    expect(final.textContent).toBe(
      'A stop cannot be undone: the plan will not renew and cannot be resumed. To go on after 26.12.22, buy a plan again once it has ended (from 26.12.23).',
    );
    expect(await inKorean(final)).toBe(
      '중지는 되돌릴 수 없습니다. 플랜은 갱신되지 않으며 다시 이어갈 수 없습니다. 26.12.22 이후에도 쓰려면 플랜이 끝난 뒤(26.12.23부터) 다시 구매해 주세요.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop plan' }));
    await waitFor(() =>
      expect(api.cancelPayment).toHaveBeenCalledWith(
        expect.objectContaining({ id: 'plan-1', method: 'paypal' }),
      ),
    );
    expect(await screen.findByText('Your plan is stopped. It runs until 26.12.22.')).toBeTruthy();
  });

  // U2: no plan can be bought beside one still running; the stopped plan's line says from when
  it('says on a stopped plan when a new one can be bought (en, ko)', async () => {
    api.listActivePlans.mockResolvedValue([row({ auto_renew: false, stopped_at: 'x' })]);
    render();
    const renewal = await screen.findByTestId('renewal');
    expect(renewal.textContent).toBe(
      'Stopped: it ends on 26.12.22. You keep everything until then, and can buy a plan again from 26.12.23.',
    );
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    expect(await inKorean(renewal)).toBe(
      '중지됨: 26.12.22에 종료됩니다. 그때까지 모든 기능을 그대로 쓸 수 있으며, 새 플랜은 26.12.23부터 구매할 수 있습니다.',
    );
  });

  it('a Stop PortOne could not be asked about says the payment service did not answer and nothing changed', async () => {
    // check-renewal before the stop: PortOne not answering is a 502 provider_unavailable
    const down = Object.assign(new Error('The payment service did not answer'), {
      code: 'provider_unavailable',
      status: 502,
    });
    api.listActivePlans.mockResolvedValue([row()]);
    api.cancelPayment.mockRejectedValue(down);
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Stop your plan?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop plan' }));
    const alert = await within(dialog).findByText(/the payment service did not answer/);
    expect(alert.textContent).toBe(
      'Could not do that: the payment service did not answer. Nothing changed on your plan; try again in a moment.',
    );
  });

  it("says a coupon running past the plan's end keeps its limits until it ends (the last day it runs; en, ko)", async () => {
    // the plan ends 2026-12-22: a coupon through 2026-12-23 runs a day past it, the later of two
    // is the one that counts, one that ends with the plan does not
    expect((await stopText([row(), couponRow('c1', '2026-12-23')])).textContent).toBe(
      "No more payments. You keep your blocks and emails until 26.12.22; after that your coupon's limits apply until 26.12.23, and then your account is on Starter (3 blocks, 100 emails and answers a month). Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.",
    );
    expect(
      (await stopText([row(), couponRow('c1', '2027-01-31'), couponRow('c2', '2027-03-31')]))
        .textContent,
    ).toMatch(/until 27\.03\.31, and then/);
    const plain = await stopText([row(), couponRow('c1', '2026-12-22')]);
    expect(plain.textContent).toMatch(/until 26\.12\.22; after that your account is on Starter/);
    // a coupon that adds nothing to Starter keeps nothing: the plain text
    const empty = {
      ...couponRow('c0', '2027-01-31'),
      content: { blockLimit: 0, responseMonthlyLimit: 0 },
    };
    expect((await stopText([row(), empty])).textContent).toMatch(
      /after that your account is on Starter/,
    );
    // a coupon without an end date: the server never ends it (expire_plans reads end_date), so
    // its limits apply after the plan with no end, and its line says so
    const lasting = await stopText([row(), couponRow('c1', '2027-01-31'), couponRow('c2', null)]);
    expect(lasting.textContent).toBe(
      "No more payments. You keep your blocks and emails until 26.12.22; after that your coupon's limits apply (it has no end date). Blocks beyond the limit are then deactivated, newest first. Nothing is deleted.",
    );
    expect(
      screen.getByText(/11 blocks and 100 emails and answers a month, with no end date\./),
    ).toBeTruthy();
    expect(await inKorean(await stopText([row(), couponRow('c1', '2027-01-31')]))).toBe(
      '더 이상 결제되지 않습니다. 26.12.22까지는 블록과 이메일을 그대로 쓸 수 있고, 그 후 27.01.31까지는 쿠폰의 한도가 적용되며, 그다음에는 스타터(블록 3개, 월 이메일·응답 100건)로 돌아갑니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    );
  });

  it("Stop between a changed plan's renewal charge and its period names the paid period and its limits (en, ko)", async () => {
    // Custom 12 until 26.12.22; the next period, to 27.01.21, paid already for Custom 4/2000
    const paid = row({
      method: 'iamport',
      end_date: '2027-01-21',
      paid_next_content: { planName: 'Custom', blockLimit: 4, responseMonthlyLimit: 2000 },
      paid_next_price: 3,
      paid_next_from: '2026-12-23',
    });
    expect((await stopText([paid])).textContent).toBe(
      'No more payments. Your next period, from 26.12.23 to 27.01.21, is paid already: you have 7 blocks and 2,100 emails and answers a month then. After that your account is on Starter (3 blocks, 100 emails and answers a month). Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    // a coupon running then counts beside the paid plan, as on the server: the larger addition
    // (8 blocks, not the paid plan's 4)
    expect((await stopText([paid, couponRow('c1', '2027-03-31')])).textContent).toMatch(
      /is paid already: you have 11 blocks and 2,100 emails and answers a month then\. After that your coupon's limits apply until 27\.03\.31, and then/,
    );
    expect((await stopText([paid, couponRow('c1', null)])).textContent).toMatch(
      /emails and answers a month then\. After that your coupon's limits apply \(it has no end date\)/,
    );
    expect(await inKorean(await stopText([paid]))).toBe(
      '더 이상 결제되지 않습니다. 26.12.23부터 27.01.21까지의 다음 기간은 이미 결제되어 그동안 블록 7개, 월 이메일·응답 2,100건을 쓸 수 있습니다. 그 후에는 스타터(블록 3개, 월 이메일·응답 100건)로 돌아갑니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    );
  });

  it('changes a PayPal plan by opening the approval link in a new tab', async () => {
    api.listActivePlans.mockResolvedValue([row()]);
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    api.changePayment.mockResolvedValue({
      status: true,
      payment: row({
        next_content: { planName: 'Custom', blockLimit: 16, responseMonthlyLimit: 2000 },
        next_price: 6,
      }),
      links: [{ href: 'https://paypal.example/approve?token=RV-1', rel: 'approve' }],
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Change' }));
    const dialog = screen.getByRole('dialog', { name: 'Change your plan' });
    const save = within(dialog).getByRole('button', { name: 'Change plan' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const blocks = within(dialog).getByLabelText('Extra blocks');
    fireEvent.change(blocks, { target: { value: '13' } });
    fireEvent.blur(blocks);
    expect((blocks as HTMLInputElement).value).toBe('16');
    expect(within(dialog).getByText('$6 a month')).toBeTruthy();
    fireEvent.click(save);
    await waitFor(() => expect(api.changePayment).toHaveBeenCalled());
    expect(api.changePayment.mock.calls[0]![1]).toEqual({
      type: 'custom',
      blockLimit: 16,
      responseMonthlyLimit: 2000,
    });
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() =>
      expect(tab.location.href).toBe('https://paypal.example/approve?token=RV-1'),
    );
    expect(tab.opener).toBeNull();
    expect(await screen.findByText(/PayPal opened in a new tab/)).toBeTruthy();
    open.mockRestore();
  });

  // U8: a PayPal change not approved (the tab closed, or "Cancel and return") can be asked again
  it('asks a PayPal change waiting for its approval again, and drops it by asking the plan held (en, ko)', async () => {
    const pending = { planName: 'Custom', blockLimit: 16, responseMonthlyLimit: 2000 };
    const dialog = await openChange([row({ next_content: pending, next_price: 6 })], 3);
    const save = within(dialog).getByRole('button', { name: 'Change plan' }) as HTMLButtonElement;
    const blocks = within(dialog).getByLabelText('Extra blocks') as HTMLInputElement;
    expect(blocks.value).toBe('16');
    expect(save.disabled).toBe(false);
    expect(within(dialog).queryByText('That is your plan already.')).toBeNull();
    fireEvent.change(blocks, { target: { value: '12' } });
    fireEvent.blur(blocks);
    expect(save.disabled).toBe(false);
    const keep =
      'That is your plan now: the change you asked for is dropped and your plan stays as it is.';
    expect(within(dialog).getByText(keep)).toBeTruthy();
    await act(() => i18next.changeLanguage('ko'));
    expect(
      within(dialog).getByText(
        '지금 사용 중인 플랜입니다. 요청한 변경은 취소되고 플랜은 지금 그대로 유지됩니다.',
      ),
    ).toBeTruthy();
  });

  // U8: the revise's "Cancel and return" is not the purchase's cancel, and drops the change
  /** The page at `route` with a change to 16 blocks pending (back from PayPal's "Cancel and return"). */
  const backFromCancel = (route = '/profile/plan?paypal=change-cancelled') => {
    const pending = { planName: 'Custom', blockLimit: 16, responseMonthlyLimit: 2000 };
    api.listActivePlans.mockResolvedValue([row({ next_content: pending, next_price: 6 })]);
    renderWithProviders(<PlanPage />, { route, session: signedInSession() });
  };
  /** backFromCancel, the server dropping the change (the plan read again has none). */
  const backFromCancelDropped = () => {
    const kept = row({ next_content: row().content, next_price: 5 });
    api.changePayment.mockImplementation(async () => {
      api.listActivePlans.mockResolvedValue([kept]);
      return { status: true, payment: kept, links: [] };
    });
    backFromCancel();
  };

  it('takes ?paypal=change-cancelled off the address once the drop is asked: a reload keeps a change asked again (rev-break3 P2)', async () => {
    backFromCancelDropped();
    expect(await screen.findByText(/so it is dropped/)).toBeTruthy();
    // renderWithProviders' LocationProbe: the address the tab would reload
    const address = screen.getByTestId('location');
    await waitFor(() => expect(address.textContent).toBe('/profile/plan'));
    // Change asked again in this tab (its approval open in another), then the tab reloaded
    cleanup();
    backFromCancel(address.textContent!);
    expect(await screen.findByText(/^Waiting for your approval on PayPal/)).toBeTruthy();
    expect(api.changePayment).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/You did not approve the change/)).toBeNull();
  });

  it("drops the pending change on the server after PayPal's Cancel and return, and says the plan stays (en, ko)", async () => {
    backFromCancelDropped();
    const notice = await screen.findByText(/so it is dropped/);
    expect(notice.textContent).toBe(
      'You did not approve the change on PayPal, so it is dropped and your plan stays as it is. To ask for it again, open Change.',
    );
    expect(api.changePayment).toHaveBeenCalledTimes(1);
    expect(api.changePayment).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'plan-1' }),
      { type: 'custom', blockLimit: 12, responseMonthlyLimit: 2000 },
      true,
    );
    expect(screen.queryByText(/Nothing was charged/)).toBeNull();
    expect(screen.queryByText(/^Waiting for your approval on PayPal/)).toBeNull();
    expect(await inKorean(notice)).toBe(
      'PayPal에서 변경을 승인하지 않아 변경을 취소했습니다. 플랜은 지금 그대로입니다. 다시 요청하려면 변경을 여세요.',
    );
  });

  it('keeps a change PayPal refuses to drop (approved there before) and says how to drop it (en, ko)', async () => {
    api.changePayment.mockRejectedValue(
      functionError(409, 'change_approved', 'PayPal bills another price already'),
    );
    backFromCancel();
    await waitFor(() => expect(api.changePayment).toHaveBeenCalledTimes(1));
    const notice = await screen.findByText(/^You did not approve the change on PayPal/);
    expect(notice.textContent).toBe(
      'You did not approve the change on PayPal, so your plan stays as it is. To get the approval link again, or to drop the change, open Change.',
    );
    const waiting = await screen.findByText(/^Waiting for your approval on PayPal/);
    expect(waiting.textContent).toMatch(/Open Change to get the link again/);
    expect(await inKorean(notice)).toBe(
      'PayPal에서 변경을 승인하지 않아 플랜은 지금 그대로입니다. 승인 링크를 다시 받거나 변경을 취소하려면 변경을 여세요.',
    );
  });

  // U9: a card Change back to the plan held says the plan stays, and no change line is left
  it('a card Change back to the plan held says the plan stays as it is, with no change line', async () => {
    const card = { method: 'iamport' as const, price: 5 };
    const pending = { planName: 'Custom', blockLimit: 24, responseMonthlyLimit: 2000 };
    const dialog = await openChange([row({ ...card, next_content: pending, next_price: 7 })], 3);
    const kept = row({ ...card, next_content: row().content, next_price: 5 });
    api.changePayment.mockResolvedValue({ status: true, payment: kept });
    api.listActivePlans.mockResolvedValue([kept]);
    const blocks = within(dialog).getByLabelText('Extra blocks');
    fireEvent.change(blocks, { target: { value: '12' } });
    fireEvent.blur(blocks);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change plan' }));
    expect(
      await screen.findByText('The change was dropped: your plan stays as it is.'),
    ).toBeTruthy();
    expect(api.changePayment.mock.calls[0]![1]).toEqual({
      type: 'custom',
      blockLimit: 12,
      responseMonthlyLimit: 2000,
    });
    await waitFor(() => expect(api.listActivePlans).toHaveBeenCalledTimes(2));
    expect(screen.queryByText(/Your plan changes on/)).toBeNull();
    expect(screen.queryByText(/^From /)).toBeNull();
  });

  it('warns, as Stop does, when the new plan allows fewer blocks than are in use, in Korean too', async () => {
    const dialog = await openChange([row({ method: 'iamport' })], 6);
    const warning =
      'You have 6 blocks; the new plan allows 3. When it starts, blocks beyond the limit are deactivated, newest first. Nothing is deleted.';
    expect(within(dialog).queryByText(warning)).toBeNull();
    const blocks = within(dialog).getByLabelText('Extra blocks');
    fireEvent.change(blocks, { target: { value: '0' } });
    expect(blocksWarning(dialog).textContent).toBe(warning);
    // room for the 6 again (3 + 4): no warning
    fireEvent.change(blocks, { target: { value: '4' } });
    expect(blocksWarning(dialog).textContent).toBe('');
    fireEvent.change(blocks, { target: { value: '0' } });
    await act(() => i18next.changeLanguage('ko'));
    expect(blocksWarning(dialog).textContent).toBe(
      '지금 블록이 6개 있고, 새 플랜은 3개까지입니다. 새 플랜이 시작되면 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    );
  });

  it('counts a coupon still running when the new plan starts, as the server does (both boundaries, ko)', async () => {
    // the card plan ends 2026-12-22, so the new plan starts 2026-12-23; the coupon adds 8 (11)
    const open = async (blocks: number, couponEnds: string, extra = '0') => {
      cleanup();
      const dialog = await openChange(
        [row({ method: 'iamport' }), couponRow('coupon-1', couponEnds)],
        blocks,
      );
      fireEvent.change(within(dialog).getByLabelText('Extra blocks'), { target: { value: extra } });
      return blocksWarning(dialog);
    };
    // a coupon running past the new plan's first months: 11 blocks fit until it ends, 12 do not
    expect((await open(11, '2027-06-30')).textContent).toBe(
      'You have 11 blocks; with your coupon the new plan allows them, but from 27.07.01, when the coupon has ended, it allows 3. Then blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    expect((await open(12, '2027-06-30')).textContent).toBe(
      'You have 12 blocks; with your coupon, the new plan allows 11 when it starts, and 3 from 27.07.01, when the coupon has ended. Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    // the largest, not the sum: 4 extra blocks (7) and the coupon's 8 (11) allow 11, not 15
    expect((await open(12, '2027-06-30', '4')).textContent).toBe(
      'You have 12 blocks; with your coupon, the new plan allows 11 when it starts, and 7 from 27.07.01, when the coupon has ended. Each time, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    expect((await open(11, '2027-06-30', '4')).textContent).toBe(
      'You have 11 blocks; with your coupon the new plan allows them, but from 27.07.01, when the coupon has ended, it allows 7. Then blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    // the coupon runs through the new plan's first day only: the server expires it on the
    // next (24 Dec) and deactivates blocks down to the plan's 3
    expect((await open(11, '2026-12-23')).textContent).toBe(
      'You have 11 blocks; with your coupon the new plan allows them, but from 26.12.24, when the coupon has ended, it allows 3. Then blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    // nothing over, then or later: no warning
    expect((await open(3, '2026-12-23')).textContent).toBe('');
    // a coupon that ends the day before does not count: 3
    expect((await open(11, '2026-12-22')).textContent).toBe(
      'You have 11 blocks; the new plan allows 3. When it starts, blocks beyond the limit are deactivated, newest first. Nothing is deleted.',
    );
    const status = await open(12, '2027-06-30');
    await act(() => i18next.changeLanguage('ko'));
    expect(status.textContent).toBe(
      '지금 블록이 12개 있고, 쿠폰을 더해도 새 플랜은 시작할 때 11개까지, 쿠폰이 끝난 뒤인 27.07.01부터는 3개까지입니다. 그때마다 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    );
    await act(() => i18next.changeLanguage('en'));
    const later = await open(11, '2026-12-23');
    await act(() => i18next.changeLanguage('ko'));
    expect(later.textContent).toBe(
      '지금 블록이 11개 있고, 쿠폰 덕분에 새 플랜에서도 모두 쓸 수 있지만, 쿠폰이 끝난 뒤인 26.12.24부터는 3개까지입니다. 그때 한도를 넘는 블록은 최근에 만든 것부터 비활성화됩니다. 삭제되는 것은 없습니다.',
    );
  });

  it("redeems a coupon of 1 to 99 characters and shows the server's refusal", async () => {
    api.listActivePlans.mockResolvedValue([]);
    api.useCoupon.mockRejectedValueOnce(new Error('No such coupon'));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a coupon' }));
    const dialog = screen.getByRole('dialog', { name: 'Use a coupon' });
    const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    const field = within(dialog).getByLabelText('Coupon code') as HTMLInputElement;
    expect(field.maxLength).toBe(99);
    fireEvent.change(field, { target: { value: 'WELCOME' } });
    fireEvent.click(apply);
    expect(await within(dialog).findByText('No such coupon')).toBeTruthy();
    api.useCoupon.mockResolvedValueOnce({
      status: true,
      payment: row({ type: 'coupon', method: null }),
    });
    fireEvent.click(apply);
    expect(await screen.findByText('The coupon is applied.')).toBeTruthy();
    expect(api.useCoupon).toHaveBeenLastCalledWith('WELCOME');
  });

  it('pages the history: 10 at a time, no more after a short page; legacy prices by name', async () => {
    api.listActivePlans.mockResolvedValue([]);
    const page = (n: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        row({
          id: `p${n}-${i}`,
          is_active: false,
          price: 3,
          content: {
            planName: i === 0 ? '$7 Plan' : 'Custom',
            blockLimit: 8,
            responseMonthlyLimit: 1000,
          },
        }),
      );
    api.listPlanHistory.mockImplementation(async (n: number) =>
      n === 0 ? page(0, 10) : page(1, 3),
    );
    render();
    const table = await screen.findByRole('table');
    // the table scrolls in a region named by its caption (a div with a name needs a role), a Tab
    // stop only while it scrolls (lib/scroll-stop.ts: jsdom lays nothing out, nothing scrolls)
    const region = screen.getByRole('region', { name: 'Your plans, newest first' });
    expect(region.contains(table)).toBe(true);
    expect(region.hasAttribute('tabindex')).toBe(false);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(within(table).getAllByText('$7').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(14));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(api.listPlanHistory).toHaveBeenCalledTimes(2);
  });

  it('shows won for a card plan in Korean', async () => {
    await i18next.changeLanguage('ko');
    api.listActivePlans.mockResolvedValue([row({ method: 'iamport' })]);
    render();
    expect(await screen.findByText('월 5,000원')).toBeTruthy();
  });

  it('names the plans in Korean as the pricing page does, in the history too', async () => {
    await i18next.changeLanguage('ko');
    api.listActivePlans.mockResolvedValue([row({ method: 'iamport' })]);
    api.listPlanHistory.mockResolvedValue([
      row({ method: 'iamport' }),
      row({ id: 'b', type: 'basic', is_active: false }),
      row({ id: 'c', type: 'coupon', method: null, is_active: false }),
    ]);
    render();
    const table = await screen.findByRole('table');
    const types = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.querySelectorAll('td')[2]?.textContent);
    expect(types).toEqual(['커스텀', '베이직', '쿠폰']);
    expect(screen.getByText('커스텀', { selector: '.plan-card-name strong' })).toBeTruthy();
  });

  it("says the server's refusals in Korean, and Enter applies the coupon", async () => {
    await i18next.changeLanguage('ko');
    api.listActivePlans.mockResolvedValue([]);
    api.useCoupon.mockRejectedValueOnce(new Error('This coupon has expired'));
    api.useCoupon.mockRejectedValueOnce(new Error('network down'));
    render();
    fireEvent.click(await screen.findByRole('button', { name: '쿠폰 사용' }));
    const dialog = screen.getByRole('dialog', { name: '쿠폰 사용' });
    const field = within(dialog).getByLabelText('쿠폰 코드');
    fireEvent.change(field, { target: { value: 'OLD' } });
    fireEvent.submit(field.closest('form')!);
    expect(await within(dialog).findByText('기간이 지난 쿠폰입니다')).toBeTruthy();
    // a message that is not one of ours reads as failureReason says, not in English
    fireEvent.submit(field.closest('form')!);
    expect(
      await within(dialog).findByText(
        '연결에 실패했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요.',
      ),
    ).toBeTruthy();
  });
});

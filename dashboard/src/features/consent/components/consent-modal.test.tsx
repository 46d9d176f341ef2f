import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeResizeObserver, stopsOnlyWhileScrolling } from '../../../test/scroll-box';
import { alertsAfterClicks, functionError, renderWithProviders } from '../../../test/utils';
import { ConsentModal } from './consent-modal';

describe('ConsentModal', () => {
  it('enables Agree only when the checkbox is ticked', () => {
    const onAgree = vi.fn(() => Promise.resolve());
    renderWithProviders(<ConsentModal open onAgree={onAgree} onDecline={vi.fn()} />);
    const agree = screen.getByRole('button', { name: 'Agree' }) as HTMLButtonElement;
    expect(agree.disabled).toBe(true);
    fireEvent.click(agree);
    expect(onAgree).not.toHaveBeenCalled();
    const box = screen.getByRole('checkbox', {
      name: 'I agree to the Terms of Service and the Privacy Policy',
    });
    fireEvent.click(box);
    expect(agree.disabled).toBe(false);
    fireEvent.click(box);
    expect(agree.disabled).toBe(true);
  });

  it('calls agree once and ignores clicks and checkbox changes while in progress', async () => {
    let finish!: () => void;
    const onAgree = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    renderWithProviders(<ConsentModal open onAgree={onAgree} onDecline={vi.fn()} />);
    const box = screen.getByRole('checkbox') as HTMLInputElement;
    fireEvent.click(box);
    const agree = screen.getByRole('button', { name: 'Agree' });
    fireEvent.click(agree);
    fireEvent.click(agree);
    expect(onAgree).toHaveBeenCalledTimes(1);
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    finish();
    await waitFor(() => expect(agree.getAttribute('aria-busy')).toBe('false'));
  });

  it('links the full Terms of Service and Privacy Policy in a new tab, en and ko (rev-owner D10)', async () => {
    const { setLanguage } = await import('../../../lib/i18n');
    renderWithProviders(<ConsentModal open onAgree={vi.fn()} onDecline={vi.fn()} />);
    const full = screen.getByRole('link', {
      name: 'Read the Terms of Service and the Privacy Policy in full (opens in a new tab)',
    });
    expect([full.getAttribute('href'), full.getAttribute('target')]).toEqual(['/terms', '_blank']);
    await act(() => setLanguage('ko', false));
    expect(
      screen.getByRole('link', {
        name: '서비스 이용약관과 개인정보처리방침 전문 보기(새 탭에서 열림)',
      }),
    ).toBe(full);
  });

  it('names the scrollable terms as a region a keyboard reaches while they scroll (look3)', () => {
    // before: tabIndex 0 always, a Tab stop with nothing to scroll where the terms fit
    fakeResizeObserver();
    renderWithProviders(<ConsentModal open onAgree={vi.fn()} onDecline={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Terms of Service' });
    stopsOnlyWhileScrolling(within(dialog).getByRole('region', { name: 'Terms of Service' }));
    vi.unstubAllGlobals();
  });

  it('declines, and does not close on Escape', () => {
    const onDecline = vi.fn(() => Promise.resolve());
    renderWithProviders(<ConsentModal open onAgree={vi.fn()} onDecline={onDecline} />);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Terms of Service' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(onDecline).toHaveBeenCalledTimes(1);
  });

  it("says why agreeing failed in the reader's language, not the server's words", async () => {
    // submit-agreement's answers as invokeFunction throws them: its 500, then its 404 (twice)
    const notFound = () => functionError(404, 'not_found', 'Profile not found');
    const onAgree = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(functionError(500, 'update_failed', 'permission denied for table p'))
      .mockRejectedValueOnce(notFound())
      .mockRejectedValueOnce(notFound());
    renderWithProviders(<ConsentModal open onAgree={onAgree} onDecline={vi.fn()} />);
    fireEvent.click(screen.getByRole('checkbox'));
    await alertsAfterClicks([
      [
        'en',
        'Agree',
        'Could not do that: Something went wrong on our side. Try again in a moment.',
      ],
      [
        'en',
        'Agree',
        'Could not do that: Your account was not found; it may have been deleted. Reload the page and sign in again.',
      ],
      [
        'ko',
        '동의',
        '처리하지 못했습니다: 계정을 찾을 수 없습니다. 삭제되었을 수 있습니다. 페이지를 새로 고친 뒤 다시 로그인해 주세요.',
      ],
    ]);
  });
});

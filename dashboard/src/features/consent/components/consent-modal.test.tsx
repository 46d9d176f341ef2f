import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/utils';
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

  it('names the scrollable terms as a region a keyboard can reach', () => {
    renderWithProviders(<ConsentModal open onAgree={vi.fn()} onDecline={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Terms of Service' });
    const terms = within(dialog).getByRole('region', { name: 'Terms of Service' });
    expect(terms.tabIndex).toBe(0);
  });

  it('declines, and does not close on Escape', () => {
    const onDecline = vi.fn(() => Promise.resolve());
    renderWithProviders(<ConsentModal open onAgree={vi.fn()} onDecline={onDecline} />);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Terms of Service' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(onDecline).toHaveBeenCalledTimes(1);
  });

  it('shows an error when agreeing fails', async () => {
    const onAgree = vi.fn(() => Promise.reject(new Error('boom')));
    renderWithProviders(<ConsentModal open onAgree={onAgree} onDecline={vi.fn()} />);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Agree' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong: boom');
  });
});

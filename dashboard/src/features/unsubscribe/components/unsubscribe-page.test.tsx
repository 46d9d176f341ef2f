import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/utils';
import { UnsubscribePage } from './unsubscribe-page';

const api = vi.hoisted(() => ({ readUnsubscribe: vi.fn(), confirmUnsubscribe: vi.fn() }));
vi.mock('../api/unsubscribe', () => api);

const token = 'x'.repeat(40);

beforeEach(() => {
  api.readUnsubscribe.mockReset();
  api.confirmUnsubscribe.mockReset();
});

describe('unsubscribe page', () => {
  it('says what the link stops, then confirms', async () => {
    api.readUnsubscribe.mockResolvedValue({
      scope: 'owner',
      email: 'o***@example.com',
      blockName: 'Feedback',
    });
    api.confirmUnsubscribe.mockResolvedValue({ status: true });
    renderWithProviders(<UnsubscribePage />, { route: `/unsubscribe?token=${token}` });
    expect(await screen.findByText('Stop these mails to o***@example.com?')).toBeTruthy();
    expect(screen.getByText('Notifications of new responses on “Feedback”.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await waitFor(() => expect(api.confirmUnsubscribe).toHaveBeenCalledWith(token));
    expect(
      await screen.findByText('o***@example.com will get no more of these mails.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });

  it('says so when the link is not valid, and offers no button', async () => {
    api.readUnsubscribe.mockRejectedValue(new Error('Invalid link'));
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?token=forged' });
    expect(await screen.findByText(/This unsubscribe link is not valid/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { alertsAfterClicks, renderWithProviders } from '../../../test/utils';
import { CreateBlockControl } from './create-block-control';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CreateBlockControl', () => {
  it('toggles the picker with the six reaction types and shows the remaining count', () => {
    renderWithProviders(<CreateBlockControl remaining={2} onCreate={vi.fn()} />);
    expect(screen.getByTestId('remaining').textContent).toBe('2 blocks left');
    const toggle = screen.getByRole('button', { name: 'Create block' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('group', { name: 'Choose a block type' })).toBeNull();
    fireEvent.click(toggle);
    const picker = screen.getByRole('group', { name: 'Choose a block type' });
    expect(Array.from(picker.querySelectorAll('button')).map((b) => b.textContent)).toEqual([
      'Comment',
      'Q&A',
      'Like',
      'Button',
      'A/B',
      'Form',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Close type picker' }));
    expect(screen.queryByRole('group', { name: 'Choose a block type' })).toBeNull();
  });

  it('closes the picker on Escape from a type in it and gives focus back to the toggle', () => {
    const onCreate = vi.fn();
    renderWithProviders(<CreateBlockControl remaining={2} onCreate={onCreate} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create block' }));
    const like = screen.getByRole('button', { name: 'Like' });
    like.focus();
    fireEvent.keyDown(like, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Choose a block type' })).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Create block' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
    expect(onCreate).not.toHaveBeenCalled();
    // from the toggle too
    fireEvent.click(toggle);
    fireEvent.keyDown(toggle, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Choose a block type' })).toBeNull();
  });

  it('closes the picker on a press outside it, not on one inside', () => {
    renderWithProviders(
      <>
        <p>Outside</p>
        <CreateBlockControl remaining={2} onCreate={vi.fn()} />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create block' }));
    const picker = screen.getByRole('group', { name: 'Choose a block type' });
    fireEvent.mouseDown(picker);
    expect(screen.getByRole('group', { name: 'Choose a block type' })).toBeTruthy();
    fireEvent.mouseDown(screen.getByText('Outside'));
    expect(screen.queryByRole('group', { name: 'Choose a block type' })).toBeNull();
  });

  it('shows the limit message and an upgrade link when no block remains', () => {
    renderWithProviders(<CreateBlockControl remaining={0} onCreate={vi.fn()} />);
    expect(screen.getByText('Block limit reached!')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/profile/plan',
    );
    expect(screen.queryByRole('button', { name: 'Create block' })).toBeNull();
  });

  it('shows a loading indicator while creating and ignores further choices', async () => {
    const pending = deferred();
    const onCreate = vi.fn(() => pending.promise);
    renderWithProviders(<CreateBlockControl remaining={1} onCreate={onCreate} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create block' }));
    fireEvent.click(screen.getByRole('button', { name: 'Button' }));
    expect(onCreate).toHaveBeenCalledWith('button');
    expect(screen.getByRole('status').textContent).toContain('Creating block…');
    const like = screen.getByRole('button', { name: 'Like' }) as HTMLButtonElement;
    expect(like.disabled).toBe(true);
    fireEvent.click(like);
    expect(onCreate).toHaveBeenCalledTimes(1);
    pending.resolve();
    await waitFor(() => expect(screen.queryByText('Creating block…')).toBeNull());
  });

  it("says why creation failed in the reader's language, never the server's English", async () => {
    const onCreate = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new Error('Block limit reached!'))
      .mockRejectedValueOnce({ code: 'PT401', message: 'Please sign in to create a block' })
      .mockRejectedValueOnce(new Error('Block limit reached!'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<CreateBlockControl remaining={1} onCreate={onCreate} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create block' }));
    await alertsAfterClicks([
      ['en', 'Form', 'Could not create the block: Block limit reached!'],
      [
        'ko',
        '폼',
        '블록을 만들지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ],
      ['ko', '폼', '블록을 만들지 못했습니다: 블록 개수 제한에 도달했습니다!'],
    ]);
  });
});

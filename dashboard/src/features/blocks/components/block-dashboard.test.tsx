import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { BlockRow } from '../../../lib/db-types';
import { fakeProfile, fakeQuery, renderWithProviders, signedInSession } from '../../../test/utils';
import { BlockDashboard } from './block-dashboard';
import { Route, Routes } from 'react-router-dom';

const rows: BlockRow[] = [
  // As the database returns them: newest first.
  {
    id: 'b3',
    owner_id: 'user-1',
    type: 'like',
    name: 'Newest',
    created_at: '2024-03-01T00:00:00Z',
    response_count: 0,
    new_response_count: 0,
    tags: [],
    deactivated: false,
  },
  {
    id: 'b2',
    owner_id: 'user-1',
    type: 'form',
    name: 'Busy',
    created_at: '2024-02-01T00:00:00Z',
    response_count: 7,
    new_response_count: 4,
    tags: ['news'],
    deactivated: false,
  },
  {
    id: 'b1',
    owner_id: 'user-1',
    type: 'comment',
    name: 'Off',
    created_at: '2024-01-01T00:00:00Z',
    response_count: 2,
    new_response_count: 0,
    tags: [],
    deactivated: true,
  },
];

const from = vi.fn((table: string) => fakeQuery(table === 'blocks' ? rows : []));
vi.mock('../../../lib/supabase', () => ({
  supabase: { from: (table: string) => from(table), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

function renderDashboard(route = '/dashboard/reaction', profile = fakeProfile()) {
  return renderWithProviders(
    <Routes>
      <Route path="/dashboard/reaction" element={<BlockDashboard />} />
      <Route path="/dashboard/reaction/:type" element={<BlockDashboard />} />
      <Route path="/work/:id" element={<p>workspace</p>} />
    </Routes>,
    { route, session: signedInSession({ profile }) },
  );
}

const names = () =>
  screen
    .getAllByTestId('block-card')
    .map((card) => card.querySelector('.block-card-name')?.textContent);

describe('BlockDashboard', () => {
  it('lists the owner blocks sorted by new responses, then newest', async () => {
    renderDashboard();
    await waitFor(() => expect(names()).toEqual(['Busy', 'Newest', 'Off']));
    expect(from).toHaveBeenCalledWith('blocks');
    expect(screen.getAllByTestId('block-card')[0]!.textContent).toContain('+ 4 responses');
    expect(screen.getByTestId('remaining').textContent).toBe('2 blocks left');
  });

  it('filters by the type in the path', async () => {
    renderDashboard('/dashboard/reaction/form');
    await waitFor(() => expect(names()).toEqual(['Busy']));
  });

  it('selects on the first click and opens /work/{id} on the second', async () => {
    renderDashboard();
    await waitFor(() => expect(names()).toHaveLength(3));
    const busy = screen.getByRole('button', { name: /^Busy/ });
    fireEvent.click(busy);
    expect(busy.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/reaction');
    fireEvent.click(busy);
    expect(screen.getByTestId('location').textContent).toBe('/work/b2');
  });

  it('never opens a deactivated block', async () => {
    renderDashboard();
    await waitFor(() => expect(names()).toHaveLength(3));
    const off = screen.getByRole('button', { name: /^Off/ });
    fireEvent.click(off);
    fireEvent.click(off);
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/reaction');
  });

  it('replaces the create button when the limit is reached', async () => {
    renderDashboard('/dashboard/reaction', fakeProfile({ block_limit: 3, block_count: 3 }));
    expect(await screen.findByText('Block limit reached!')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create block' })).toBeNull();
  });

  it("says a refused copy was the browser's, and what to do, in the reader's language", async () => {
    // the clipboard refused as a browser does without permission (NotAllowedError)
    const writeText = vi.fn(() =>
      Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    );
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    try {
      renderDashboard();
      await waitFor(() => expect(names()).toHaveLength(3));
      const copyAndRead = async (menu: string, item: string, text: string) => {
        fireEvent.click(screen.getByRole('button', { name: menu }));
        fireEvent.click(screen.getByRole('menuitem', { name: item }));
        await waitFor(() => expect(screen.getByRole('status').textContent).toBe(text));
      };
      await copyAndRead(
        'Block menu for Busy',
        'Copy link',
        'The browser did not allow copying the link. Allow clipboard access for this site, or copy the link from Block link.',
      );
      await act(() => i18next.changeLanguage('ko'));
      await copyAndRead(
        'Busy 블록 메뉴',
        '링크 복사',
        '브라우저가 링크 복사를 허용하지 않았습니다. 이 사이트의 클립보드 접근을 허용하거나, 블록 링크에서 링크를 복사해 주세요.',
      );
      expect(writeText).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
      await act(() => i18next.changeLanguage('en'));
    }
  });
});

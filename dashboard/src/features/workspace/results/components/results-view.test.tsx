import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { alertsAfterClicks, alertsAfterTries, renderWithProviders } from '../../../../test/utils';
import { QuotaError } from '../api/approve-responses';
import type { ResultsApi } from '../api/results-api';
import {
  answer,
  BLOCK_ID,
  Q1,
  Q2,
  Q_DELETED,
  questions,
  responseRow,
  summaryOf,
} from '../test-data';
import type { ResponseRow, ResultsBlock } from '../types';
import { PLACEHOLDER_AVATAR } from './response-avatar';
import { ResultsView } from './results-view';

const formBlock: ResultsBlock = {
  id: BLOCK_ID,
  owner_id: 'owner-1',
  type: 'form',
  name: 'Survey',
  response_count: 25,
};

/**
 * An API over a fixed list of rows that pages like the real one (cursor + limit); its summary
 * counts `counted` responses, one fewer after a delete of a counted one, more after approvals.
 */
function fakeApi(given: ResponseRow[], overrides: Partial<ResultsApi> = {}, counted = 25) {
  const all = [...given];
  const listResponses = vi.fn<ResultsApi['listResponses']>(async ({ after, limit }) => {
    const start = after ? all.findIndex((row) => row.id === after.id) + 1 : 0;
    return all.slice(start, start + limit);
  });
  const deleteResponse = vi.fn<ResultsApi['deleteResponse']>(async ({ id }) => {
    const index = all.findIndex((row) => row.id === id);
    if (!all[index]!.held) counted -= 1;
    all.splice(index, 1);
  });
  const summary = vi.fn<ResultsApi['summary']>(async () =>
    summaryOf({ totals: { ...summaryOf().totals, responses: counted } }),
  );
  const approveResponses = vi.fn<ResultsApi['approveResponses']>(async ({ ids }) => {
    counted += ids.length;
    return ids.length;
  });
  return { listResponses, deleteResponse, approveResponses, summary, ...overrides };
}

const rows = () => screen.queryAllByTestId('result-row');

function renderView(api: ResultsApi, block = formBlock) {
  return renderWithProviders(<ResultsView block={block} questions={questions} api={api} />);
}

describe('ResultsView', () => {
  it('shows each response with name, time and answers in question order', async () => {
    const first = responseRow({
      creator_name: 'Kim',
      created_at: '2025-02-03T04:05:00Z',
      answers: {
        [Q2]: answer(1, 'Favourite colours', 'poll', ['Red', 'Blue'], ['a', 'b']),
        [Q1]: answer(0, 'Your name', 'short_text', 'Kim Minji'),
        [Q_DELETED]: answer(2, 'Old question', 'short_text', 'old answer'),
      },
    });
    const api = fakeApi([first, responseRow({ creator_name: null, answers: {} })]);
    renderView(api);

    await waitFor(() => expect(rows()).toHaveLength(2));
    const row = rows()[0]!;
    expect(within(row).getByText('Kim')).toBeTruthy();
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2025-02-03T04:05:00Z');
    expect(row.querySelector('.result-summary')?.textContent).toBe(
      'Your name: Kim Minji · Favourite colours: Red, Blue · Old question (deleted question): old answer',
    );
    expect(within(rows()[1]!).getByText('Anonymous')).toBeTruthy();
    expect(within(rows()[1]!).getByText('No answer')).toBeTruthy();
    expect(api.listResponses).toHaveBeenCalledWith(
      { blockId: BLOCK_ID, after: undefined, limit: 10 },
      expect.any(AbortSignal),
    );
    expect(screen.getByRole('heading', { name: '25 responses' })).toBeTruthy();
  });

  it('says what a like or button row means', async () => {
    renderView(fakeApi([responseRow({ kind: 'like', answers: {} })]), {
      ...formBlock,
      type: 'like',
    });
    await waitFor(() => expect(screen.getByText('Liked this block')).toBeTruthy());
  });

  it('toggles the details with aria-expanded', async () => {
    const row = responseRow({
      answers: { [Q1]: answer(0, 'Your name', 'short_text', 'Lee') },
      timezone: 'Asia/Seoul',
    });
    renderView(fakeApi([row]));
    const toggle = await screen.findByRole('button', { name: 'Show details' });
    const detail = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(detail.hidden).toBe(true);

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Hide details');
    expect(detail.hidden).toBe(false);
    expect(within(detail).getByText('Asia/Seoul')).toBeTruthy();
    expect(within(detail).getByText(row.creator_id)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Hide details' }));
    expect(detail.hidden).toBe(true);
  });

  it('deletes a response after confirmation and removes its row', async () => {
    const all = [responseRow({ creator_name: 'Keep' }), responseRow({ creator_name: 'Remove' })];
    const api = fakeApi(all);
    const onDeleted = vi.fn();
    renderWithProviders(
      <ResultsView block={formBlock} questions={questions} api={api} onDeleted={onDeleted} />,
    );
    await waitFor(() => expect(rows()).toHaveLength(2));

    fireEvent.click(within(rows()[1]!).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this response?' });
    expect(api.deleteResponse).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.deleteResponse).toHaveBeenCalledWith({ id: all[1]!.id });
    expect(screen.queryByText('Remove')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByText('Response deleted').getAttribute('role')).toBe('status');
    expect(screen.getByRole('heading', { name: '24 responses' })).toBeTruthy();
    expect(onDeleted).toHaveBeenCalledWith(all[1]);
    // the summary is read again, so its figures count the rows that remain
    await waitFor(() => expect(api.summary).toHaveBeenCalledTimes(2));
  });

  it('counts the responses the summary counts, not the block count from when the workspace opened', async () => {
    // the workspace opened with 1 response; a second came in before the Result tab was shown
    const all = [responseRow({ creator_name: 'New' }), responseRow({ creator_name: 'Old' })];
    const api = fakeApi(all, {}, 2);
    renderView(api, { ...formBlock, response_count: 1 });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(await screen.findByRole('heading', { name: '2 responses' })).toBeTruthy();
    expect(screen.getByText('All responses are shown.')).toBeTruthy();

    fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'Delete' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByRole('heading', { name: '1 response' })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('1 response');
  });

  it("shows a delete at once, the count following, without waiting for the summary's re-read", async () => {
    const all = [
      responseRow({ creator_name: 'New' }),
      responseRow({ creator_name: 'Storm', held: true }),
      responseRow({ creator_name: 'Old' }),
    ];
    const fake = fakeApi(all, {}, 2);
    // the first read answers; each re-read after a delete waits until released
    let release = () => {};
    const summary = vi.fn<ResultsApi['summary']>(async (input, signal) => {
      if (summary.mock.calls.length > 1) await new Promise<void>((resolve) => (release = resolve));
      return fake.summary(input, signal);
    });
    renderView({ ...fake, summary });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(await screen.findByRole('heading', { name: '2 responses' })).toBeTruthy();

    // a counted response, then a held one (which the count never had: it stays)
    for (const [name, left, heading] of [
      ['New', 2, '1 response'],
      ['Storm', 1, '1 response'],
    ] as const) {
      const calls = summary.mock.calls.length;
      const row = rows().find((r) => within(r).queryByText(name))!;
      fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
      fireEvent.click(
        within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
      );
      // the row and the dialog go, and the heading agrees, while the re-read is still under way
      await waitFor(() => expect(rows()).toHaveLength(left));
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(screen.getByRole('heading', { name: heading })).toBeTruthy();
      await waitFor(() => expect(summary).toHaveBeenCalledTimes(calls + 1));
      await act(async () => release());
      await waitFor(() => expect(screen.getByRole('heading', { name: heading })).toBeTruthy());
      expect(rows()).toHaveLength(left);
    }
  });

  it('marks a response held by escalation, and Approve counts it', async () => {
    const held = responseRow({ creator_name: 'Storm', held: true });
    const api = fakeApi([responseRow({ creator_name: 'Counted' }), held]);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(2));
    // only the held one is marked and has Approve, described by the writer and the mark
    expect(within(rows()[0]!).queryByRole('button', { name: 'Approve' })).toBeNull();
    const row = rows()[1]!;
    expect(row.dataset.held).toBe('true');
    expect(within(row).getByText('Held')).toBeTruthy();
    const approve = within(row).getByRole('button', { name: 'Approve' });
    const described = approve
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described[0]).toBe('Storm');
    expect(described[1]).toMatch(/^Held It came in a burst of new visitors/);

    fireEvent.click(approve);
    await waitFor(() => expect(within(row).queryByText('Held')).toBeNull());
    expect(api.approveResponses).toHaveBeenCalledWith({ ids: [held.id] });
    expect(within(row).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByText('Response approved: it counts now.').getAttribute('role')).toBe(
      'status',
    );
    expect(screen.getByRole('heading', { name: '26 responses' })).toBeTruthy();
    await waitFor(() => expect(api.summary).toHaveBeenCalledTimes(2));
  });

  it("says why an approval failed in the reader's language, not the server's words", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi([responseRow({ held: true })], {
      approveResponses: vi.fn(async () => {
        throw { code: 'PT404', message: "response doesn't exists", details: '', hint: '' };
      }),
    });
    await i18next.changeLanguage('ko');
    renderView(api);
    await screen.findByRole('button', { name: '승인' });
    await alertsAfterClicks([
      [
        'ko',
        '승인',
        '응답을 승인하지 못했습니다: 이미 없습니다(그사이 삭제되었습니다). 새로 고침해 지금 상태를 확인해 주세요.',
      ],
    ]);
  });

  it('says how much of the month is left when approving would go over it, in Korean too', async () => {
    const api = fakeApi([responseRow({ held: true })], {
      approveResponses: vi.fn(async () => {
        throw new QuotaError('Monthly response limit reached', 0, 1);
      }),
    });
    renderView(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This month has room for 0 more responses, not the 1 you are approving. Nothing was approved.',
    );
    expect(screen.getByText('Held')).toBeTruthy();
    await act(() => i18next.changeLanguage('ko'));
    try {
      expect(screen.getByText('보류됨')).toBeTruthy();
      expect(screen.getByRole('button', { name: '승인' })).toBeTruthy();
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('cancelling the confirmation deletes nothing', async () => {
    const api = fakeApi([responseRow()]);
    renderView(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.deleteResponse).not.toHaveBeenCalled();
    expect(rows()).toHaveLength(1);
  });

  it('keeps the row and shows the error when the delete fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi([responseRow({ creator_name: 'Stays' })], {
      deleteResponse: vi.fn(async () => {
        throw { code: '42501', message: 'permission denied for table responses' };
      }),
    });
    renderView(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(
      'The response could not be deleted: You may not do this with your account.',
    );
    expect(rows()).toHaveLength(1);
    expect(screen.getByText('Stays')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '25 responses' })).toBeTruthy();
  });

  it("says a failed delete's reason in Korean, not the server's English", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await i18next.changeLanguage('ko');
    const failures: unknown[] = [
      { code: 'XX000', message: 'internal error in trigger responses_after_delete' },
      Object.assign(new Error('The response no longer exists'), { code: 'not_found' }),
    ];
    const api = fakeApi([responseRow()], {
      deleteResponse: vi.fn(async () => {
        throw failures.shift();
      }),
    });
    renderView(api);
    fireEvent.click(await screen.findByRole('button', { name: '삭제' }));
    expect(await alertsAfterTries(screen.getByRole('alertdialog'), '삭제', 2)).toEqual([
      '응답을 삭제하지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      '응답을 삭제하지 못했습니다: 응답이 이미 없거나 삭제할 권한이 없습니다.',
    ]);
  });

  it('asks for the next page after the last row with "Load more" and stops on a short page', async () => {
    const all = Array.from({ length: 23 }, () => responseRow());
    const api = fakeApi(all);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(10));

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(api.listResponses).toHaveBeenLastCalledWith(
      { blockId: BLOCK_ID, after: { created_at: all[9]!.created_at, id: all[9]!.id }, limit: 10 },
      expect.any(AbortSignal),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(23));
    // 3 < 10: that was the last page
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('All responses are shown.')).toBeTruthy();
    expect(api.listResponses).toHaveBeenCalledTimes(3);
  });

  it('loads the next page when a scroll reaches 90%, but not before', async () => {
    const api = fakeApi(Array.from({ length: 15 }, () => responseRow()));
    const { container } = renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(10));
    const section = container.querySelector<HTMLElement>('.results')!;
    const scrollTo = (scrollTop: number) => {
      Object.defineProperties(section, {
        scrollTop: { configurable: true, value: scrollTop },
        clientHeight: { configurable: true, value: 200 },
        scrollHeight: { configurable: true, value: 1000 },
      });
      act(() => {
        section.dispatchEvent(new Event('scroll'));
      });
    };

    scrollTo(600); // 800 of 1000 in view
    expect(api.listResponses).toHaveBeenCalledTimes(1);
    scrollTo(700); // 900 of 1000
    await waitFor(() => expect(rows()).toHaveLength(15));
    expect(api.listResponses).toHaveBeenCalledTimes(2);

    scrollTo(800); // no more pages: no further request
    expect(api.listResponses).toHaveBeenCalledTimes(2);
  });

  it('shows an empty state', async () => {
    renderView(fakeApi([]), { ...formBlock, response_count: 0 });
    expect(await screen.findByText('No responses yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows a load error with a retry that keeps the rows already read', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const all = Array.from({ length: 12 }, () => responseRow());
    const working = fakeApi(all);
    const listResponses = vi
      .fn<ResultsApi['listResponses']>()
      .mockImplementationOnce(working.listResponses)
      .mockRejectedValueOnce(new Error('network down'))
      .mockImplementation(working.listResponses);
    renderView({ ...working, listResponses });
    await waitFor(() => expect(rows()).toHaveLength(10));

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to load: The connection failed. Check it and try again.',
    );
    expect(rows()).toHaveLength(10);

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(12));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('falls back to the placeholder picture when a photo fails, and to the visitor colour without one', async () => {
    renderView(
      fakeApi([
        responseRow({ creator_photo_url: 'https://example.com/me.png' }),
        responseRow({ creator_photo_url: null, creator_name: 'Otter', color: '#1565c0' }),
      ]),
    );
    await waitFor(() => expect(rows()).toHaveLength(2));
    const img = rows()[0]!.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://example.com/me.png');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PLACEHOLDER_AVATAR);
    const initial = rows()[1]!.querySelector<HTMLElement>('.result-avatar-initial')!;
    expect(initial.textContent).toBe('O');
    expect(initial.style.background).toMatch(/rgb\(21, 101, 192\)|#1565c0/);
  });

  it('is in Korean when the language is ko', async () => {
    const { setLanguage } = await import('../../../../lib/i18n');
    await setLanguage('ko', false);
    renderView(fakeApi([responseRow()]));
    expect(await screen.findByRole('button', { name: '자세히 보기' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '삭제' })).toBeTruthy();
  });
});

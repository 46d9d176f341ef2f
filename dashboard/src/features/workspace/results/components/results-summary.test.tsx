import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/utils';
import type { ResultsApi } from '../api/results-api';
import { BLOCK_ID, summaryOf } from '../test-data';
import { ResultsSummary } from './results-summary';

const block = {
  id: BLOCK_ID,
  owner_id: 'o',
  type: 'form' as const,
  name: 'Survey',
  response_count: 25,
};

const apiWith = (summary: ResultsApi['summary']) => ({ summary: vi.fn(summary) });

describe('ResultsSummary', () => {
  it('reads the summary in one call with the browser time zone and shows the totals', async () => {
    const api = apiWith(async () => summaryOf());
    renderWithProviders(<ResultsSummary block={block} api={api} newSinceLastVisit={3} />);
    const totals = await screen.findByRole('heading', { name: 'Summary' });
    expect(totals).toBeTruthy();
    expect(api.summary).toHaveBeenCalledTimes(1);
    expect(api.summary.mock.calls[0]![0]).toMatchObject({ blockId: BLOCK_ID });
    expect(api.summary.mock.calls[0]![0].timeZone).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.summary-totals')).toBeTruthy());
    const terms = [...document.querySelectorAll('.summary-totals > div')].map((d) => d.textContent);
    expect(terms).toEqual([
      'Responses25',
      'Last 7 days9',
      'New since your last visit3',
      expect.stringMatching(/^Latest26\.11\.0[34] \d\d:05$/),
    ]);
  });

  it('draws the timeline as an SVG image with a title, a description and a table', async () => {
    renderWithProviders(<ResultsSummary block={block} api={apiWith(async () => summaryOf())} />);
    const chart = await screen.findByRole('img', { name: /responses per day/i });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    expect(chart.querySelectorAll('.chart-bars rect')).toHaveLength(3);
    expect(chart.querySelector('desc')?.textContent).toBe(
      'From 26.11.01 to 26.11.03: 25 responses in all; the most, 10, on 26.11.01.',
    );
    const table = screen.getByRole('table', { name: 'responses per day' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Dayresponses', '26.11.0110', '26.11.026', '26.11.039']);
  });

  it('says one in the singular in the description (an outside tester heard "1 responses")', async () => {
    const one = summaryOf({ timeline: { unit: 'day', points: [{ t: '2026-11-28', n: 1 }] } });
    const likes = { ...block, type: 'like' as const };
    const { unmount } = renderWithProviders(
      <ResultsSummary block={block} api={apiWith(async () => one)} />,
    );
    expect((await screen.findByRole('img')).querySelector('desc')?.textContent).toBe(
      'From 26.11.28 to 26.11.28: 1 response in all; the most, 1, on 26.11.28.',
    );
    unmount();
    renderWithProviders(<ResultsSummary block={likes} api={apiWith(async () => one)} />);
    expect((await screen.findByRole('img')).querySelector('desc')?.textContent).toContain(
      ': 1 like in all;',
    );
  });

  it('shows the share of each option, number figures and the latest text answers', async () => {
    renderWithProviders(<ResultsSummary block={block} api={apiWith(async () => summaryOf())} />);
    const poll = (await screen.findByRole('heading', { name: 'Favourite colours' })).closest(
      'article',
    )!;
    expect(poll.textContent).toContain('20 of 25 answered');
    expect(poll.textContent).toContain('shares add up to more than 100%');
    const options = within(poll)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(options).toEqual([
      'Red75% (15 votes)',
      'Blue25% (5 votes)',
      'Green (deleted option)5% (1 vote)',
    ]);
    expect(poll.querySelector('.option-bar-fill')?.getAttribute('width')).toBe('75%');
    expect(poll.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');

    const age = screen.getByRole('heading', { name: 'Age' }).closest('article')!;
    expect([...age.querySelectorAll('dd')].map((d) => d.textContent)).toEqual([
      '4',
      '30.5',
      '29',
      '20 to 44',
    ]);
    const comment = screen.getByRole('heading', { name: 'Comment' }).closest('article')!;
    expect(within(comment).getByRole('list', { name: 'Latest answers' }).textContent).toContain(
      '정말 좋아요',
    );
  });

  it('reads in Korean', async () => {
    await i18next.changeLanguage('ko');
    renderWithProviders(<ResultsSummary block={block} api={apiWith(async () => summaryOf())} />);
    expect(await screen.findByRole('heading', { name: '요약' })).toBeTruthy();
    const chart = await screen.findByRole('img', { name: /일별 응답/ });
    expect(chart.querySelector('desc')?.textContent).toBe(
      '26.11.01부터 26.11.03까지 모두 응답 25개, 26.11.01에 가장 많은 10개.',
    );
    expect(screen.getByText(/25명 중 20명 응답/)).toBeTruthy();
    expect(screen.getByText('75% (15표)')).toBeTruthy();
  });

  it('shows nothing for a block without responses, and a retry after a failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const empty = summaryOf({
      totals: { responses: 0, last_7_days: 0, first_at: null, last_at: null, held: 0 },
      timeline: { unit: 'day', points: [] },
      questions: [],
    });
    const { unmount } = renderWithProviders(
      <ResultsSummary block={block} api={apiWith(async () => empty)} />,
    );
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Summary' })).toBeNull());
    unmount();

    const summary = vi
      .fn<ResultsApi['summary']>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(summaryOf());
    renderWithProviders(<ResultsSummary block={block} api={{ summary }} />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to load the summary: Something went wrong on our side. Try again in a moment.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: /responses per day/i })).toBeTruthy();
  });
});

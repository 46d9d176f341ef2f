import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeResizeObserver, layOut } from '../../../test/scroll-box';
import { fakeProfile, renderWithProviders, signedInSession } from '../../../test/utils';
import type { GroupRow, MemberRow } from '../api/audience';
import * as api from '../api/audience';
import { registerAudienceTranslations } from '../locales';
import { AudiencePage } from './audience-page';

vi.mock('../api/audience', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/audience')>()),
  listMembers: vi.fn(),
  listGroups: vi.fn(),
  blockMemberCounts: vi.fn(),
  deleteMember: vi.fn(),
  updateMember: vi.fn(),
  confirmationUsage: vi.fn(),
}));

registerAudienceTranslations();

/** n members, newest first, created in one import (one created_at: the keyset needs the id). */
const members = (from: number, n: number): MemberRow[] =>
  Array.from(
    { length: n },
    (_, i) =>
      ({
        id: `m${String(1000 - from - i).padStart(4, '0')}`,
        user_id: 'user-1',
        creator_name: `Member ${from + i}`,
        email: null,
        group_name: null,
        created_at: '2026-11-20T00:00:00+00:00',
        last_updated: '2026-11-20T00:00:00+00:00',
        deactivated: false,
        history: [],
        first_event: null,
        is_unsubscribed: false,
      }) as unknown as MemberRow,
  );

// jsdom lays nothing out: the page says its rows do not fill it (90 % of it is in view), as a
// short list on a tall screen would, so each next page is read at once (lib/use-scroll-loading.ts)
const page = document.scrollingElement ?? document.documentElement;
beforeAll(() => {
  Object.defineProperty(page, 'clientHeight', { configurable: true, value: 950 });
  Object.defineProperty(page, 'scrollHeight', { configurable: true, value: 1000 });
});
afterAll(() => {
  Reflect.deleteProperty(page, 'clientHeight');
  Reflect.deleteProperty(page, 'scrollHeight');
});

beforeEach(() => {
  vi.mocked(api.listGroups).mockResolvedValue([]);
  vi.mocked(api.listMembers).mockReset();
  vi.mocked(api.deleteMember).mockResolvedValue(undefined);
  vi.mocked(api.confirmationUsage).mockResolvedValue({ limit: 300, sent: 2, capped: 0 });
});

describe('audience members list', () => {
  it('reads 10 at a time through the query, the next page after the last row shown', async () => {
    vi.mocked(api.listMembers)
      .mockResolvedValueOnce(members(0, 10))
      .mockResolvedValueOnce(members(10, 3));
    renderWithProviders(<AudiencePage />, { session: signedInSession() });
    await waitFor(() => expect(screen.getAllByTestId('audience-row')).toHaveLength(13));
    expect(api.listMembers).toHaveBeenNthCalledWith(
      1,
      {
        deactivated: false,
        emailOnly: false,
        group: null,
        blockId: undefined,
        after: undefined,
        limit: 10,
      },
      expect.any(AbortSignal),
    );
    // the page after the tenth row, which shares its created_at with the rest of the import
    expect(vi.mocked(api.listMembers).mock.calls[1]![0].after).toEqual(members(9, 1)[0]);
    expect(api.listMembers).toHaveBeenCalledTimes(2);
  });

  it('stops at the free plan’s first 100 members', async () => {
    vi.mocked(api.listMembers).mockImplementation(async (q) =>
      members(q.after ? 1001 - Number(q.after.id.slice(1)) : 0, 10),
    );
    renderWithProviders(<AudiencePage />, {
      session: signedInSession({ profile: fakeProfile({ paid: false }) }),
    });
    await waitFor(() => expect(screen.getAllByTestId('audience-row')).toHaveLength(100));
    expect(await screen.findByText(/first 100/i)).toBeTruthy();
    expect(api.listMembers).toHaveBeenCalledTimes(10);
  });

  it('says how many typed addresses the daily confirmation mails left unasked, only when any', async () => {
    vi.mocked(api.listMembers).mockResolvedValue(members(0, 2));
    const { unmount } = renderWithProviders(<AudiencePage />, { session: signedInSession() });
    await screen.findAllByTestId('audience-row');
    await waitFor(() => expect(api.confirmationUsage).toHaveBeenCalled());
    expect(screen.queryByText(/got no confirmation mail/)).toBeNull();
    unmount();
    vi.mocked(api.confirmationUsage).mockResolvedValue({ limit: 30, sent: 30, capped: 4 });
    renderWithProviders(<AudiencePage />, { session: signedInSession() });
    expect(
      await screen.findByText(
        '4 addresses visitors typed got no confirmation mail in the last 24 hours: your plan sends 30 a day. They stay awaiting and are asked again when next given; add them yourself if you know they want your letters.',
      ),
    ).toBeTruthy();
  });

  it("the list is a Tab stop only while its box scrolls: not as a phone's cards (look2)", async () => {
    // before: tabIndex 0 always, and at 375 px Tab stopped on cards with nothing to scroll
    fakeResizeObserver();
    vi.mocked(api.listMembers).mockResolvedValue(members(0, 2));
    renderWithProviders(<AudiencePage />, { session: signedInSession() });
    await screen.findAllByTestId('audience-row');
    const box = screen.getByRole('region', { name: 'Table of audience members' });
    expect(box.hasAttribute('tabindex')).toBe(false);
    layOut(box, 'visible', [330, 900], [330, 900]);
    expect(box.hasAttribute('tabindex')).toBe(false);
    // wider: the 70vh box, its columns wider than it
    layOut(box, 'auto', [700, 500], [1100, 500]);
    expect(box.tabIndex).toBe(0);
    vi.unstubAllGlobals();
  });

  it('a deleted member leaves the list', async () => {
    vi.mocked(api.listMembers).mockResolvedValue(members(0, 2));
    renderWithProviders(<AudiencePage />, {
      session: signedInSession({ profile: fakeProfile({ paid: true }) }),
    });
    const rows = await screen.findAllByTestId('audience-row');
    expect(rows).toHaveLength(2);
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Delete Member 0' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.getAllByTestId('audience-row')).toHaveLength(1));
    expect(api.deleteMember).toHaveBeenCalledWith(members(0, 1)[0]!.id);
  });

  it("a block's page counts the members who reacted to it, as its list shows them, not the whole audience", async () => {
    const group = (name: string, count: number) =>
      ({
        id: name,
        user_id: 'user-1',
        name,
        count,
        created_at: '',
        member_count: count,
      }) as GroupRow;
    vi.mocked(api.listGroups).mockResolvedValue([
      group('activated', 296),
      group('deactivated', 4),
      group('friends', 40),
    ]);
    vi.mocked(api.blockMemberCounts).mockImplementation(async (_block, deactivated) =>
      deactivated ? { all: 1, groups: { friends: 1 } } : { all: 0, groups: { friends: 0 } },
    );
    vi.mocked(api.listMembers).mockImplementation(async (q) =>
      q.deactivated ? members(0, 1) : [],
    );
    renderWithProviders(<AudiencePage blockId="block-1" blockName="Survey" />, {
      session: signedInSession(),
    });
    await screen.findByText('No members here yet');
    const all = screen.getByRole('button', { name: /All members/ });
    await waitFor(() => expect(all.textContent).toBe('All members0'));
    expect(screen.getByRole('button', { name: /^friends/ }).textContent).toBe('friends0');
    expect(api.blockMemberCounts).toHaveBeenCalledWith(
      'block-1',
      false,
      ['friends'],
      expect.any(AbortSignal),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Deactivated' }));
    await screen.findAllByTestId('audience-row');
    await waitFor(() => expect(all.textContent).toBe('All members1'));
    // the owner's own page keeps the groups' counts, with no count per block asked
    vi.mocked(api.blockMemberCounts).mockClear();
    renderWithProviders(<AudiencePage />, { session: signedInSession() });
    await waitFor(() =>
      expect(
        screen.getAllByRole('button', { name: /All members/ }).map((b) => b.textContent),
      ).toContain('All members296'),
    );
    expect(api.blockMemberCounts).not.toHaveBeenCalled();
  });
});

describe('editing a member', () => {
  afterEach(async () => {
    await i18next.changeLanguage('en');
  });

  /** The page in edit mode with two members with addresses: their rows. */
  const editing = async (edit: string) => {
    const two = members(0, 2).map((m, i) => ({ ...m, email: `m${i}@example.com` }));
    vi.mocked(api.listMembers).mockResolvedValue(two);
    renderWithProviders(<AudiencePage />, {
      session: signedInSession({ profile: fakeProfile({ paid: true }) }),
    });
    await screen.findAllByTestId('audience-row');
    fireEvent.click(screen.getByRole('button', { name: edit }));
    return { two, rows: screen.getAllByTestId('audience-row') };
  };

  const save = async (row: HTMLElement, field: string, value: string, button: string) => {
    fireEvent.change(within(row).getByLabelText(field), { target: { value } });
    await act(async () => {
      // named after the member, as Delete is: 'Save Ann', '정하나 저장' (the word is a whole word in it)
      fireEvent.click(within(row).getByRole('button', { name: new RegExp(`(^| )${button}( |$)`) }));
    });
  };

  it("names each row's Save after its member, as Delete, en and ko (rev-owner D6)", async () => {
    const { rows } = await editing('Edit');
    const buttons = (row: HTMLElement) =>
      within(row)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(rows.map(buttons)).toEqual([
      ['Save Member 0', 'Delete Member 0'],
      ['Save Member 1', 'Delete Member 1'],
    ]);
    await act(() => i18next.changeLanguage('ko'));
    expect(buttons(rows[0]!)).toEqual(['Member 0 저장', 'Member 0 삭제']);
  });

  /** What PostgREST answers when the address is another member's (any case: the unique index). */
  const taken = {
    code: '23505',
    message:
      'duplicate key value violates unique constraint "audience_members_user_id_lower_email_idx"',
  };

  for (const [language, labels, said] of [
    [
      'en',
      { edit: 'Edit', name: 'Name', email: 'Email', save: 'Save' },
      { saved: 'Saved.', taken: 'This address is already in your audience.' },
    ],
    [
      'ko',
      { edit: '편집', name: '이름', email: '이메일', save: '저장' },
      { saved: '저장했습니다.', taken: '이미 오디언스에 있는 주소입니다.' },
    ],
  ] as const) {
    it(`an address another member has says so (${language}), and the earlier "Saved." goes`, async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      await i18next.changeLanguage(language);
      const { two, rows } = await editing(labels.edit);
      vi.mocked(api.updateMember).mockResolvedValueOnce({ ...two[0]!, creator_name: 'Ann' });
      await save(rows[0]!, labels.name, 'Ann', labels.save);
      expect(screen.getByRole('status').textContent).toBe(said.saved);
      vi.mocked(api.updateMember).mockRejectedValueOnce(taken);
      await save(rows[1]!, labels.email, 'M0@EXAMPLE.COM', labels.save);
      expect(within(rows[1]!).getByRole('alert').textContent).toBe(said.taken);
      expect(screen.queryByText(/duplicate key/)).toBeNull();
      expect(screen.getByRole('status').textContent).toBe('');
    });
  }
});

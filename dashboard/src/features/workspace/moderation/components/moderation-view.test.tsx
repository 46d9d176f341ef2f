import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { alertsAfterClicks, alertsAfterTries, renderWithProviders } from '../../../../test/utils';
import type { LiveStatus, MessageChange, ModerationApi, ModerationMessage } from '../api';
import { ModerationView } from './moderation-view';

const BLOCK = '11111111-1111-4111-8111-111111111111';
const OWNER = '22222222-2222-4222-8222-222222222222';
let seq = 0;

function message(overrides: Partial<ModerationMessage> = {}): ModerationMessage {
  seq++;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    block_id: BLOCK,
    parent_id: null,
    creator_id: `33333333-3333-4333-8333-${String(seq).padStart(12, '0')}`,
    creator_name: `Visitor ${seq}`,
    creator_photo_url: null,
    color: '#336699',
    home_url: null,
    content: `message ${seq}`,
    is_edited: false,
    resolved: false,
    like_count: 0,
    reply_count: 0,
    timezone: null,
    created_at: new Date(Date.UTC(2026, 10, 1, 12, 0, 60 - seq)).toISOString(),
    status: 'published',
    pinned_at: null,
    imitates_owner: false,
    page_key: '',
    writer_anonymous: true,
    writer_blocked: false,
    creator_email: null,
    report_count: 0,
    reports: [],
    parent: null,
    ...overrides,
  };
}

/** An API over a list the test changes; `emit` plays a Realtime change. */
function fakeApi(initial: ModerationMessage[]) {
  let all = [...initial];
  let listener: ((c: MessageChange) => void) | undefined;
  const api = {
    list: vi.fn<ModerationApi['list']>(async ({ filter, search, limit }) =>
      all
        .filter((m) =>
          filter === 'held'
            ? m.status === 'held'
            : filter === 'reported'
              ? m.report_count > 0
              : filter === 'resolved'
                ? m.resolved
                : true,
        )
        .filter((m) => !search || m.content.includes(search) || m.creator_name.includes(search))
        .slice(0, limit ?? 50),
    ),
    moderate: vi.fn<ModerationApi['moderate']>(async ({ ids, action }) => {
      if (action === 'delete') all = all.filter((m) => !ids.includes(m.id));
      else
        all = all.map((m) =>
          ids.includes(m.id)
            ? {
                ...m,
                status:
                  action === 'approve' ? 'published' : action === 'hide' ? 'hidden' : m.status,
                pinned_at: action === 'pin' ? '2026-11-01T13:00:00Z' : m.pinned_at,
                resolved: action === 'resolve' ? true : m.resolved,
              }
            : m,
        );
    }),
    blockWriter: vi.fn<ModerationApi['blockWriter']>(async ({ userId, blocked }) => {
      all = all.map((m) => (m.creator_id === userId ? { ...m, writer_blocked: blocked } : m));
    }),
    subscribe: vi.fn<ModerationApi['subscribe']>((_blockId, onChange, onStatus) => {
      listener = onChange;
      onStatus?.('live');
      return () => (listener = undefined);
    }),
  };
  return {
    api,
    add: (m: ModerationMessage) => {
      all = [m, ...all];
      listener?.({ type: 'INSERT', id: m.id });
    },
  };
}

const rows = () => screen.queryAllByTestId('moderation-row');

function renderView(api: ModerationApi, type: 'comment' | 'qna' = 'comment') {
  return renderWithProviders(
    <ModerationView block={{ id: BLOCK, type, name: 'Guest book', owner_id: OWNER }} api={api} />,
  );
}

describe('ModerationView', () => {
  it('lists every message and reply with writer, time, state, reports and the parent', async () => {
    const parent = message({ content: 'the question' });
    const held = message({
      status: 'held',
      creator_name: 'Admin',
      imitates_owner: true,
      writer_anonymous: true,
      page_key: 'cafe24:product:12',
    });
    const reply = message({
      page_key: 'blog/post-1',
      parent_id: parent.id,
      parent: {
        id: parent.id,
        creator_name: 'Visitor',
        content: 'the question',
        status: 'published',
      },
      report_count: 2,
      reports: [
        { reason: 'spam', created_at: '2026-11-01T12:00:00Z' },
        { reason: null, created_at: '2026-11-01T12:01:00Z' },
      ],
      writer_anonymous: false,
      writer_blocked: true,
    });
    renderView(fakeApi([held, reply, parent]).api);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('heading', { name: 'Comments of Guest book' })).toBeTruthy();
    const [first, second] = rows();
    expect(within(first!).getByText('Held')).toBeTruthy();
    expect(within(first!).getByText('Anonymous visitor')).toBeTruthy();
    expect(within(first!).getByText('Name looks like yours')).toBeTruthy();
    // the page the message is on (a Cafe24 product here)
    expect(within(first!).getByText('Product 12').getAttribute('title')).toBe('cafe24:product:12');
    expect(within(first!).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(first!.querySelector('time')?.getAttribute('datetime')).toBe(held.created_at);
    expect(within(second!).getByText('Signed in')).toBeTruthy();
    expect(within(second!).getByText('Blocked')).toBeTruthy();
    expect(within(second!).getByText('Page: blog/post-1')).toBeTruthy();
    expect(within(second!).getByText(/Reply to Visitor/)).toBeTruthy();
    expect(within(second!).getByText('2 reports')).toBeTruthy();
    expect(within(second!).getByText('Reason: spam', { exact: false })).toBeTruthy();
    // replies cannot be pinned
    expect(within(second!).queryByRole('button', { name: 'Pin to top' })).toBeNull();
    expect(within(second!).getByRole('button', { name: 'Unblock writer' })).toBeTruthy();
  });

  it('says when it is live, and reads again on joining what was written while it joined', async () => {
    const first = message({ content: 'before' });
    const { api } = fakeApi([first]);
    let setStatus: ((s: LiveStatus) => void) | undefined;
    api.subscribe.mockImplementation((_blockId, _onChange, onStatus) => {
      setStatus = onStatus;
      onStatus?.('connecting');
      return () => {};
    });
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByText('Connecting to live updates…')).toBeTruthy();
    // a visitor writes while the join is still under way: no event will ever carry it
    const during = message({
      content: 'written while joining',
      created_at: new Date(Date.UTC(2026, 10, 2)).toISOString(),
    });
    api.list.mockImplementation(async () => [during, first]);
    act(() => setStatus!('live'));
    expect(screen.getByText('Live: new messages appear as they arrive.')).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('1 new message arrived.'),
    );
    act(() => setStatus!('off'));
    expect(screen.getByText(/Live updates are paused/)).toBeTruthy();
  });

  it('filters, searches, and approves a held message', async () => {
    const held = message({ status: 'held', content: 'please approve me' });
    const { api } = fakeApi([held, message({ content: 'ordinary' })]);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('radio', { name: 'Held' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.list).toHaveBeenLastCalledWith(
      expect.objectContaining({ filter: 'held' }),
      expect.any(AbortSignal),
    );
    fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(api.moderate).toHaveBeenCalledWith({ ids: [held.id], action: 'approve' }),
    );
    await waitFor(() => expect(rows()).toHaveLength(0));
    expect(screen.getByText('No messages here.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Approved.');

    fireEvent.click(screen.getByRole('radio', { name: 'All' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search text and names' }), {
      target: { value: 'ordin' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.list).toHaveBeenLastCalledWith(
      expect.objectContaining({ search: 'ordin' }),
      expect.any(AbortSignal),
    );
  });

  it('says which held messages a storm held and which the hold setting did, in Korean too', async () => {
    const storm = message({ status: 'held', held_by: 'escalation', content: 'from the burst' });
    const setting = message({ status: 'held', held_by: 'setting', content: 'first time here' });
    const { api } = fakeApi([storm, setting]);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(2));
    const mark = within(rows()[0]!).getByText('Held: came in a burst');
    expect(mark.textContent).toBe(
      'Held: came in a burst Held because many new visitors wrote at once, not by your hold setting. Others see it once you approve it.',
    );
    expect(within(rows()[0]!).queryByText('Held')).toBeNull();
    expect(within(rows()[1]!).getByText('Held')).toBeTruthy();
    expect(within(rows()[1]!).queryByText(/came in a burst/)).toBeNull();
    await act(() => i18next.changeLanguage('ko'));
    try {
      expect(within(rows()[0]!).getByText('보류: 한꺼번에 몰린 글')).toBeTruthy();
      expect(within(rows()[1]!).getByText('보류')).toBeTruthy();
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('bulk: select several and hide them at once; delete asks first', async () => {
    const a = message();
    const b = message();
    const { api } = fakeApi([a, b, message()]);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(
      screen.getByRole('checkbox', { name: `Select the message from ${a.creator_name}` }),
    );
    fireEvent.click(
      screen.getByRole('checkbox', { name: `Select the message from ${b.creator_name}` }),
    );
    const bulk = screen.getByRole('group', { name: 'Actions for the selected messages' });
    expect(within(bulk).getByText('2 selected')).toBeTruthy();
    fireEvent.click(within(bulk).getByRole('button', { name: 'Hide' }));
    await waitFor(() =>
      expect(api.moderate).toHaveBeenCalledWith({ ids: [a.id, b.id], action: 'hide' }),
    );
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('2 messages hidden.'));

    fireEvent.click(within(bulk).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 2 messages?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.moderate).toHaveBeenLastCalledWith({ ids: [a.id, b.id], action: 'delete' });
  });

  it('blocks a writer after asking, optionally hiding what they wrote', async () => {
    const spam = message({ creator_name: 'Spammer' });
    const { api } = fakeApi([spam]);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Block writer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Block Spammer?' });
    fireEvent.click(
      within(dialog).getByRole('checkbox', { name: 'Also hide what they wrote here' }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Block writer' }));
    await waitFor(() =>
      expect(api.blockWriter).toHaveBeenCalledWith({
        blockId: BLOCK,
        userId: spam.creator_id,
        blocked: true,
        hideMessages: true,
      }),
    );
    expect(await screen.findByText('Blocked')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Spammer is blocked from this block.');
  });

  it('is live: a new message appears as it arrives and is announced', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fake = fakeApi([message()]);
      renderView(fake.api, 'qna');
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(screen.getByRole('heading', { name: 'Questions of Guest book' })).toBeTruthy();
      act(() =>
        fake.add(
          message({
            content: 'a new question',
            status: 'held',
            created_at: '2026-11-01T13:00:00.000Z',
          }),
        ),
      );
      await act(async () => {
        await vi.advanceTimersByTimeAsync(300);
      });
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(within(rows()[0]!).getByText('a new question')).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe('1 new message arrived.');
      // Q&A: resolve is offered, and its filter exists
      expect(within(rows()[0]!).getByRole('button', { name: 'Mark resolved' })).toBeTruthy();
      expect(screen.getByRole('radio', { name: 'Resolved' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows a refused action with its reason in the reader's language and keeps the list", async () => {
    const m = message({ writer_blocked: true });
    const { api } = fakeApi([m]);
    const refusal = (code: string, text: string) => ({
      code,
      message: text,
      details: '',
      hint: '',
    });
    api.moderate
      .mockRejectedValueOnce(refusal('PT403', 'Only the block owner can moderate messages'))
      .mockRejectedValueOnce(refusal('PT404', "message doesn't exists"));
    // block_writer's PT404: the block is not the signed-in account's (deleted meanwhile, or
    // another account signed in), not the writer gone
    api.blockWriter.mockRejectedValue(refusal('PT404', "block doesn't exists"));
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await alertsAfterClicks([
      ['en', 'Hide', 'Could not do that: You may not do this with your account.'],
      [
        'ko',
        '숨기기',
        '처리하지 못했습니다: 선택한 메시지 중 이미 없는 것이 있습니다(그사이 삭제되었습니다). 새로 고침해 지금 메시지를 확인해 주세요.',
      ],
      [
        'ko',
        '차단 해제',
        '처리하지 못했습니다: 이 블록은 더 이상 내 블록 목록에 없습니다(그사이 삭제되었거나 다른 계정으로 로그인했습니다). 새로 고침해 지금 블록을 확인해 주세요.',
      ],
      [
        'en',
        'Unblock writer',
        'Could not do that: This block is no longer among your blocks (deleted meanwhile, or another account signed in). Reload to see your blocks as they are now.',
      ],
    ]);
    expect(rows()).toHaveLength(1);
  });

  it('says why the list could not be read, in Korean too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api } = fakeApi([]);
    api.list.mockRejectedValue({
      code: 'PT404',
      message: "block doesn't exists",
      details: '',
      hint: '',
    });
    await i18next.changeLanguage('ko');
    renderView(api);
    expect((await screen.findByRole('alert')).textContent).toContain(
      '메시지를 불러오지 못했습니다: 이 블록은 더 이상 내 블록 목록에 없습니다(그사이 삭제되었거나 다른 계정으로 로그인했습니다).',
    );
  });

  it('says when more messages are chosen than one action takes, and sends nothing', async () => {
    const { api } = fakeApi([]);
    const many = Array.from({ length: 201 }, () => message());
    api.list.mockResolvedValue(many);
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(201));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Actions for the selected messages' })).getByRole(
        'button',
        { name: 'Hide' },
      ),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not do that: Choose at most 200 messages at once.',
    );
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Actions for the selected messages' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.moderate).not.toHaveBeenCalled();
    // 201 rows take a while to render on a busy machine
  });
  it("says why a delete or a block failed in the reader's language, never the server's English", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const spam = message({ creator_name: 'Spammer' });
    const { api } = fakeApi([spam]);
    // moderate_messages' own refusal (PT403) and a failure of another kind
    api.moderate.mockRejectedValueOnce({
      code: 'PT403',
      message: 'Only the block owner can moderate messages',
      details: '',
      hint: '',
    });
    api.blockWriter.mockRejectedValueOnce({
      code: 'XX000',
      message: 'could not block: internal error',
      details: '',
      hint: '',
    });
    renderView(api);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await act(() => i18next.changeLanguage('ko'));
    const row = rows()[0]!;
    fireEvent.click(within(row).getByRole('button', { name: '삭제' }));
    expect(await alertsAfterTries(await screen.findByRole('alertdialog'), '삭제', 1)).toEqual([
      '처리하지 못했습니다: 이 계정으로는 할 수 없는 작업입니다.',
    ]);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '취소' }));
    fireEvent.click(within(row).getByRole('button', { name: '작성자 차단' }));
    expect(
      await alertsAfterTries(await screen.findByRole('alertdialog'), '작성자 차단', 1),
    ).toEqual(['처리하지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.']);
  });
});

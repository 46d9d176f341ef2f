import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi, type Mock } from 'vitest';
import type { IntegrationNote, NotionIntegration } from '../../../lib/integrations';
import { fakeProfile, renderWithProviders, signedInSession } from '../../../test/utils';
import type { Cafe24Shop } from '../../../lib/cafe24';
import type { Cafe24Api, Cafe24Data, IntegrationsApi } from '../api/integrations';
import { IntegrationsPage } from './integrations-page';

vi.mock('../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

const notion = (over: Partial<NotionIntegration> = {}): NotionIntegration => ({
  id: 'i1',
  status: 'granted',
  workspace_name: 'Acme',
  status_reason: null,
  created_at: '2026-11-01T03:00:00Z',
  updated_at: '2026-11-01T03:00:00Z',
  ...over,
});

const note = (
  over: Partial<IntegrationNote> & Pick<IntegrationNote, 'id' | 'code'>,
): IntegrationNote => ({
  provider: 'notion',
  block_id: null,
  property: '',
  detail: { message: 'boom' },
  count: 1,
  last_at: '2026-11-02T05:06:00Z',
  ...over,
});

/**
 * Remove (in `scope`), confirmed in the dialog named `dialog`, with the reload that follows held:
 * the dialog closes and the removal is said (`said`) before the card is read again. Then the
 * reload answers (as load would then).
 */
async function removeBeforeReload<T>(
  scope: HTMLElement,
  dialog: string,
  load: Mock<() => Promise<T>>,
  said: string,
) {
  const remove = await within(scope).findByRole('button', { name: 'Remove' });
  remove.focus();
  fireEvent.click(remove);
  const confirm = screen.getByRole('alertdialog', { name: dialog });
  const real = load.getMockImplementation()!;
  let answer = () => {};
  load.mockImplementationOnce(
    () => new Promise<T>((resolve) => (answer = () => void real().then(resolve))),
  );
  fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
  await waitFor(() => {
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status').textContent).toBe(said);
  });
  // the reload has not answered (the card still has its Remove), and the dialog is gone
  expect(within(scope).getByRole('button', { name: 'Remove' })).toBeTruthy();
  expect(screen.queryByRole('alertdialog')).toBeNull();
  await act(async () => answer());
}

function api(
  state: { notion: NotionIntegration | null; notes?: IntegrationNote[] },
  over: Partial<IntegrationsApi> = {},
) {
  let current = { notion: state.notion, notes: state.notes ?? [] };
  return {
    load: vi.fn(async () => current),
    connect: vi.fn(async () => {
      current = { notion: notion(), notes: [] };
      return { status: 'connected' as const, workspaceName: 'Acme' };
    }),
    remove: vi.fn(async () => {
      current = { notion: null, notes: [] };
      return { revoked: true, unlinked: 2 };
    }),
    dismiss: vi.fn(async () => {}),
    ...over,
  } satisfies IntegrationsApi;
}

const BLOCK_C = '00000000-0000-4000-8000-0000000000c1';
const BLOCK_L = '00000000-0000-4000-8000-0000000000c2';
/** The comment block on product pages, a thread per product. */
const ON_PRODUCTS = {
  blockId: BLOCK_C,
  location: 'product_detail',
  perProduct: true,
  selector: '',
  position: 0,
} as const;

const shop = (over: Partial<Cafe24Shop> = {}): Cafe24Shop => ({
  id: 'shop-1',
  mall_id: 'myshop',
  removing: false,
  script_no: '1001',
  script_locations: ['product_detail'],
  loader_synced_at: '2026-11-02T00:00:02Z',
  sync_requested_at: '2026-11-02T00:00:01Z',
  loader_error: null,
  created_at: '2026-11-01T03:00:00Z',
  ...over,
});

function cafe24(state: Partial<Cafe24Data> = {}, over: Partial<Cafe24Api> = {}) {
  let current: Cafe24Data = {
    integration: null,
    shop: null,
    placements: [],
    blocks: [
      { id: BLOCK_C, name: 'Reviews', type: 'comment', deactivated: false },
      { id: BLOCK_L, name: 'Hearts', type: 'like', deactivated: false },
    ],
    notes: [],
    ...state,
  };
  return {
    load: vi.fn(async () => current),
    connect: vi.fn(async (mallId: string) => {
      current = {
        ...current,
        integration: notion({ workspace_name: mallId }),
        shop: shop({ mall_id: mallId, script_no: null, script_locations: [] }),
      };
      return { status: 'connected' as const, workspaceName: mallId };
    }),
    save: vi.fn(async () => {}),
    remove: vi.fn(async () => {
      current = { ...current, shop: current.shop && { ...current.shop, removing: true } };
      return { removing: true };
    }),
    dismiss: vi.fn(async () => {}),
    ...over,
  } satisfies Cafe24Api;
}

const render = (a: IntegrationsApi, paid = true, c: Cafe24Api = cafe24()) =>
  renderWithProviders(<IntegrationsPage api={a} cafe24Api={c} />, {
    route: '/profile/integration',
    session: signedInSession({ profile: fakeProfile({ paid }) }),
  });

const cafe24Card = async () =>
  (await screen.findByRole('heading', { name: 'Cafe24' })).closest('li')!;

describe('/profile/integration', () => {
  it('shows Notion not granted and connects through the popup', async () => {
    const a = api({ notion: null });
    render(a);
    expect(await screen.findByRole('heading', { level: 1, name: 'Integration' })).toBeTruthy();
    const card = (await screen.findByRole('heading', { name: 'Notion' })).closest('li')!;
    expect(card.textContent).toContain('Not granted');
    fireEvent.click(within(card).getByRole('button', { name: 'Connect Notion' }));
    expect(a.connect).toHaveBeenCalledWith(
      'The Notion window could not open. Allow pop-ups for this site and try again.',
    );
    await waitFor(() =>
      expect(document.querySelector('.notice')?.textContent).toBe('Notion is connected (Acme).'),
    );
    expect(screen.getByRole('status').textContent).toBe('Notion is connected (Acme).');
    await waitFor(() => expect(card.textContent).toContain('Granted'));
    expect(card.textContent).toContain('Workspace: Acme · Connected on 26.11.01');
  });

  it('removes after confirmation and says how many blocks were unlinked', async () => {
    const a = api({ notion: notion() });
    render(a);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove the Notion integration?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Notion was removed. 2 blocks were unlinked.',
      ),
    );
    expect(a.remove).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Connect Notion' })).toBeTruthy(),
    );
  });

  it('removal: the dialog closes and the removal is said before the card is read again; focus then on the heading', async () => {
    const a = api({ notion: notion() });
    render(a);
    await removeBeforeReload(
      document.body,
      'Remove the Notion integration?',
      vi.mocked(a.load),
      'Notion was removed. 2 blocks were unlinked.',
    );
    expect(await screen.findByRole('button', { name: 'Connect Notion' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    // Remove went with the integration: focus is on the page's heading, not lost to <body>
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('not granted: the warning says it, and the note saying the same is left out', async () => {
    render(
      api({
        notion: notion({ status: 'not_granted' }),
        notes: [note({ id: 'n1', code: 'unauthorized' }), note({ id: 'n2', code: 'write_failed' })],
      }),
    );
    const card = (await screen.findByRole('heading', { name: 'Notion' })).closest('li')!;
    expect(within(card).getByRole('note').textContent).toMatch(/^Notion refused our access/);
    const notes = within(card).getByRole('list', { name: 'Notes' });
    expect(within(notes).getAllByRole('listitem')).toHaveLength(1);
    expect(notes.textContent).toContain('could not be written to Notion after every retry: boom');
    expect(card.textContent).not.toContain('Connect Notion again; responses received meanwhile');
  });

  it('not granted: explains, offers to connect again, and dismisses notes', async () => {
    const a = api({
      notion: notion({ status: 'not_granted' }),
      notes: [
        {
          id: 'n1',
          provider: 'notion',
          block_id: null,
          code: 'write_failed',
          property: '',
          detail: { message: 'boom' },
          count: 2,
          last_at: '2026-11-02T05:06:00Z',
        },
      ],
    });
    render(a);
    expect(await screen.findByText(/Notion refused our access/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect Notion again' })).toBeTruthy();
    const notes = screen.getByRole('list', { name: 'Notes' });
    expect(notes.textContent).toContain('could not be written to Notion after every retry: boom');
    expect(notes.textContent).toMatch(/2 times, last 26\.11\.02 \d\d:06/);
    fireEvent.click(within(notes).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Notes' })).toBeNull());
    expect(a.dismiss).toHaveBeenCalledWith('n1');
  });

  it('a write Notion never answered says it may have been written, not that it failed (en, ko)', async () => {
    const uncertain = [note({ id: 'n3', code: 'write_uncertain', detail: { message: '502' } })];
    render(api({ notion: notion(), notes: uncertain }));
    const card = (await screen.findByRole('heading', { name: 'Notion' })).closest('li')!;
    const notes = await within(card).findByRole('list', { name: 'Notes' });
    expect(notes.textContent).toContain(
      'A response may have been written to Notion: Notion did not answer its last attempts, so we could not tell. Look for it in Notion before adding it by hand. Last error: 502',
    );
    expect(notes.textContent).not.toContain('could not be written');
    cleanup();
    const { setLanguage } = await import('../../../lib/i18n');
    await setLanguage('ko', false);
    render(api({ notion: notion(), notes: uncertain }));
    const ko = (await screen.findByRole('heading', { name: '노션' })).closest('li')!;
    await waitFor(() =>
      expect(ko.textContent).toContain('응답 하나가 노션에 쓰였을 수도 있습니다.'),
    );
    await setLanguage('en', false);
  });

  it('free owners see the paid hint instead of a working button', async () => {
    render(api({ notion: null }), false);
    const button = await screen.findByRole('button', { name: 'Connect Notion' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe('integration-paid');
    for (const link of screen.getAllByRole('link', { name: 'See plans' }))
      expect(link.getAttribute('href')).toBe('/profile/plan');
    const card = await cafe24Card();
    expect(
      (within(card).getByRole('button', { name: 'Connect Cafe24' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('reads in Korean', async () => {
    const { setLanguage } = await import('../../../lib/i18n');
    await setLanguage('ko', false);
    render(api({ notion: notion({ status: 'not_granted' }) }));
    expect(await screen.findByRole('heading', { level: 1, name: '연동' })).toBeTruthy();
    const notionCard = (await screen.findByRole('heading', { name: '노션' })).closest('li')!;
    expect(await within(notionCard).findByText('허용 안 됨')).toBeTruthy();
    expect(screen.getByRole('button', { name: '노션 다시 연결' })).toBeTruthy();
    const card = (await screen.findByRole('heading', { name: '카페24' })).closest('li')!;
    expect(await within(card).findByLabelText('카페24 쇼핑몰 아이디')).toBeTruthy();
    expect(card.textContent).toContain('상태: 연결 안 됨');
    expect(within(card).getByRole('button', { name: '카페24 연결' })).toBeTruthy();
  });
});

describe('/profile/integration: Cafe24', () => {
  it('connects the mall the owner names (an address works too) through the popup', async () => {
    const c = cafe24();
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    // nothing connected: said so, not "Not granted" (a refusal the owner never met)
    await waitFor(() => expect(card.textContent).toContain('Status: Not connected'));
    expect(card.textContent).not.toContain('Not granted');
    const input = await within(card).findByLabelText('Your Cafe24 mall ID');
    fireEvent.change(input, { target: { value: 'My Shop!' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Connect Cafe24' }));
    expect(
      await within(card).findByText(
        'Enter your Cafe24 mall ID: 4 to 16 lowercase letters and digits',
      ),
    ).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(c.connect).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: 'https://MyShop.cafe24.com/' } });
    // typing takes the refusal back
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
    fireEvent.click(within(card).getByRole('button', { name: 'Connect Cafe24' }));
    expect(c.connect).toHaveBeenCalledWith(
      'myshop',
      'The Cafe24 window could not open. Allow pop-ups for this site and try again.',
    );
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Your Cafe24 shop is connected (myshop).',
      ),
    );
    await waitFor(() => expect(card.textContent).toContain('Shop: myshop'));
    expect(card.textContent).toContain('Nothing in your shop yet: place a block below.');
  });

  it('names each screen the loader is on as the database stores it: the main page too', async () => {
    // before: every stored location read 'product pages' (the card compared with Cafe24's API
    // name 'MAIN'; the sync job stores the contracts' lower-case names)
    const c = cafe24({
      integration: notion({ workspace_name: 'myshop' }),
      shop: shop({ script_locations: ['main', 'product_detail'] }),
      placements: [ON_PRODUCTS],
    });
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    await waitFor(() =>
      expect(card.textContent).toContain('In your shop on: the main page, product pages.'),
    );
  });

  it('says where the loader is, and saves the blocks placed with a thread per product', async () => {
    const c = cafe24({
      integration: notion({ workspace_name: 'myshop' }),
      shop: shop(),
      placements: [ON_PRODUCTS],
    });
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    await waitFor(() => expect(card.textContent).toContain('In your shop on: product pages.'));
    const list = within(card).getByRole('list', { name: '' });
    void list;
    expect(within(card).getByRole('listitem', { name: 'Reviews on product pages' })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Add a block' }));
    const rows = within(card).getAllByRole('listitem', { name: /on product pages/ });
    expect(rows).toHaveLength(2);
    const second = rows[1]!;
    fireEvent.change(within(second).getByLabelText('Block'), { target: { value: BLOCK_L } });
    fireEvent.change(within(second).getByLabelText('Where'), { target: { value: 'main' } });
    // a thread per product is a product page's matter only
    expect(within(second).queryByLabelText('A separate thread for each product')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Save placements' }));
    await waitFor(() => expect(c.save).toHaveBeenCalledTimes(1));
    expect(c.save).toHaveBeenCalledWith([
      ON_PRODUCTS,
      { blockId: BLOCK_L, location: 'main', perProduct: false, selector: '', position: 0 },
    ]);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Placements saved. Your shop is updated within a few seconds.',
      ),
    );
  });

  it('refuses a placement twice on a screen and a selector that is no selector, before saving', async () => {
    const c = cafe24({ integration: notion(), shop: shop() });
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    const add = await within(card).findByRole('button', { name: 'Add a block' });
    fireEvent.click(add);
    fireEvent.click(add);
    fireEvent.click(within(card).getByRole('button', { name: 'Save placements' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'A block is placed twice on the same screen',
    );
    const [first] = within(card).getAllByRole('listitem', { name: /on product pages/ });
    fireEvent.click(within(first!).getByRole('button', { name: /^Remove Reviews/ }));
    const [row] = within(card).getAllByRole('listitem', { name: /on product pages/ });
    fireEvent.change(within(row!).getByLabelText(/After this part of the page/), {
      target: { value: '<script>' },
    });
    fireEvent.click(within(card).getByRole('button', { name: 'Save placements' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'Not a CSS selector this page can use',
    );
    expect(c.save).not.toHaveBeenCalled();
  });

  it('shows a refused refresh with its note and offers to connect again; disconnects after asking', async () => {
    const c = cafe24({
      integration: notion({ status: 'not_granted', workspace_name: 'myshop' }),
      shop: shop(),
      notes: [
        {
          id: 'c1',
          provider: 'cafe24',
          block_id: null,
          code: 'cafe24_loader_failed',
          property: '',
          detail: { reason: '422 src must be https' },
          count: 1,
          last_at: '2026-11-02T05:06:00Z',
        },
      ],
    });
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    expect(await within(card).findByText(/Cafe24 refused our access/)).toBeTruthy();
    expect(card.textContent).toContain('Status: Not granted');
    expect(within(card).getByRole('list', { name: 'Notes' }).textContent).toContain(
      'could not be updated after every retry: 422 src must be https',
    );
    fireEvent.click(within(card).getByRole('button', { name: 'Connect Cafe24 again' }));
    expect(c.connect).toHaveBeenCalledWith('myshop', expect.any(String));
    const remove = within(card).getByRole('button', { name: 'Remove' }) as HTMLButtonElement;
    await waitFor(() => expect(remove.disabled).toBe(false));
    fireEvent.click(remove);
    const dialog = screen.getByRole('alertdialog', { name: 'Disconnect your Cafe24 shop?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(c.remove).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(card.textContent).toContain('Taking the script off your shop…'));
  });

  it('not granted: the warning says it, and the note saying the same is left out', async () => {
    const c = cafe24({
      integration: notion({ status: 'not_granted', workspace_name: 'myshop' }),
      shop: shop(),
      notes: [
        note({ id: 'c1', provider: 'cafe24', code: 'cafe24_unauthorized' }),
        note({ id: 'c2', provider: 'cafe24', code: 'cafe24_loader_failed' }),
      ],
    });
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    expect((await within(card).findByRole('note')).textContent).toMatch(
      /^Cafe24 refused our access/,
    );
    const notes = within(card).getByRole('list', { name: 'Notes' });
    expect(within(notes).getAllByRole('listitem')).toHaveLength(1);
    expect(notes.textContent).toContain('could not be updated after every retry: boom');
    expect(card.textContent).not.toContain('or its access expired. Connect Cafe24 again.');
  });

  it('taken over: the card offers to connect a shop and says why the mall is gone (en, ko)', async () => {
    const taken = [
      note({
        id: 'c3',
        provider: 'cafe24',
        code: 'cafe24_taken_over',
        detail: { mall_id: 'myshop' },
      }),
    ];
    render(api({ notion: null }), true, cafe24({ integration: null, shop: null, notes: taken }));
    const card = await cafe24Card();
    const notes = await within(card).findByRole('list', { name: 'Notes' });
    expect(notes.textContent).toContain(
      'Your Cafe24 shop myshop is no longer connected here: Cafe24 had refused our access to it',
    );
    expect(within(card).getByRole('button', { name: 'Connect Cafe24' })).toBeTruthy();
    cleanup();
    const { setLanguage } = await import('../../../lib/i18n');
    await setLanguage('ko', false);
    render(api({ notion: null }), true, cafe24({ integration: null, shop: null, notes: taken }));
    const ko = (await screen.findByRole('heading', { name: '카페24' })).closest('li')!;
    await waitFor(() =>
      expect(ko.textContent).toContain(
        '카페24 쇼핑몰 myshop은(는) 더 이상 여기에 연결되어 있지 않습니다',
      ),
    );
    await setLanguage('en', false);
  });

  it('disconnecting: the dialog closes and it is said before the card is read again; focus then on the heading', async () => {
    const c = cafe24({ integration: notion({ workspace_name: 'myshop' }), shop: shop() });
    render(api({ notion: null }), true, c);
    const card = await cafe24Card();
    await removeBeforeReload(
      card,
      'Disconnect your Cafe24 shop?',
      vi.mocked(c.load),
      'Disconnecting: the script is being taken off your shop.',
    );
    await waitFor(() => expect(card.textContent).toContain('Taking the script off your shop…'));
    expect(within(card).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('says the loader came off when the plan ended', async () => {
    const c = cafe24({
      integration: notion(),
      shop: shop({ script_no: null, script_locations: [] }),
      placements: [ON_PRODUCTS],
    });
    render(api({ notion: null }), false, c);
    const card = await cafe24Card();
    await waitFor(() =>
      expect(card.textContent).toContain('Nothing in your shop: your plan ended.'),
    );
    expect(
      (within(card).getByRole('button', { name: 'Save placements' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});

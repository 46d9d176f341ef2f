import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { IntegrationNote, NotionIntegration } from '../../../../lib/integrations';
import { renderWithProviders } from '../../../../test/utils';
import type { PrivateDraft } from '../../model/settings';
import { IntegrationSection, type IntegrationApi } from './integration-section';

vi.mock('../../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

const granted: NotionIntegration = {
  id: 'i',
  status: 'granted',
  workspace_name: 'Acme',
  status_reason: null,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};

const objects = [
  {
    id: 'ds-1',
    object: 'data_source' as const,
    title: 'Feedback',
    url: null,
    properties: [
      { name: 'Title', type: 'title' },
      { name: 'Score', type: 'number' },
    ],
  },
  { id: 'ds-2', object: 'data_source' as const, title: 'Responses', url: null, properties: [] },
];

function fakeApi(status: NotionIntegration | null, notes: IntegrationNote[] = []): IntegrationApi {
  let current = status;
  return {
    status: vi.fn(async () => current),
    notes: vi.fn(async () => notes),
    dismiss: vi.fn(async () => {}),
    connect: vi.fn(async () => {
      current = granted;
      return { status: 'connected' as const, workspaceName: 'Acme' };
    }),
    search: vi.fn(async () => objects),
  };
}

const start: PrivateDraft = {
  mail_to: null,
  notion_database: null,
  notion_page: null,
  notion_database_title: 'response_id',
};

function Harness({
  api,
  type = 'form' as const,
  paid = true,
  initial = start,
  open = true,
}: {
  api: IntegrationApi;
  type?: 'form' | 'like';
  paid?: boolean;
  initial?: PrivateDraft;
  open?: boolean;
}) {
  const [draft, setDraft] = useState(initial);
  return (
    <>
      <IntegrationSection
        blockId="b1"
        type={type}
        paid={paid}
        open={open}
        privateSettings={draft}
        onPrivateChange={(key, value) => setDraft((d) => ({ ...d, [key]: value }))}
        api={api}
      />
      <output data-testid="draft">{JSON.stringify(draft)}</output>
    </>
  );
}

const draft = () => JSON.parse(screen.getByTestId('draft').textContent!) as PrivateDraft;

describe('the workspace Integration section', () => {
  it('free owners: a disabled button with the upgrade hint, nothing loaded', () => {
    const api = fakeApi(null);
    renderWithProviders(<Harness api={api} paid={false} />);
    const button = screen.getByRole('button', { name: 'Connect Notion' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(api.status).not.toHaveBeenCalled();
  });

  it('connects, then lists the data sources to choose and the title column', async () => {
    const api = fakeApi(null);
    renderWithProviders(<Harness api={api} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Notion' }));
    expect(api.connect).toHaveBeenCalled();
    const target = await screen.findByRole('combobox', { name: 'Notion database' });
    await waitFor(() =>
      expect(
        within(target)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Not linked', 'Feedback', 'Responses']),
    );
    expect(api.search).toHaveBeenCalledWith('database', undefined, expect.any(AbortSignal));
    fireEvent.change(target, { target: { value: 'ds-1' } });
    expect(draft().notion_database).toBe('ds-1');
    expect(screen.getByText('Its columns: Title (title), Score (number)')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Title column' }), {
      target: { value: 'creator' },
    });
    expect(draft().notion_database_title).toBe('creator');
    fireEvent.change(target, { target: { value: '' } });
    expect(draft().notion_database).toBeNull();
    expect(screen.getByText('Connected to Acme.', { exact: false })).toBeTruthy();
  });

  it('a like block chooses a page; a linked target Notion no longer shows is named as missing', async () => {
    const api = fakeApi(granted);
    renderWithProviders(
      <Harness api={api} type="like" initial={{ ...start, notion_page: 'gone-page' }} />,
    );
    const target = await screen.findByRole('combobox', { name: 'Notion page' });
    await waitFor(() =>
      expect(api.search).toHaveBeenCalledWith('page', undefined, expect.any(AbortSignal)),
    );
    await waitFor(() =>
      expect(
        within(target)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('gone-page (not found: deleted or no longer shared)'),
    );
    expect(screen.queryByRole('combobox', { name: 'Title column' })).toBeNull();
  });

  it('reads nothing from Notion until the section is opened', async () => {
    const api = fakeApi(granted);
    renderWithProviders(<Harness api={api} open={false} />);
    await screen.findByRole('combobox', { name: 'Notion database' });
    expect(api.search).not.toHaveBeenCalled();
  });

  it('not granted: explains and offers to connect again; notes of the block read in words', async () => {
    const api = fakeApi({ ...granted, status: 'not_granted' }, [
      {
        id: 'n1',
        provider: 'notion',
        block_id: 'b1',
        code: 'column_type',
        property: 'Score',
        detail: { column_type: 'checkbox', field: 'Score', value_kind: 'number', reason: 'type' },
        count: 3,
        last_at: '2026-11-02T05:06:00Z',
      },
    ]);
    renderWithProviders(<Harness api={api} />);
    expect(await screen.findByRole('button', { name: 'Connect Notion again' })).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('Notion refused our access');
    const notes = screen.getByRole('list', { name: 'Notes' });
    expect(notes.textContent).toContain(
      'The column “Score” (checkbox) cannot take Score (a number); it was left empty.',
    );
    fireEvent.click(within(notes).getByRole('button', { name: 'Dismiss the note about Score' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Notes' })).toBeNull());
    expect(api.dismiss).toHaveBeenCalledWith('n1');
  });

  it('Notion removed in another tab: on coming back the link leaves the draft, and the section says why', async () => {
    let current: NotionIntegration | null = granted;
    const api = { ...fakeApi(granted), status: vi.fn(async () => current) };
    renderWithProviders(<Harness api={api} initial={{ ...start, notion_database: 'ds-1' }} />);
    expect(await screen.findByText('Connected to Acme.', { exact: false })).toBeTruthy();
    current = null;
    // the tab comes back (read again however fresh the last read)
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByText(/Notion was removed \(perhaps in another tab\)/)).toBeTruthy();
    expect(draft().notion_database).toBeNull();
    expect(screen.getByRole('button', { name: 'Connect Notion' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Notion database' })).toBeNull();
    act(() => focusManager.setFocused(undefined));
  });
});

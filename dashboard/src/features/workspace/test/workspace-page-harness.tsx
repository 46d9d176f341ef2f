// The workspace page rendered as the route renders it, with a fake API (the page's tests).
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { vi } from 'vitest';
import { fakeProfile, renderWithProviders, signedInSession } from '../../../test/utils';
import type { WorkspaceApi, WorkspaceData } from '../api';
import { WorkspacePage } from '../components/workspace-page';
import { BLOCK_ID } from './fixtures';

// The page's parts that are tested elsewhere, mocked for every file that imports this harness
// (vi.mock is hoisted above this module's imports, so the page below gets the stand-ins).
vi.mock('../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

// Notion is the Integration section's business (its own tests): not connected here.
vi.mock('../../../lib/integrations', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/integrations')>()),
  getNotionIntegration: vi.fn(async () => null),
  listIntegrationNotes: vi.fn(async () => []),
}));

// The results area and the form editor are stand-ins here (test/workspace-stand-ins.tsx).
vi.mock('../results', async () => {
  const { ResultsStandIn, exportResultsCsv } = await import('./workspace-stand-ins');
  return {
    ResultsView: ResultsStandIn,
    exportResultsCsv: (...args: unknown[]) => exportResultsCsv(...(args as [])),
  };
});
vi.mock('../editor', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../editor')>()),
  FormEditor: (await import('./workspace-stand-ins')).FormEditorStandIn,
}));

export function fakeApi(
  data: WorkspaceData | null | Error,
  save?: WorkspaceApi['save'],
): WorkspaceApi {
  return {
    load: vi.fn(async () => {
      if (data instanceof Error) throw data;
      return data;
    }),
    save: vi.fn(save ?? (async () => (data instanceof Error || !data ? null! : data))),
    resetNewResponses: vi.fn(async () => {}),
  };
}

export function renderWorkspace(
  api: WorkspaceApi,
  { route = `/work/${BLOCK_ID}`, paid = false } = {},
) {
  return renderWithProviders(
    <Routes>
      <Route
        path="/work/:blockId/:mode?"
        element={
          <WorkspacePage
            api={api}
            renderBlockLink={(block, onClose) => (
              <div role="dialog" aria-label="link dialog">
                link to {block.id}
                <button type="button" onClick={onClose}>
                  close link
                </button>
              </div>
            )}
          />
        }
      />
      <Route path="/dashboard/reaction" element={<p>dashboard</p>} />
    </Routes>,
    { route, session: signedInSession({ profile: fakeProfile({ paid }) }) },
  );
}

export const location = () => screen.getByTestId('location').textContent;
export const modeTabs = (nav = 'Workspace modes') =>
  within(screen.getByRole('navigation', { name: nav }))
    .getAllByRole('link')
    .map((link) => link.textContent);

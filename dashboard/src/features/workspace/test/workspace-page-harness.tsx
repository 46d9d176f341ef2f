// The workspace page rendered as the route renders it, with a fake API (the page's tests).
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { vi } from 'vitest';
import { fakeProfile, renderWithProviders, signedInSession } from '../../../test/utils';
import type { WorkspaceApi, WorkspaceData } from '../api';
import { WorkspacePage } from '../components/workspace-page';
import { BLOCK_ID } from './fixtures';

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

// /work/{id} through the app's route table: the lazy workspace module, the signed-in guard, the
// owner filter of the load, and the redirect when the block is not found (in every mode, the
// block's audience too).
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BLOCK_ID, workspaceData } from '../../features/workspace/test/fixtures';
import { fakeQuery, fakeSession, renderWithProviders, signedInSession } from '../../test/utils';
import { AppRoutes } from '../router';

const tables: Record<string, unknown> = {};
const eq = vi.fn();
vi.mock('../../lib/supabase', () => ({
  supabase: {
    from: (table: string) => {
      const query = fakeQuery(tables[table] ?? null);
      const chained = query.eq as () => unknown;
      query.eq = (column: string, value: unknown) => {
        eq(table, column, value);
        return chained();
      };
      return query;
    },
    rpc: vi.fn(),
    functions: { invoke: vi.fn() },
  },
  invokeFunction: vi.fn(),
}));

const location = () => screen.getByTestId('location').textContent;

describe('/work/{blockId}', () => {
  it('shows the login screen when signed out', async () => {
    renderWithProviders(<AppRoutes />, { route: `/work/${BLOCK_ID}`, session: fakeSession() });
    expect(await screen.findByRole('button', { name: /Google/ })).toBeTruthy();
  });

  it("loads the signed-in owner's block (filtered by owner) into the workspace", async () => {
    const data = workspaceData('like');
    tables.blocks = data.block;
    tables.block_private = data.private;
    tables.questions = [];
    tables.endings = [];
    renderWithProviders(<AppRoutes />, {
      route: `/work/${BLOCK_ID}`,
      session: signedInSession(),
    });
    expect(await screen.findByRole('link', { name: 'Result' })).toBeTruthy();
    expect(eq).toHaveBeenCalledWith('blocks', 'owner_id', 'user-1');
    expect(eq).toHaveBeenCalledWith('blocks', 'id', BLOCK_ID);
    expect(screen.getByRole('textbox', { name: 'Block name' })).toHaveProperty('value', 'My block');
    expect(location()).toBe(`/work/${BLOCK_ID}`);
  });

  it('goes to /dashboard/reaction when no block of the owner has that id', async () => {
    tables.blocks = null;
    renderWithProviders(<AppRoutes />, { route: `/work/${BLOCK_ID}`, session: signedInSession() });
    await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
  });

  it("shows the audience of the owner's own block under its name", async () => {
    tables.blocks = { type: 'notion_letter', name: 'Weekly notes' };
    renderWithProviders(<AppRoutes />, {
      route: `/work/${BLOCK_ID}/audience`,
      session: signedInSession(),
    });
    expect(await screen.findByRole('heading', { name: 'Audience of “Weekly notes”' })).toBeTruthy();
    expect(eq).toHaveBeenCalledWith('blocks', 'owner_id', 'user-1');
    expect(location()).toBe(`/work/${BLOCK_ID}/audience`);
  });

  it("sends the audience of a block not the owner's (another's, the demo) to /dashboard/reaction", async () => {
    tables.blocks = null;
    renderWithProviders(<AppRoutes />, {
      route: `/work/${BLOCK_ID}/audience`,
      session: signedInSession(),
    });
    await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
    expect(eq).toHaveBeenCalledWith('blocks', 'id', BLOCK_ID);
    expect(screen.queryByRole('heading', { name: /Audience/ })).toBeNull();
  });

  it('sends a malformed id there without asking the server (no 400)', async () => {
    for (const mode of ['/audience', '']) {
      eq.mockClear();
      const view = renderWithProviders(<AppRoutes />, {
        route: `/work/zzz${mode}`,
        session: signedInSession(),
      });
      await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
      expect(eq).not.toHaveBeenCalledWith('blocks', 'id', 'zzz');
      view.unmount();
    }
  });
});

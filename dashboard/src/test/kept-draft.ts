// Unsaved edits kept through a sign-out (lib/kept-draft.ts), checked the same way in the block
// workspace and the letter workspace: the name field is the draft's change. The sign-in card
// replaces the signed-in area (app/router.tsx) and the address stays the block's: an unmount
// with window.location at the block's workspace.
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

const nameField = () => screen.findByRole('textbox', { name: 'Block name' });
const offer = () => screen.queryByRole('button', { name: 'Restore my edits' });

/**
 * `open` renders the workspace of the block at `here`, saved under `savedName` (another name: it
 * was saved elsewhere meanwhile).
 */
export function describeKeptDraft(
  here: string,
  savedName: string,
  open: (savedName: string) => { unmount: () => void },
) {
  describe('unsaved edits kept through a sign-out (rev-owner D4)', () => {
    async function typeThenSignOut() {
      window.history.replaceState(null, '', here);
      const view = open(savedName);
      fireEvent.change(await nameField(), { target: { value: 'Typed before' } });
      view.unmount();
    }
    afterEach(() => window.history.replaceState(null, '', '/'));

    it('offers them back after signing in again; Restore makes them the unsaved draft', async () => {
      await typeThenSignOut();
      open(savedName);
      const name = await nameField();
      expect(name).toHaveProperty('value', savedName);
      fireEvent.click(await screen.findByRole('button', { name: 'Restore my edits' }));
      expect(name).toHaveProperty('value', 'Typed before');
      expect(offer()).toBeNull();
      expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    });

    it('Discard drops them for good', async () => {
      await typeThenSignOut();
      const view = open(savedName);
      fireEvent.click(await screen.findByRole('button', { name: 'Discard them' }));
      expect(screen.getByRole('textbox', { name: 'Block name' })).toHaveProperty(
        'value',
        savedName,
      );
      view.unmount();
      open(savedName);
      await nameField();
      expect(offer()).toBeNull();
    });

    it('offers nothing when the block was saved elsewhere meanwhile', async () => {
      await typeThenSignOut();
      open('Renamed in another tab');
      expect(await nameField()).toHaveProperty('value', 'Renamed in another tab');
      expect(offer()).toBeNull();
    });

    it('drops them when the owner leaves the workspace', async () => {
      window.history.replaceState(null, '', here);
      const view = open(savedName);
      fireEvent.change(await nameField(), { target: { value: 'Typed before' } });
      window.history.replaceState(null, '', '/dashboard');
      view.unmount();
      window.history.replaceState(null, '', here);
      open(savedName);
      expect(await nameField()).toHaveProperty('value', savedName);
      expect(offer()).toBeNull();
    });
  });
}

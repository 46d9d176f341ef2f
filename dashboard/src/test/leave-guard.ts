// The leave guard (lib/use-leave-guard.ts) as an owner meets it in a workspace, checked the same
// way in the block workspace and the letter workspace: the name field is the draft's change.
import { fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'vitest';

const location = () => screen.getByTestId('location').textContent;
const nameField = () => screen.findByRole('textbox', { name: 'Block name' });

/** With an unsaved name, the back link asks; Stay keeps the page and the draft, Leave goes to `leftTo`. */
export async function expectBackLinkAsks(backLabel: string, here: string, leftTo: string) {
  fireEvent.change(await nameField(), { target: { value: 'Unsaved' } });
  const back = screen.getByRole('link', { name: backLabel });
  // the name holds the word the link shows (WCAG 2.5.3: a voice user says what they see)
  expect(backLabel.toLowerCase()).toContain(back.textContent!.trim().toLowerCase());
  fireEvent.click(back);
  const dialog = screen.getByRole('alertdialog', { name: 'Leave without saving?' });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
  expect(location()).toBe(here);
  expect(screen.getByRole('textbox', { name: 'Block name' })).toHaveProperty('value', 'Unsaved');

  fireEvent.click(back);
  fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
  expect(location()).toBe(leftTo);
}

/** The browser's prompt before the tab closes: none while nothing is unsaved, then one. */
export async function expectTabCloseAsks() {
  const name = await nameField();
  const clean = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(clean);
  expect(clean.defaultPrevented).toBe(false);
  fireEvent.change(name, { target: { value: 'Unsaved' } });
  const dirty = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(dirty);
  expect(dirty.defaultPrevented).toBe(true);
}

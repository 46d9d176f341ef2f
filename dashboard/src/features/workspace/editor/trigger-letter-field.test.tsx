import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { fakeQuery, renderWithProviders, signedInSession } from '../../../test/utils';
import { TriggerLetterField } from './trigger-letter-field';

const rpc = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/supabase', () => ({ supabase: { rpc }, invokeFunction: vi.fn() }));
/** The database's answer to trigger_letter_choices. */
function answer(rows: typeof LETTERS) {
  rpc.mockImplementation((name: string) =>
    name === 'trigger_letter_choices'
      ? fakeQuery(rows)
      : fakeQuery(null, { message: `unexpected rpc ${name}` }),
  );
}

const letter = (id: string, name: string, has_html: boolean, sender_verified: boolean) => ({
  id,
  name,
  type: 'notion_letter',
  has_html,
  sender_verified,
});
const LETTERS = [
  letter('l-ready', 'Welcome', true, true),
  letter('l-empty', 'Draft', false, true),
  letter('l-nosender', 'Unsent', true, false),
];

function Harness({ paid, initial = null }: { paid: boolean; initial?: string | null }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <>
      <TriggerLetterField value={value} paid={paid} onChange={setValue} />
      <output data-testid="value">{value ?? 'none'}</output>
    </>
  );
}

const select = () =>
  screen.getByRole('combobox', { name: 'Send a letter to this address' }) as HTMLSelectElement;
const option = (name: string | RegExp) => screen.getByRole('option', { name }) as HTMLOptionElement;

beforeEach(async () => {
  rpc.mockReset();
  await setLanguage('en');
});

describe('the letter a mail question sends', () => {
  it('offers the ready letters; one without content or verified sender is listed, not choosable, and says why', async () => {
    answer(LETTERS);
    renderWithProviders(<Harness paid />, { session: signedInSession() });
    await screen.findByRole('option', { name: 'Welcome' });
    expect(option('Welcome').disabled).toBe(false);
    expect(option('Draft (no letter loaded yet)').disabled).toBe(true);
    expect(option('Unsent (no verified sender)').disabled).toBe(true);
    expect(
      screen.getByText(/A letter can be picked once it is loaded and saved with a verified sender/),
    ).toBeTruthy();
    fireEvent.change(select(), { target: { value: 'l-ready' } });
    expect(screen.getByTestId('value').textContent).toBe('l-ready');
    fireEvent.change(select(), { target: { value: '' } });
    expect(screen.getByTestId('value').textContent).toBe('none');
  });

  it('is a paid feature: a free owner sees it disabled with the upgrade hint, and can clear a letter kept from a plan that ended', async () => {
    answer(LETTERS);
    const { unmount } = renderWithProviders(<Harness paid={false} />, {
      session: signedInSession(),
    });
    await screen.findByRole('option', { name: 'Welcome' });
    expect(select().disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/profile/plan',
    );
    unmount();
    renderWithProviders(<Harness paid={false} initial="l-ready" />, {
      session: signedInSession(),
    });
    await screen.findByRole('option', { name: 'Welcome' });
    expect(select().disabled).toBe(false);
    expect(option('Welcome').disabled).toBe(false);
    fireEvent.change(select(), { target: { value: '' } });
    expect(screen.getByTestId('value').textContent).toBe('none');
  });

  it('says when there is no letter yet, in Korean too', async () => {
    answer([]);
    await setLanguage('ko');
    renderWithProviders(<Harness paid />, { session: signedInSession() });
    expect(
      await screen.findByText('아직 레터가 없습니다. 먼저 레터 블록을 만드세요.'),
    ).toBeTruthy();
    expect(screen.getByRole('combobox', { name: '이 주소로 레터 보내기' })).toBeTruthy();
  });
});

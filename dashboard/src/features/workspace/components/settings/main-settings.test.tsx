import { act, fireEvent, screen } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/utils';
import { settingsFromBlock, type CustomColors } from '../../model/settings';
import { blockRow } from '../../test/fixtures';
import { MainSettings } from './main-settings';

vi.mock('../../../../lib/supabase', () => ({
  supabase: { from: vi.fn(), rpc: vi.fn() },
  invokeFunction: vi.fn(),
}));

function renderColors(custom_color: CustomColors | null, type: 'like' | 'button' = 'like') {
  const onChange = vi.fn();
  const settings = settingsFromBlock(blockRow(type, { theme: 'custom', custom_color }));
  renderWithProviders(
    <MainSettings type={type} settings={settings} errors={{}} paid onChange={onChange} />,
  );
  return onChange;
}

const hex = (name: string) =>
  screen.getByRole<HTMLInputElement>('textbox', { name: `${name} (hex)` });
/** What a screen reader reads after the field's name (its aria-describedby). */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('custom colours: unset is the default, honestly', () => {
  it('a colour never set reads Default, not a white it does not have', () => {
    renderColors(null);
    for (const name of ['Primary', 'Secondary', 'Tertiary', 'Background']) {
      expect(hex(name).value).toBe('');
      expect(hex(name).placeholder).toBe('Default');
    }
    expect(screen.queryByRole('button', { name: /use the default/ })).toBeNull();
    // each says what its default is
    expect(description(hex('Tertiary'))).toMatch(/Default: the background/);
  });

  it('setting one colour saves that one only, not the defaults of the other three', () => {
    const onChange = renderColors(null);
    fireEvent.change(hex('Primary'), { target: { value: '#112233' } });
    expect(onChange).toHaveBeenLastCalledWith('custom_color', { '--PRIMARY': '#112233' });
  });

  it('Use default clears a set colour and keeps focus in the field', () => {
    const onChange = renderColors({ '--BACKGROUND': '#101010', '--PRIMARY': '#FFD43B' });
    expect(hex('Background').value).toBe('#101010');
    fireEvent.click(screen.getByRole('button', { name: 'Background: use the default' }));
    expect(onChange).toHaveBeenLastCalledWith('custom_color', { '--PRIMARY': '#FFD43B' });
    expect(document.activeElement).toBe(hex('Background'));
    // emptying the text clears it too
    fireEvent.change(hex('Primary'), { target: { value: ' ' } });
    expect(onChange).toHaveBeenLastCalledWith('custom_color', {
      '--BACKGROUND': '#101010',
    });
  });

  it('a last colour cleared saves no custom colours at all', () => {
    const onChange = renderColors({ '--TERTIARY': '#FFFFFF' });
    fireEvent.click(screen.getByRole('button', { name: 'Tertiary: use the default' }));
    expect(onChange).toHaveBeenLastCalledWith('custom_color', null);
  });

  it("a button's secondary is its text, black or white by default", () => {
    renderColors(null, 'button');
    expect(description(hex('Secondary'))).toMatch(/The button's text/);
  });

  it('says beside the field when the text or the primary is hard to see (U7), in en and ko', async () => {
    // the tester's palette: white text on #EEEEEE (1.16:1), #EEEEEE on white (1.16:1)
    const pale = { '--PRIMARY': '#EEEEEE', '--SECONDARY': '#FFFFFF', '--BACKGROUND': '#FFFFFF' };
    renderColors(pale, 'button');
    const notes = screen.getAllByRole('status').map((el) => el.textContent);
    expect(notes).toContain(
      'This text is hard to read on the primary: 1.16:1 (at least 4.5:1 reads).',
    );
    expect(description(hex('Secondary'))).toMatch(/hard to read on the primary: 1\.16:1/);
    expect(description(hex('Primary'))).toMatch(/hard to see on the background: 1\.16:1/);
    await act(() => i18next.changeLanguage('ko'));
    try {
      const koHex = (name: string) => screen.getByRole('textbox', { name: `${name} (16진수)` });
      expect(description(koHex('보조'))).toMatch(/기본 색 위에서 읽기 어렵습니다: 1\.16:1/);
      expect(description(koHex('기본'))).toMatch(/배경 위에서 잘 보이지 않습니다: 1\.16:1/);
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('says nothing of the defaults, nor of a readable pair', () => {
    renderColors({ '--PRIMARY': '#1A56DB', '--SECONDARY': '#FFFFFF' }, 'button');
    expect(screen.getAllByRole('status').every((el) => el.textContent === '')).toBe(true);
    expect(description(hex('Secondary'))).not.toMatch(/hard to/);
  });
});

import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../../lib/i18n';
import { renderWithProviders } from '../../../../test/utils';
import { RichTextEditor } from './rich-text-editor';

const LINK = 'target="_blank" rel="noopener noreferrer nofollow"';

function Harness({ initial, onChange }: { initial: string; onChange: (html: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <RichTextEditor
      label="Description"
      value={value}
      hint="Shown to visitors."
      onChange={(html) => {
        setValue(html);
        onChange(html);
      }}
    />
  );
}

function setup(initial = '<p>hello world</p>') {
  const onChange = vi.fn();
  renderWithProviders(<Harness initial={initial} onChange={onChange} />);
  const box = screen.getByRole('textbox', { name: 'Description' });
  return { onChange, box };
}

/** Selects characters [from, to) of the first text node under `selector`. */
function select(box: HTMLElement, from: number, to: number, selector = 'p') {
  const text = box.querySelector(selector)!.firstChild!;
  act(() => {
    box.focus();
    const range = document.createRange();
    range.setStart(text, from);
    range.setEnd(text, to);
    const sel = document.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    document.dispatchEvent(new Event('selectionchange'));
  });
}

describe('RichTextEditor', () => {
  it('is a labelled multi-line text box with a toolbar of named toggle buttons', () => {
    const { box } = setup();
    expect(box.getAttribute('aria-multiline')).toBe('true');
    expect(box.getAttribute('contenteditable')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBeTruthy();
    const toolbar = screen.getByRole('toolbar', { name: 'Description formatting' });
    const buttons = within(toolbar).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Bold',
      'Italic',
      'Link',
      'Bulleted list',
      'Numbered list',
    ]);
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(Array(5).fill('false'));
    expect(buttons[0]!.getAttribute('aria-keyshortcuts')).toBe('Control+B');
    // one tab stop; arrows move along the toolbar
    expect(buttons.map((b) => b.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    act(() => buttons[0]!.focus());
    fireEvent.keyDown(toolbar, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(buttons[1]);
    fireEvent.keyDown(toolbar, { key: 'End' });
    expect(document.activeElement).toBe(buttons[4]);
    fireEvent.keyDown(toolbar, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(buttons[0]);
  });

  it('bolds and italicises the selection with Ctrl+B and Ctrl+I, and shows them pressed', () => {
    const { box, onChange } = setup();
    select(box, 6, 11);
    fireEvent.keyDown(box, { key: 'b', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<p>hello <strong>world</strong></p>');
    expect(screen.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
    select(box, 0, 5);
    fireEvent.keyDown(box, { key: 'i', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<p><em>hello</em> <strong>world</strong></p>');
    expect(screen.getByRole('button', { name: 'Italic' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('makes lists from the toolbar and with Ctrl+Shift+8 / Ctrl+Shift+7', () => {
    const { box, onChange } = setup('<p>one</p><p>two</p>');
    select(box, 0, 1);
    fireEvent.click(screen.getByRole('button', { name: 'Bulleted list' }));
    expect(onChange).toHaveBeenLastCalledWith('<ul><li>one</li></ul><p>two</p>');
    expect(screen.getByRole('button', { name: 'Bulleted list' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    select(box, 0, 1, 'li');
    fireEvent.keyDown(box, { key: '&', code: 'Digit7', ctrlKey: true, shiftKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<ol><li>one</li></ol><p>two</p>');
    select(box, 0, 1, 'li');
    fireEvent.keyDown(box, { key: '&', code: 'Digit7', ctrlKey: true, shiftKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<p>one</p><p>two</p>');
  });

  it('links the selection with Ctrl+K, refuses a javascript: address, removes the link', () => {
    const { box, onChange } = setup();
    select(box, 6, 11);
    fireEvent.keyDown(box, { key: 'k', ctrlKey: true });
    const address = screen.getByRole('textbox', { name: 'Link address' });
    fireEvent.change(address, { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toMatch(/web address/);
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(address, { target: { value: 'example.com' } });
    fireEvent.keyDown(address, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith(
      `<p>hello <a href="https://example.com/" ${LINK}>world</a></p>`,
    );
    expect(screen.queryByRole('textbox', { name: 'Link address' })).toBeNull();
    select(box, 1, 2, 'a');
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(screen.getByRole('textbox', { name: 'Link address' })).toHaveProperty(
      'value',
      'https://example.com/',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove link' }));
    expect(onChange).toHaveBeenLastCalledWith('<p>hello world</p>');
  });

  it('pastes plain text only, one paragraph a line', () => {
    const { box, onChange } = setup('<p>ab</p>');
    select(box, 1, 1);
    fireEvent.paste(box, {
      clipboardData: {
        getData: (type: string) =>
          type === 'text/plain' ? 'one\ntwo' : '<img src=x onerror=alert(1)>',
      },
    });
    expect(onChange).toHaveBeenLastCalledWith('<p>aone</p><p>twob</p>');
    expect(box.querySelector('img')).toBeNull();
  });

  it('never puts stored markup in the page: only its text, marks and safe links', () => {
    const { box } = setup(
      '<p>a<img src="x" onerror="window.hacked = 1"><a href="javascript:alert(1)">b</a>' +
        '<b onclick="x()">c</b></p><script>window.hacked = 2</script>',
    );
    expect(box.innerHTML).toBe('<p>ab<strong>c</strong></p>');
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('undoes and redoes a command with Ctrl+Z and Ctrl+Shift+Z', () => {
    const { box, onChange } = setup();
    select(box, 0, 5);
    fireEvent.keyDown(box, { key: 'b', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<p><strong>hello</strong> world</p>');
    fireEvent.keyDown(box, { key: 'z', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<p>hello world</p>');
    fireEvent.keyDown(box, { key: 'z', ctrlKey: true, shiftKey: true });
    expect(onChange).toHaveBeenLastCalledWith('<p><strong>hello</strong> world</p>');
  });

  it('reads its DOM back after the browser typed into it', () => {
    const { box, onChange } = setup('<p>hi</p>');
    act(() => {
      // what Chromium may leave: a <div> paragraph and a styled span
      box.innerHTML = '<p>hi</p><div><span style="font-weight: bold">there</span></div>';
    });
    fireEvent.input(box);
    expect(onChange).toHaveBeenLastCalledWith('<p>hi</p><p><strong>there</strong></p>');
    expect(box.innerHTML).toBe('<p>hi</p><p><strong>there</strong></p>');
  });

  it('brings the field and its caret line into view when focused from the keyboard, not on a press', async () => {
    const shown = vi.spyOn(Element.prototype, 'scrollIntoView');
    const { box } = setup('<p>one</p><p>two</p>');
    const frame = () => act(() => new Promise((done) => requestAnimationFrame(() => done(null))));
    act(() => {
      box.focus();
      // the caret on the second line, where the link form's Apply (placeSelection) leaves it
      const caret = document.createRange();
      caret.setStart(box.querySelectorAll('p')[1]!.firstChild!, 3);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(caret);
    });
    await frame();
    expect(shown.mock.contexts).toEqual([box.closest('.rich-text'), box.querySelectorAll('p')[1]]);
    expect(shown).toHaveBeenCalledWith({ block: 'nearest' });
    // a click puts the caret where the pointer is, already in view: nothing scrolls under it
    act(() => box.blur());
    shown.mockClear();
    fireEvent.mouseDown(box);
    act(() => box.focus());
    await frame();
    expect(shown).not.toHaveBeenCalled();
  });

  it('in Korean', async () => {
    await setLanguage('ko', false);
    renderWithProviders(<RichTextEditor label="설명" value="" onChange={() => {}} />);
    const toolbar = screen.getByRole('toolbar', { name: '설명 서식' });
    expect(
      within(toolbar)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['굵게', '기울임꼴', '링크', '글머리 기호 목록', '번호 매기기 목록']);
  });
});

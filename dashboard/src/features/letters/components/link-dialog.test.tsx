import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { registerLetterTranslations } from '../locales';
import { LinkDialog, type LetterButtons } from './link-dialog';

registerLetterTranslations();

const none: LetterButtons = { cta: null, imageButton: null };

const open = (kind: 'cta' | 'image', buttons: LetterButtons) => {
  const onChange = vi.fn();
  render(<LinkDialog kind={kind} buttons={buttons} onChange={onChange} onClose={() => {}} />);
  return onChange;
};

describe('letter button dialog', () => {
  it('a new call to action starts empty with https://, says what is missing, and sets it trimmed', () => {
    const onChange = open('cta', none);
    const dialog = screen.getByRole('dialog', { name: 'Call-to-action link' });
    const text = within(dialog).getByRole('textbox', { name: 'Button text' });
    expect(text).toHaveProperty('value', '');
    expect(text.getAttribute('placeholder')).toBe('Read more');
    expect(within(dialog).getByLabelText('Button link')).toHaveProperty('value', 'https://');
    expect(within(dialog).queryByRole('button', { name: 'Remove' })).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Required')).toBeTruthy();
    expect(within(dialog).getByText('Enter an http(s) or mailto link')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.change(text, { target: { value: ' Read on ' } });
    fireEvent.change(within(dialog).getByLabelText('Button link'), {
      target: { value: 'https://example.com/read ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith({
      cta: { text: 'Read on', link: 'https://example.com/read' },
    });
  });

  it('an image button set shows its values, takes https images only, and can be removed', () => {
    const onChange = open('image', {
      cta: null,
      imageButton: { src: 'https://example.com/a.png', link: 'mailto:a@example.com' },
    });
    const dialog = screen.getByRole('dialog', { name: 'Image button' });
    const src = within(dialog).getByLabelText('Image address');
    expect(src).toHaveProperty('value', 'https://example.com/a.png');
    expect(within(dialog).getByLabelText('Image link')).toHaveProperty(
      'value',
      'mailto:a@example.com',
    );
    fireEvent.change(src, { target: { value: 'http://example.com/a.png' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Enter an http(s) or mailto link')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenCalledWith({ imageButton: null });
  });
});

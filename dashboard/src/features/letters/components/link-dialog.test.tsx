import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { registerLetterTranslations } from '../locales';
import { emptyLetter, ZLetterModel } from '@reaction-blocks/contracts/letters';
import { LinkDialog, meantLink, type LetterButtons } from './link-dialog';

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

  it('an image button set shows its values, and can be removed', () => {
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
    fireEvent.change(src, { target: { value: 'ftp://example.com/a.png' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Enter an http(s) or mailto link')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(onChange).toHaveBeenCalledWith({ imageButton: null });
  });

  it('takes a link as the owner meant it: a bare domain, a doubled https://, a bare email', () => {
    const onChange = open('cta', none);
    const dialog = screen.getByRole('dialog', { name: 'Call-to-action link' });
    const link = within(dialog).getByLabelText('Button link');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Button text' }), {
      target: { value: 'Read' },
    });
    const applied = (value: string) => {
      fireEvent.change(link, { target: { value } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
      return onChange.mock.lastCall?.[0];
    };
    // what the owner typed, and the link set
    const meant: Array<[string, string]> = [
      ['example.com/read?x=1', 'https://example.com/read?x=1'],
      ['https://https://example.com', 'https://example.com'],
      [' ann@example.com ', 'mailto:ann@example.com'],
      // an address typed after the field's https://, or a mailto: link pasted after it
      ['https://ann@example.com', 'mailto:ann@example.com'],
      ['https://mailto:ann@example.com', 'mailto:ann@example.com'],
      ['https://https://https://example.com', 'https://example.com'],
      ['네이버.com/카페', 'https://네이버.com/카페'],
      ['example.com/report.pdf', 'https://example.com/report.pdf'],
      // an ending that is a real top-level domain is a domain, though it also names a file type
      // (before, these were refused as file names)
      ...['example.md', 'site.zip', 'film.mov', 'app.py', '192.168.0.1/a'].map(
        (domain): [string, string] => [domain, `https://${domain}`],
      ),
    ];
    for (const [typed, link] of meant)
      expect(applied(typed), typed).toEqual({ cta: { text: 'Read', link } });
    onChange.mockClear();
    // not a link by any reading: still refused, nothing set. A file name is not a domain, a
    // user name before the host hides where the link goes, and the https:// added must fit
    for (const typed of [
      'a'.repeat(1990) + '.com',
      'javascript:alert(1)',
      'read more',
      'report.pdf',
      'index.html',
      'setup.exe',
      'scan.heic',
      // rev-break B2: these became https://style.css and were taken
      'style.css',
      'app.js',
      'data.sql',
      'backup.tar',
      'song.ogg',
      'design.psd',
      'disk.iso',
      'setup.msi',
      'notes.log',
      'x.yaml',
      '1.2',
      '-x.com',
      'https://user:pass@evil.example/login',
    ])
      applied(typed);
    expect(onChange).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Enter an http(s) or mailto link')).toBeTruthy();
  });

  it("takes an image address exactly when the server's letter model does (http too)", () => {
    // before: the dialog took https images only, and refused http ones the server stores
    const cases = [
      'http://example.com/a.png',
      'https://example.com/a.png',
      'cdn.example.com/a.png',
      'https://user:pass@example.com/a.png',
      'https://user@example.com/a.png',
      'ftp://example.com/a.png',
      'data:image/png;base64,AAAA',
      'photo.jpg',
      'https://[',
      '/a.png',
    ];
    const onChange = open('image', none);
    const dialog = screen.getByRole('dialog', { name: 'Image button' });
    fireEvent.change(within(dialog).getByLabelText('Image link'), {
      target: { value: 'https://example.com' },
    });
    const src = within(dialog).getByLabelText('Image address');
    const accepted: string[] = [];
    for (const typed of cases) {
      onChange.mockClear();
      fireEvent.change(src, { target: { value: typed } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
      const set = onChange.mock.lastCall?.[0] as Partial<LetterButtons> | undefined;
      if (set) accepted.push(typed);
      // what the dialog sets, the server's model takes; what it refuses, the model refuses too
      const sent = set?.imageButton?.src ?? meantLink({ key: 'src', check: 'image' }, typed);
      const server = ZLetterModel.safeParse({
        ...emptyLetter(),
        imageButton: { src: sent, link: 'https://example.com' },
      }).success;
      expect([typed, server]).toEqual([typed, Boolean(set)]);
    }
    expect(accepted).toEqual([
      'http://example.com/a.png',
      'https://example.com/a.png',
      'cdn.example.com/a.png',
    ]);
  });

  it('an image address without a scheme is taken as https', () => {
    const onChange = open('image', none);
    const dialog = screen.getByRole('dialog', { name: 'Image button' });
    fireEvent.change(within(dialog).getByLabelText('Image address'), {
      target: { value: 'cdn.example.com/a.png' },
    });
    fireEvent.change(within(dialog).getByLabelText('Image link'), {
      target: { value: 'example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith({
      imageButton: { src: 'https://cdn.example.com/a.png', link: 'https://example.com' },
    });
    onChange.mockClear();
    // a file name alone, or an address no browser reads, is not an image address
    for (const src of ['photo.jpg', 'https://[', 'https://a%zz']) {
      fireEvent.change(within(dialog).getByLabelText('Image address'), { target: { value: src } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    }
    expect(onChange).not.toHaveBeenCalled();
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyLetter, type TLetterBlock } from '@reaction-blocks/contracts/letters';
import { registerLetterTranslations } from '../locales';
import { LetterPreview } from './letter-preview';

registerLetterTranslations();

const heading = (id: string, level: 1 | 2 | 3): TLetterBlock => ({
  id,
  type: 'heading',
  level,
  spans: [{ text: `Heading ${id}` }],
});
const paragraph = (id: string): TLetterBlock => ({
  id,
  type: 'paragraph',
  spans: [{ text: 'Words' }],
});

const renderPreview = (blocks: TLetterBlock[], title = 'Title') =>
  render(<LetterPreview title={title} onDelete={() => {}} model={{ ...emptyLetter(), blocks }} />);

const levels = () =>
  screen
    .getAllByRole('heading')
    .map((h) => `${h.tagName.toLowerCase()} ${h.className || ''}`.trim());

describe('LetterPreview headings', () => {
  it('keeps an outline under the title: no level is skipped, the look is the letter’s', () => {
    // a Brunch post opens with level-2 headings; a Notion page may jump from 1 to 3
    renderPreview([
      heading('a', 2),
      paragraph('p'),
      heading('b', 3),
      heading('c', 1),
      heading('d', 3),
      heading('e', 2),
    ]);
    expect(levels()).toEqual([
      'h1 letter-title',
      'h2 letter-h letter-h2',
      'h3 letter-h letter-h3',
      'h2 letter-h letter-h1',
      'h3 letter-h letter-h3',
      'h3 letter-h letter-h2',
    ]);
  });

  it('gives a letter that starts at level 1 the levels it had', () => {
    renderPreview([heading('a', 1), heading('b', 2), heading('c', 3)]);
    expect(levels()).toEqual([
      'h1 letter-title',
      'h2 letter-h letter-h1',
      'h3 letter-h letter-h2',
      'h4 letter-h letter-h3',
    ]);
  });
});

describe('LetterPreview images', () => {
  const image = (id: string, alt: string, caption?: string): TLetterBlock => ({
    id,
    type: 'image',
    src: `https://cdn.example/${id}.png`,
    alt,
    ...(caption ? { caption: [{ text: caption }] } : {}),
  });
  it('says a caption once: an alt that repeats it is empty, another alt stays', () => {
    const { container } = renderPreview(
      [
        image('a', 'The new editor', 'The new editor'),
        image('b', 'A cat asleep', 'Our office'),
        image('c', ''),
      ],
      '',
    );
    const alts = [...container.querySelectorAll('img')].map((img) => img.getAttribute('alt'));
    expect(alts).toEqual(['', 'A cat asleep', 'Image']);
    expect(screen.getByText('The new editor').tagName).toBe('FIGCAPTION');
  });
});

describe('LetterPreview text blocks', () => {
  it('puts a paragraph, a quote and a callout (its icon first) each in its own element', () => {
    const spans = [{ text: 'Words' }];
    const { container } = renderPreview([
      { id: 'p', type: 'paragraph', spans },
      { id: 'q', type: 'quote', spans },
      { id: 'c', type: 'callout', icon: '💡', spans },
      { id: 'd', type: 'callout', spans },
    ]);
    expect(
      [...container.querySelectorAll('.letter-p, .letter-quote, .letter-callout')].map(
        (e) => `${e.tagName.toLowerCase()}.${e.className} ${JSON.stringify(e.textContent)}`,
      ),
    ).toEqual([
      'p.letter-p "Words"',
      'blockquote.letter-quote "Words"',
      'div.letter-callout "💡 Words"',
      'div.letter-callout "Words"',
    ]);
  });
});

describe('LetterPreview lists', () => {
  it('draws a nested item inside the item before it, as the mail does (rev N2)', () => {
    const { container } = renderPreview([
      {
        id: 'l',
        type: 'list',
        ordered: false,
        items: [
          [{ text: 'Fruit' }],
          { spans: [{ text: 'Apples' }], level: 1, ordered: false },
          { spans: [{ text: 'Peel first' }], level: 1, ordered: true },
          [{ text: 'Vegetables' }],
        ],
      },
    ]);
    const list = container.querySelector('ul.letter-list')!;
    expect(list.outerHTML.replace(/ class="[^"]*"/g, '')).toBe(
      '<ul><li>Fruit<ul><li>Apples</li></ul><ol><li>Peel first</li></ol></li><li>Vegetables</li></ul>',
    );
    // the row's delete button names it by every item's words
    expect(
      screen.getByRole('button', { name: /Fruit, Apples, Peel first, Vegetables/ }),
    ).toBeTruthy();
  });

  it('numbers a list that goes on after a long item’s tail from where it was (BRK-6)', () => {
    const { container } = renderPreview([
      { id: 'l', type: 'list', ordered: true, start: 3, items: [[{ text: 'Third' }]] },
    ]);
    expect(container.querySelector('ol.letter-list')!.getAttribute('start')).toBe('3');
  });
});

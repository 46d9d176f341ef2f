import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LETTER_TYPES, REACTION_TYPES } from '../../lib/db-types';
import { BLOCK_TYPE_COLORS, BlockTypeIcon } from './block-type-icon';

const ALL = [...REACTION_TYPES, ...LETTER_TYPES];

describe('BlockTypeIcon', () => {
  it('gives each of the nine types its own colour and picture', () => {
    expect(new Set(ALL.map((type) => BLOCK_TYPE_COLORS[type])).size).toBe(9);
    const { container } = render(
      <>
        {ALL.map((type) => (
          <BlockTypeIcon key={type} type={type} />
        ))}
      </>,
    );
    // each tile is one outer svg (the lucide glyph is an svg inside it)
    const tiles = Array.from(container.querySelectorAll(':scope > svg'));
    expect(tiles).toHaveLength(9);
    expect(new Set(tiles.map((svg) => svg.innerHTML)).size).toBe(9);
    expect(tiles.every((svg) => svg.querySelector('svg.lucide'))).toBe(true);
  });

  it('is decorative beside a written type, an image with its name otherwise', () => {
    const { container } = render(
      <>
        <BlockTypeIcon type="form" />
        <BlockTypeIcon type="notion_letter" label="Notion letter block" />
      </>,
    );
    expect(container.querySelector('svg')!.getAttribute('aria-hidden')).toBe('true');
    const image = screen.getByRole('img', { name: 'Notion letter block' });
    expect(image.querySelector('title')!.textContent).toBe('Notion letter block');
  });
});

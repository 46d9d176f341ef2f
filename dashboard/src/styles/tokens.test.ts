import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrast } from '../lib/contrast';

// The brand tokens of base.css against WCAG AA: text 4.5:1, a focus ring and other UI parts 3:1
// (1.4.11), on both surfaces a control sits on.
const css = readFileSync(join(__dirname, 'base.css'), 'utf8');

const token = (name: string): string => {
  const found = new RegExp(`--rb-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css);
  if (!found) throw new Error(`--rb-${name} is not a six-digit colour in base.css`);
  return found[1]!;
};

describe('dashboard brand tokens', () => {
  const surfaces = ['surface', 'background'].map(token);
  it.each([
    ['text', 4.5],
    ['muted', 4.5],
    ['primary', 4.5],
    ['primary-dark', 4.5],
    ['danger', 4.5],
    ['focus', 3],
  ])('--rb-%s reads on the surfaces (at least %s:1)', (name, least) => {
    for (const surface of surfaces)
      expect(contrast(token(name), surface)).toBeGreaterThanOrEqual(least);
  });
  it('white text on the brand and danger fills', () => {
    expect(contrast('#ffffff', token('primary'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#ffffff', token('danger'))).toBeGreaterThanOrEqual(4.5);
  });
  it('danger words on the quiet destructive button hovered', () => {
    expect(contrast(token('danger'), token('danger-soft'))).toBeGreaterThanOrEqual(4.5);
  });
});

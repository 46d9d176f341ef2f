import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// jsdom lays nothing out, so the rule is read from the stylesheet: at phone widths (the cards'
// media query) the member list is no scroll box of its own inside the scrolling page (rev-owner
// D5); the paging (lib/use-scroll-loading.ts) follows the page's scroll there.
const css = readFileSync(join(__dirname, 'audience.css'), 'utf8');

/** The declarations of `selector` inside `@media (max-width: 480px)` blocks, in order. */
function phoneRules(selector: string): string[] {
  const out: string[] = [];
  for (const media of css.split('@media (max-width: 480px)').slice(1)) {
    const rule = new RegExp(`(?:^|\\n)\\s*${selector.replace('.', '\\.')}\\s*\\{([^}]*)\\}`).exec(
      media.slice(0, media.search(/\n}\n/)),
    );
    if (rule) out.push(rule[1]!.trim());
  }
  return out;
}

describe('audience list at 480 px and below', () => {
  it('grows with the page: no max-height, no scroll box of its own', () => {
    const rules = phoneRules('.audience-table-wrap').join('\n');
    expect(rules).toMatch(/max-height:\s*none/);
    expect(rules).toMatch(/overflow:\s*visible/);
  });
});

describe('audience list in a short window (B8)', () => {
  it('never breaks the state inside a word: "Activ / e" made every row two lines high', () => {
    const rule = /([^{}]*)\{\s*overflow-wrap:\s*normal;\s*\}/.exec(
      css.slice(css.indexOf('td.member-date')),
    );
    expect(rule?.[1]).toContain('td.member-state');
  });

  it('takes the window under the top bar where the window is 480 px high or less', () => {
    const short = css.slice(css.indexOf('@media (min-width: 641px) and (max-height: 480px)'));
    expect(short).toMatch(
      /^[^}]*\.audience-table-wrap\s*\{\s*max-height:\s*calc\(100vh - var\(--sticky-bar/,
    );
  });
});

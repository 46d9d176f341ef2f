import { fireEvent, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { BlockRow } from '../../../lib/db-types';
import { setLanguage } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/utils';
import { BlockList } from '../components/block-list';
import { embedSnippet } from './embed';
import { filterBlocks, responseLine, sortBlocks } from './block-utils';

function block(overrides: Partial<BlockRow>): BlockRow {
  return {
    id: 'b',
    owner_id: 'user-1',
    type: 'comment',
    name: 'Block',
    created_at: '2024-01-01T00:00:00Z',
    response_count: 0,
    new_response_count: 0,
    tags: [],
    deactivated: false,
    ...overrides,
  };
}

const t = i18next.t.bind(i18next);

describe('sortBlocks', () => {
  it('orders by new responses first, then newest created', () => {
    const list = [
      block({ id: 'newest', created_at: '2024-03-01T00:00:00Z' }),
      block({ id: 'middle', created_at: '2024-02-01T00:00:00Z', new_response_count: 2 }),
      block({ id: 'oldest', created_at: '2024-01-01T00:00:00Z', new_response_count: 5 }),
      block({ id: 'older', created_at: '2024-01-15T00:00:00Z' }),
    ];
    expect(sortBlocks(list).map((b) => b.id)).toEqual(['oldest', 'middle', 'newest', 'older']);
    expect(list[0]!.id).toBe('newest'); // input untouched
  });
});

describe('responseLine', () => {
  it('shows new responses with a plus, else the total, else none', () => {
    expect(responseLine(block({ response_count: 9, new_response_count: 3 }), t)).toBe(
      '+ 3 responses',
    );
    expect(responseLine(block({ response_count: 9 }), t)).toBe('9 responses');
    expect(responseLine(block({ response_count: 1 }), t)).toBe('1 response');
    expect(responseLine(block({}), t)).toBe('No responses');
  });

  it('says emails for letters', () => {
    expect(responseLine(block({ type: 'notion_letter', response_count: 4 }), t)).toBe('4 emails');
    expect(responseLine(block({ type: 'notion_letter', new_response_count: 2 }), t)).toBe(
      '+ 2 emails',
    );
  });

  it('is translated in Korean', async () => {
    await setLanguage('ko', false);
    expect(responseLine(block({ response_count: 9 }), t)).toBe('응답 9개');
    expect(responseLine(block({}), t)).toBe('응답 없음');
  });
});

describe('filterBlocks', () => {
  it('filters by type and by any active tag', () => {
    const list = [
      block({ id: 'a', type: 'like', tags: ['news'] }),
      block({ id: 'b', type: 'form', tags: ['blog'] }),
      block({ id: 'c', type: 'like' }),
    ];
    expect(filterBlocks(list, 'like', []).map((b) => b.id)).toEqual(['a', 'c']);
    expect(filterBlocks(list, undefined, ['blog', 'x']).map((b) => b.id)).toEqual(['b']);
  });
});

describe('embedSnippet', () => {
  it('builds the script tag and the element with escaped attributes', () => {
    const snippet = embedSnippet(block({ id: 'blk"1', type: 'form' }), {
      supabaseUrl: 'https://p.example',
      anonKey: 'key',
      sdkUrl: 'https://cdn.example/reaction.js',
    });
    expect(snippet).toBe(
      '<script src="https://cdn.example/reaction.js"></script>\n' +
        '<reaction-form project-url="https://p.example" anon-key="key" owner-id="user-1" block-id="blk&quot;1"></reaction-form>',
    );
  });
});

describe('BlockList cards', () => {
  const blocks = [
    block({ id: 'one', name: '', response_count: 2 }),
    block({ id: 'two', name: 'Survey', type: 'form', new_response_count: 1, response_count: 1 }),
    block({ id: 'off', name: 'Old', deactivated: true }),
  ];
  /** The list of `shown`, unfiltered, none selected; what a test does not pass does nothing. */
  const renderList = (shown: BlockRow[], props: Partial<ComponentProps<typeof BlockList>> = {}) =>
    renderWithProviders(
      <BlockList
        blocks={shown}
        filtered={false}
        selectedId={null}
        canDuplicate
        onActivate={() => {}}
        onAction={() => {}}
        {...props}
      />,
    );

  it('shows name or Untitled, type label and the response line', () => {
    renderList(blocks);
    const cards = screen.getAllByTestId('block-card');
    expect(cards[0]!.textContent).toContain('Untitled');
    expect(cards[0]!.textContent).toContain('2 responses');
    expect(cards[1]!.textContent).toContain('Survey');
    expect(cards[1]!.textContent).toContain('Form');
    expect(cards[1]!.textContent).toContain('+ 1 response');
    expect(cards[2]!.getAttribute('data-deactivated')).toBe('true');
    expect(cards[2]!.textContent).toContain('No responses');
  });

  it('shows the empty message', () => {
    renderList([]);
    expect(screen.getByText('No blocks yet')).toBeTruthy();
    expect(
      screen.getByText(
        'Use Create block above: pick a type, then paste its snippet into your page or share its link.',
      ),
    ).toBeTruthy();
  });

  it('card menu offers no tag change on deactivated blocks and disables duplicate at the limit', () => {
    const onAction = vi.fn();
    renderList([blocks[2]!], { canDuplicate: false, onAction });
    fireEvent.click(screen.getByRole('button', { name: 'Block menu for Old' }));
    expect(screen.queryByRole('menuitem', { name: 'Change tag' })).toBeNull();
    expect(
      (screen.getByRole('menuitem', { name: 'Duplicate' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(onAction).toHaveBeenCalledWith('delete', blocks[2]);
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { UserTagRow } from '../../../lib/db-types';
import { renderWithProviders } from '../../../test/utils';
import { TagDialog } from './tag-dialog';

const tag = (id: string, label: string) => ({ id, label }) as UserTagRow;

/** The dialog over the owner's tags, a created tag joining them (as the dashboard reloads them). */
function Harness(props: {
  onCreateTag: (label: string) => void;
  onSave: (tags: string[]) => void;
}) {
  const [tags, setTags] = useState([tag('t1', 'news'), tag('t2', 'events')]);
  return (
    <TagDialog
      open
      blockName="Survey"
      initial={['news']}
      tags={tags}
      onCreateTag={async (label) => {
        props.onCreateTag(label);
        setTags((list) => [...list, tag('t3', label)]);
      }}
      onSave={async (chosen) => props.onSave(chosen)}
      onClose={() => {}}
    />
  );
}

describe('TagDialog', () => {
  it("ticks the owner's tags, adds a new one ticked, and saves what is ticked", async () => {
    const onCreateTag = vi.fn();
    const onSave = vi.fn();
    renderWithProviders(<Harness onCreateTag={onCreateTag} onSave={onSave} />);
    const dialog = screen.getByRole('dialog');
    const news = within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'news' });
    const events = within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'events' });
    expect([news.checked, events.checked]).toEqual([true, false]);
    fireEvent.click(news);
    fireEvent.click(events);
    expect([news.checked, events.checked]).toEqual([false, true]);

    // the new tag's field: labelled, stops at the 50 characters a tag may have, Add once typed
    const field = within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'New tag' });
    expect(field.maxLength).toBe(50);
    const add = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Add' });
    expect(add.disabled).toBe(true);
    fireEvent.change(field, { target: { value: ' sale ' } });
    fireEvent.click(add);
    await waitFor(() => expect(onCreateTag).toHaveBeenCalledWith('sale'));
    expect(
      (await within(dialog).findByRole<HTMLInputElement>('checkbox', { name: 'sale' })).checked,
    ).toBe(true);
    expect(field.value).toBe('');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(['events', 'sale']));
  });
});

import { describe, expect, it } from 'vitest';
import type { WorkspaceBlockRow } from '../api/types';
import { previewView } from './preview';
import { settingsFromBlock } from './settings';

describe('previewView', () => {
  it('shows no messages, and a count that says so, whatever the block has had', () => {
    const block = {
      id: 'b1',
      type: 'comment',
      name: 'Demo comments',
      response_count: 35,
      like_count: 3,
    } as unknown as WorkspaceBlockRow;
    const view = previewView({ block, settings: settingsFromBlock(block) });
    expect(view.messages).toEqual([]);
    expect(view.block.response_count).toBe(0);
    // a like block's preview keeps its count: it lists nothing to disagree with
    expect(view.block.like_count).toBe(3);
  });
});

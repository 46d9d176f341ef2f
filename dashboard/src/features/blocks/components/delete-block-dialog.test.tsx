import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { alertsAfterTries, renderWithProviders } from '../../../test/utils';
import { DeleteBlockDialog } from './delete-block-dialog';

describe('DeleteBlockDialog', () => {
  it("says why a delete failed in the reader's language, never the server's English", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await i18next.changeLanguage('ko');
    const failures: unknown[] = [
      { code: '', message: 'TypeError: Failed to fetch', details: '', hint: '' },
      { code: 'XX000', message: 'could not delete: internal error', details: '', hint: '' },
    ];
    const onConfirm = vi.fn(async () => {
      throw failures.shift();
    });
    renderWithProviders(<DeleteBlockDialog name="설문" onClose={() => {}} onConfirm={onConfirm} />);
    expect(await alertsAfterTries(screen.getByRole('alertdialog'), '삭제', 2)).toEqual([
      '블록을 삭제하지 못했습니다: 연결에 실패했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요.',
      '블록을 삭제하지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
    ]);
  });
});

import i18next from 'i18next';
import Papa from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import type { TListResponsesInput } from './api/list-responses';
import { exportResultsCsv } from './export-results-csv';
import { answer, BLOCK_ID, Q1, questions, responseRow } from './test-data';
import type { ResponseRow } from './types';

/** A fake `listResponses` over a fixed list, honouring the cursor and the limit. */
function fakeList(all: ResponseRow[]) {
  return vi.fn(async ({ after, limit }: TListResponsesInput) => {
    const start = after ? all.findIndex((row) => row.id === after.id) + 1 : 0;
    return all.slice(start, start + limit);
  });
}

/** The blob's text with its BOM kept (jsdom's Blob has no arrayBuffer()). */
async function blobText(blob: Blob) {
  const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

describe('exportResultsCsv', () => {
  it('reads every page, 1000 at a time, and downloads the CSV with a BOM', async () => {
    const all = Array.from({ length: 2003 }, (_, i) =>
      responseRow({ answers: { [Q1]: answer(0, 'Your name', 'short_text', `이름 ${i}`) } }),
    );
    const listResponses = fakeList(all);
    const save = vi.fn<(blob: Blob, fileName: string) => void>();

    await exportResultsCsv({ id: BLOCK_ID, name: 'My form' }, questions, {
      api: { listResponses },
      save,
      now: () => new Date(2025, 5, 7),
    });

    expect(listResponses.mock.calls.map(([input]) => input.limit)).toEqual([1000, 1000, 1000]);
    expect(listResponses.mock.calls[0]?.[0].after).toBeUndefined();
    expect(listResponses.mock.calls[1]?.[0].after).toEqual({
      created_at: all[999]!.created_at,
      id: all[999]!.id,
    });
    const [blob, fileName] = save.mock.calls[0]!;
    expect(fileName).toBe('My form_result_250607.csv');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const text = await blobText(blob);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(lines).toHaveLength(2004);
    expect(lines[2003]?.[3]).toBe('이름 2002');
  });

  it("marks held responses in the owner's language (issue 17)", async () => {
    const rows = [responseRow({ held: true }), responseRow()];
    const save = vi.fn<(blob: Blob, fileName: string) => void>();
    await i18next.changeLanguage('ko');
    try {
      await exportResultsCsv({ id: BLOCK_ID, name: '설문' }, questions, {
        api: { listResponses: fakeList(rows) },
        save,
      });
    } finally {
      await i18next.changeLanguage('en');
    }
    const text = await blobText(save.mock.calls[0]![0]);
    const [header, held, counted] = Papa.parse<string[]>(text.slice(1), {
      skipEmptyLines: true,
    }).data;
    expect(header?.at(-1)).toBe('승인 전 보류');
    expect(held?.at(-1)).toBe('보류됨');
    expect(counted?.at(-1)).toBe('');
  });

  it("rejects saying why a read failed in the reader's language and downloads nothing", async () => {
    const listResponses = vi
      .fn()
      .mockResolvedValueOnce(Array.from({ length: 1000 }, () => responseRow()))
      .mockRejectedValueOnce({ message: 'JWT expired', code: 'PGRST301' });
    const save = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => {});

    await expect(
      exportResultsCsv({ id: BLOCK_ID, name: null }, questions, { api: { listResponses }, save }),
    ).rejects.toThrow(
      'Could not read the responses for the CSV file: Your session has ended. Sign in again, then try again.',
    );
    expect(save).not.toHaveBeenCalled();
  });
});

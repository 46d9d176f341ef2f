// Small helpers of the letter's block model (the types and the schema are in contracts/letters.ts).
import type { TLetterBlock, TSpan } from '@reaction-blocks/contracts/letters';

/** A short random id for a block (the editor deletes rows by it). */
export function makeId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  let out = '';
  for (const b of bytes) out += b.toString(36).padStart(2, '0');
  return out.slice(0, 12);
}

/** Spans with adjacent text of the same marks and link merged, empty ones dropped. */
export function tidySpans(spans: TSpan[]): TSpan[] {
  const out: TSpan[] = [];
  for (const span of spans) {
    if (span.text === '') continue;
    const last = out[out.length - 1];
    if (
      last &&
      last.href === span.href &&
      (last.marks ?? []).join() === (span.marks ?? []).join()
    ) {
      last.text += span.text;
    } else {
      out.push({ ...span });
    }
  }
  // no leading or trailing whitespace-only runs
  while (out.length && out[0]!.text.trim() === '' && !out[0]!.href) out.shift();
  while (out.length && out[out.length - 1]!.text.trim() === '' && !out[out.length - 1]!.href)
    out.pop();
  if (out.length) {
    out[0]!.text = out[0]!.text.replace(/^\s+/, '');
    out[out.length - 1]!.text = out[out.length - 1]!.text.replace(/\s+$/, '');
  }
  return out.filter((s) => s.text !== '');
}

/** Every image URL of the model, in order. */
export function imagesOf(blocks: TLetterBlock[]): string[] {
  return blocks.flatMap((b) => (b.type === 'image' ? [b.src] : []));
}

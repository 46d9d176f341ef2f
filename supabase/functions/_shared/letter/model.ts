// Small helpers of the letter's block model (the types and the schema are in contracts/letters.ts).
import {
  LETTER_LIMITS,
  type TLeftOut,
  type TLeftOutKind,
  type TLetterBlock,
  type TSpan,
} from '@reaction-blocks/contracts/letters';

// what the page readers (notion.ts, html-source.ts) count and cut with
export { LETTER_LIMITS, type TLeftOut, type TLeftOutKind };

/**
 * `text` cut to at most `max` UTF-16 units (what the schema's limits count) without splitting a
 * character: an emoji or another character past U+FFFF is two units, and a cut between them leaves
 * a lone surrogate, which Postgres's jsonb refuses (PostgREST answers the save 400). Such a
 * character at the end goes whole or not at all.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/** `text` in pieces of at most `max` units, each cut as clip cuts (none of the text dropped). */
export function pieces(text: string, max: number): string[] {
  const out: string[] = [];
  for (let rest = text; out.length === 0 || rest !== '';) {
    const piece = clip(rest, max);
    out.push(piece);
    rest = rest.slice(piece.length);
  }
  return out;
}

/**
 * A code block's text in pieces of at most `max` units, each a code block of its own: cut at the
 * last line end within the limit (the line end is the boundary between the blocks), or as clip
 * cuts where one line alone is longer. None of the text is dropped.
 */
export function codePieces(text: string, max: number = LETTER_LIMITS.code): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const end = rest.lastIndexOf('\n', max);
    const piece = end > 0 ? rest.slice(0, end) : clip(rest, max);
    out.push(piece);
    rest = rest.slice(end > 0 ? end + 1 : piece.length);
  }
  out.push(rest);
  return out;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** Spans in the parts a block holds (LETTER_LIMITS.spansPerBlock spans each), in order. */
export function inParts(spans: TSpan[]): TSpan[][] {
  const parts: TSpan[][] = [];
  for (let at = 0; at < spans.length; at += LETTER_LIMITS.spansPerBlock)
    parts.push(spans.slice(at, at + LETTER_LIMITS.spansPerBlock));
  return parts;
}

/** A span whose text is longer than a span holds as spans of the same look (pieces). */
export const spanPieces = (span: TSpan): TSpan[] =>
  pieces(span.text, LETTER_LIMITS.spanText).map((text) => ({ ...span, text }));

/** The blocks made of spans, without their id and spans: a paragraph, heading, quote or callout. */
type SpanBlockKind<B = TLetterBlock> = B extends { spans: TSpan[] }
  ? Omit<B, 'id' | 'spans'>
  : never;

/**
 * Spans as blocks of one kind, as many as they take (inParts), each with its own id: a
 * paragraph, heading, quote or callout longer than one block goes on in more of its kind. None
 * for no spans.
 */
export const spanBlocks = (spans: TSpan[], kind: SpanBlockKind): TLetterBlock[] =>
  inParts(spans).map((part) => ({ ...kind, id: makeId(), spans: part }) as TLetterBlock);

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
  // a run longer than a span holds goes on in spans of the same look (none of it is dropped)
  return out.flatMap((span) => (span.text === '' ? [] : spanPieces(span)));
}

/** Every image URL of the model, in order. */
export function imagesOf(blocks: TLetterBlock[]): string[] {
  return blocks.flatMap((b) => (b.type === 'image' ? [b.src] : []));
}

/**
 * The blocks a page becomes: at most LETTER_LIMITS.blocks, then the page is cut (and says so);
 * what has no mail equivalent is counted by kind. The workspace says both (`TLeftOut`), so no
 * part of a page is dropped without a word.
 */
export class PageBlocks {
  readonly blocks: TLetterBlock[] = [];
  private readonly kinds: Partial<Record<TLeftOutKind, number>> = {};
  private cut = false;
  private shortened = 0;

  /** Whether the page was cut (nothing more is read). */
  get isCut(): boolean {
    return this.cut;
  }

  /** Whether the letter holds no more blocks (a push would cut the page). */
  get full(): boolean {
    return this.blocks.length >= LETTER_LIMITS.blocks;
  }

  /** Adds a block; past the limit the page is cut there. */
  push(block: TLetterBlock): void {
    if (this.full) this.cut = true;
    else this.blocks.push(block);
  }

  /** The page goes on past what was read (or could be read): the letter ends here. */
  cutHere(): void {
    this.cut = true;
  }

  /** A part of the page with no mail equivalent. */
  leaveOut(kind: TLeftOutKind): void {
    this.kinds[kind] = (this.kinds[kind] ?? 0) + 1;
  }

  /**
   * A part kept in part: an image caption or a table cell of more spans than a block holds, a
   * table of more rows or columns than a letter's table holds (they cannot go on in a part of
   * their own kind, so their end is left out, and said).
   */
  shorten(): void {
    this.shortened += 1;
  }

  leftOut(): TLeftOut {
    return {
      kinds: { ...this.kinds },
      cutAt: this.cut ? this.blocks.length : null,
      ...(this.shortened ? { shortened: this.shortened } : {}),
    };
  }
}

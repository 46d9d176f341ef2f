// The letter workspace's draft: what Save stores (save-letter), pure functions over it.
import {
  emptyLetter,
  ZLetterBlock,
  ZLetterModel,
  type TLetterBlock,
  type TLetterModel,
  type TSaveLetter,
} from '@reaction-blocks/contracts/letters';
import type { TLanguage } from '@reaction-blocks/contracts/enums';
import type { LetterData, SenderOption } from '../api/letters';

export interface LetterDraft {
  name: string;
  /** The block's language: the mail's footer and <html lang>. */
  language: TLanguage;
  title: string;
  mailFrom: string;
  mailName: string;
  pageUrl: string;
  model: TLetterModel;
}

/**
 * The stored letter model as the editor can hold it, and how many of its parts were left out.
 * A model that no longer parses as a whole (a rule tightened after it was stored, e.g. an image
 * address with a user name, refused since 3031f41d) keeps every row, call to action and image
 * button that still parses; the rest is left out and counted, so the workspace can say so before
 * a Save stores the letter without them. Nothing stored reads as an empty letter, nothing left out.
 */
export function readLetterModel(stored: unknown): { model: TLetterModel; leftOut: number } {
  if (stored === null || stored === undefined) return { model: emptyLetter(), leftOut: 0 };
  const whole = ZLetterModel.safeParse(stored);
  if (whole.success) return { model: whole.data, leftOut: 0 };
  if (typeof stored !== 'object' || Array.isArray(stored))
    return { model: emptyLetter(), leftOut: 1 };
  const raw = stored as Record<string, unknown>;
  const { shape } = ZLetterModel;
  let leftOut = 0;
  const blocks: TLetterBlock[] = [];
  if (Array.isArray(raw.blocks)) {
    for (const block of raw.blocks as unknown[]) {
      const one = ZLetterBlock.safeParse(block);
      if (one.success) blocks.push(one.data);
      else leftOut += 1;
    }
  } else if (raw.blocks !== undefined) leftOut += 1;
  /** a button: kept when it parses, else none (counted when there was one) */
  const button = <K extends 'cta' | 'imageButton'>(key: K): TLetterModel[K] => {
    const value = raw[key];
    if (value === null || value === undefined) return null;
    const one = shape[key].safeParse(value);
    if (one.success) return one.data as TLetterModel[K];
    leftOut += 1;
    return null;
  };
  const source = shape.source.safeParse(raw.source ?? null);
  return {
    model: {
      version: 1,
      source: source.success ? source.data : null,
      blocks,
      cta: button('cta'),
      imageButton: button('imageButton'),
    },
    leftOut,
  };
}

/** A stored letter as the workspace opens it: its draft, and how many parts were left out (B9). */
export interface OpenedLetter {
  draft: LetterDraft;
  /** Parts of the stored model that no longer parse (readLetterModel): not in the draft. */
  leftOut: number;
}

// One read per stored copy. The workspace asks about the same copy several times (its first
// draft, what that is compared with, the kept-draft check, the notice of parts left out); the
// copy its query holds is replaced by a save, never changed in place, so it keys the answer.
const opened = new WeakMap<LetterData, OpenedLetter>();

export function openLetter(data: LetterData): OpenedLetter {
  const known = opened.get(data);
  if (known) return known;
  const { model, leftOut } = readLetterModel(data.private?.letter);
  const letter: OpenedLetter = {
    draft: {
      name: data.block.name,
      language: data.block.language,
      title: data.private?.mail_title ?? '',
      mailFrom: data.private?.mail_from ?? '',
      mailName: data.private?.mail_name ?? '',
      pageUrl: data.private?.page_url ?? '',
      model,
    },
    leftOut,
  };
  opened.set(data, letter);
  return letter;
}

export const sameDraft = (a: LetterDraft, b: LetterDraft) =>
  JSON.stringify(a) === JSON.stringify(b);

export function draftToSave(
  blockId: string,
  draft: LetterDraft,
  nameChanged: boolean,
): TSaveLetter {
  return {
    blockId,
    ...(nameChanged ? { name: draft.name } : {}),
    language: draft.language,
    letter: {
      title: draft.title,
      mailFrom: draft.mailFrom,
      mailName: draft.mailName,
      pageUrl: draft.pageUrl,
      model: draft.model,
    },
  };
}

/** The letter without one of its rows (the editor's row deletion). */
export function withoutBlock(model: TLetterModel, id: string): TLetterModel {
  return { ...model, blocks: model.blocks.filter((b) => b.id !== id) };
}

/**
 * The sender to show (spec section 4): a sender that is not among the verified addresses is
 * cleared; with none set, the first verified address becomes the sender.
 */
export function pickSender(current: string, senders: readonly SenderOption[]): string {
  const verified = senders.filter((s) => s.status === 'verified').map((s) => s.email);
  if (current && verified.includes(current)) return current;
  return verified[0] ?? '';
}

/** Send letter shows only when saved, with a sender, with mail HTML and not loading (spec 4). */
export function canSend(input: {
  dirty: boolean;
  hasHtml: boolean;
  mailFrom: string;
  loading: boolean;
}): boolean {
  return !input.dirty && input.hasHtml && input.mailFrom !== '' && !input.loading;
}

/** The address list of the send confirmation: up to 5, then an ellipsis. */
export function firstAddresses(emails: readonly string[]): string {
  return emails.length > 5 ? `${emails.slice(0, 5).join(', ')}, …` : emails.join(', ');
}

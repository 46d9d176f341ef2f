// The letter workspace's draft: what Save stores (save-letter), pure functions over it.
import {
  emptyLetter,
  ZLetterModel,
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

export function draftFromData(data: LetterData): LetterDraft {
  const parsed = ZLetterModel.safeParse(data.private?.letter);
  return {
    name: data.block.name,
    language: data.block.language,
    title: data.private?.mail_title ?? '',
    mailFrom: data.private?.mail_from ?? '',
    mailName: data.private?.mail_name ?? '',
    pageUrl: data.private?.page_url ?? '',
    model: parsed.success ? parsed.data : emptyLetter(),
  };
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

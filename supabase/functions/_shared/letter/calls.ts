// What the letter functions share: the caller's letter block and the sender a send goes out as.
import type { SupabaseClient } from '@supabase/supabase-js';
import { dbError, HttpError } from '../http.ts';
import {
  LETTER_MESSAGES,
  LETTER_TYPES,
  ZSaveLetter,
  type TLetterType,
} from '@reaction-blocks/contracts/letters';
import { platformSender } from '../mail-delivery.ts';
import { clip } from './model.ts';
import { sesMailer } from '../mail.ts';
import { canSendAs } from '../sender-emails.ts';

export interface LetterBlockRow {
  id: string;
  owner_id: string;
  type: TLetterType;
  name: string;
  deactivated: boolean;
  private: {
    mail_from: string | null;
    mail_name: string | null;
    brunch_profile_page: string | null;
  };
}

/** The private fields every caller of a letter block reads (the sender, the Brunch profile). */
const PRIVATE_COLUMNS = 'mail_from, mail_name, brunch_profile_page';
/** What storedLetterRefusal checks besides the sender's fields: the rest of save-letter's input. */
const STORED_COLUMNS = 'letter, mail_title, page_url';

/** The stored letter as save-letter wrote it: what storedLetterRefusal checks. */
export interface StoredLetter {
  letter: unknown;
  mail_title: string | null;
  mail_from: string | null;
  mail_name: string | null;
  page_url: string | null;
}

type PrivateRow = LetterBlockRow['private'] &
  Partial<StoredLetter> & { updated_at?: string | null };

/** The caller's letter block with `columns` of its private row, or 404. */
async function readLetterBlock(
  db: SupabaseClient,
  ownerId: string,
  blockId: string,
  columns: string,
): Promise<Omit<LetterBlockRow, 'private'> & { private: PrivateRow | null }> {
  const { data, error, status } = await db
    .from('blocks')
    .select(`id, owner_id, type, name, deactivated, private:block_private(${columns})`)
    .eq('id', blockId)
    .eq('owner_id', ownerId)
    .maybeSingle();
  if (error) throw dbError(error, status);
  const row = data as
    (Omit<LetterBlockRow, 'private'> & { private: PrivateRow | PrivateRow[] | null }) | null;
  if (!row || !(LETTER_TYPES as readonly string[]).includes(row.type)) {
    throw new HttpError(404, 'not_found', "block doesn't exists");
  }
  const priv = Array.isArray(row.private) ? row.private[0] : row.private;
  return { ...row, private: priv ?? null };
}

const NO_PRIVATE: LetterBlockRow['private'] = {
  mail_from: null,
  mail_name: null,
  brunch_profile_page: null,
};

/** The letter block as the callers use it: the sender's fields of its private row (or none). */
function asLetterBlock(row: Awaited<ReturnType<typeof readLetterBlock>>): LetterBlockRow {
  const priv = row.private;
  return {
    id: row.id,
    owner_id: row.owner_id,
    type: row.type,
    name: row.name,
    deactivated: row.deactivated,
    private: priv
      ? {
          mail_from: priv.mail_from,
          mail_name: priv.mail_name,
          brunch_profile_page: priv.brunch_profile_page,
        }
      : NO_PRIVATE,
  };
}

/** The caller's letter block with its private settings, or 404. */
export async function ownLetterBlock(
  db: SupabaseClient,
  ownerId: string,
  blockId: string,
): Promise<LetterBlockRow> {
  return asLetterBlock(await readLetterBlock(db, ownerId, blockId, PRIVATE_COLUMNS));
}

/**
 * Why the letter as stored may not be sent, or null (a check of the row, no read). The mail a
 * send carries is what save-letter rendered when the letter was saved; a rule tightened since (an
 * image address with a user name, 3031f41d) does not reach that mail, so the stored letter is
 * checked again with the schema save-letter takes (ZSaveLetter's letter): one it now refuses is
 * not sent until it is saved again (the workspace opens it without the refused parts, breaker
 * BRK-5). A letter with no stored model was never saved through save-letter (a copy made before
 * 20261129120906 has the mail only): it is to be loaded and saved first.
 */
export function storedLetterRefusal(row: StoredLetter | null): string | null {
  if (!row || row.letter === null || row.letter === undefined) {
    return LETTER_MESSAGES.saveLetterFirst;
  }
  const stored = ZSaveLetter.shape.letter.safeParse({
    title: row.mail_title ?? '',
    mailFrom: row.mail_from ?? '',
    mailName: row.mail_name ?? '',
    pageUrl: row.page_url ?? '',
    model: row.letter,
  });
  return stored.success ? null : LETTER_MESSAGES.saveLetterAgain;
}

/**
 * The verdicts of storedLetterRefusal this process reached, by letter block, with the private
 * row's updated_at they hold for (a trigger sets it on every update of the row, so any change of
 * the letter, subject, sender or page address is another key). Checking a letter of 1 MB takes
 * tens of milliseconds to a few hundred (docs/benchmarks.md, "Checking a stored letter"), and a
 * form's automatic letter is checked for every response; the verdict is reused for the letter as
 * it was checked and never for another. A new deploy is a new process: a rule changed there
 * checks every letter again. Bounded: the least recently used verdict goes first.
 */
const verdicts = new Map<string, { updatedAt: string; refusal: string | null }>();
const MAX_VERDICTS = 1000;

function remember(blockId: string, updatedAt: string, refusal: string | null): void {
  verdicts.delete(blockId);
  verdicts.set(blockId, { updatedAt, refusal });
  if (verdicts.size > MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
}

/**
 * The caller's letter block a send goes out from and why its stored letter may not be sent
 * (storedLetterRefusal), in one read of the block and its private row: the sender's fields and
 * the stored letter together. With `reuseVerdict` (a form's automatic letter, checked for every
 * response) a letter this process checked already is read without its model, and read again
 * with it only when the row changed since; the manual sends read it whole every time (a send
 * mostly follows a save, which a verdict kept would miss: two reads).
 */
export async function letterToSend(
  db: SupabaseClient,
  ownerId: string,
  blockId: string,
  { reuseVerdict = false }: { reuseVerdict?: boolean } = {},
): Promise<{ block: LetterBlockRow; refusal: string | null }> {
  const known = reuseVerdict ? verdicts.get(blockId) : undefined;
  if (known) {
    const row = await readLetterBlock(db, ownerId, blockId, `${PRIVATE_COLUMNS}, updated_at`);
    if (row.private?.updated_at === known.updatedAt) {
      remember(blockId, known.updatedAt, known.refusal);
      return { block: asLetterBlock(row), refusal: known.refusal };
    }
  }
  const row = await readLetterBlock(
    db,
    ownerId,
    blockId,
    `${PRIVATE_COLUMNS}, updated_at, ${STORED_COLUMNS}`,
  );
  const priv = row.private;
  const refusal = storedLetterRefusal(
    priv
      ? {
          letter: priv.letter ?? null,
          mail_title: priv.mail_title ?? null,
          mail_from: priv.mail_from,
          mail_name: priv.mail_name,
          page_url: priv.page_url ?? null,
        }
      : null,
  );
  if (priv?.updated_at) remember(blockId, priv.updated_at, refusal);
  return { block: asLetterBlock(row), refusal };
}

export interface Sender {
  from: string;
  from_name: string;
  reply_to: string | null;
  /** true: sent from the owner's own verified address */
  as_owner: boolean;
}

/**
 * Who a letter goes out as (spec section 4: the verified sender). The block's `mail_from` must
 * be a verified sender email of the owner. A domain whose DMARC policy is quarantine or reject
 * would have receivers drop mail we send "from" it unless we sign for it (DKIM on a verified
 * domain identity): such a letter goes from the platform address, with the sender's name and
 * Reply-To the owner's address. A sender the reputation check suspended sends nothing. SES is
 * asked whether it still sends as the address before anything is reserved: an identity deleted or
 * failed at SES would have every mail refused (the row is set not verified, and the sender page
 * says so); SES being unreachable does not stop the send (the queue waits for it).
 */
export async function senderFor(
  db: SupabaseClient,
  ownerId: string,
  block: LetterBlockRow,
  ownerName: string,
): Promise<Sender> {
  const address = block.private.mail_from;
  if (!address) throw new HttpError(400, 'no_sender', LETTER_MESSAGES.verifySenderFirst);
  const [senderRead, statusRead] = await Promise.all([
    db
      .from('sender_emails')
      .select('email, status, dkim_verified, dmarc_policy')
      .eq('user_id', ownerId)
      .eq('email', address)
      .maybeSingle(),
    db.rpc('mail_sender_status', { p_user_id: ownerId }),
  ]);
  for (const read of [senderRead, statusRead])
    if (read.error) throw dbError(read.error, read.status);
  const status = statusRead.data;
  const sender = senderRead.data as {
    email: string;
    status: string;
    dkim_verified: boolean;
    dmarc_policy: string | null;
  } | null;
  if (!sender || sender.status !== 'verified') {
    throw new HttpError(400, 'no_sender', LETTER_MESSAGES.verifySenderFirst);
  }
  if ((status as { suspended?: boolean } | null)?.suspended) {
    throw new HttpError(
      403,
      'sender_suspended',
      'Sending is paused: too many of your letters bounced or were marked as spam',
    );
  }
  const name = clip(block.private.mail_name || ownerName || sender.email, 100);
  const strict = sender.dmarc_policy === 'quarantine' || sender.dmarc_policy === 'reject';
  if (strict && !sender.dkim_verified) {
    // From the platform's address: SES's state of the owner's address does not matter
    return {
      from: platformSender().address,
      from_name: name,
      reply_to: sender.email,
      as_owner: false,
    };
  }
  if (!(await sesSendsAs(sender.email))) {
    await db
      .from('sender_emails')
      .update({ status: 'not_verified' })
      .eq('user_id', ownerId)
      .eq('email', sender.email);
    throw new HttpError(400, 'no_sender', LETTER_MESSAGES.verifySenderFirst);
  }
  return { from: sender.email, from_name: name, reply_to: null, as_owner: true };
}

/** SES's answer, or true when SES could not answer (the send is queued and the queue waits). */
async function sesSendsAs(address: string): Promise<boolean> {
  try {
    return await canSendAs(sesMailer(), address);
  } catch (err) {
    console.warn('[letters] SES could not say whether it sends as the sender', err);
    return true;
  }
}

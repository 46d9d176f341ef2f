// Double opt-in of the addresses a visitor types (schemas/mail-consent.sql): the confirmation
// mail in the mailbox, its single-use token, and the confirm-email function's answers. Tests of
// other mails confirm an address up front with `preconfirm` (as its person would have).
import { expect } from 'vitest';
import { newGuest, sql, stack, type TestUser } from './clients.ts';
import { addQuestion, ownerWithBlock } from './drafts.ts';
import { callWorker } from './worker.ts';
import { eventually, mailbox, type Mail } from './providers.ts';

/**
 * The address confirmed the owner's letters (`commenterId` omitted), or reply notifications for
 * `commenterId`'s comments on the owner's blocks.
 */
export const preconfirm = (email: string, ownerId: string, commenterId: string | null = null) =>
  sql(
    `insert into private.mail_consents (email, owner_id, commenter_id, confirmed_at)
     values (lower($1), $2, $3, now())
     on conflict (email, owner_id, commenter_id, for_notifications) do update set confirmed_at = now()`,
    [email, ownerId, commenterId],
  );

/** Runs the worker until the confirmation mail to `to` is in the mailbox. */
export const confirmationMail = (to: string): Promise<Mail> =>
  eventually(async () => {
    await callWorker();
    return (await mailbox(to)).find((m) => m.html?.includes('/confirm-email?token='));
  });

/** The token of a confirmation mail's link. */
export function tokenOf(mail: Mail): string {
  const token = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail.html ?? '')?.[1];
  expect(token).toBeTruthy();
  return token!;
}

/** The confirm-email function: GET (what the link asks) or POST (confirm, "not me"). */
export async function answerLink(
  token: string,
  answer?: 'confirm' | 'not-me',
): Promise<{
  status: number;
  json: { data?: Record<string, unknown>; error?: { message: string } };
}> {
  const url = `${stack().apiUrl}/functions/v1/confirm-email`;
  const res = answer
    ? await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, answer }),
      })
    : await fetch(`${url}?token=${encodeURIComponent(token)}`);
  return { status: res.status, json: (await res.json()) as never };
}

/** The reply notification jobs of a thread, run now: the digest window and run_at moved back. */
export async function runReplyJobs(parentId: string) {
  await sql(
    `update private.job_groups set last_done_at = now() - interval '2 minutes' where group_key = $1`,
    [`notify.reply:${parentId}`],
  );
  await sql(`update private.jobs set run_at = now() where group_key = $1 and status = 'queued'`, [
    `notify.reply:${parentId}`,
  ]);
  return eventually(async () => {
    await callWorker();
    const jobs = await sql<{ status: string; result: { skipped?: string } | null }>(
      `select status, result from private.jobs where kind = 'notify.reply' and payload ->> 'parent_id' = $1`,
      [parentId],
    );
    return jobs.length > 0 && jobs.every((j) => ['done', 'merged'].includes(j.status))
      ? jobs
      : undefined;
  });
}

/** A comment block that asks for emails (allow_creator_email), named by its owner. */
export const commentBlock = (name = 'Demo comments') =>
  ownerWithBlock('comment', { settings: { name, allow_creator_email: true } });

/** A form whose one mail question is the visitor's email (as_visitor_info), and its owner. */
export async function emailForm() {
  const { owner, blockId } = await ownerWithBlock('form', { settings: { name: 'Join the list' } });
  await sql(`update public.profiles set name = 'Ann''s Bakery' where id = $1`, [owner.id]);
  const q = await addQuestion(blockId, {
    type: 'mail',
    index: 0,
    required: true,
    as_visitor_info: 'email',
  });
  const submit = async (email: string, guest?: TestUser) => {
    guest ??= await newGuest();
    const { data, error } = await guest.client.rpc('submit_response', {
      p_block_id: blockId,
      p_answers: { [q.id]: email },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ held: false });
  };
  return { owner, blockId, submit };
}

// Double opt-in of the addresses a visitor types (schemas/mail-consent.sql): the confirmation
// mail in the mailbox, its single-use token, and the confirm-email function's answers. Tests of
// other mails confirm an address up front with `preconfirm` (as its person would have).
import { expect } from 'vitest';
import { sql, stack } from './clients.ts';
import { callWorker } from './worker.ts';
import { eventually, mailbox, type Mail } from './providers.ts';

/** The address confirmed reply notifications (`ownerId` null) or the owner's letters. */
export const preconfirm = (email: string, ownerId: string | null) =>
  sql(
    `insert into private.mail_consents (email, owner_id, confirmed_at) values (lower($1), $2, now())
     on conflict (email, owner_id) do update set confirmed_at = now()`,
    [email, ownerId],
  );

/** Runs the worker until the confirmation mail to `to` is in the mailbox. */
export const confirmationMail = (to: string): Promise<Mail> =>
  eventually(async () => {
    await callWorker();
    return (await mailbox(to)).find((m) => m.html?.includes('/confirm-email?token='));
  }, 20_000);

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

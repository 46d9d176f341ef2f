// Letters tests' helpers (letters, letter-sends, letter-audience and letter-settle tests): an
// owner with a letter block and a verified sender, loading a page into a letter and saving it,
// the checks every rendered letter passes, reserving a send held back from the worker, and
// running the worker until a delivery or a mail is there.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type TLeftOut, type TLetterModel } from '@reaction-blocks/contracts/letters';
import { callFunction, newUser, sql, stack, transaction, type TestUser } from './clients.ts';
import { callWorker } from './worker.ts';
import { eventually, mailbox, sesControl, type Mail } from './providers.ts';
import { NOTION_PAGE_URL } from '../../local/providers/pages/fixtures.ts';

export const runWorker = () => callWorker();

export interface Owner {
  owner: TestUser;
  blockId: string;
  sender: string;
}

/** An owner with a letter block and a verified sender (DKIM on a ready domain). */
export async function letterOwner(
  type: 'notion_letter' | 'typedream_letter' | 'brunch_letter' = 'notion_letter',
  opts: { paid?: boolean; limit?: number; sender?: string; dkim?: boolean; dmarc?: string } = {},
): Promise<Owner> {
  const owner = await newUser('letter');
  await sql(
    'update public.profiles set paid = $2, response_monthly_limit = $3, block_limit = 20 where id = $1',
    [owner.id, opts.paid ?? true, opts.limit ?? 1000],
  );
  const { data, error } = await owner.client.rpc('create_block', { p_block_type: type });
  expect(error).toBeNull();
  const sender = opts.sender ?? `writer-${randomUUID().slice(0, 8)}@ses-ready.example`;
  await sesControl('/identities', { identity: sender, verified: true, status: 'SUCCESS' });
  await sql(
    `insert into public.sender_emails (user_id, email, status, spf_verified, dkim_verified, dmarc_policy, confirmed_at)
     values ($1, $2, 'verified', true, $3, $4, now())`,
    [owner.id, sender, opts.dkim ?? true, opts.dmarc ?? null],
  );
  return { owner, blockId: (data as { id: string }).id, sender };
}

export interface Loaded {
  status: boolean;
  html: string;
  text: string;
  title: string;
  letter: TLetterModel;
  warnings: string[];
  leftOut: TLeftOut;
  pageUrl: string;
}

export async function load(o: Owner, mode: string, pageUrl: string) {
  return callFunction(
    'web-to-template',
    { blockId: o.blockId, mode, pageUrl },
    o.owner.accessToken,
  );
}

export async function loaded(o: Owner, mode: string, pageUrl: string): Promise<Loaded> {
  const res = await load(o, mode, pageUrl);
  expect(res.json.error, JSON.stringify(res.json.error)).toBeUndefined();
  return res.json.data as Loaded;
}

/** The checks every rendered letter must pass (issue 11, Tests and figures). */
export function expectMailSafe(html: string) {
  expect(html).not.toMatch(/<script|<iframe|<object|<embed|<svg|<form|<style|<template/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:|vbscript:|data:/i);
  expect(html).not.toMatch(/\sclass=/i);
  expect(html).not.toMatch(/url\(/i);
  for (const m of html.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)) {
    const src = new URL(m[1]!.replace(/&amp;/g, '&'));
    expect(src.protocol === 'https:' || src.origin === new URL(stack().apiUrl).origin).toBe(true);
  }
  for (const m of html.matchAll(/<a[^>]*\shref="([^"]+)"/g)) {
    expect(['http:', 'https:', 'mailto:']).toContain(
      new URL(m[1]!.replace(/&amp;/g, '&')).protocol,
    );
  }
}

export async function save(
  o: Owner,
  l: Loaded,
  extra: Partial<TLetterModel> = {},
  title = l.title,
  block: { language?: string } = {},
) {
  return callFunction(
    'save-letter',
    {
      blockId: o.blockId,
      ...block,
      letter: {
        title,
        mailFrom: o.sender,
        mailName: 'Letter Writer',
        pageUrl: l.pageUrl,
        model: { ...l.letter, ...extra },
      },
    },
    o.owner.accessToken,
  );
}

/** An owner of a `mode` letter block (letterOwner) with the page at `pageUrl` loaded into it. */
export async function pageLoaded(mode: 'notion' | 'typedream', pageUrl: string) {
  const o = await letterOwner(`${mode}_letter`);
  return { o, l: await loaded(o, mode, pageUrl) };
}

/** The loaded letter passes every letter's checks (expectMailSafe) and saves as it was loaded. */
export async function expectSavesSafe(o: Owner, l: Loaded) {
  expectMailSafe(l.html);
  const saved = await save(o, l);
  expect(saved.status, JSON.stringify(saved.json.error)).toBe(200);
}

/** A Notion letter's owner (letterOwner) with the fixture page loaded and saved as the letter. */
export async function savedLetterOwner(opts?: Parameters<typeof letterOwner>[1]): Promise<Owner> {
  const o = await letterOwner('notion_letter', opts);
  const saved = await save(o, await loaded(o, 'notion', NOTION_PAGE_URL));
  expect(saved.json.error).toBeUndefined();
  return o;
}

/** A send to `to` reserved as send-letter does, held back from the worker until `release()`. */
export async function reserveHeld(o: Owner, to: string): Promise<() => Promise<void>> {
  const jobsOf = `kind = 'letter' and payload ->> 'delivery_id' in
    (select id::text from public.deliveries where email = $1)`;
  // held back in the reserving transaction itself, so no worker can take it first
  await transaction(async (db) => {
    await db.query('select public.reserve_letter($1, $2, array[$3], null, false, $4::jsonb)', [
      o.owner.id,
      o.blockId,
      to,
      JSON.stringify({ from: o.sender, from_name: 'W', reply_to: null, as_owner: true }),
    ]);
    await db.query(`update private.jobs set run_at = now() + interval '1 hour' where ${jobsOf}`, [
      to,
    ]);
  });
  return async () => {
    await sql(`update private.jobs set run_at = now() where ${jobsOf}`, [to]);
  };
}

/** Runs the worker until the delivery to `to` has `status`. */
export function deliveryOf(to: string, status: string) {
  return eventually(async () => {
    await runWorker();
    const [d] = await sql<{ status: string; reason: string | null }>(
      'select status, reason from public.deliveries where email = $1',
      [to],
    );
    return d?.status === status && d;
  });
}

export async function sendAndDeliver(o: Owner, emails: string[]) {
  const res = await callFunction(
    'send-letter',
    { blockId: o.blockId, emailList: emails, registerAudience: false },
    o.owner.accessToken,
  );
  expect(res.json.error, JSON.stringify(res.json.error)).toBeUndefined();
  return res.json.data as { reservedCount: number; skippedCount: number; publishId: string | null };
}

export async function delivered(to: string, subject?: string): Promise<Mail> {
  return eventually(async () => {
    await runWorker();
    return (await mailbox(to)).find((m) => !subject || m.subject === subject);
  });
}

// The demo owner's letters (seed/01-demo-owner.sql makes the three letter blocks, their verified
// sender and brunch profile): once the stack answers, each empty one is made the way an owner makes one,
// through the functions with the demo owner's session: web-to-template loads a fixture page of the
// providers server (the Notion page, the demo Typedream newsletter, the demo Brunch article) and
// copies its images to Storage, save-letter renders and stores it, and the Notion letter is sent
// once to three addresses (send-letter), so its history shows a send with delivery counts. The
// form's mail question names the Typedream letter (the seed): a response with an address gets it.
// `npm start` and `npm run screens` call it; it does nothing when the letters have content (a
// database that was filled before, or the owner's own edits) or there is no demo owner.
import { ownerAccessToken } from './auth/jwt.ts';
import pg from 'pg';
import type { TLetterModel } from '@reaction-blocks/contracts/letters';
import { DEMO_BRUNCH_ARTICLE_URL, DEMO_TYPEDREAM_PAGE_URL } from './providers/pages/demo-pages.ts';
import { NOTION_PAGE_URL } from './providers/pages/fixtures.ts';

export const DEMO_OWNER_ID = '00000000-0000-4000-8000-000000000001';
const DEMO_EMAIL = 'demo@reaction-blocks.local';
const letter = (nn: string) => `00000000-0000-4000-8000-0000000001${nn}`;

/** A session of the demo owner, as its Google sign-in would make it (10 minutes). */
export const demoOwnerToken = (jwtSecret: string): Promise<string> =>
  ownerAccessToken(
    jwtSecret,
    { id: DEMO_OWNER_ID, email: DEMO_EMAIL, provider: 'google', fullName: 'Demo Owner' },
    '10m',
  );

/** The demo letters: block, source mode and page, and what the owner adds to the page. */
export const DEMO_LETTERS = [
  {
    blockId: letter('07'),
    mode: 'notion',
    pageUrl: NOTION_PAGE_URL,
    cta: { text: 'Read the release notes', link: 'https://example.com/notes' },
    sendTo: ['reader.one@example.com', 'reader.two@example.com', 'reader.three@example.com'],
  },
  {
    blockId: letter('08'),
    mode: 'typedream',
    pageUrl: DEMO_TYPEDREAM_PAGE_URL,
    cta: { text: 'Read the changelog', link: 'https://reaction-demo.typedream.app/changelog' },
    sendTo: [],
  },
  {
    blockId: letter('09'),
    mode: 'brunch',
    pageUrl: DEMO_BRUNCH_ARTICLE_URL,
    cta: null,
    sendTo: [],
  },
] as const;

interface StackLike {
  apiUrl: string;
  anonKey: string;
  dbUrl: string;
  jwtSecret: string;
}

async function call<T>(stack: StackLike, token: string, fn: string, body: unknown): Promise<T> {
  const res = await fetch(`${stack.apiUrl}/functions/v1/${fn}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      apikey: stack.anonKey,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => ({}))) as { data?: T; error?: { message?: string } };
  if (!res.ok || answer.data === undefined) {
    throw new Error(`${fn} answered ${res.status}: ${answer.error?.message ?? 'no data'}`);
  }
  return answer.data;
}

/**
 * Fills the demo owner's empty letters; answers how many it filled. Throws when a function
 * refuses (the caller says so and goes on: the demo works without them).
 */
export async function fillDemoLetters(stack: StackLike): Promise<number> {
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  let empty: string[];
  try {
    empty = (
      await db.query<{ block_id: string }>(
        `select p.block_id from public.block_private p join public.blocks b on b.id = p.block_id
          where b.owner_id = $1 and p.block_id = any($2::uuid[])
            and coalesce(p.mail_html, '') = '' and coalesce(p.letter -> 'blocks', '[]') = '[]'`,
        [DEMO_OWNER_ID, DEMO_LETTERS.map((l) => l.blockId)],
      )
    ).rows.map((r) => r.block_id);
  } finally {
    await db.end();
  }
  if (empty.length === 0) return 0;
  const token = await demoOwnerToken(stack.jwtSecret);

  let filled = 0;
  for (const demo of DEMO_LETTERS) {
    if (!empty.includes(demo.blockId)) continue;
    const loaded = await call<{ title: string; pageUrl: string; letter: TLetterModel }>(
      stack,
      token,
      'web-to-template',
      { blockId: demo.blockId, mode: demo.mode, pageUrl: demo.pageUrl },
    );
    await call(stack, token, 'save-letter', {
      blockId: demo.blockId,
      letter: {
        title: loaded.title,
        mailFrom: DEMO_EMAIL,
        mailName: 'Demo Owner',
        pageUrl: loaded.pageUrl,
        model: { ...loaded.letter, cta: demo.cta },
      },
    });
    if (demo.sendTo.length > 0) {
      await call(stack, token, 'send-letter', {
        blockId: demo.blockId,
        emailList: demo.sendTo,
        registerAudience: false,
      });
    }
    filled++;
  }
  return filled;
}

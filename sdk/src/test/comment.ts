// What the comment element's test files share (comment.test, comment.write.test,
// comment.trust.test, qna.test): the message maker, a signed-in visitor, and the harness of a
// mounted comment block with its mock API. Not a test file itself (web-test-runner runs *.test.ts).
import { expect } from '@open-wc/testing';
import '../components/comment/comment.js';
import '../components/qna/qna.js';
import type ReactionComment from '../components/comment/comment.component.js';
import type { BlockView, Message } from '../core/types.js';
import { $, ApiError, block, mockApi, reset, type, until, withSession } from './mock-api.js';
import { mountReady } from './mount.js';
import { message } from './fixtures.js';

let clock = Date.parse('2024-05-06T10:00:00Z');
export const msg = (id: string, over: Partial<Message> = {}): Message =>
  message(id, {
    color: '#1565c0',
    like_count: 0,
    reply_count: 0,
    created_at: new Date((clock -= 60000)).toISOString(),
    ...over,
  });

/** A signed-in visitor's stored session (withSession), named 'Signed <id>'; its token. */
export const signIn = (id: string) =>
  withSession(id, false, { user_metadata: { full_name: 'Signed ' + id } });

export const textarea = (el: Element) => $<HTMLTextAreaElement>(el, '[part=composer] textarea');
export const send = (el: Element) => $<HTMLButtonElement>(el, '[part=composer] [part=submit]');
/** Until the composer's Send speaks the block's language (its texts are here). */
export const sendIn = (el: Element, lang: 'en' | 'ko') =>
  until(() => send(el).textContent!.trim() === (lang === 'ko' ? '보내기' : 'Send'));
/** Types `text` in the composer and presses Send, as a visitor does. */
export const typeAndSend = async (el: ReactionComment, text: string) => {
  type(textarea(el), text);
  await el.updateComplete;
  send(el).click();
};
/** post_message refused as too fast (429 rate_limit): `said`, and the wait in the hint's JSON. */
export const tooFast = (said: string, hint?: object) => ({
  post_message: () => {
    throw new ApiError(429, said, 'PT429', 'rate_limit', hint ? JSON.stringify(hint) : null);
  },
});
/** The live region's text where a screen reader hears it: role=alert, kept in the tree. */
export const alertIn = (root: Element) =>
  [...root.querySelectorAll('[role=alert]')].map((e) => e.textContent!.trim()).join(' ');
/** Sends a message the server refuses: `said` shows in the live region, the text stays. */
export const refused = async (el: ReactionComment, said: string) => {
  await typeAndSend(el, 'spam spam');
  await until(() => alertIn(el.shadowRoot as unknown as Element).includes(said));
  expect(textarea(el).value).to.equal('spam spam');
};
export const item = (el: Element, id: string) => $(el, '#m-' + id);
// Only the message's own buttons (not its replies'); compare booleans so a failure never dumps a DOM tree.
export const button = (root: Element, text: string) =>
  [
    ...(root.matches('[part=message]')
      ? root.querySelectorAll(
          ':scope > [part=actions] button, :scope > .row button, :scope > form button',
        )
      : root.querySelectorAll('button')),
  ].find((b) => b.textContent!.trim().startsWith(text)) as HTMLButtonElement;
export const has = (root: Element, text: string) => !!button(root, text);
/** The message's like button: "n Like(s)" (en) or "좋아요 n" (ko). */
export const likeOf = (m: Element) =>
  [...m.querySelectorAll(':scope > [part=actions] button')].find((b) =>
    /^(\d+ Likes?|좋아요 \d+)$/.test(b.textContent!.trim()),
  ) as HTMLButtonElement | undefined;

/**
 * A comment block's harness for one describe: resets the page before each test and restores the
 * mock API after it. `h.api` is the mock API the last `mount` (or the test) set.
 */
export function commentHarness() {
  const h = {} as { api: ReturnType<typeof mockApi> };
  beforeEach(reset);
  afterEach(() => h.api.restore());

  async function mount(
    v: Partial<BlockView> = {},
    handlers: Parameters<typeof mockApi>[0] = {},
    tag = 'comment',
  ) {
    const page1 = [
      msg('m1', {
        replies: [msg('r1', { parent_id: 'm1', creator_id: 'owner-1', creator_name: 'Owner' })],
        reply_count: 1,
      }),
      msg('m2', { content: 'see https://example.com/a, and javascript:alert(1) <b>bold</b>' }),
      msg('m3'),
      msg('m4'),
      msg('m5'),
    ];
    let n = 0;
    h.api = mockApi({
      get_block_view: () => ({
        block: block({
          type: tag,
          welcome_message: 'Welcome! $responseCount$ so far',
          response_count: 12,
          placeholder: 'Say something',
          ...v.block,
        }),
        messages: page1,
        me: { liked_message_ids: ['m2'] },
        ...v,
        ...(v.block ? {} : {}),
      }),
      list_messages: () => [msg('m6'), msg('m7')],
      post_message: (b) =>
        msg('new' + ++n, {
          parent_id: (b.p_parent_id as string) || null,
          content: b.p_content as string,
          creator_id: 'anon-user-1',
          creator_name: b.p_creator_name as string,
          home_url: (b.p_home_url as string) || null,
          created_at: new Date().toISOString(),
        }),
      edit_message: (b) =>
        msg(b.p_message_id as string, {
          content: b.p_content as string,
          is_edited: true,
          creator_id: 'anon-user-1',
        }),
      delete_message: () => null,
      toggle_message_like: () => ({ liked: true, like_count: 1 }),
      set_message_resolved: (b) =>
        msg(b.p_message_id as string, { resolved: b.p_resolved as boolean }),
      ...handlers,
    });
    return mountReady<ReactionComment>(`reaction-${tag}`);
  }
  /** A comment block in `lang` (`over` on its row, `handlers` on the API), once its Send speaks it. */
  async function mountIn(
    lang: 'en' | 'ko',
    over: Partial<BlockView['block']> = {},
    handlers: Parameters<typeof mockApi>[0] = {},
  ) {
    const el = await mount(
      { block: block({ type: 'comment', language: lang, ...over }) },
      handlers,
    );
    await sendIn(el, lang);
    return el;
  }
  /** Runs `check` for each case, each on a page of its own (the mock API and storage reset). */
  async function eachOnItsOwn<T>(cases: readonly T[], check: (c: T) => Promise<void>) {
    for (const c of cases) {
      await check(c);
      h.api.restore();
      reset();
    }
  }
  /** Runs `check` in English and in Korean, each on a page of its own, with what the block says in each. */
  const inEnglishAndKorean = (
    said: { en: string; ko: string },
    check: (lang: 'en' | 'ko', text: string) => Promise<void>,
  ) => eachOnItsOwn(['en', 'ko'] as const, (lang) => check(lang, said[lang]));

  return { h, mount, mountIn, eachOnItsOwn, inEnglishAndKorean };
}

// The public block page's chrome (viewer/page.ts) on the real template, in jsdom: the states a
// visitor can meet before the block shows, the language, and that an owner's name or photo can
// only ever be text and an http(s) image.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  dropRepeatedTitle,
  failureState,
  initPage,
  linkComplete,
  pageLang,
  typeLabel,
  textsFor,
} from './page';

const OWNER = '00000000-0000-4000-8000-000000000001';
const BLOCK = '00000000-0000-4000-8000-000000000106';
const template = readFileSync(join(__dirname, 'index.html'), 'utf8');

/** A fresh document from the template (as served: filled by the server or not). */
function page(search: string, fill?: { type: string; lang: string; title: string }) {
  let html = template;
  if (fill)
    html = html
      .replace('data-block-type=""', `data-block-type="${fill.type}"`)
      .replace('data-block-lang=""', `data-block-lang="${fill.lang}"`)
      .replace(/(<h1 id="block-title"[^>]*>)(<\/h1>)/, `$1${fill.title}$2`);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const load = vi.fn(async () => {});
  const element = doc.querySelector('reaction-block') as HTMLElement & { load?: () => void };
  element.load = load;
  const win = {
    location: { search, href: `https://app.example.com/block/${search}` },
    navigator: { language: 'en-US', clipboard: { writeText: vi.fn(async () => {}) } },
    matchMedia: () => ({ matches: false }),
    setTimeout: () => 0,
  } as unknown as Window;
  const setState = initPage(doc, win);
  const text = (sel: string) => doc.querySelector(sel)?.textContent?.trim();
  const visible = (sel: string) => !(doc.querySelector(sel) as HTMLElement).hidden;
  const fire = (name: string, detail: unknown) =>
    element.dispatchEvent(new CustomEvent(name, { detail }));
  return { doc, win, element, load, setState, text, visible, fire };
}

const ids = `?id=${OWNER}&block_id=${BLOCK}`;

afterEach(() => vi.restoreAllMocks());

describe('the public block page', () => {
  it('a complete link is loading until the block loads, then shows its type, title and owner', () => {
    const p = page(ids, { type: 'form', lang: 'en', title: 'Spring survey' });
    expect(p.doc.documentElement.dataset.state).toBe('loading');
    expect(p.text('[data-text=type]')).toBe('Form');
    expect(p.visible('#block-status')).toBe(false);
    p.fire('reaction-load', {
      view: {
        block: { type: 'form', name: 'Spring survey', theme: 'dark', owner_name: 'Mina Kim' },
      },
    });
    expect(p.doc.documentElement.dataset.state).toBe('ready');
    expect(p.doc.documentElement.dataset.theme).toBe('dark');
    expect(p.text('#block-title')).toBe('Spring survey');
    expect(p.text('#block-owner-name')).toBe('by Mina Kim');
    expect(p.text('#block-owner-avatar')).toBe('M');
    expect(p.visible('#block-owner')).toBe(true);
    // a failed write later is the element's to show: the page stays
    p.fire('reaction-error', { message: 'Too fast', code: 'PT429' });
    expect(p.doc.documentElement.dataset.state).toBe('ready');
  });

  it('on a static host (nothing filled in) the title is a placeholder of its size, then the name', () => {
    const p = page(ids);
    expect(p.doc.querySelector('#block-title')!.classList.contains('pending')).toBe(true);
    expect(p.text('#block-title')).toBe('Loading…');
    p.fire('reaction-load', { view: { block: { type: 'qna', name: '' } } });
    expect(p.text('#block-title')).toBe('Untitled');
    expect(p.doc.querySelector('#block-title')!.classList.contains('pending')).toBe(false);
    expect(p.text('[data-text=type]')).toBe('Q&A');
    expect(p.doc.title).toBe('Untitled · Reaction Blocks');
    // no owner name: no owner line
    expect(p.visible('#block-owner')).toBe(false);
  });

  it("a letter's page keeps the letter's title the server wrote in, not the block's name", () => {
    const p = page(ids, { type: 'typedream_letter', lang: 'en', title: 'Product notes' });
    p.fire('reaction-load', {
      view: { block: { type: 'typedream_letter', name: 'Weekly letter' } },
    });
    expect(p.text('#block-title')).toBe('Product notes');
    expect(p.text('[data-text=type]')).toBe('Letter');
    // another type's page follows the block's name as it loaded (a rename since the page was served)
    const q = page(ids, { type: 'form', lang: 'en', title: 'Old name' });
    q.fire('reaction-load', { view: { block: { type: 'form', name: 'New name' } } });
    expect(q.text('#block-title')).toBe('New name');
  });

  it("a letter's frame loses the title the page's header already says, and nothing else", () => {
    const frame = (body: string) => {
      const letter = new DOMParser().parseFromString(`<body>${body}</body>`, 'text/html');
      return { contentDocument: letter, style: {} as CSSStyleDeclaration } as HTMLIFrameElement;
    };
    const mail = (heading: string) =>
      `<table><tr><td><h1 style="font-size:26px">${heading}</h1></td></tr><tr><td><p>Spring is here.</p></td></tr></table>`;
    const same = frame(mail('Product  notes'));
    expect(dropRepeatedTitle(same, 'Product notes')).toBe(true);
    expect(same.contentDocument!.querySelector('h1')).toBe(null);
    expect(same.contentDocument!.querySelectorAll('tr')).toHaveLength(1);
    expect(same.contentDocument!.body.textContent).toBe('Spring is here.');
    // a letter that opens with another heading keeps it
    const other = frame(mail('Part one'));
    expect(dropRepeatedTitle(other, 'Product notes')).toBe(false);
    expect(other.contentDocument!.querySelector('h1')!.textContent).toBe('Part one');
    expect(dropRepeatedTitle(frame('<p>No heading</p>'), 'Product notes')).toBe(false);
  });

  it('an incomplete link says so at once and loads nothing', () => {
    const malformed = [
      '',
      `?id=${OWNER}`,
      `?id=x&block_id=${BLOCK}`,
      // a mistyped block id: the server refuses it with a 400, which is no failed load
      `?id=${OWNER}&block_id=${BLOCK}X`,
      `?id=${OWNER}&block_id=zzz`,
    ];
    for (const search of malformed) {
      const p = page(search);
      expect(p.doc.documentElement.dataset.state).toBe('incomplete');
      expect(p.visible('#block-status')).toBe(true);
      expect(p.element.hidden).toBe(true);
      expect(p.text('#block-status-title')).toBe('This link is incomplete');
      expect(p.visible('#block-retry')).toBe(false);
      // no element is left for the SDK's loader to find (it looks once the page has parsed), so
      // neither block.js nor the block is asked for
      expect(p.doc.querySelector('reaction-block')).toBeNull();
      // and an element that loaded anyway does not turn it into "check your connection"
      p.fire('reaction-error', { message: 'invalid input syntax for type uuid', code: '22P02' });
      expect(p.doc.documentElement.dataset.state).toBe('incomplete');
      expect(p.visible('#block-retry')).toBe(false);
    }
  });

  it('a block that is not there (or stopped) is "not available"; a failed load offers Try again', () => {
    let p = page(ids);
    p.fire('reaction-error', { message: "block doesn't exists", code: 'PT404' });
    expect(p.doc.documentElement.dataset.state).toBe('unavailable');
    expect(p.text('#block-status-title')).toBe('This block is not available');
    expect(p.visible('#block-retry')).toBe(false);

    p = page(ids);
    p.fire('reaction-error', { message: 'Failed to fetch' });
    expect(p.doc.documentElement.dataset.state).toBe('error');
    expect(p.visible('#block-retry')).toBe(true);
    (p.doc.querySelector('#block-retry') as HTMLButtonElement).click();
    expect(p.load).toHaveBeenCalledOnce();
    expect(p.doc.documentElement.dataset.state).toBe('loading');
    expect(p.element.hidden).toBe(false);
  });

  it("speaks the block's language (the server's), else ?locale=, else the browser's", () => {
    const p = page(`?id=${OWNER}&block_id=${BLOCK}&locale=en`, {
      type: 'ab',
      lang: 'ko',
      title: '어느 쪽?',
    });
    expect(p.doc.documentElement.lang).toBe('ko');
    expect(p.text('[data-text=type]')).toBe('A/B 투표');
    expect(p.text('[data-text=share]')).toBe('공유');
    expect(p.text('[data-text=made-with]')).toBe('Reaction Blocks로 만들었어요');
    p.fire('reaction-error', { code: 'PT404', message: "block doesn't exists" });
    expect(p.text('#block-status-title')).toBe('이 블록을 볼 수 없어요');

    const bare = new DOMParser().parseFromString(template, 'text/html');
    expect(pageLang(bare, '?locale=ko')).toBe('ko');
    expect(pageLang(bare, '', 'ko-KR')).toBe('ko');
    expect(pageLang(bare, '', 'fr')).toBe('en');
  });

  it("the owner's name is text and only an http(s) photo loads; a broken one falls back to the initial", () => {
    const p = page(ids, { type: 'comment', lang: 'en', title: 'Guestbook' });
    p.fire('reaction-load', {
      view: {
        block: {
          type: 'comment',
          name: 'Guestbook',
          owner_name: '<img src=x onerror=alert(1)>',
          owner_photo_url: 'javascript:alert(1)',
        },
      },
    });
    expect(p.doc.querySelector('#block-owner img')).toBeNull();
    expect(p.text('#block-owner-name')).toBe('by <img src=x onerror=alert(1)>');
    expect(p.text('#block-owner-avatar')).toBe('<');

    const q = page(ids, { type: 'comment', lang: 'en', title: 'Guestbook' });
    q.fire('reaction-load', {
      view: {
        block: { type: 'comment', owner_name: '김민아', owner_photo_url: 'https://x.test/a.png' },
      },
    });
    const img = q.doc.querySelector('#block-owner img') as HTMLImageElement;
    expect(img.src).toBe('https://x.test/a.png');
    expect(img.referrerPolicy).toBe('no-referrer');
    expect(img.alt).toBe('');
    img.dispatchEvent(new Event('error'));
    expect(q.doc.querySelector('#block-owner img')).toBeNull();
    expect(q.text('#block-owner-avatar')).toBe('김');
  });

  it('Share copies the canonical link and says so', async () => {
    const p = page(ids, { type: 'like', lang: 'en', title: 'Like this post' });
    (p.doc.querySelector('#block-share') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(p.text('#block-share-note')).toBe('Link copied'));
    expect(p.win.navigator.clipboard.writeText).toHaveBeenCalledWith(
      `https://app.example.com/block/${ids}`,
    );
  });
});

describe('page helpers', () => {
  it('labels every type, letters as one', () => {
    const en = textsFor('en');
    expect(typeLabel(en, 'notion_letter')).toBe('Letter');
    expect(typeLabel(en, 'brunch_letter')).toBe('Letter');
    expect(typeLabel(en, 'unknown')).toBe('Block');
    expect(typeLabel(en, undefined)).toBe('Block');
    expect(linkComplete(ids)).toBe(true);
    expect(failureState(undefined)).toBe('error');
    expect(failureState({ message: "block doesn't exists" })).toBe('unavailable');
  });
});

// The chrome of the public block page (/block/?id=&block_id=) around <reaction-block>: the type
// and owner line, the title, Share, the footer, and the page's own states (the link incomplete,
// the block not available, a failed load with Try again). No framework, and no import but the
// contracts' id rule: the build bundles this file and inlines it at the end of viewer/index.html,
// where it runs before the first paint. Texts are en and ko; the language is the block's (the
// server writes it into <html lang> with the title, see contracts/open-graph.ts fillBlockPage),
// else the visitor's.
import { UUID_RE } from '@reaction-blocks/contracts/ids';

type Lang = 'en' | 'ko';

const TEXTS = {
  en: {
    types: {
      comment: 'Comments',
      qna: 'Q&A',
      like: 'Like',
      button: 'Button',
      ab: 'A/B vote',
      form: 'Form',
      letter: 'Letter',
    } as Record<string, string>,
    block: 'Block',
    by: 'by {name}',
    untitled: 'Untitled',
    share: 'Share',
    copied: 'Link copied',
    copyFailed: 'Copy the address from the address bar',
    madeWith: 'Made with Reaction Blocks',
    makeYourOwn: 'Make your own',
    incompleteTitle: 'This link is incomplete',
    incompleteText:
      'Part of the address is missing. Copy the whole link from where you found it and open it again.',
    unavailableTitle: 'This block is not available',
    unavailableText:
      'Its owner may have stopped or deleted it, or the link has a typo. Ask whoever shared it for a new link.',
    errorTitle: 'The block could not load',
    errorText: 'Something went wrong on the way. Check your connection and try again.',
    retry: 'Try again',
    home: 'Go to Reaction Blocks',
    loading: 'Loading…',
  },
  ko: {
    types: {
      comment: '댓글',
      qna: '질문과 답변',
      like: '좋아요',
      button: '버튼',
      ab: 'A/B 투표',
      form: '설문',
      letter: '레터',
    } as Record<string, string>,
    block: '블록',
    by: '{name}',
    untitled: '제목 없음',
    share: '공유',
    copied: '링크를 복사했어요',
    copyFailed: '주소창의 주소를 복사해 주세요',
    madeWith: 'Reaction Blocks로 만들었어요',
    makeYourOwn: '나도 만들기',
    incompleteTitle: '링크가 완전하지 않아요',
    incompleteText: '주소의 일부가 빠졌어요. 링크를 처음 본 곳에서 전체를 복사해 다시 열어 주세요.',
    unavailableTitle: '이 블록을 볼 수 없어요',
    unavailableText:
      '소유자가 블록을 중지했거나 삭제했을 수 있고, 링크에 오타가 있을 수도 있어요. 공유한 분께 새 링크를 요청해 주세요.',
    errorTitle: '블록을 불러오지 못했어요',
    errorText: '불러오는 중에 문제가 생겼어요. 연결을 확인하고 다시 시도해 주세요.',
    retry: '다시 시도',
    home: 'Reaction Blocks로 가기',
    loading: '불러오는 중…',
  },
};

export type PageTexts = (typeof TEXTS)['en'];
export type PageState = 'loading' | 'ready' | 'incomplete' | 'unavailable' | 'error';

/** The page's language: the block's (en or ko), else `?locale=`, else the browser's. */
export function pageLang(doc: Document, search: string, navigatorLang = ''): Lang {
  const fromBlock = doc.documentElement.dataset.blockLang;
  if (fromBlock === 'ko' || fromBlock === 'en') return fromBlock;
  const asked = new URLSearchParams(search).get('locale');
  if (asked === 'ko' || asked === 'en') return asked;
  return navigatorLang.toLowerCase().startsWith('ko') ? 'ko' : 'en';
}

export function textsFor(lang: Lang): PageTexts {
  return TEXTS[lang];
}

/** Both ids present and well formed (uuids: the server refuses any other id with a 400). */
export function linkComplete(search: string): boolean {
  const q = new URLSearchParams(search);
  return UUID_RE.test(q.get('id') ?? '') && UUID_RE.test(q.get('block_id') ?? '');
}

/** A type's label: the letter types are one kind for a reader. */
export function typeLabel(texts: PageTexts, type: string | undefined): string {
  if (!type) return texts.block;
  return texts.types[type.endsWith('_letter') ? 'letter' : type] ?? texts.block;
}

/** What a failed first load means for the page (the element's own codes, see core/base.ts). */
export function failureState(detail: { code?: string; message?: string } | undefined): PageState {
  return detail?.code === 'PT404' || (!detail?.code && detail?.message === "block doesn't exists")
    ? 'unavailable'
    : 'error';
}

/** An http(s) address, or '' (a photo URL is the owner's text: nothing else may load). */
export function httpUrl(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '';
  } catch {
    return '';
  }
}

const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * A letter's frame (<reaction-block>'s sandboxed, same-origin iframe) opens with the letter's
 * title, as the mail does; the page's header says it already, so the frame's copy goes (its row)
 * and the frame is fitted again to what is left. Anything else is left as it is.
 */
export function dropRepeatedTitle(frame: HTMLIFrameElement, title: string): boolean {
  const letter = frame.contentDocument;
  const first = letter?.querySelector('h1');
  if (!letter || !first || !words(title) || words(first.textContent) !== words(title)) return false;
  (first.closest('tr') ?? first).remove();
  // the body's own height: the document's scrollHeight is never less than the frame it fills
  frame.style.height = `${Math.ceil(letter.body.getBoundingClientRect().height)}px`;
  return true;
}

interface ViewBlock {
  type?: string;
  name?: string | null;
  theme?: string | null;
  language?: string | null;
  owner_name?: string | null;
  owner_photo_url?: string | null;
}

const $ = <T extends Element = HTMLElement>(doc: Document, sel: string) =>
  doc.querySelector(sel) as T | null;

/** Fills the page's texts and wires its states. Returns the state setter (for tests). */
export function initPage(doc: Document, win: Window): (state: PageState) => void {
  const root = doc.documentElement;
  const lang = pageLang(doc, win.location.search, win.navigator?.language);
  const t = textsFor(lang);
  root.lang = lang;
  const set = (sel: string, text: string) => {
    const el = $(doc, sel);
    if (el) el.textContent = text;
  };
  set('[data-text=type]', typeLabel(t, root.dataset.blockType));
  set('[data-text=share]', t.share);
  set('[data-text=made-with]', t.madeWith);
  set('[data-text=make-your-own]', t.makeYourOwn);
  set('[data-text=retry]', t.retry);
  set('[data-text=home]', t.home);

  const element = $(doc, 'reaction-block') as (HTMLElement & { load?: () => Promise<void> }) | null;
  const status = $(doc, '#block-status');
  const setState = (state: PageState) => {
    root.dataset.state = state;
    const problem = state === 'incomplete' || state === 'unavailable' || state === 'error';
    if (element) element.hidden = problem;
    if (status) status.hidden = !problem;
    if (problem) {
      set('#block-status-title', t[`${state}Title`]);
      set('#block-status-text', t[`${state}Text`]);
      const retry = $(doc, '#block-retry');
      if (retry) retry.hidden = state !== 'error';
    }
  };

  // filled by the server (fillBlockPage); on a plain static host a grey bar the title's size
  const title = $(doc, '#block-title');
  const filled = !!title?.textContent?.trim();
  if (title && !filled) {
    title.textContent = t.loading;
    title.classList.add('pending');
  }
  const fill = (block: ViewBlock) => {
    const name = (block.name ?? '').trim() || t.untitled;
    title?.classList.remove('pending');
    // a letter's page is headed by the letter's title, which the server wrote in (fillBlockPage,
    // from get_block_card); the view has only the block's name, the owner's label for it
    const letter = (block.type ?? root.dataset.blockType ?? '').endsWith('_letter');
    if (title && title.textContent !== name && !(letter && filled)) title.textContent = name;
    if (block.type) {
      root.dataset.blockType = block.type;
      set('[data-text=type]', typeLabel(t, block.type));
    }
    if (doc.title === 'Reaction Blocks') doc.title = `${name} · Reaction Blocks`;
    root.dataset.theme = block.theme === 'dark' ? 'dark' : 'light';
    const owner = (block.owner_name ?? '').trim();
    const ownerEl = $(doc, '#block-owner');
    if (ownerEl && owner) {
      set('#block-owner-name', t.by.replace('{name}', owner));
      const avatar = $(doc, '#block-owner-avatar');
      const photo = httpUrl(block.owner_photo_url);
      if (avatar) {
        avatar.textContent = photo ? '' : Array.from(owner)[0]!.toUpperCase();
        if (photo) {
          const img = doc.createElement('img');
          img.src = photo;
          img.alt = '';
          img.referrerPolicy = 'no-referrer';
          img.width = 24;
          img.height = 24;
          img.addEventListener('error', () => {
            img.remove();
            avatar.textContent = Array.from(owner)[0]!.toUpperCase();
          });
          avatar.append(img);
        }
      }
      ownerEl.hidden = false;
    }
  };

  // A malformed link loads nothing: the element leaves before the SDK's loader looks for it (it
  // waits for DOMContentLoaded), so block.js is not fetched, nor the block with an id the server
  // refuses (its 400 would read as a failed load, with a Try again that cannot work).
  const complete = linkComplete(win.location.search);
  if (!complete) element?.remove();
  setState(complete ? 'loading' : 'incomplete');

  /** A letter: once its frame has loaded, the title it repeats goes (dropRepeatedTitle). */
  const watchLetter = () => {
    const shadow = element?.shadowRoot;
    if (!shadow || !title) return;
    const hook = (frame: HTMLIFrameElement) => {
      const drop = () => dropRepeatedTitle(frame, title.textContent ?? '');
      frame.addEventListener('load', drop);
      if (frame.contentDocument?.readyState === 'complete') drop();
    };
    const frame = shadow.querySelector<HTMLIFrameElement>('iframe[part=letter]');
    if (frame) return hook(frame);
    const observer = new MutationObserver(() => {
      const added = shadow.querySelector<HTMLIFrameElement>('iframe[part=letter]');
      if (!added) return;
      observer.disconnect();
      hook(added);
    });
    observer.observe(shadow, { childList: true, subtree: true });
  };

  let loaded = false;
  element?.addEventListener('reaction-load', (event) => {
    loaded = true;
    const view = (event as CustomEvent<{ view?: { block?: ViewBlock } }>).detail?.view;
    if (view?.block) fill(view.block);
    if (view?.block?.type?.endsWith('_letter')) watchLetter();
    setState('ready');
  });
  element?.addEventListener('reaction-error', (event) => {
    // a failed write later (a vote, a comment) is the element's to show, not the page's; an
    // incomplete link stays so whatever an element upgraded before the page's script says
    if (loaded || !complete) return;
    setState(failureState((event as CustomEvent<{ code?: string; message?: string }>).detail));
    $(doc, '#block-status-title')?.focus();
  });
  $(doc, '#block-retry')?.addEventListener('click', () => {
    setState('loading');
    void element?.load?.();
  });

  const share = $(doc, '#block-share') as HTMLButtonElement | null;
  const note = $(doc, '#block-share-note');
  share?.addEventListener('click', () => {
    const url =
      doc.querySelector<HTMLLinkElement>('link[rel=canonical]')?.href || win.location.href;
    const said = (text: string) => {
      if (!note) return;
      note.textContent = text;
      win.setTimeout(() => {
        if (note.textContent === text) note.textContent = '';
      }, 4000);
    };
    const nav = win.navigator as Navigator & { share?: (data: ShareData) => Promise<void> };
    // the phone's share sheet where there is one; elsewhere the link to the clipboard
    if (nav.share && win.matchMedia?.('(pointer: coarse)').matches) {
      nav.share({ title: title?.textContent ?? doc.title, url }).catch(() => {});
      return;
    }
    (nav.clipboard?.writeText(url) ?? Promise.reject(new Error('no clipboard'))).then(
      () => said(t.copied),
      () => said(t.copyFailed),
    );
  });
  return setState;
}

if (typeof document !== 'undefined' && document.currentScript) initPage(document, window);

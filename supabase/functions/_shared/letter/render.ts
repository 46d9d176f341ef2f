// The letter's block model as mail: one 600 px table (what Gmail, Outlook, Apple Mail and Naver
// render alike: no flexbox, no positioning, no <style> they might strip), every style inlined
// with juice, then the allow-list sanitiser as the last gate, and a text part. The per-recipient
// footer (delivered-by line, Unsubscribe link) is added at send time around the stored body.
import juice from 'juice';
import type { TLanguage } from '@reaction-blocks/contracts/enums';
import {
  LETTER_LIMITS,
  listTree,
  type TLetterBlock,
  type TLetterModel,
  type TListTree,
  type TSpan,
} from '@reaction-blocks/contracts/letters';
import { escapeHtml } from '../notification-mail.ts';
import { compile } from 'html-to-text';
import { parseFragment } from 'parse5';
import { isElement, type Element, type ParentNode } from '../html-fragment.ts';
import { sanitizeLetterHtml, type LetterSanitizeOptions } from './sanitize-letter.ts';

export type LetterLang = TLanguage;

/** The text part, as _shared/mail.ts's textOf makes it (links as "text [url]", no images). */
const textOf: (html: string) => string = compile({
  wordwrap: 78,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});

/** The letter's stylesheet: written once with classes, inlined into every element by juice. */
const CSS = `
.letter { width: 100%; max-width: 600px; background-color: #ffffff; border-collapse: collapse; }
.cell { padding: 0 32px; font-family: -apple-system, 'Segoe UI', Roboto, 'Apple SD Gothic Neo', 'Malgun Gothic', sans-serif; color: #1f1f1f; }
.title { margin: 32px 0 8px; font-size: 26px; line-height: 1.3; font-weight: 700; color: #111111; }
.h1 { margin: 28px 0 8px; font-size: 22px; line-height: 1.35; font-weight: 700; color: #111111; }
.h2 { margin: 24px 0 8px; font-size: 19px; line-height: 1.4; font-weight: 700; color: #111111; }
.h3 { margin: 20px 0 6px; font-size: 17px; line-height: 1.4; font-weight: 700; color: #111111; }
.p { margin: 0 0 14px; font-size: 16px; line-height: 1.7; }
.list { margin: 0 0 14px; padding-left: 24px; font-size: 16px; line-height: 1.7; }
.li { margin: 0 0 4px; }
.sublist { margin: 4px 0 0; padding-left: 24px; }
.quote { margin: 0 0 14px; padding: 2px 0 2px 14px; border-left: 3px solid #1f1f1f; font-size: 16px; line-height: 1.7; color: #333333; }
.callout { margin: 0 0 14px; padding: 14px 16px; background-color: #f4f4f2; border-radius: 6px; font-size: 16px; line-height: 1.7; }
.img { display: block; width: 100%; max-width: 536px; height: auto; border-radius: 4px; }
.figure { margin: 0 0 14px; }
.caption { margin: 6px 0 0; font-size: 13px; line-height: 1.5; color: #6b6b6b; }
.hr { margin: 20px 0; border: 0; border-top: 1px solid #e4e4e4; }
.pre { margin: 0 0 14px; padding: 12px 14px; background-color: #f6f6f6; border-radius: 6px; font-family: Menlo, Consolas, monospace; font-size: 13px; line-height: 1.5; white-space: pre-wrap; word-break: break-word; }
.code { padding: 1px 4px; background-color: #f1f1ef; border-radius: 3px; font-family: Menlo, Consolas, monospace; font-size: 14px; color: #c7254e; }
.link { color: #1f5fbf; text-decoration: underline; }
.imglink { display: block; text-decoration: none; }
.cta-cell { padding: 12px 32px 8px; }
.cta { display: inline-block; padding: 12px 22px; background-color: #1f1f1f; border-radius: 6px; color: #ffffff; font-size: 15px; font-weight: 600; text-decoration: none; font-family: -apple-system, 'Segoe UI', Roboto, 'Apple SD Gothic Neo', sans-serif; }
.bottom { padding: 0 0 24px; }
.table { width: 100%; margin: 0 0 14px; border-collapse: collapse; font-size: 15px; line-height: 1.5; }
.td { padding: 6px 10px; border: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
.th { padding: 6px 10px; border: 1px solid #e4e4e4; background-color: #f4f4f2; text-align: left; vertical-align: top; font-weight: 600; }
${Array.from({ length: LETTER_LIMITS.listDepth }, (_, i) => `.in${i + 1} { padding-left: ${24 * (i + 2)}px; }`).join('\n')}
`;

/** A span's text with its marks (its link is spansHtml's). */
function markedHtml(span: TSpan): string {
  let out = escapeHtml(span.text).replace(/\n/g, '<br>');
  for (const mark of span.marks ?? []) {
    if (mark === 'code') out = `<code class="code">${out}</code>`;
    else
      out = `<${mark === 'b' ? 'strong' : mark === 'i' ? 'em' : mark}>${out}</${mark === 'b' ? 'strong' : mark === 'i' ? 'em' : mark}>`;
  }
  return out;
}

/**
 * Spans as HTML, neighbouring spans of one link in one <a>: a link whose text changes look, or
 * a long run a source split in spans, is one link, and the text part names its address once
 * (breaker BRK-9: once per span before).
 */
function spansHtml(spans: TSpan[]): string {
  let out = '';
  for (let at = 0; at < spans.length;) {
    const href = spans[at]!.href;
    let inner = markedHtml(spans[at++]!);
    while (href && at < spans.length && spans[at]!.href === href) inner += markedHtml(spans[at++]!);
    out += href ? `<a class="link" href="${escapeHtml(href)}">${inner}</a>` : inner;
  }
  return out;
}

/** A list with its nested lists inside their items' <li> (at most LETTER_LIMITS.listDepth deep). */
function listHtml(list: TListTree, className: string): string {
  const tag = list.ordered ? 'ol' : 'ul';
  const items = list.items.map(
    (item) =>
      `<li class="li">${spansHtml(item.spans)}${item.lists.map((sub) => listHtml(sub, 'sublist')).join('')}</li>`,
  );
  // a numbered list that goes on from one before it says its first number (the text part too)
  const start = list.start && list.start > 1 ? ` start="${list.start}"` : '';
  // a list whose every item is nested is drawn as far in as a sublist of that depth (.inN)
  const indent = list.indent ? ` in${list.indent}` : '';
  return `<${tag} class="${className}${indent}"${start}>${items.join('')}</${tag}>`;
}

function blockHtml(block: TLetterBlock): string {
  switch (block.type) {
    case 'heading':
      return `<h${block.level} class="h${block.level}">${spansHtml(block.spans)}</h${block.level}>`;
    case 'paragraph':
      return `<p class="p">${spansHtml(block.spans)}</p>`;
    case 'list':
      return listHtml(listTree(block), 'list');
    case 'quote':
      return `<blockquote class="quote">${spansHtml(block.spans)}</blockquote>`;
    case 'callout':
      return `<div class="callout">${block.icon ? `${escapeHtml(block.icon)} ` : ''}${spansHtml(block.spans)}</div>`;
    case 'image': {
      const img = `<img class="img" src="${escapeHtml(block.src)}" alt="${escapeHtml(block.alt ?? '')}" width="536">`;
      const linked = block.href
        ? `<a class="imglink" href="${escapeHtml(block.href)}">${img}</a>`
        : img;
      const caption = block.caption?.length
        ? `<p class="caption">${spansHtml(block.caption)}</p>`
        : '';
      return `<div class="figure">${linked}${caption}</div>`;
    }
    case 'divider':
      return '<hr class="hr">';
    case 'code':
      return `<pre class="pre">${escapeHtml(block.text)}</pre>`;
    case 'table': {
      // a data table inside the layout table: cells' text escaped like every span
      const rows = block.rows.map((row, r) => {
        const tag = block.header && r === 0 ? 'th' : 'td';
        return `<tr>${row.map((cell) => `<${tag} class="${tag}">${spansHtml(cell)}</${tag}>`).join('')}</tr>`;
      });
      return `<table class="table" width="100%" cellpadding="0" cellspacing="0">${rows.join('')}</table>`;
    }
  }
}

export interface RenderedLetter {
  /** The sanitised 600 px table, every style inline, without the per-recipient footer. */
  html: string;
  /** Its text part (without the footer). */
  text: string;
}

/** Renders a letter (title, blocks, call-to-action, image button) as mail HTML and text. */
export function renderLetter(
  title: string,
  model: TLetterModel,
  opts: LetterSanitizeOptions = {},
): RenderedLetter {
  const rows: string[] = [];
  if (title.trim()) rows.push(`<h1 class="title">${escapeHtml(title.trim())}</h1>`);
  for (const block of model.blocks) rows.push(blockHtml(block));
  const body = rows.map((r) => `<tr><td class="cell">${r}</td></tr>`).join('');
  let extra = '';
  if (model.imageButton) {
    extra += `<tr><td class="cta-cell"><a class="imglink" href="${escapeHtml(model.imageButton.link)}"><img class="img" src="${escapeHtml(model.imageButton.src)}" alt="" width="536"></a></td></tr>`;
  }
  if (model.cta) {
    extra += `<tr><td class="cta-cell"><a class="cta" href="${escapeHtml(model.cta.link)}">${escapeHtml(model.cta.text)}</a></td></tr>`;
  }
  const table = `<table class="letter" role="presentation" width="600" cellpadding="0" cellspacing="0" align="center">${body}${extra}<tr><td class="bottom"></td></tr></table>`;
  const inlined = juice(`<style>${CSS}</style>${table}`, {
    removeStyleTags: true,
    preserveMediaQueries: false,
    applyWidthAttributes: false,
    // `height: auto` must not become height="auto", which is no height (Outlook reads it)
    applyHeightAttributes: false,
  });
  const html = sanitizeLetterHtml(inlined, opts);
  return { html, text: textOf(html) };
}

/** For tests and the benchmark: the renderer (to count its calls), and the search by renders alone. */
export interface FitterSeams {
  render?: typeof renderLetter;
  /** false: no measuring on the whole render, a binary search over renders (as before). */
  measure?: boolean;
}

/** A letter fitted within one email: its first blocks that fit, and how many when it was cut. */
export interface FittedLetter {
  model: TLetterModel;
  rendered: RenderedLetter;
  /** The blocks kept when the letter was cut, else null. */
  cutAt: number | null;
}

/**
 * Where each block's row is in a rendered letter's HTML: `starts[i]` is block i's row's first
 * character, `starts[blocks]` the end of the last block's row (rows are the letter table's <tr>,
 * after the title's, before the image button's, the call to action's and the bottom one); null
 * when the table is not as renderLetter makes it.
 */
function blockRowStarts(html: string, title: string, model: TLetterModel): number[] | null {
  const children = (node: ParentNode): Element[] => node.childNodes.filter(isElement);
  const fragment = parseFragment(html, { sourceCodeLocationInfo: true });
  const [table] = children(fragment);
  const [body] = table?.tagName === 'table' ? children(table) : [];
  const rows = body?.tagName === 'tbody' ? children(body) : [];
  const first = title.trim() ? 1 : 0;
  const extra = (model.imageButton ? 1 : 0) + (model.cta ? 1 : 0) + 1;
  if (rows.length !== first + model.blocks.length + extra) return null;
  const at = rows.map((row) => row.sourceCodeLocation?.startOffset);
  const starts = at.slice(first, first + model.blocks.length + 1);
  return starts.every((n) => n !== undefined) ? (starts as number[]) : null;
}

/**
 * The largest k in [fits, over) for which `ok(k)` holds, given that it holds for `fits` and not
 * for `over` (and between, first true then false): `guess` is probed first, then away from it in
 * steps that double, and halves once it is outside (2 probes when the guess is right).
 */
function lastThatFits(fits: number, over: number, guess: number, ok: (k: number) => boolean) {
  let at = guess;
  let step = 1;
  while (over - fits > 1) {
    if (at <= fits || at >= over) at = Math.floor((fits + over) / 2);
    if (ok(at)) {
      fits = at;
      at += step;
    } else {
      over = at;
      at -= step;
    }
    step *= 2;
  }
  return fits;
}

/**
 * A loaded letter within one email: its mail (LETTER_LIMITS.mailHtml, mailText) and its model
 * (modelChars) within what save-letter takes, with room kept for the longest subject, call to
 * action and image button the owner may add. A page that renders to more keeps its first blocks
 * that fit, and `cutAt` says how many (the workspace says it as it says a page cut at 400 parts):
 * before, such a page loaded, and every Save of it was refused.
 *
 * Renders: the room is measured once per fitter (two renders without blocks: the subject alone,
 * and the longest subject with the longest call to action and image button; the room those take
 * is the difference). A letter is rendered whole once; within the limits, that is its mail. A
 * longer one is measured on that render: each block is one row of the letter's table, inlined and
 * sanitised on its own, so the mail of its first k blocks is the whole mail without the rows after
 * the k-th (its text part the text of that), and the model's JSON is the blocks' JSON added up.
 * The most blocks that fit are found on those (the text part converted a few times, a guess from
 * the HTML's share first), then rendered once to confirm: the same HTML, within the limits. A
 * letter whose blocks' JSON goes a quarter past what the text part holds renders only its first
 * blocks that far (and whole only when those fit). A mail the rows did not predict falls back to
 * a binary search over renders, which was the only way before (to 2026-11-29): 400 paragraphs of
 * 5,000 characters, 11 renders, now 4 (npm run bench:letter-fit).
 */
export function letterFitter(
  title: string,
  opts: LetterSanitizeOptions = {},
  seams: FitterSeams = {},
): (model: TLetterModel) => FittedLetter {
  const { render = renderLetter, measure = true } = seams;
  let room: { html: number; text: number; model: number } | null = null;
  const measureRoom = (model: TLetterModel) => {
    // what the longest subject, call to action and image button add to a letter
    const url = `https://${'x'.repeat(LETTER_LIMITS.url - 'https://'.length)}`;
    const none = { ...model, blocks: [], cta: null, imageButton: null };
    const plain = render(title, none, opts);
    const roomy = {
      ...none,
      cta: { text: 'x'.repeat(LETTER_LIMITS.ctaText), link: url },
      imageButton: { src: url, link: url },
    };
    const full = render('x'.repeat(LETTER_LIMITS.title), roomy, opts);
    return {
      html: full.html.length - plain.html.length,
      text: full.text.length - plain.text.length,
      model: JSON.stringify(roomy).length - JSON.stringify(none).length,
    };
  };
  return (model) => {
    const r = (room ??= measureRoom(model));
    const htmlFits = (length: number) => length + r.html <= LETTER_LIMITS.mailHtml;
    const textFits = (length: number) => length + r.text <= LETTER_LIMITS.mailText;
    const modelFits = (length: number) => length + r.model <= LETTER_LIMITS.modelChars;
    const within = (m: TLetterModel, rendered: RenderedLetter) =>
      htmlFits(rendered.html.length) &&
      textFits(rendered.text.length) &&
      modelFits(JSON.stringify(m).length);
    const first = (k: number) => ({ ...model, blocks: model.blocks.slice(0, k) });
    const n = model.blocks.length;
    // each block's JSON: the model's share exactly, and a guess at where a long letter runs out
    // (a block's text part is rarely much longer than its JSON, its HTML rarely shorter)
    const json = model.blocks.map((block) => JSON.stringify(block).length + 1);

    /** The most of `m`'s blocks that fit, measured on its render (null: not as predicted). */
    const measured = (m: TLetterModel, rendered: RenderedLetter): FittedLetter | null => {
      const starts = blockRowStarts(rendered.html, title, m);
      if (!starts) return null;
      const { html } = rendered;
      const count = m.blocks.length;
      const tail = html.slice(starts[count]!);
      const htmlOf = (k: number) => html.slice(0, starts[k]!) + tail;
      // the first blocks whose model and HTML fit (their JSON added up: the model without
      // blocks, each block's and the commas; their HTML the rows before the k-th)
      let length = JSON.stringify(first(0)).length - 1;
      let most = 0;
      while (
        most < count &&
        modelFits(length + json[most]!) &&
        htmlFits(starts[most + 1]! + tail.length)
      )
        length += json[most++]!;
      // then those whose text part fits, guessed from their share of the rows' HTML
      const textLengthOf = (k: number) => textOf(htmlOf(k)).length;
      let k = most;
      if (most > 0 && !(most < count && textFits(textLengthOf(most)))) {
        const plain = textLengthOf(0);
        const share = (at: number) =>
          (starts[at]! - starts[0]!) / (starts[count]! - starts[0]! || 1);
        let guess = most;
        while (guess > 0 && !textFits(plain + (rendered.text.length - plain) * share(guess)))
          guess--;
        k = lastThatFits(0, most, guess, (at) => textFits(textLengthOf(at)));
      }
      // the one render that confirms it
      const part = first(k);
      const partRendered = render(title, part, opts);
      if (partRendered.html !== htmlOf(k) || !within(part, partRendered)) return null;
      return { model: part, rendered: partRendered, cutAt: k };
    };

    /** The most of `m`'s blocks that fit by rendering: `fits` of them do, `over` do not. */
    const searched = (m: TLetterModel): FittedLetter => {
      let fits = 0;
      let over = m.blocks.length;
      let best: { model: TLetterModel; rendered: RenderedLetter } | null = null;
      while (over - fits > 1) {
        const at = Math.floor((fits + over) / 2);
        const part = first(at);
        const partRendered = render(title, part, opts);
        if (within(part, partRendered)) {
          fits = at;
          best = { model: part, rendered: partRendered };
        } else over = at;
      }
      best ??= { model: first(0), rendered: render(title, first(0), opts) };
      return { ...best, cutAt: fits };
    };

    if (measure) {
      // a letter whose JSON is well past what the text part holds renders its first blocks
      // that far, not all of them: when those are over already, the cut is among them
      let sum = 0;
      let probe = 0;
      while (probe < n && sum <= (LETTER_LIMITS.mailText - r.text) * 1.25) sum += json[probe++]!;
      if (probe < n) {
        const part = first(probe);
        const partRendered = render(title, part, opts);
        if (!within(part, partRendered)) return measured(part, partRendered) ?? searched(part);
      }
    }
    const rendered = render(title, model, opts);
    if (within(model, rendered)) return { model, rendered, cutAt: null };
    return (measure && measured(model, rendered)) || searched(model);
  };
}

const FOOTER_TEXTS = {
  en: {
    deliveredBy: (name: string) => `Delivered by ${name} with Reaction Blocks.`,
    why: 'You get this letter because you subscribed or gave your address to its sender.',
    unsubscribe: 'Unsubscribe',
  },
  ko: {
    deliveredBy: (name: string) => `${name}님이 Reaction Blocks로 보낸 레터입니다.`,
    why: '발신자에게 구독하거나 주소를 알려 주셔서 이 레터를 받으셨습니다.',
    unsubscribe: '수신 거부',
  },
} as const;

/** The per-recipient footer: the delivered-by line and the Unsubscribe link. */
export function letterFooter(
  lang: LetterLang,
  senderName: string,
  unsubscribeUrl: string,
): { html: string; text: string } {
  const t = FOOTER_TEXTS[lang];
  const name = senderName.trim() || 'the sender';
  const html = `<table role="presentation" width="600" cellpadding="0" cellspacing="0" align="center" style="width:100%;max-width:600px"><tr><td style="padding:20px 32px 32px;color:#8a8a8a;font-size:12px;line-height:1.6;font-family:-apple-system,'Segoe UI',Roboto,'Apple SD Gothic Neo',sans-serif;text-align:center">${escapeHtml(t.deliveredBy(name))}<br>${escapeHtml(t.why)}<br><a href="${escapeHtml(unsubscribeUrl)}" style="color:#8a8a8a;text-decoration:underline">${escapeHtml(t.unsubscribe)}</a></td></tr></table>`;
  const text = `--\n${t.deliveredBy(name)}\n${t.why}\n${t.unsubscribe}: ${unsubscribeUrl}`;
  return { html, text };
}

/** The whole mail: our document shell around the stored (sanitised) body and the footer. */
export function letterDocument(
  lang: LetterLang,
  title: string,
  body: string,
  footer: string,
): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="margin:0;padding:0;background-color:#f4f4f4"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background-color:#f4f4f4"><tr><td align="center" style="padding:24px 0">${body}${footer}</td></tr></table></body></html>`;
}

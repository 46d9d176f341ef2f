import { describe, expect, it } from 'vitest';
import {
  activeFormats,
  deleteRange,
  hrefFromInput,
  insertText,
  linkRangeAt,
  NO_MARKS,
  setLink,
  toggleList,
  toggleMark,
  type Doc,
} from './doc';
import { docToHtml, htmlToDoc, pointAt, readDom, renderInto } from './dom';

const LINK = 'target="_blank" rel="noopener noreferrer nofollow"';
const p = (text: string): Doc[number] => ({ type: 'p', runs: [{ text, marks: NO_MARKS }] });

describe('the document model', () => {
  it('bolds a range, and unbolds it when all of it is bold', () => {
    const doc: Doc = [p('hello world')];
    const bold = toggleMark(doc, 6, 11, 'bold');
    expect(docToHtml(bold)).toBe('<p>hello <strong>world</strong></p>');
    expect(activeFormats(bold, 6, 11).bold).toBe(true);
    expect(activeFormats(bold, 0, 11).bold).toBe(false);
    // part bold: the whole range becomes bold
    expect(docToHtml(toggleMark(bold, 0, 11, 'bold'))).toBe('<p><strong>hello world</strong></p>');
    expect(docToHtml(toggleMark(bold, 6, 11, 'bold'))).toBe('<p>hello world</p>');
  });

  it('marks across paragraphs, nested in one order', () => {
    const doc: Doc = [p('one'), p('two')];
    const both = toggleMark(toggleMark(doc, 1, 6, 'italic'), 0, 7, 'bold');
    expect(docToHtml(both)).toBe(
      '<p><strong>o</strong><strong><em>ne</em></strong></p><p><strong><em>tw</em></strong><strong>o</strong></p>',
    );
  });

  it('links a range with the server sanitiser attributes, and finds and removes the link', () => {
    const doc = setLink([p('see the docs')], 8, 12, 'https://example.com/');
    expect(docToHtml(doc)).toBe(`<p>see the <a href="https://example.com/" ${LINK}>docs</a></p>`);
    expect(linkRangeAt(doc, 10)).toEqual({ from: 8, to: 12 });
    expect(linkRangeAt(doc, 12)).toEqual({ from: 8, to: 12 });
    expect(linkRangeAt(doc, 3)).toBeNull();
    expect(docToHtml(setLink(doc, 8, 12, null))).toBe('<p>see the docs</p>');
  });

  it('turns paragraphs into list items and back', () => {
    const doc: Doc = [p('a'), p('b'), p('c')];
    const bullets = toggleList(doc, 0, 2, 'ul');
    expect(docToHtml(bullets)).toBe('<ul><li>a</li><li>b</li></ul><p>c</p>');
    expect(activeFormats(bullets, 0, 2).ul).toBe(true);
    const numbered = toggleList(bullets, 0, 4, 'ol');
    expect(docToHtml(numbered)).toBe('<ol><li>a</li><li>b</li><li>c</li></ol>');
    expect(docToHtml(toggleList(numbered, 2, 2, 'ol'))).toBe(
      '<ol><li>a</li></ol><p>b</p><ol><li>c</li></ol>',
    );
  });

  it('inserts typed text with marks, pasted lines as paragraphs, and deletes across blocks', () => {
    const typed = insertText([p('ab')], 1, 'X', { ...NO_MARKS, bold: true });
    expect(docToHtml(typed.doc)).toBe('<p>a<strong>X</strong>b</p>');
    expect(typed.pos).toBe(2);
    const pasted = insertText([p('ab')], 1, 'one\ntwo', NO_MARKS, true);
    expect(docToHtml(pasted.doc)).toBe('<p>aone</p><p>twob</p>');
    expect(pasted.pos).toBe(8);
    expect(docToHtml(deleteRange([p('hello'), p('world')], 2, 8))).toBe('<p>herld</p>');
  });

  it('keeps line breaks, and an empty document is empty HTML', () => {
    const doc = insertText([p('a')], 1, '\n', NO_MARKS).doc;
    expect(docToHtml(doc)).toBe('<p>a<br><br></p>');
    expect(htmlToDoc('<p>a<br><br></p>')).toEqual(doc);
    expect(docToHtml(htmlToDoc(''))).toBe('');
    expect(docToHtml(htmlToDoc('<p><br></p>'))).toBe('');
  });

  it('reads a link address the owner typed', () => {
    expect(hrefFromInput('example.com/a')).toBe('https://example.com/a');
    expect(hrefFromInput(' https://x.test ')).toBe('https://x.test/');
    expect(hrefFromInput('mailto:hi@example.com')).toBe('mailto:hi@example.com');
    expect(hrefFromInput('javascript:alert(1)')).toBeNull();
    expect(hrefFromInput('')).toBeNull();
  });
});

describe('stored HTML', () => {
  it('reads back what the editor writes, exactly', () => {
    const html =
      `<p>Hi <strong>bold</strong> <em>it</em> <a href="https://example.com/" ${LINK}>link</a></p>` +
      '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>';
    expect(docToHtml(htmlToDoc(html))).toBe(html);
  });

  it('keeps only text, marks and safe links of anything else', () => {
    const doc = htmlToDoc(
      '<p onclick="x()">a<script>alert(1)</script><img src=x onerror="alert(1)">' +
        '<b style="color:red">b</b><a href="javascript:alert(1)">c</a><i>d</i></p>' +
        '<div>line</div><h2>title</h2><span style="font-weight:700">heavy</span>',
    );
    expect(docToHtml(doc)).toBe(
      '<p>a<strong>b</strong>c<em>d</em></p><p>line</p><p>title</p><p><strong>heavy</strong></p>',
    );
  });

  it('reads list items with paragraphs inside, and what Chromium leaves after typing', () => {
    expect(docToHtml(htmlToDoc('<ul><li><p>x</p></li></ul>'))).toBe('<ul><li>x</li></ul>');
    expect(docToHtml(htmlToDoc('plain<div>next</div>'))).toBe('<p>plain</p><p>next</p>');
  });
});

describe('positions in the DOM', () => {
  it('maps selection points to linear positions and back', () => {
    const root = document.createElement('div');
    const doc = toggleMark([p('hello'), p('world')], 1, 3, 'bold');
    renderInto(root, doc);
    expect(root.innerHTML).toBe('<p>h<strong>el</strong>lo</p><p>world</p>');
    const strongText = root.querySelector('strong')!.firstChild!;
    const second = root.querySelectorAll('p')[1]!.firstChild!;
    const { positions } = readDom(root, [
      { node: strongText, offset: 1 },
      { node: second, offset: 2 },
      { node: root, offset: 1 },
    ]);
    expect(positions).toEqual([2, 8, 6]);
    expect(pointAt(root, 8)).toEqual({ node: second, offset: 2 });
    expect(pointAt(root, 2)).toEqual({ node: strongText, offset: 1 });
  });
});

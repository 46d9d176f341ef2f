// The allow-list sanitiser of owner-written HTML (functions/_shared/sanitize-html.ts), as a unit:
// the XSS payload table, what is kept, and that its output is stable.
import { describe, expect, it } from 'vitest';
import { safeHref, sanitizeHtml } from '../functions/_shared/sanitize-html.ts';
import { LINK, XSS_PAYLOADS } from './support/xss-payloads.ts';

describe('sanitizeHtml', () => {
  it.each(XSS_PAYLOADS)('%s', (_name, input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each(XSS_PAYLOADS)('%s: sanitising the output again changes nothing', (_name, input) => {
    const once = sanitizeHtml(input);
    expect(sanitizeHtml(once)).toBe(once);
  });

  it('keeps what the description editor writes, exactly', () => {
    const html =
      `<p>Hello <strong>bold</strong>, <em>italic</em>, <b>b</b>, <i>i</i> and ` +
      `<a href="https://example.com/a?x=1&amp;y=2" ${LINK}>a link</a>.</p>` +
      '<p><br></p><ul><li>one</li><li><strong>two</strong></li></ul><ol><li>first</li></ol>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('keeps Korean text and entities as text', () => {
    expect(sanitizeHtml('<p>안녕하세요 &amp; 반갑습니다 &nbsp;</p>')).toBe(
      '<p>안녕하세요 &amp; 반갑습니다 &nbsp;</p>',
    );
  });

  it('drops empty paragraphs and marks, keeps a line break', () => {
    expect(sanitizeHtml('<p></p><b></b><p><br></p>')).toBe('<p><br></p>');
    expect(sanitizeHtml('')).toBe('');
  });

  it('accepts http, https and mailto hrefs only, as the URL parser reads them', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('HTTP://EXAMPLE.COM/a b')).toBe('http://example.com/a%20b');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of ['javascript:x', ' javascript:x', 'data:,x', 'ftp://x.test', '/a', '', 'x']) {
      expect(safeHref(bad)).toBeNull();
    }
    expect(safeHref(undefined)).toBeNull();
  });
});

// Contract test of the one allow-list for owner-written HTML (contracts/html.ts): the element's
// sanitiser (this folder's html.ts, over Chromium's parser) and the server's, which save-block
// applies on save (supabase/functions/_shared/sanitize-html.ts, over parse5, run here in the same
// page) take the same inputs and must give the same HTML: the hostile payloads with the output
// the server's own tests expect, what the description editor writes, and pasted markup.
import { expect } from '@open-wc/testing';
import { sanitizeHtml } from '../../../supabase/functions/_shared/sanitize-html.ts';
import { LINK, XSS_PAYLOADS } from '../../../supabase/tests/support/xss-payloads.ts';
import { sanitize } from './html.js';

const OTHER_INPUTS: readonly string[] = [
  // what the description editor writes
  `<p>Hello <strong>bold</strong>, <em>italic</em>, <b>b</b>, <i>i</i> and ` +
    `<a href="https://example.com/a?x=1&amp;y=2" ${LINK}>a link</a>.</p>` +
    '<p><br></p><ul><li>one</li><li><strong>two</strong></li></ul><ol><li>first</li></ol>',
  // pasted from a page or a word processor
  '<h1>Title</h1><blockquote><p>quoted</p></blockquote><pre>code\n  indented</pre><hr><p>after</p>',
  '<table><tr><td>cell</td><td><b>bold</b></td></tr></table><div><div>nested</div></div>',
  '<ul><li><div>item</div><ul><li><h3>sub</h3></li></ul></li></ul>',
  '<p>one<div>two</div>three</p><u>u</u><s>s</s><code>c</code><span>span</span>',
  '<a href="mailto:hi@example.com">mail</a> <a href="HTTPS://EXAMPLE.COM/a b">spaces</a>',
  '<a>no href</a><a href="">empty</a><a href="#top">fragment</a>',
  '<p>안녕하세요 &amp; 반갑습니다 &nbsp;</p><p>"quotes" \'single\' &lt;tag&gt;</p>',
  '<td>a cell alone</td><tr><th>a row alone</th></tr><li>an item alone</li>',
  '<svg><p>inside svg</p></svg><math><mi>x</mi></math><p>after</p>',
  '<form><input value="x"><textarea>t</textarea><button>b</button></form>',
  '<p><img src="https://example.com/x.png" alt="x">text</p><picture><source></picture>',
  '<!-- a comment --><p>a<!-- inside -->b</p><![CDATA[x]]>',
  'plain text with\nline breaks\n\nand a blank line',
  '',
];

describe('one allow-list: the element and the server sanitise alike', () => {
  for (const [name, input, expected] of XSS_PAYLOADS)
    it(`${name}: both give the server's expected HTML`, () => {
      expect(sanitizeHtml(input), 'server').to.equal(expected);
      if (name === 'deep nesting') {
        // Chromium's parser stops nesting at 512 elements (parse5 has no such cap): the same
        // elements and text, 512 deep
        const depth = 512;
        expect(sanitize(input), 'element').to.equal(
          `${'<b>'.repeat(depth)}deep${'</b>'.repeat(depth)}`,
        );
        return;
      }
      expect(sanitize(input), 'element').to.equal(expected);
    });

  it('other inputs: the same HTML from both, and stable', () => {
    for (const input of OTHER_INPUTS) {
      const server = sanitizeHtml(input);
      expect(sanitize(input), input).to.equal(server);
      expect(sanitize(server), `again: ${input}`).to.equal(server);
    }
  });

  it('loads and runs nothing while it parses', async () => {
    let ran = false;
    (window as unknown as { __ran: () => void }).__ran = () => (ran = true);
    sanitize('<img src="/__never__.png" onerror="__ran()"><svg onload="__ran()"></svg>');
    // the same broken image in the page errors once the request failed: by then a live copy
    // inside the sanitiser would have run its handler too
    const control = new Image();
    await new Promise((resolve) => {
      control.onerror = resolve;
      control.src = '/__never__.png?control';
    });
    expect(ran).to.equal(false);
    const fetched = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((name) => name.includes('__never__') && !name.includes('control'));
    expect(fetched).to.deep.equal([]);
  });
});

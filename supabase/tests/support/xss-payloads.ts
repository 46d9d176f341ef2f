// Hostile description HTML for the sanitiser (sanitize-html.test.ts, the unit) and the
// save-block function (save-block.test.ts, through supabase-js): each payload with what must
// come out. Expected strings are exact, so a change in what is kept shows as a failure.
export const LINK = 'target="_blank" rel="noopener noreferrer nofollow"';

/**
 * Links to an address the sanitiser refuses (a script, a scheme other than http, https and
 * mailto, or no scheme at all), however it is spelt: the text stays, the link goes.
 */
const REFUSED_LINKS: readonly (readonly [name: string, href: string])[] = [
  ['javascript: link', 'javascript:alert(1)'],
  ['JavaScript: mixed case', 'JaVaScRiPt:alert(1)'],
  ['entity-encoded scheme', 'jav&#x61;script:alert(1)'],
  [
    'decimal entities, no semicolons',
    '&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58alert(1)',
  ],
  ['named entity colon', 'javascript&colon;alert(1)'],
  ['leading whitespace and control characters', ' \x01\x0fjavascript:alert(1)'],
  ['tab and newline inside the scheme', 'java\tscr\nipt:alert(1)'],
  ['encoded tab inside the scheme', 'jav&#x09;ascript:alert(1)'],
  ['data: link', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ['vbscript: link', 'vbscript:msgbox(1)'],
  ['file: link', 'file:///etc/passwd'],
  ['protocol-relative link', '//evil.test/'],
  ['relative link', '/dashboard'],
];

export const XSS_PAYLOADS: readonly (readonly [name: string, input: string, expected: string])[] = [
  ['script element', '<p>a<script>alert(1)</script>b</p>', '<p>ab</p>'],
  ['script, uppercase and split', '<SCRIPT SRC=//evil.test/x.js></SCRIPT>ok', 'ok'],
  ['unclosed script', '<p>x</p><script>alert(1)', '<p>x</p>'],
  ['on* handler on an allowed tag', '<p onclick="alert(1)">t</p>', '<p>t</p>'],
  ['on* handler, no quotes', '<b onmouseover=alert(1)>t</b>', '<b>t</b>'],
  ['img onerror', '<img src=x onerror=alert(1)>after', 'after'],
  ['body onload', '<body onload=alert(1)>t', 't'],
  ...REFUSED_LINKS.map(([name, href]) => [name, `<a href="${href}">x</a>`, 'x'] as const),
  [
    'link with extra attributes',
    `<a href="https://ok.test/" onclick="x()" style="color:red" target="_self" rel="opener">ok</a>`,
    `<a href="https://ok.test/" ${LINK}>ok</a>`,
  ],
  [
    'mailto link',
    '<a href="mailto:hi@example.com">mail</a>',
    `<a href="mailto:hi@example.com" ${LINK}>mail</a>`,
  ],
  ['style element', '<style>p{background:url(javascript:alert(1))}</style><p>t</p>', '<p>t</p>'],
  ['style attribute', '<p style="background:url(javascript:alert(1))">t</p>', '<p>t</p>'],
  ['iframe', '<iframe src="javascript:alert(1)"></iframe>t', 't'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>">', ''],
  ['object and embed', '<object data="x.swf"></object><embed src="x.swf">t', 't'],
  ['svg onload', '<svg onload=alert(1)><circle r=1 /></svg>t', 't'],
  ['svg script', '<svg><script>alert(1)</script></svg>', ''],
  [
    'svg foreignObject',
    '<svg><foreignObject><a href="javascript:alert(1)">x</a></foreignObject></svg>',
    '',
  ],
  [
    'math with an html breakout',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '',
  ],
  ['math href', '<math href="javascript:alert(1)">x</math>', ''],
  [
    'form and button',
    '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
    'go',
  ],
  ['input autofocus onfocus', '<input autofocus onfocus=alert(1)>', ''],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">t', 't'],
  ['base href', '<base href="javascript:alert(1)//">t', 't'],
  ['template content', '<template><img src=x onerror=alert(1)></template>t', 't'],
  // parsed with scripting off (as in the SDK's inert document), the whole <noscript> goes
  ['noscript breakout', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">', ''],
  ['comment', '<!-- <script>alert(1)</script> --><p>t</p>', '<p>t</p>'],
  ['conditional comment', '<!--[if IE]><script>alert(1)</script><![endif]-->t', 't'],
  ['textarea raw text', '<textarea><img src=x onerror=alert(1)></textarea>t', 't'],
  ['title raw text', '<title><img src=x onerror=alert(1)></title>t', 't'],
  ['xmp raw text', '<xmp><img src=x onerror=alert(1)></xmp>', ''],
  [
    'text that looks like a tag',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
  ],
  ['a bare angle bracket', 'a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
  ['unclosed tags', '<p><b>bold <i>both', '<p><b>bold <i>both</i></b></p>'],
  ['misnested tags', '<b><i>x</b>y</i>', '<b><i>x</i></b><i>y</i>'],
  [
    'nested links',
    '<a href="https://a.test/">a<a href="https://b.test/">b</a></a>',
    `<a href="https://a.test/" ${LINK}>a</a><a href="https://b.test/" ${LINK}>b</a>`,
  ],
  ['deep nesting', `${'<b>'.repeat(1000)}deep`, `${'<b>'.repeat(1000)}deep${'</b>'.repeat(1000)}`],
  ['a paragraph in a button in a paragraph', '<p><button><p>x</p></button></p>', '<p>x</p>'],
  ['div and headings become paragraphs', '<div>one</div><h2>two</h2>', '<p>one</p><p>two</p>'],
  ['span and font unwrapped', '<span style="x">s</span><font color=red>f</font>', 'sf'],
  [
    'lists',
    '<ul><li>a<li>b</ul><ol><li>1</ol>',
    '<ul><li>a</li><li>b</li></ul><ol><li>1</li></ol>',
  ],
  [
    'attribute on a list item',
    '<ul><li value="3" onclick="x()">a</li></ul>',
    '<ul><li>a</li></ul>',
  ],
  ['id and class', '<p id="x" class="y" data-z="1">t</p>', '<p>t</p>'],
  [
    'quote in a link',
    '<a href=\'https://ok.test/"onmouseover="alert(1)\'>q</a>',
    `<a href="https://ok.test/%22onmouseover=%22alert(1)" ${LINK}>q</a>`,
  ],
];

// Writes docs/elements/<name>.md from custom-elements.json (npm run docs), checked against the
// code: a part is listed only when the element's templates render it, React props come from the
// wrappers in src/react/index.ts, and a hand-written example and notes come from this file.
// `npm run docs -- --check` writes nothing and exits 1 when a page is stale or the JSDoc and the
// templates disagree.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, '../docs/elements');
const check = process.argv.includes('--check');
const manifest = JSON.parse(readFileSync(resolve(root, 'custom-elements.json'), 'utf8'));
const read = (rel) =>
  readFileSync(resolve(root, rel.replace(/^\//, '').replace(/\.js$/, '.ts')), 'utf8');

const OWNER = '00000000-0000-4000-8000-000000000001';
const DEMO = {
  comment: '0101',
  qna: '0102',
  like: '0103',
  button: '0104',
  ab: '0105',
  form: '0106',
};
const blockId = (name) => `00000000-0000-4000-8000-00000000${DEMO[name] ?? '0101'}`;

/** Hand-written parts of each page: what the tables cannot say. Checked against the code. */
const PAGES = {
  comment: {
    css: `reaction-comment {
  --reaction-list-max-height: 320px;
}
reaction-comment::part(submit) {
  font-weight: 600;
}`,
    listen: ['reaction-message', (e) => `console.log(${e}.detail.action, ${e}.detail.id)`],
    notes: [
      'The list shows the newest messages first, 5 at a time; scrolling past 90% of the list (or the "Load more" button) loads the next 5. New messages, edits, deletions, replies and like counts from other viewers appear live: after the first data shows, a small Realtime client joins the block\'s public topic `block:<id>`, whose messages only name a change (Broadcast from the database), and reads each change with a cacheable request (only published messages, no emails; nothing sent on the topic by others is shown). The page\'s elements share one connection, open only while a comment or Q&A block is on screen and the tab visible; coming back reads the list again, so nothing missed meanwhile is lost. A message the owner holds or hides leaves the list at once.',
      'The count ("n messages", when the block shows counts) and `$responseCount$` in the welcome text and the placeholder follow the visitor\'s own posts and the live changes at once, counting every message and reply as the server does.',
      'Messages are at most 500 characters; a second send within 3 seconds is refused with "Please wait a moment before sending another message." (the text stays), and saving an emptied edit box with "The message cannot be empty." (an unchanged one just closes, not marked edited). Refusals and server errors show in a `role="alert"` live region where they happened (under the composer, or in the message being edited or replied to), in English or Korean. The name field is prefilled with the visitor\'s random animal name or, once signed in, the account name. Beside it an optional website (`home` part): a bare host gets `https://`, anything but an http(s) address with a host (no user part, no spaces) is refused at once with "Please enter a web address (http or https)" and never sent; the writer\'s name then links to it in every message. Name, website and the notification email are the writer\'s profile, kept sealed in `localStorage` once they write (see [embedding](../embedding.md#6-visitors-sessions-and-sign-in)) and offered again on the next page. Messages and names render as text; `http`/`https` links become links with `rel="noopener noreferrer nofollow ugc"`.',
      'An edit or a reply being typed keeps its text (and its box stays open) while the list changes under it: another visitor posts, a message arrives live or is liked. Drafts are kept per message, and Save stores what was typed. Message likes read "n Like" / "n Likes" ("좋아요 n").',
      "One level of replies. Authors edit and delete their own messages; the block's owner deletes any message, and with `adminOnlyReply` only the owner replies. `allowReaction`, `allowReply` and `showCount` turn message likes, replies and the count on or off. The owner's and the visitor's own messages carry the block's label names (default Admin and Me).",
      'When the block has `allowCreatorEmail`, an optional email field asks where to send reply notifications (checked after a 500 ms pause). When it has `blockAnonymous`, an overlay asks visitors to sign in with Google or Apple (popup, see [embedding](../embedding.md#6-visitors-sessions-and-sign-in)); the fields under it are `inert`, so the keyboard cannot reach them, and a send that gets through anyway shows the same prompt instead of calling the server.',
      "Writers' photos show as round avatars (a coloured initial without one); a photo that fails to load is replaced by a placeholder image, as the Q&A owner's photo and a form's image question are.",
      'The menu offers log out, sign-in, and for the owner "To Block setting", a link to the dashboard when `window.ReactionBlocks.dashboardUrl` (or the script tag\'s `data-dashboard-url`) is set.',
      'Signing in or out reads the list again for the new visitor and merges it with the one on screen: nothing that came live or by Load more is dropped (also inside `<reaction-block>` on the public block page).',
      'Visitor trust (issue 9): a write refused for going too fast (HTTP 429) says what it refuses and for how long ("You\'re posting too fast. You can post again in 8 seconds.", in Korean too) and keeps the text; on a block with the captcha on, the refusal opens the captcha (the `captcha` part; loaded only then) and the write is sent again once it passes. A hidden honeypot field (inert, `aria-hidden`, off screen) goes with every post. A message the block holds for approval shows to its writer as "Awaiting approval", with "Others will see your message once the owner approves it." in the `notice` part; others never get it. Published messages of others have a Report action (once: "Reported"). Names the server finds imitating the owner show "Not the owner"; pinned threads come first ("Pinned"). A picture is sent only for a signed-in visitor and only from Google\'s image hosts or the project\'s storage. See [embedding](../embedding.md#visitor-trust-what-the-elements-show-issue-9).',
      'Dummy mode: posts, likes and edits happen on screen only (ids `dummy-1`, …), with no live connection.',
    ],
  },
  qna: {
    listen: [
      'reaction-message',
      (e) => `${e}.detail.action === 'resolve' && console.log('resolved', ${e}.detail.id)`,
    ],
    notes: [
      "Everything the comment element does (see [comment](comment.md)), plus a header with the owner's photo and name and the Q&A subject (`$responseCount$` replaced by the block's response count, which follows new questions and answers at once).",
      'The owner marks top-level questions resolved or unresolved; a "Resolved" label shows to everyone, live.',
    ],
  },
  like: {
    css: `reaction-like::part(button) {
  padding: 4px 18px;
}`,
    listen: ['reaction-like', (e) => `console.log(${e}.detail.liked, ${e}.detail.likeCount)`],
    notes: [
      "The visitor's own state (liked or not) is read with the block on load. A click updates the screen at once and sends the wanted state (not a flip), so a repeated request cannot undo it; the server's count then replaces the local one, and a failure restores the previous state and shows the error.",
      'Aligned left, center or right as the block says. The button is always pill-shaped; restyle it through `::part(button)`.',
      'A like refused for going too fast (HTTP 429) says for how long ("You\'re liking too fast. You can like again in 20 seconds."); the anonymous sign-up refused by Supabase Auth\'s per-address limit says "You\'re going too fast, try again in a few seconds."; with the captcha on, the captcha opens first (see [embedding](../embedding.md#visitor-trust-what-the-elements-show-issue-9)).',
      'Dummy mode: the toggle works on screen only and `reaction-like` still fires.',
    ],
  },
  button: {
    listen: ['reaction-click', (e) => `console.log('clicked', ${e}.detail.url)`],
    notes: [
      'The button shows the block\'s button text (default "Button"). When the block has a URL (`https://` is added when it has no scheme; only `http`/`https` are accepted) it is a link opening in a new tab with `rel="noopener noreferrer"`, otherwise a plain button. Every click is recorded; the count shows when the block has `showCount`.',
      '`reaction-click` is cancelable: `event.preventDefault()` keeps the link from opening (the click is still recorded), for sites that route it themselves.',
      'Dummy mode: nothing is recorded.',
    ],
  },
  ab: {
    listen: ['reaction-submit', (e) => `console.log('voted', ${e}.detail.answers)`],
    notes: [
      "Two options side by side (the block's A/B question). One click votes: the server keeps one choice per visitor and increments the option's count in the same transaction, then both options show their votes and percentages.",
      'A visitor who has voted sees the votes and percentages on load, their choice pressed: the view tells each visitor their own vote (`me.vote`). Should the server still answer "Already voted" (a vote from another tab), the element reads the view again and shows that vote instead of the refusal.',
      'Dummy mode: the counts change on screen only.',
    ],
  },
  form: {
    listen: ['reaction-submit', (e) => `console.log(${e}.detail.answers)`],
    notes: [
      'Question types: poll (single or multi select), A/B, short text (300 characters), long text (1000, grows to 360 px), number (an integer of at most 18 digits, optionally signed), phone (digits, spaces and hyphens, up to 20), mail (50, `local@domain.tld`), description and image. Characters are counted as the server counts them (an emoji is one). The server checks the same rules: one table of cases runs through both in `supabase/tests/answer-rules.test.ts`. Each field is checked after a 500 ms pause (200 ms for long text) with the spec\'s messages; Submit checks them all, shows "Please check response" and focuses the first invalid field.',
      "The server checks everything again (required questions, lengths, the owner's monthly quota). A failed submit shows the server's message and keeps the answers.",
      'After a submit the form shows the first ending whose conditions all hold (equal, empty, notEmpty, include), or the default ending; its link opens on submit or from a button, and "Submit again" shows unless the ending blocks it. An ending shows its title and its closing text; without a title, "Thank you" stands in only when there is no closing text either (the default ending\'s closing text is "Thank you" already).',
      'A hidden honeypot field (inert, `aria-hidden`, off screen) goes with every submit; a block with the honeypot on refuses it filled ("This was not sent: it looked automated."). One visitor submits a form five times at once, then three times an hour: beyond that "You\'ve sent this form several times. You can send it again in 20 minutes." (or the captcha, when the block has it), so nobody burns the owner\'s monthly responses.',
      "Dummy mode: nothing is written and the ending still shows. There a view whose block has `mode: 'ending'` opens on the ending with index `ending_mode` (the dashboard editor's preview of an ending).",
    ],
  },
  count: {
    html: `<!-- a blog's index page: one request for every count on it -->
<ul>
  <li>
    <a href="/posts/hello">Hello</a>
    <reaction-count block-id="${blockId('comment')}"></reaction-count>
  </li>
  <li>
    <a href="/posts/poll">Our poll</a>
    <reaction-count block-id="${blockId('ab')}"></reaction-count>
    · <reaction-count block-id="${blockId('like')}" number></reaction-count> ♥
  </li>
</ul>
<style>
  reaction-count[data-count='0'] {
    display: none;
  }
</style>`,
    jsx: `import { Count } from '@reaction-blocks/sdk/react/count';

export function PostList({ posts }: { posts: { url: string; title: string; blockId: string }[] }) {
  return (
    <ul>
      {posts.map((p) => (
        <li key={p.blockId}>
          <a href={p.url}>{p.title}</a> <Count blockId={p.blockId} />
        </li>
      ))}
    </ul>
  );
}`,
    attributes: `The project falls back to \`window.ReactionBlocks\`, then the build-time default
([embedding](../embedding.md#1-script-tag-cdn)).`,
    notes: [
      'Every `<reaction-count>` on the page, whatever its place, is read in one request: `GET {project}/rest/v1/rpc/get_block_counts?p_block_ids={id,id,...}` with the anon key only, up to 100 blocks a request (more make several), the ids sorted so the same blocks always make the same URL. The answer is the same for every visitor and says `Cache-Control: public, max-age=10, stale-while-revalidate=60`, so a CDN in front of the API serves a busy index page without the database ([scaling](../scaling.md#cacheable-reads)). Counts added to the page later (infinite scroll, a React list) go in the next request; a block already read is not asked for again.',
      'It shows the count the block itself shows: "12 comments" for a comment or Q&A block (messages and replies), "3 likes" for a like block, "7 responses" for a button, A/B or form block; `kind` picks another, `number` shows the number alone. English or Korean ("댓글 12개"), from `lang` on the element or the page. The host carries `data-count` once it is known, so `reaction-count[data-count=\'0\']` can hide a zero.',
      'A missing, deactivated or letter block, a malformed id or a failed request shows nothing (the failure is logged with `[reaction-blocks]`, and the next count that wants it asks again). The count is text, never HTML.',
      'No Lit inside ([its size](../benchmarks.md#sdk-sizes)), and the CDN loader loads it on its own chunk beside whatever else the page has, so a post page with a count and a comment block loads `count.js` and `comment.js`, not the all-in-one `block.js`.',
    ],
  },
  block: {
    listen: ['reaction-load', (e) => `console.log(${e}.detail.view.block.type)`],
    notes: [
      "Renders the element for the block's type with one API call. Without `block-id` it reads `block_id` and `id` (the owner) from the page URL, as the public viewer page `/block/?id={uid}&block_id={blockId}` does. A letter block (notion_letter, typedream_letter, brunch_letter) shows its letter as a web page: the HTML the server rendered and sanitised, in a sandboxed frame (the `letter` part) that runs no script.",
      '`theme`, `lang`, `dummy` and the project are passed on to the rendered element. Its events bubble out of `<reaction-block>` (they are composed), so listen on `<reaction-block>` for `reaction-like`, `reaction-submit`, `reaction-message`, …',
      "The rendered element's parts are forwarded under their own names (`exportparts`, listed below), so `reaction-block::part(submit)` styles the comment's send button or the form's Submit button; `::part(block)` styles the rendered element as a whole, and the shared `--reaction-*` tokens set on `<reaction-block>` reach it through inheritance.",
      'Changing `block-id` loads and shows the other block (the React `Block` wrapper too); its events reach every `onReaction…` prop of the wrapper.',
      "Imported from npm (`@reaction-blocks/sdk/block`, the React `Block`), it loads the element of the block's type once the view arrives, and no other type: an app bundler makes each a chunk of its own. The CDN's `block.js` holds all six, since the loader gives it to pages with several block types.",
    ],
  },
};

// ---- facts from the code ------------------------------------------------------------------

/** Declarations by class name, for walking up to the base classes. */
const classes = new Map();
for (const mod of manifest.modules)
  for (const d of mod.declarations || []) classes.set(d.name, { mod: mod.path, d });

/** The source files of a class and its superclasses in this package. */
function chain(name) {
  const files = [];
  for (let c = classes.get(name); c; c = c.d.superclass && classes.get(c.d.superclass.name))
    files.push(c.mod);
  return files;
}

/** The names of a class and its superclasses in this package. */
function chainNames(name) {
  const names = [];
  for (let c = classes.get(name); c; c = c.d.superclass && classes.get(c.d.superclass.name))
    names.push(c.d.name);
  return names;
}

/** The bodies of the named classes declared in a source file (from `class X` to its closing line). */
function classBodies(file, names) {
  const src = read(file);
  const bodies = [];
  for (const n of names) {
    const start = src.search(new RegExp(`\\bclass ${n}\\b`));
    if (start < 0) continue;
    const end = src.indexOf('\n}\n', start);
    bodies.push(src.slice(start, end < 0 ? undefined : end));
  }
  return bodies;
}

/** Parts the templates of a class chain render. */
const renderedParts = (name) =>
  new Set(
    chain(name).flatMap((f) =>
      [...read(f).matchAll(/\bpart="([^"$]+)"/g)].flatMap((m) => m[1].split(/\s+/)),
    ),
  );

/** Lit reactive state (`{ state: true }`): internal, never public API. */
const stateFields = new Set(
  [
    ...['src/core/base.ts'],
    ...readdirSync(resolve(root, 'src/components')).flatMap((d) =>
      readdirSync(resolve(root, 'src/components', d))
        .filter((f) => f.endsWith('.component.ts'))
        .map((f) => `src/components/${d}/${f}`),
    ),
  ].flatMap((f) => [...read(f).matchAll(/(\w+): \{ state: true \}/g)].map((m) => m[1])),
);

/** Custom properties any stylesheet reads or the theme defines. */
const styleSources = [
  'src/core/theme.ts',
  ...readdirSync(resolve(root, 'src/components')).flatMap((d) =>
    readdirSync(resolve(root, 'src/components', d))
      .filter((f) => f.endsWith('.styles.ts'))
      .map((f) => `src/components/${d}/${f}`),
  ),
]
  .map(read)
  .join('\n');

/**
 * React wrappers: tag -> { name, events: { 'reaction-x': 'onReactionX' } }, read from
 * src/react/<name>.ts and the event maps of src/react/events.ts.
 */
function reactWrappers() {
  const objects = new Map();
  for (const m of read('src/react/events.ts').matchAll(/export const (\w+) = (\{[^}]*\});/g))
    objects.set(m[1], m[2]);
  const events = (text) => {
    const found = {};
    for (const s of text.matchAll(/\.\.\.(\w+)/g))
      Object.assign(found, events(objects.get(s[1]) || ''));
    for (const p of text.matchAll(/(on\w+): '([\w-]+)'/g)) found[p[2]] = p[1];
    return found;
  };
  const wrappers = {};
  for (const f of readdirSync(resolve(root, 'src/react')).filter(
    (f) => /^\w+\.ts$/.test(f) && !['index.ts', 'events.ts'].includes(f),
  ))
    for (const m of read(`src/react/${f}`).matchAll(
      /export const (\w+) = [^]*?createComponent\(\{[^]*?tagName: '([\w-]+)'[^]*?events: (\w+|\{[^}]*\}),?\s*\}\);/g,
    ))
      wrappers[m[2]] = {
        name: m[1],
        file: f.replace(/\.ts$/, ''),
        events: events(/^\w+$/.test(m[3]) ? objects.get(m[3]) : m[3]),
      };
  return wrappers;
}

// ---- rendering ------------------------------------------------------------------------------

const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const table = (head, rows) =>
  rows.length
    ? `| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')}\n`
    : '_none_\n';
const code = (s) => '`' + s + '`';

const problems = [];
/** The element sections of the package's README (sdk/README.md), one per element. */
const readme = [];
const react = reactWrappers();
const pages = {};

// Sorted: the analyzer's module order is not always the same, the generated pages must be.
const elements = manifest.modules
  .flatMap((mod) => (mod.declarations || []).filter((d) => d.tagName))
  .sort((a, b) => a.tagName.localeCompare(b.tagName));

/** Parts <reaction-block> forwards (its FORWARDED_PARTS list), checked against the others' JSDoc. */
function forwardedParts() {
  const list = /const FORWARDED_PARTS = \[([^\]]*)\]/.exec(
    read('src/components/block/block.component.ts'),
  );
  if (!list) {
    problems.push('reaction-block: FORWARDED_PARTS not found in block.component.ts');
    return [];
  }
  const names = [...list[1].matchAll(/'([\w-]+)'/g)].map((m) => m[1]);
  const from = new Map();
  for (const d of elements)
    // it renders the six block elements, never <reaction-count>
    if (d.tagName !== 'reaction-block' && d.tagName !== 'reaction-count')
      for (const p of d.cssParts || [])
        if (p.name) from.set(p.name, [...(from.get(p.name) || []), { tag: d.tagName, p }]);
  for (const n of from.keys())
    if (!names.includes(n)) problems.push(`reaction-block: part "${n}" is not forwarded`);
  for (const n of names)
    if (!from.has(n)) problems.push(`reaction-block: forwards "${n}", which no element documents`);
  return names.filter((n) => from.has(n)).map((n) => ({ name: n, from: from.get(n) }));
}
const forwarded = forwardedParts();

// <reaction-block> renders any element, and their events bubble out of it: its wrapper maps all.
const blockEvents = react['reaction-block']?.events || {};
for (const d of elements)
  for (const e of d.events || [])
    if (e.name && e.description && !blockEvents[e.name])
      problems.push(
        `reaction-block: the React Block wrapper lacks ${e.name} (fired by ${d.tagName})`,
      );

for (const d of elements) {
  const tag = d.tagName;
  const name = tag.replace('reaction-', '');
  const page = PAGES[name] || {};
  const wrapper = react[tag];
  if (!wrapper) problems.push(`${tag}: no React wrapper in src/react/index.ts`);

  // Internal state is private reactive state: the manifest (read by editors and docs tools) must
  // not offer it as an attribute or a public property.
  for (const a of d.attributes || [])
    if (stateFields.has(a.fieldName))
      problems.push(`${tag}: internal state "${a.fieldName}" is listed as an attribute`);
  for (const m of d.members || [])
    if (
      m.kind === 'field' &&
      !m.static &&
      (m.privacy ?? 'public') === 'public' &&
      stateFields.has(m.name)
    )
      problems.push(`${tag}: internal state "${m.name}" is a public property`);

  // The events listed are the events dispatched (this.emit('reaction-…') in the class and its
  // superclasses), no more and no fewer.
  const dispatched = new Set(
    chain(d.name).flatMap((f) => {
      const c = classes.get(d.name);
      return [...classBodies(f, c ? chainNames(d.name) : [])].flatMap((body) =>
        [...body.matchAll(/\bemit(?:<[^>]*>)?\(\s*'([\w-]+)'/g)].map((m) => m[1]),
      );
    }),
  );
  const listed = new Set((d.events || []).map((e) => e.name));
  for (const e of dispatched)
    if (!listed.has(e)) problems.push(`${tag}: dispatches ${e}, which the manifest does not list`);
  for (const e of listed)
    if (!dispatched.has(e))
      problems.push(`${tag}: the manifest lists the event ${e}, which it never dispatches`);

  // An element without Lit lists its observedAttributes by name only: each takes the description
  // of its property (block-id -> blockId).
  const attrs = (d.attributes || [])
    .map((a) => {
      if (a.description || !a.name) return a;
      const field = a.name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
      const m = (d.members || []).find((x) => x.kind === 'field' && x.name === field);
      return m ? { ...a, fieldName: m.name, description: m.description } : a;
    })
    .filter((a) => a.name && a.description);
  const attrFields = new Set(attrs.map((a) => a.fieldName));
  const props = (d.members || []).filter(
    (m) =>
      m.kind === 'field' &&
      m.privacy !== 'private' &&
      m.privacy !== 'protected' &&
      !m.static &&
      m.description &&
      !attrFields.has(m.name),
  );
  const methods = (d.members || []).filter(
    (m) => m.kind === 'method' && !m.privacy && !m.static && m.description,
  );

  const rendered = renderedParts(d.name);
  const documented = (d.cssParts || []).filter((p) => p.name);
  for (const p of documented)
    if (!rendered.has(p.name))
      problems.push(`${tag}: part "${p.name}" is documented but never rendered`);
  for (const p of rendered)
    if (!documented.some((x) => x.name === p))
      problems.push(`${tag}: part "${p}" is rendered but not documented`);
  const parts = documented.filter((p) => rendered.has(p.name));

  const cssProps = (d.cssProperties || []).filter((p) => p.name);
  for (const p of cssProps)
    if (!styleSources.includes(p.name)) problems.push(`${tag}: ${p.name} is not used by any style`);

  const events = (d.events || []).filter((e) => e.name && e.description);
  const [listenTo, handler] = page.listen || ['reaction-load', (e) => `console.log(${e}.detail)`];
  const reactProp = wrapper?.events[listenTo];
  if (page.listen && !events.some((e) => e.name === listenTo))
    problems.push(`${tag}: the example listens to ${listenTo}, which it does not fire`);

  const html =
    page.html ||
    `<reaction-${name}
  owner-id="${OWNER}"
  block-id="${blockId(name)}"
></reaction-${name}>
<script>
  document
    .querySelector('reaction-${name}')
    .addEventListener('${listenTo}', (e) => ${handler('e')});
</script>${page.css ? `\n<style>\n${page.css.replace(/^/gm, '  ')}\n</style>` : ''}`;
  const jsx = page.jsx
    ? page.jsx
    : wrapper
      ? `import { ${wrapper.name} } from '@reaction-blocks/sdk/react/${wrapper.file}';

export function ${wrapper.name}Block({ theme }: { theme: 'light' | 'dark' }) {
  return (
    <${wrapper.name}
      ownerId="${OWNER}"
      blockId="${blockId(name)}"
      theme={theme}${reactProp ? `\n      ${reactProp}={(e) => ${handler('e')}}` : ''}
    />
  );
}`
      : '';

  const md = `# \`<${tag}>\`

${(d.summary || d.description || '').replace(/\n/g, ' ')}

| load it with | |
|---|---|
| npm | \`import '@reaction-blocks/sdk/${name}';\` (defines the tag) |
| React | ${wrapper ? `\`import { ${wrapper.name} } from '@reaction-blocks/sdk/react/${wrapper.file}';\` (defines the tag)` : '–'} |
| CDN | the script tag; see [embedding](../embedding.md#1-script-tag-cdn) |

## Behaviour

${(page.notes || []).map((n) => `- ${n}`).join('\n')}

## Example

With the CDN script tag or the npm import on the page (ids: the local stack's demo blocks):

\`\`\`html
${html}
\`\`\`
${
  jsx
    ? `
In React (props are the element's properties; events are \`onReaction…\` props):

\`\`\`tsx
${jsx}
\`\`\`
`
    : ''
}

## Attributes

${
  page.attributes ||
  `Every block element takes these; the project falls back to \`window.ReactionBlocks\`, then the
build-time default ([embedding](../embedding.md#1-script-tag-cdn)).`
}

${table(
  ['attribute', 'property', 'description'],
  attrs.map((a) => [code(a.name), a.fieldName ? code(a.fieldName) : '', a.description]),
)}
## Properties

JavaScript only (no attribute).

${table(
  ['property', 'type', 'description'],
  props.map((p) => [
    code(p.name),
    (p.type?.text ?? '') + (p.readonly ? ' (read-only)' : ''),
    p.description,
  ]),
)}
## Methods

${table(
  ['method', 'description'],
  methods.map((m) => [
    code(`${m.name}(${(m.parameters || []).map((p) => p.name).join(', ')})`),
    m.description,
  ]),
)}
## Events

All bubble out of the shadow root (\`composed\`), typed in \`GlobalEventHandlersEventMap\`.

${table(
  ['event', 'React prop', 'description'],
  [
    ...events.map((e) => [
      code(e.name),
      wrapper?.events[e.name] ? code(wrapper.events[e.name]) : '–',
      e.description,
    ]),
    // reaction-block's wrapper also maps events that bubble up from the element it renders
    ...Object.entries(wrapper?.events || {})
      .filter(([ev]) => !events.some((e) => e.name === ev))
      .map(([ev, prop]) => [
        code(ev),
        code(prop),
        'Fired by the rendered element; bubbles out of this one.',
      ]),
  ],
)}
## Slots

_none_: everything shown comes from the block's settings.

## CSS parts

Style them with \`${tag}::part(name)\`.

${table(
  ['part', 'description'],
  parts.map((p) => [code(p.name), p.description]),
)}${
    tag === 'reaction-block'
      ? `
Forwarded from the rendered element under the same names, e.g. \`reaction-block::part(submit)\`
(the element pages describe each one):

${table(
  ['part', 'rendered by'],
  forwarded.map((f) => [
    code(f.name),
    f.from
      .map((x) => `[${x.tag.replace('reaction-', '')}](${x.tag.replace('reaction-', '')}.md)`)
      .join(', '),
  ]),
)}`
      : ''
  }
## CSS custom properties

The ones this element's design leans on; every shared \`--reaction-*\` token, with its light and
dark defaults, is listed in [embedding](../embedding.md#5-theming).

${table(
  ['property', 'description'],
  cssProps.map((p) => [code(p.name), p.description]),
)}
Generated from \`sdk/custom-elements.json\` and the sources by \`npm run docs -w @reaction-blocks/sdk\`.
`;
  pages[name] = md;
  readme.push(`### \`<${tag}>\`

${(d.summary || d.description || '').replace(/\n/g, ' ')}

\`import '@reaction-blocks/sdk/${name}';\`${wrapper ? ` · React: \`import { ${wrapper.name} } from '@reaction-blocks/sdk/react/${wrapper.file}';\`` : ''}

${table(
  ['attribute', 'description'],
  attrs.map((a) => [code(a.name), a.description]),
)}${
    events.length
      ? `
${table(
  ['event', 'React prop', 'description'],
  [
    ...events.map((e) => [
      code(e.name),
      wrapper?.events[e.name] ? code(wrapper.events[e.name]) : '–',
      e.description,
    ]),
    ...Object.entries(wrapper?.events || {})
      .filter(([ev]) => !events.some((e) => e.name === ev))
      .map(([ev, prop]) => [
        code(ev),
        code(prop),
        'Fired by the rendered element; bubbles out of this one.',
      ]),
  ],
)}`
      : ''
  }
CSS parts: ${parts.map((p) => code(p.name)).join(', ') || 'none'}. Properties, methods, CSS custom properties and an example: \`docs/elements/${name}.md\` in the repository, and this package's \`custom-elements.json\`.
`);
}

mkdirSync(out, { recursive: true });
let stale = 0;
for (const [name, md] of Object.entries(pages)) {
  const file = join(out, name + '.md');
  if (check) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== md) {
      stale++;
      console.error(
        `docs/elements/${name}.md is out of date: npm run docs -w @reaction-blocks/sdk`,
      );
    }
  } else {
    writeFileSync(file, md);
    console.log('wrote', `docs/elements/${name}.md`);
  }
}
// sdk/README.md: the element tables between the markers are generated, the rest is written by hand
const readmeFile = resolve(root, 'README.md');
const [START, END] = ['<!-- elements:start -->', '<!-- elements:end -->'];
const readmeText = readFileSync(readmeFile, 'utf8');
const from = readmeText.indexOf(START);
const to = readmeText.indexOf(END);
if (from < 0 || to < from)
  problems.push(`sdk/README.md: the markers ${START} ... ${END} are missing`);
else {
  const fresh = `${readmeText.slice(0, from + START.length)}
<!-- generated from custom-elements.json by npm run docs -w @reaction-blocks/sdk: edit the JSDoc, not this -->

${readme.join('\n')}
${readmeText.slice(to)}`;
  if (fresh === readmeText) {
    /* current */
  } else if (check) {
    stale++;
    console.error('sdk/README.md is out of date: npm run docs -w @reaction-blocks/sdk');
  } else {
    writeFileSync(readmeFile, fresh);
    console.log('wrote sdk/README.md');
  }
}
// The script tag of this release, pinned with the loader's integrity (Subresource Integrity,
// sha384 of the built file), in docs/embedding.md and sdk/README.md.
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const loaderFile = resolve(root, `dist/cdn/v${version}/reaction.js`);
if (!existsSync(loaderFile)) {
  console.error(`[docs] ${loaderFile} is missing: npm run build -w @reaction-blocks/sdk first`);
  process.exit(1);
}
const integrity =
  'sha384-' + createHash('sha384').update(readFileSync(loaderFile)).digest('base64');
const scriptTag = `\`\`\`html
<!-- in <head>, without defer: it reserves each block's height before the code arrives -->
<script src="https://<cdn>/@reaction-blocks/sdk/dist/cdn/v${version}/reaction.js"
        integrity="${integrity}" crossorigin="anonymous"
        data-project-url="https://<project>.supabase.co" data-anon-key="<anon key>"></script>

<reaction-comment owner-id="<owner id>" block-id="<block id>"></reaction-comment>
\`\`\`
`;
for (const [file, label] of [
  [resolve(root, '../docs/embedding.md'), 'docs/embedding.md'],
  [readmeFile, 'sdk/README.md'],
]) {
  const text = readFileSync(file, 'utf8');
  const [a, b] = ['<!-- script-tag:start -->', '<!-- script-tag:end -->'];
  const i = text.indexOf(a);
  const j = text.indexOf(b);
  if (i < 0 || j < i) {
    problems.push(`${label}: the markers ${a} ... ${b} are missing`);
    continue;
  }
  const fresh = `${text.slice(0, i + a.length)}
<!-- generated by npm run docs -w @reaction-blocks/sdk from the built loader -->
${scriptTag}${text.slice(j)}`;
  if (fresh === text) continue;
  if (check) {
    stale++;
    console.error(`${label}: the script tag is out of date: npm run docs -w @reaction-blocks/sdk`);
  } else {
    writeFileSync(file, fresh);
    console.log('wrote', label);
  }
}

for (const p of problems) console.warn('[docs]', p);
if (check && (stale || problems.length)) process.exit(1);

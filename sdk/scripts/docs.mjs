// Writes docs/elements/<name>.md from custom-elements.json (npm run docs), checked against the
// code: a part is listed only when the element's templates render it, React props come from the
// wrappers in src/react/index.ts, and a hand-written example and notes come from docs-pages.mjs.
// `npm run docs -- --check` writes nothing and exits 1 when a page is stale or the JSDoc and the
// templates disagree.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWNER, PAGES, blockId } from './docs-pages.mjs';
import { reservedHeightsCss } from '../src/core/skeleton-heights.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, '../docs/elements');
const check = process.argv.includes('--check');
const manifest = JSON.parse(readFileSync(resolve(root, 'custom-elements.json'), 'utf8'));
const read = (rel) =>
  readFileSync(resolve(root, rel.replace(/^\//, '').replace(/\.js$/, '.ts')), 'utf8');

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

/**
 * The files beside a class's source file that render or write for it: its write paths, which
 * load on the first interaction (x.writer.ts beside x.component.ts; core/writer.ts for the base
 * class, core/base.ts), its template partials (x.templates.ts) and its composer (x.composer.ts).
 */
const companions = (f) =>
  (f.endsWith('/core/base.ts')
    ? [f.replace(/base\.ts$/, 'writer.ts')]
    : ['.writer.ts', '.templates.ts', '.composer.ts'].map((x) => f.replace(/\.component\.ts$/, x))
  ).filter((w) => w !== f && existsSync(join(root, w)));

/** Parts the templates of a class chain render (with their companions'). */
const renderedParts = (name) =>
  new Set(
    chain(name)
      .flatMap((f) => [f, ...companions(f)])
      .flatMap((f) =>
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
  // one comma-separated string, written in pieces: 'actions,author,' + 'avatar,...'
  const list = /const FORWARDED_PARTS =([^;]*);/.exec(
    read('src/components/block/block.component.ts'),
  );
  if (!list) {
    problems.push('reaction-block: FORWARDED_PARTS not found in block.component.ts');
    return [];
  }
  const names = [...list[1].matchAll(/'([\w,-]*)'/g)]
    .map((m) => m[1])
    .join('')
    .split(',');
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
  // superclasses, and c.emit('reaction-…') in their companions: the write paths, x.writer.ts beside
  // x.component.ts, which load on the first interaction), no more and no fewer.
  const emits = (text) => [...text.matchAll(/\bemit(?:<[^>]*>)?\(\s*'([\w-]+)'/g)].map((m) => m[1]);
  const dispatched = new Set(
    chain(d.name).flatMap((f) => {
      const c = classes.get(d.name);
      return [
        ...[...classBodies(f, c ? chainNames(d.name) : [])].flatMap(emits),
        ...companions(f).flatMap((w) => emits(read(w))),
      ];
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
  // a public field the docs would leave out (no description): private state, or a line the
  // analyzer misread as a field (reaction-count's `root.innerHTML = ...` once listed `innerHTML`)
  for (const m of d.members || [])
    if (
      m.kind === 'field' &&
      m.privacy !== 'private' &&
      m.privacy !== 'protected' &&
      !m.static &&
      !m.description
    )
      problems.push(`${tag}: the manifest lists a public field ${m.name} without a description`);
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

  // the element's events and their React props; reaction-block's wrapper also maps events that
  // bubble up from the element it renders
  const eventsTable = table(
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
  );
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

${eventsTable}
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
${eventsTable}`
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
// sha384 of the built file), in docs/embedding.md and sdk/README.md, after the preload of the
// release's integrity table (integrity-<hash>.js, which the pinned loader asks for before its first
// import: preloaded, it comes beside the loader instead of after it). The loader carries the
// table's name and hash, and the table the hash of every element file and chunk of the release, so
// a change to any of them changes this tag too.
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const loaderFile = resolve(root, `dist/cdn/v${version}/reaction.js`);
if (!existsSync(loaderFile)) {
  console.error(`[docs] ${loaderFile} is missing: npm run build -w @reaction-blocks/sdk first`);
  process.exit(1);
}
const sha384 = (file) =>
  'sha384-' + createHash('sha384').update(readFileSync(file)).digest('base64');
const integrity = sha384(loaderFile);
const tableName = readdirSync(dirname(loaderFile)).find((f) => /^integrity-[\w-]+\.js$/.test(f));
if (!tableName) {
  console.error(`[docs] the integrity table is missing beside ${loaderFile}: npm run build first`);
  process.exit(1);
}
const preload = `<link rel="preload" as="script" href="https://<cdn>/@reaction-blocks/sdk/dist/cdn/v${version}/${tableName}"
      integrity="${sha384(resolve(dirname(loaderFile), tableName))}" crossorigin="anonymous">`;
const scriptTag = `\`\`\`html
<!-- in <head>, without defer: it reserves each block's height before the code arrives;
     the preload fetches, beside the loader, the hashes it checks the element files with -->
${preload}
<script src="https://<cdn>/@reaction-blocks/sdk/dist/cdn/v${version}/reaction.js"
        integrity="${integrity}" crossorigin="anonymous"
        data-project-url="https://<project>.supabase.co" data-anon-key="<anon key>"></script>

<reaction-comment owner-id="<owner id>" block-id="<block id>"></reaction-comment>
\`\`\`

If the page loads its scripts with \`defer\` or \`async\`, or at the end of \`<body>\`, the loader runs after
the page is first painted: put the same reservation in \`<head>\`, before the first paint.

\`\`\`html
<style>
  ${reservedHeightsCss().replaceAll('\n', '\n  ')}
</style>
${preload}
<script src="https://<cdn>/@reaction-blocks/sdk/dist/cdn/v${version}/reaction.js" defer
        integrity="${integrity}" crossorigin="anonymous"
        data-project-url="https://<project>.supabase.co" data-anon-key="<anon key>"></script>
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
    console.error(
      `${label}: the script tag is out of date (the loader holds every element file's hash): npm run docs -w @reaction-blocks/sdk`,
    );
  } else {
    writeFileSync(file, fresh);
    console.log('wrote', label);
  }
}

for (const p of problems) console.warn('[docs]', p);
if (check && (stale || problems.length)) process.exit(1);

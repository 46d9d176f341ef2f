// Writes docs/elements/<tag>.md from custom-elements.json (npm run docs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, '../docs/elements');
const manifest = JSON.parse(readFileSync(resolve(root, 'custom-elements.json'), 'utf8'));
mkdirSync(out, { recursive: true });
const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const table = (head, rows) =>
  rows.length
    ? `| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')}\n`
    : '_none_\n';

for (const mod of manifest.modules)
  for (const d of mod.declarations || []) {
    if (!d.tagName) continue;
    const attrs = (d.attributes || []).filter((a) => a.name && a.description);
    const props = (d.members || []).filter(
      (m) => m.kind === 'field' && !m.privacy && !m.static && m.description,
    );
    const md = `# \`<${d.tagName}>\`

${d.summary || d.description || ''}

\`import '@reaction-blocks/sdk/${d.tagName.replace('reaction-', '')}';\` — or the CDN script tag (see [embedding](../embedding.md)).

## Attributes

${table(
  ['attribute', 'property', 'description'],
  attrs.map((a) => [`\`${a.name}\``, a.fieldName ? `\`${a.fieldName}\`` : '', a.description]),
)}
## Properties

${table(
  ['property', 'type', 'description'],
  props.map((p) => [`\`${p.name}\``, p.type?.text ?? '', p.description]),
)}
## Events

${table(
  ['event', 'description'],
  (d.events || [])
    .filter((e) => e.name && e.description)
    .map((e) => [`\`${e.name}\``, e.description]),
)}
## CSS parts

${table(
  ['part', 'description'],
  (d.cssParts || []).map((p) => [`\`${p.name}\``, p.description]),
)}
## CSS custom properties

${table(
  ['property', 'description'],
  (d.cssProperties || []).map((p) => [`\`${p.name}\``, p.description]),
)}
Generated from \`sdk/custom-elements.json\` by \`npm run docs -w @reaction-blocks/sdk\`.
`;
    writeFileSync(resolve(out, d.tagName.replace('reaction-', '') + '.md'), md);
    console.log('wrote', d.tagName);
  }

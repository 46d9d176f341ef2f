/**
 * Lit's `{ state: true }` properties are internal reactive state (no attribute, private by name
 * and modifier), but the analyzer's Lit plugin makes an attribute of every entry of
 * `static properties`. This plugin drops those attributes and keeps the members private, so the
 * manifest lists only what a site owner may set.
 */
function litStateIsPrivate() {
  const stateOf = new Map(); // class name -> names of its state properties
  return {
    name: 'lit-state-is-private',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const names = new Set();
      for (const member of node.members) {
        const isStatic = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (!isStatic || member.name?.getText() !== 'properties') continue;
        const init = member.initializer;
        if (!init || !ts.isObjectLiteralExpression(init)) continue;
        for (const p of init.properties) {
          if (!ts.isPropertyAssignment(p) || !ts.isObjectLiteralExpression(p.initializer)) continue;
          const state = p.initializer.properties.some(
            (o) =>
              ts.isPropertyAssignment(o) &&
              o.name.getText() === 'state' &&
              o.initializer.kind === ts.SyntaxKind.TrueKeyword,
          );
          if (state) names.add(p.name.getText());
        }
      }
      stateOf.set(node.name.getText(), names);
    },
    moduleLinkPhase({ moduleDoc }) {
      for (const d of moduleDoc.declarations || []) {
        const names = stateOf.get(d.name);
        if (!names?.size) continue;
        d.attributes = (d.attributes || []).filter((a) => !names.has(a.fieldName));
        for (const m of d.members || [])
          if (names.has(m.name) && m.privacy === 'public') m.privacy = 'private';
      }
    },
  };
}

/**
 * The analyzer lists modules in the order the file system and its workers hand them over, which
 * differs between machines and runs; `npm run build` must leave the tree clean, so the manifest's
 * modules are sorted by path.
 */
function stableOrder() {
  return {
    name: 'stable-order',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules.sort((a, b) =>
        a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
      );
    },
  };
}

export default {
  globs: ['src/components/**/*.component.ts', 'src/core/base.ts'],
  exclude: ['**/*.test.ts'],
  outdir: '.',
  litelement: true,
  plugins: [litStateIsPrivate(), stableOrder()],
};

/**
 * Lit's `{ state: true }` properties (`state` in core/element.ts) are internal reactive state (no attribute, private by name
 * and modifier), but the analyzer's Lit plugin makes an attribute of every entry of
 * `static properties`. This plugin drops those attributes and makes the members private, in the
 * class that declares them and in every element that inherits them (the analyzer copies inherited
 * members after the module phase), so the manifest lists only what a site owner may set.
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
          if (!ts.isPropertyAssignment(p)) continue;
          // `{ state: true }`, or core/element.ts's `state`, which is that declaration
          const v = p.initializer;
          const state = ts.isObjectLiteralExpression(v)
            ? v.properties.some(
                (o) =>
                  ts.isPropertyAssignment(o) &&
                  o.name.getText() === 'state' &&
                  o.initializer.kind === ts.SyntaxKind.TrueKeyword,
              )
            : ts.isIdentifier(v) && v.text === 'state';
          if (state) names.add(p.name.getText());
        }
      }
      stateOf.set(node.name.getText(), names);
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules)
        for (const d of mod.declarations || []) {
          const isState = (x) =>
            stateOf.get(x.inheritedFrom?.name ?? d.name)?.has(x.fieldName ?? x.name);
          d.attributes = (d.attributes || []).filter((a) => !isState(a));
          if (!d.attributes.length) delete d.attributes;
          for (const m of d.members || [])
            if (m.kind === 'field' && isState(m)) {
              m.privacy = 'private';
              delete m.attribute;
            }
        }
    },
  };
}

/**
 * The analyzer lists `dispatchEvent(new CustomEvent(name, …))` as an event called `name` (the
 * variable's name): the helper that dispatches every element's events (ReactionElement.emit)
 * gave each element a made-up event. Events whose name is a variable are dropped, in the class
 * that dispatches them and in those that inherit them; the real ones are documented with
 * `@event` on each element (checked against the dispatches by `npm run docs -- --check`).
 */
function noVariableEventNames() {
  const variables = new Map(); // class name -> names of variables passed as an event's type
  return {
    name: 'no-variable-event-names',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const names = new Set();
      const visit = (n) => {
        if (
          ts.isNewExpression(n) &&
          n.expression.getText() === 'CustomEvent' &&
          n.arguments?.[0] &&
          ts.isIdentifier(n.arguments[0])
        )
          names.add(n.arguments[0].getText());
        ts.forEachChild(n, visit);
      };
      visit(node);
      if (names.size) variables.set(node.name.getText(), names);
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules)
        for (const d of mod.declarations || []) {
          if (!d.events) continue;
          d.events = d.events.filter(
            (e) => !variables.get(e.inheritedFrom?.name ?? d.name)?.has(e.name),
          );
          if (!d.events.length) delete d.events;
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
  plugins: [litStateIsPrivate(), noVariableEventNames(), stableOrder()],
};

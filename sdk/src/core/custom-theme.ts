// no import of Lit: this file stays a chunk of its own (an app bundler that splits would
// otherwise move Lit's css() into a chunk shared with the element, which costs the element bytes)
const css = (s: TemplateStringsArray) => s[0]!;

/**
 * The custom theme's derived colours (docs/design.md, "The custom theme is whole"): a sheet of its
 * own, loaded only by a block in the custom theme (before it shows, with its data) and added to
 * its shadow root after the element's styles (core/base.ts), so light and dark pages never carry
 * it. sdk/src/core/contrast.test.ts checks it in seven owner palettes.
 */
const sheet = new CSSStyleSheet();
sheet.replaceSync(css`
  /* The custom theme is whole: what the owner's colours do not say follows from them, by
     lightness (CIE L*, which is luminance): a colour lighter than L* 49.5 (where black and white
     contrast alike, 4.58:1) takes dark text, a darker one light text. Text 90 from the colour
     behind it, muted text and errors 55, control edges 40 (4.5:1, 4.5:1 and 3:1 whatever the
     colour); fields take the background unless the owner says; on fields and options the same
     from the tertiary colour, on primary black or white; the focus ring in the text colour. A
     browser without relative colours keeps the light text. docs/design.md, contrast.test.ts. */
  @supports (color: lch(from red l c h)) {
    .custom {
      --_on: var(--reaction-background);
      --reaction-tertiary: var(--TERTIARY, var(--_on));
      --_op: lch(from var(--reaction-primary) clamp(0, (49.5 - l) * 999, 100) 0 0);
      --reaction-on-primary: var(--_op);
      --reaction-error: lch(from var(--_on) clamp(l - 55, (49.5 - l) * 999, l + 55) 50 35);
      --_border: var(
        --reaction-border,
        lch(from var(--_on) clamp(l - 40, (49.5 - l) * 999, l + 40) 0 0)
      );
      --_ring: var(--reaction-text);
    }
    .custom,
    .custom * {
      --reaction-text: lch(from var(--_on) clamp(l - 90, (49.5 - l) * 999, l + 90) 0 0);
      --reaction-muted: lch(from var(--_on) clamp(l - 55, (49.5 - l) * 999, l + 55) 0 0);
    }
    .custom :is(.input, [part~='choice'], [part~='option']) {
      --_on: var(--reaction-tertiary);
      color: var(--reaction-text);
    }
    /* comment and Q&A labels: filled with their colour, in black or white (may not read as text
       on the background) */
    .custom [part~='label']:not(.note) {
      --_l: var(--_me-label);
      background: var(--_l);
      color: lch(from var(--_l) clamp(0, (49.5 - l) * 999, 100) 0 0);
    }
    .custom [part~='label'].admin {
      --_l: var(--_admin-label);
    }
  }
`);

/**
 * Adds the sheet to a custom-theme block's shadow root, after the element's styles, and gives its
 * base the colour scheme its derived text says: light ink (a dark background) is the dark scheme,
 * so native checkboxes, radios, scrollbars and a field's autofill are drawn dark too. Run after
 * every render (a new base, or new colours, which reset its style attribute).
 */
export default (root: ShadowRoot): void => {
  if (!root.adoptedStyleSheets.includes(sheet))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  const base = root.querySelector<HTMLElement>('[part~=base]');
  // the derived text's lightness, the first number of its computed lch(); a browser without
  // relative colours keeps the light text, and the light scheme
  if (base)
    base.style.colorScheme =
      +(/^lch\((\d+)/.exec(getComputedStyle(base).color)?.[1] ?? 0) > 50 ? 'dark' : '';
};

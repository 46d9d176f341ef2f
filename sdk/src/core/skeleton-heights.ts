/**
 * Height in px of each element's loading skeleton, which stands for a block of its usual shape:
 * like and button, one row; A/B, a one-line question; form, three short-text questions (or the
 * page's --reaction-form-height, for a longer form: the element learns its questions only with its
 * data); comment
 * and Q&A, a panel of fixed height (--reaction-height, 640px by default: what the data brings
 * takes room from the list, which scrolls); <reaction-block>, whose type is not known yet, a few
 * lines. The CDN loader reserves
 * the same height for a tag whose code has not arrived (`reaction-x:not(:defined)`), so the page
 * does not move when the code arrives, nor, for a block of that shape, when its data does.
 * sdk/src/core/skeleton.test.ts checks each skeleton renders at exactly this height.
 * No imports: the loader bundles this file.
 */
export const SKELETON_HEIGHTS = {
  comment: 640,
  qna: 640,
  like: 60,
  button: 60,
  ab: 129,
  form: 306,
  block: 139,
} as const;

/**
 * The CSS that reserves those heights for the tags whose code has not arrived: the loader puts it
 * in the page. A page that loads the loader after its first paint (defer, async, the end of
 * <body>) puts the same rule in its <head> (the snippet in docs/embedding.md is generated from
 * this), so nothing moves when the loader runs. Comment and Q&A take the page's
 * --reaction-height, a form its --reaction-form-height, when set.
 */
export const reservedHeightsCss = (): string =>
  Object.entries(SKELETON_HEIGHTS)
    .map(
      ([t, h]) =>
        `reaction-${t}:not(:defined):not([hidden]){display:block;min-height:${t == 'comment' || t == 'qna' ? `var(--reaction-height,${h}px)` : t == 'form' ? `var(--reaction-form-height,${h}px)` : h + 'px'}}`,
    )
    .join('\n');

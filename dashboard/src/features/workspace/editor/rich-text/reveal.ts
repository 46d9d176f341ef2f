/**
 * Brings a rich-text field whole into view when its text box takes focus from the keyboard, then
 * the line holding the caret. Focus alone scrolls only as far as the box's first pixels: tabbed
 * into at 1440 x 900, the form's description showed its first line over the window's bottom edge
 * and the rest of the box, and what was typed on a new line, below it.
 * `nearest` scrolls no further than needed, and stops under the sticky top bar: the page's scroll
 * padding is the bar's measured height (lib/sticky-bar.ts, shell.css). Where the field is taller
 * than the window, its top comes first, then the caret's line (inside the box's own scroll too).
 */
export function revealCaretLine(field: HTMLElement, box: HTMLElement) {
  field.scrollIntoView({ block: 'nearest' });
  const at = box.ownerDocument.getSelection()?.focusNode;
  const line = at instanceof Element ? at : at?.parentElement;
  if (line && line !== box && box.contains(line)) line.scrollIntoView({ block: 'nearest' });
}

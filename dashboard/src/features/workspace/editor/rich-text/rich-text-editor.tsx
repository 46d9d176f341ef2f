// A small rich-text editor for the form's description question: bold, italic, link, bulleted
// and numbered lists, with keyboard shortcuts and an accessible toolbar.
//
// The browser types and deletes text in a contenteditable (that is what it does well, IME input
// included); everything else goes through the document model (doc.ts): formatting commands,
// line breaks, paste, undo. After each input the DOM is read back into the model and, when it
// is not the model's canonical rendering (the browser added a <div>, a <span style> or an
// attribute), rendered again with the caret where it was. No document.execCommand: its output
// differs between browsers and it is deprecated. The HTML that leaves is the model's rendering,
// the same allow-list the server's sanitiser keeps.
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../../../components/ui/error-text';
import { useFieldDescription } from '../../../../components/ui/fields';
import {
  activeFormats,
  deleteRange,
  docLength,
  emptyDoc,
  hrefFromInput,
  insertText,
  linkRangeAt,
  marksAt,
  setLink,
  toggleList,
  toggleMark,
  type Doc,
  type Marks,
  type MarkName,
} from './doc';
import { docToHtml, htmlToDoc, pointAt, readDom, renderInto } from './dom';
import { FormatIcon, type Format } from './format-icon';
import { revealCaretLine } from './reveal';

export interface RichTextEditorProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  hint?: string;
  error?: string;
}

interface Selection {
  from: number;
  to: number;
}

interface Snapshot {
  doc: Doc;
  selection: Selection;
}

const NO_FORMATS: Record<Format, boolean> = {
  bold: false,
  italic: false,
  link: false,
  ul: false,
  ol: false,
};

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function RichTextEditor({ label, value, onChange, hint, error }: RichTextEditorProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const description = useFieldDescription({ hint, error });
  const linkInputId = useId();
  const contentRef = useRef<HTMLDivElement>(null);
  // rendered from `value` by the layout effect below, before the first paint
  const docRef = useRef<Doc>(emptyDoc());
  const onChangeRef = useRef(onChange);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  });
  const emitted = useRef(value);
  const selectionRef = useRef<Selection>({ from: 0, to: 0 });
  /** Marks chosen with a collapsed caret, for the next typed text. */
  const pending = useRef<Marks | null>(null);
  const composingFrom = useRef<number | null>(null);
  const history = useRef<{ past: Snapshot[]; future: Snapshot[]; lastTyping: number }>({
    past: [],
    future: [],
    lastTyping: 0,
  });
  const [formats, setFormats] = useState(NO_FORMATS);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkValue, setLinkValue] = useState('');
  const [linkError, setLinkError] = useState(false);
  const linkRange = useRef<Selection>({ from: 0, to: 0 });
  const [focusIndex, setFocusIndex] = useState(0);
  const toolbarRef = useRef<HTMLDivElement>(null);
  const fieldRef = useRef<HTMLDivElement>(null);
  /** The next focus comes from a press on the text: the caret is where the pointer is, in view. */
  const pressed = useRef(false);
  const mod = isMac() ? 'Meta' : 'Control';
  const modLabel = isMac() ? '⌘' : 'Ctrl+';

  const readSelection = useCallback((): Selection | null => {
    const root = contentRef.current;
    const sel = root?.ownerDocument.getSelection();
    if (!root || !sel || sel.rangeCount === 0) return null;
    const range = sel.getRangeAt(0);
    if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
    const { positions } = readDom(root, [
      { node: range.startContainer, offset: range.startOffset },
      { node: range.endContainer, offset: range.endOffset },
    ]);
    return { from: positions[0]!, to: positions[1]! };
  }, []);

  const placeSelection = useCallback((selection: Selection) => {
    const root = contentRef.current;
    const sel = root?.ownerDocument.getSelection();
    if (!root || !sel || root.ownerDocument.activeElement !== root) return;
    const start = pointAt(root, selection.from);
    const end = pointAt(root, selection.to);
    const range = root.ownerDocument.createRange();
    range.setStart(start.node, start.offset);
    range.setEnd(end.node, end.offset);
    sel.removeAllRanges();
    sel.addRange(range);
  }, []);

  const refreshFormats = useCallback(() => {
    const { from, to } = selectionRef.current;
    const active = activeFormats(docRef.current, from, to);
    if (pending.current && from === to) {
      active.bold = pending.current.bold;
      active.italic = pending.current.italic;
    }
    setFormats(active);
  }, []);

  /** Makes `doc` the content: renders it, restores the selection, tells the form. */
  /** `typedAt`: the input event's time stamp when the change is typing (else a command). */
  const commit = (doc: Doc, selection: Selection, typedAt?: number) => {
    const h = history.current;
    const kind = typedAt === undefined ? 'command' : 'typing';
    const now = typedAt ?? 0;
    // typing within a second of the last typing is one undo step
    if (kind === 'command' || now - h.lastTyping > 1000) {
      h.past.push({ doc: docRef.current, selection: selectionRef.current });
      if (h.past.length > 100) h.past.shift();
    }
    h.lastTyping = kind === 'typing' ? now : 0;
    h.future = [];
    apply(doc, selection);
  };

  const apply = (doc: Doc, selection: Selection) => {
    const root = contentRef.current;
    docRef.current = doc;
    selectionRef.current = selection;
    if (root) {
      const holder = root.ownerDocument.createElement('div');
      renderInto(holder, doc);
      if (root.innerHTML !== holder.innerHTML) {
        renderInto(root, doc);
        placeSelection(selection);
      }
    }
    const html = docToHtml(doc);
    if (html !== emitted.current) {
      emitted.current = html;
      onChangeRef.current(html);
    }
    refreshFormats();
  };

  // first render, and a value that changed from outside (another question, a saved draft)
  useLayoutEffect(() => {
    const root = contentRef.current;
    if (!root) return;
    if (value !== emitted.current || root.childNodes.length === 0) {
      emitted.current = value;
      docRef.current = htmlToDoc(value);
      history.current = { past: [], future: [], lastTyping: 0 };
      renderInto(root, docRef.current);
      refreshFormats();
    }
  }, [value, refreshFormats]);

  // the toolbar follows the caret
  useEffect(() => {
    const doc = contentRef.current?.ownerDocument;
    if (!doc) return;
    const onSelectionChange = () => {
      const selection = readSelection();
      if (!selection) return;
      const prev = selectionRef.current;
      if (prev.from !== selection.from || prev.to !== selection.to) pending.current = null;
      selectionRef.current = selection;
      refreshFormats();
    };
    doc.addEventListener('selectionchange', onSelectionChange);
    return () => doc.removeEventListener('selectionchange', onSelectionChange);
  }, [readSelection, refreshFormats]);

  const current = () => readSelection() ?? selectionRef.current;

  const toggle = (mark: MarkName) => {
    const { from, to } = current();
    if (from === to) {
      const base = pending.current ?? marksAt(docRef.current, from);
      pending.current = { ...base, [mark]: !base[mark] };
      selectionRef.current = { from, to };
      refreshFormats();
      return;
    }
    commit(toggleMark(docRef.current, from, to, mark), { from, to });
  };

  const list = (type: 'ul' | 'ol') => {
    const selection = current();
    commit(toggleList(docRef.current, selection.from, selection.to, type), selection);
  };

  const openLink = () => {
    let { from, to } = current();
    // inside a link (caret or part of its text): the whole link is edited or removed
    const around = linkRangeAt(docRef.current, from === to ? from : from + 1);
    if (around && around.from <= from && to <= around.to) ({ from, to } = around);
    linkRange.current = { from, to };
    setLinkValue(
      activeFormats(docRef.current, from, to).link ? (marksAt(docRef.current, to).href ?? '') : '',
    );
    setLinkError(false);
    setLinkOpen(true);
  };

  const closeLink = () => {
    setLinkOpen(false);
    contentRef.current?.focus();
    placeSelection(linkRange.current);
  };

  const applyLink = (remove = false) => {
    const { from, to } = linkRange.current;
    const href = remove ? null : hrefFromInput(linkValue);
    if (!remove && !href) {
      setLinkError(true);
      return;
    }
    setLinkOpen(false);
    contentRef.current?.focus();
    if (from === to && href) {
      // nothing selected: the address itself becomes the linked text
      const marks = { ...marksAt(docRef.current, from), href };
      const next = insertText(docRef.current, from, linkValue.trim(), marks);
      commit(next.doc, { from: next.pos, to: next.pos });
      return;
    }
    commit(setLink(docRef.current, from, to, href), { from, to });
  };

  const run = (format: Format) => {
    if (format === 'bold' || format === 'italic') toggle(format);
    else if (format === 'link') openLink();
    else list(format);
  };

  const undo = (redo = false) => {
    const h = history.current;
    const from = redo ? h.future : h.past;
    const to = redo ? h.past : h.future;
    const snapshot = from.pop();
    if (!snapshot) return;
    to.push({ doc: docRef.current, selection: selectionRef.current });
    h.lastTyping = 0;
    apply(snapshot.doc, snapshot.selection);
  };

  /** Replaces the selection with text (typing with pending marks, line breaks, paste). */
  const typeText = (text: string, typedAt: number, paragraphs = false) => {
    const { from, to } = current();
    const marks = pending.current ?? marksAt(docRef.current, from);
    const cleared = deleteRange(docRef.current, from, to);
    const next = insertText(cleared, from, text, marks, paragraphs);
    // the text has the marks now; typing on continues them
    pending.current = null;
    commit(next.doc, { from: next.pos, to: next.pos }, paragraphs ? undefined : typedAt);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const modKey = isMac() ? event.metaKey : event.ctrlKey;
    if (!modKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const format: Format | null =
      key === 'b' && !event.shiftKey
        ? 'bold'
        : key === 'i' && !event.shiftKey
          ? 'italic'
          : key === 'k' && !event.shiftKey
            ? 'link'
            : event.shiftKey && event.code === 'Digit8'
              ? 'ul'
              : event.shiftKey && event.code === 'Digit7'
                ? 'ol'
                : null;
    if (format) {
      event.preventDefault();
      run(format);
      return;
    }
    if (key === 'z' || key === 'y') {
      event.preventDefault();
      undo(key === 'y' || event.shiftKey);
      return;
    }
    // the browser's own formatting (underline...) would write markup the model does not have
    if (key === 'u') event.preventDefault();
  };

  // The native beforeinput event (React's onBeforeInput is a different, older event without
  // inputType): typed text with marks chosen at a caret, line breaks, undo from the menu, and
  // the browser's own formatting, which would write markup the model does not have.
  const onBeforeInput = (input: InputEvent) => {
    switch (input.inputType) {
      case 'insertText':
        if (pending.current && input.data) {
          input.preventDefault();
          typeText(input.data, input.timeStamp);
        }
        return;
      case 'insertLineBreak':
        input.preventDefault();
        typeText('\n', input.timeStamp);
        return;
      case 'historyUndo':
      case 'historyRedo':
        input.preventDefault();
        undo(input.inputType === 'historyRedo');
        return;
      default:
        if (input.inputType?.startsWith('format')) input.preventDefault();
    }
  };
  const beforeInputRef = useRef(onBeforeInput);
  useLayoutEffect(() => {
    beforeInputRef.current = onBeforeInput;
  });
  useEffect(() => {
    const root = contentRef.current;
    if (!root) return;
    const listener = (event: Event) => beforeInputRef.current(event as InputEvent);
    root.addEventListener('beforeinput', listener);
    return () => root.removeEventListener('beforeinput', listener);
  }, []);

  const onInput = (event: FormEvent<HTMLDivElement>) => {
    if ((event.nativeEvent as InputEvent).isComposing || composingFrom.current !== null) {
      // Hangul and other IME text: the DOM is left alone until the composition ends
      return;
    }
    syncFromDom(event.timeStamp);
  };

  const syncFromDom = (typedAt: number) => {
    const root = contentRef.current;
    if (!root) return;
    const sel = root.ownerDocument.getSelection();
    const range = sel && sel.rangeCount > 0 ? sel.getRangeAt(0) : null;
    const points =
      range && root.contains(range.startContainer)
        ? [
            { node: range.startContainer, offset: range.startOffset },
            { node: range.endContainer, offset: range.endOffset },
          ]
        : [];
    const { doc, positions } = readDom(root, points);
    const length = docLength(doc);
    const selection = {
      from: Math.min(positions[0] ?? length, length),
      to: Math.min(positions[1] ?? length, length),
    };
    commit(doc, selection, typedAt);
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    // plain text only: pasted markup never reaches the page, and lines become paragraphs
    event.preventDefault();
    const text = event.clipboardData.getData('text/plain');
    if (text) typeText(text, event.timeStamp, true);
  };

  // Each format's button; its shortcut is the modifier and `key`.
  const formatButtons = (
    [
      { format: 'bold', label: t('editor.richText.bold'), key: 'B' },
      { format: 'italic', label: t('editor.richText.italic'), key: 'I' },
      { format: 'link', label: t('editor.richText.link'), key: 'K' },
      { format: 'ul', label: t('editor.richText.bulletedList'), key: 'Shift+8' },
      { format: 'ol', label: t('editor.richText.numberedList'), key: 'Shift+7' },
    ] satisfies { format: Format; label: string; key: string }[]
  ).map(({ key, ...button }) => ({
    ...button,
    shortcut: `${modLabel}${key}`,
    keys: `${mod}+${key}`,
  }));

  // WAI-ARIA toolbar: one tab stop, arrow keys move between the buttons
  const onToolbarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = formatButtons.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? focusIndex === last
          ? 0
          : focusIndex + 1
        : event.key === 'ArrowLeft'
          ? focusIndex === 0
            ? last
            : focusIndex - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setFocusIndex(next);
    toolbarRef.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };

  return (
    <div ref={fieldRef} className="field editor-field rich-text">
      <span id={labelId} className="rich-text-label">
        {label}
      </span>
      <div
        ref={toolbarRef}
        role="toolbar"
        aria-label={t('editor.richText.toolbar', { label })}
        className="rich-text-toolbar"
        onKeyDown={onToolbarKeyDown}
      >
        {formatButtons.map((button, i) => (
          <button
            key={button.format}
            type="button"
            className={`rich-text-button rich-text-${button.format}`}
            aria-label={button.label}
            aria-pressed={formats[button.format]}
            aria-keyshortcuts={button.keys}
            title={`${button.label} (${button.shortcut})`}
            tabIndex={i === focusIndex ? 0 : -1}
            // keep the text's selection: the button acts on it
            onMouseDown={(event) => event.preventDefault()}
            onFocus={() => setFocusIndex(i)}
            onClick={() => {
              contentRef.current?.focus();
              placeSelection(selectionRef.current);
              run(button.format);
            }}
          >
            <FormatIcon format={button.format} />
          </button>
        ))}
      </div>
      {linkOpen ? (
        <div
          className="rich-text-link-form"
          role="group"
          aria-label={t('editor.richText.linkTitle')}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              closeLink();
            }
          }}
        >
          <label htmlFor={linkInputId}>{t('editor.richText.linkAddress')}</label>
          <input
            id={linkInputId}
            type="text"
            inputMode="url"
            value={linkValue}
            placeholder="https://"
            autoFocus
            aria-invalid={linkError || undefined}
            aria-describedby={linkError ? `${linkInputId}-error` : undefined}
            onChange={(event) => {
              setLinkValue(event.target.value);
              setLinkError(false);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                applyLink();
              }
            }}
          />
          <div className="rich-text-link-actions">
            <button type="button" className="button button-primary" onClick={() => applyLink()}>
              {t('editor.richText.linkApply')}
            </button>
            {formats.link ? (
              <button type="button" className="button" onClick={() => applyLink(true)}>
                {t('editor.richText.linkRemove')}
              </button>
            ) : null}
            <button type="button" className="button button-ghost" onClick={closeLink}>
              {t('editor.richText.linkCancel')}
            </button>
          </div>
          <ErrorText id={`${linkInputId}-error`}>
            {linkError ? t('editor.richText.linkInvalid') : null}
          </ErrorText>
        </div>
      ) : null}
      <div
        ref={contentRef}
        className="rich-text-content"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={description.describedBy}
        aria-invalid={description.invalid || undefined}
        contentEditable
        tabIndex={0}
        suppressContentEditableWarning
        spellCheck
        onMouseDown={() => {
          pressed.current = true;
        }}
        onFocus={() => {
          const byPointer = pressed.current;
          pressed.current = false;
          if (byPointer) return;
          // after the browser (or placeSelection) has put the caret
          requestAnimationFrame(() => {
            const box = contentRef.current;
            if (fieldRef.current && box && box.ownerDocument.activeElement === box)
              revealCaretLine(fieldRef.current, box);
          });
        }}
        onBlur={() => {
          pressed.current = false;
        }}
        onKeyDown={onKeyDown}
        onInput={onInput}
        onPaste={onPaste}
        onDrop={(event) => event.preventDefault()}
        onCompositionStart={() => {
          composingFrom.current = current().from;
        }}
        onCompositionEnd={(event) => {
          const start = composingFrom.current;
          composingFrom.current = null;
          syncFromDom(event.timeStamp);
          // bold or italic chosen before typing applies to the composed text too
          const marks = pending.current;
          if (marks && start !== null && selectionRef.current.from > start) {
            const { from } = selectionRef.current;
            let doc = docRef.current;
            for (const mark of ['bold', 'italic'] as const) {
              if (marksAt(doc, from)[mark] !== marks[mark])
                doc = toggleMark(doc, start, from, mark);
            }
            commit(doc, { from, to: from });
          }
        }}
      />
      {description.lines}
    </div>
  );
}

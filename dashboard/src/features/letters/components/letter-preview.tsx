// The letter as rows the owner can delete (spec: "the rendered letter with row deletion"). The
// block model is drawn with React elements (text is text, links only http/https/mailto, images
// https or the project's storage): nothing here is HTML from the page. The server renders the
// same model into the mail on save.
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  TLetterBlock,
  TLetterModel,
  TListTree,
  TSpan,
} from '@reaction-blocks/contracts/letters';
import { isLetterLink, itemSpans, listTree } from '@reaction-blocks/contracts/letters';
import { IconButton } from '../../../components/ui/icon-button';
import { X } from '../../../components/ui/icons';

function Span({ span }: { span: TSpan }) {
  let node: React.ReactNode = span.text;
  for (const mark of span.marks ?? []) {
    if (mark === 'b') node = <strong>{node}</strong>;
    else if (mark === 'i') node = <em>{node}</em>;
    else if (mark === 'u') node = <u>{node}</u>;
    else if (mark === 's') node = <s>{node}</s>;
    else node = <code>{node}</code>;
  }
  if (span.href && isLetterLink(span.href)) {
    return (
      <a href={span.href} target="_blank" rel="noopener noreferrer">
        {node}
      </a>
    );
  }
  return <>{node}</>;
}

const Spans = ({ spans }: { spans: TSpan[] }) => (
  <>
    {spans.map((s, i) => (
      <Span key={i} span={s} />
    ))}
  </>
);

const plain = (spans: TSpan[] = []) => spans.map((s) => s.text).join('');

/** A list with its nested lists inside their items, as the mail renders it (render.ts listHtml). */
function List({ list }: { list: TListTree }) {
  const Tag = list.ordered ? 'ol' : 'ul';
  return (
    <Tag
      className="letter-list"
      start={list.ordered ? list.start : undefined}
      // a list whose every item is nested, as far in as a sublist of that depth (render.ts .inN)
      style={list.indent ? { paddingInlineStart: `${2.5 * (list.indent + 1)}rem` } : undefined}
    >
      {list.items.map((item, i) => (
        <li key={i}>
          <Spans spans={item.spans} />
          {item.lists.map((sub, j) => (
            <List key={j} list={sub} />
          ))}
        </li>
      ))}
    </Tag>
  );
}

/** A few words of a row, so each row's delete button says which row it deletes. */
export function rowSummary(block: TLetterBlock, words: { image: string; divider: string }) {
  let text: string;
  switch (block.type) {
    case 'list':
      text = block.items.map((item) => plain(itemSpans(item))).join(', ');
      break;
    case 'image':
      text = block.alt || plain(block.caption) || words.image;
      break;
    case 'divider':
      text = words.divider;
      break;
    case 'code':
      text = block.text;
      break;
    case 'table':
      text = block.rows.flatMap((row) => row.map((cell) => plain(cell))).join(', ');
      break;
    default:
      text = plain(block.spans);
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 40 ? `${text.slice(0, 40).trimEnd()}…` : text;
}

/**
 * Each heading's level under the letter's h1: the letter's own level, but never more than one
 * below the heading before it, so a letter that opens with a level-2 heading (a Brunch post) or
 * jumps from 1 to 3 still reads as an outline to a screen reader (axe heading-order). The look
 * stays the letter's (the class keeps its own level).
 */
export function headingLevels(blocks: TLetterBlock[]): Map<string, 2 | 3 | 4> {
  const levels = new Map<string, 2 | 3 | 4>();
  let previous = 1;
  for (const block of blocks) {
    if (block.type !== 'heading') continue;
    const level = Math.min(block.level + 1, previous + 1) as 2 | 3 | 4;
    levels.set(block.id, level);
    previous = level;
  }
  return levels;
}

/** The text blocks but headings: one element, with its class, around their spans. */
const TEXT_TAGS = {
  paragraph: ['p', 'letter-p'],
  quote: ['blockquote', 'letter-quote'],
  callout: ['div', 'letter-callout'],
} as const;

function Row({
  block,
  imageAlt,
  level = 2,
}: {
  block: TLetterBlock;
  imageAlt: string;
  level?: 2 | 3 | 4;
}) {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
    case 'quote':
    case 'callout': {
      const [Tag, className] =
        block.type === 'heading'
          ? [`h${level}` as const, `letter-h letter-h${block.level}`]
          : TEXT_TAGS[block.type];
      return (
        <Tag className={className}>
          {block.type === 'callout' && block.icon ? `${block.icon} ` : null}
          <Spans spans={block.spans} />
        </Tag>
      );
    }
    case 'list':
      return <List list={listTree(block)} />;
    case 'image': {
      // a Notion image's alt is its caption: said once, by the figcaption (axe image-redundant-alt)
      const caption = block.caption?.map((span) => span.text).join('') ?? '';
      const alt = block.alt && block.alt !== caption ? block.alt : caption ? '' : imageAlt;
      return (
        <figure className="letter-figure">
          <img src={block.src} alt={alt} loading="lazy" />
          {block.caption?.length ? (
            <figcaption>
              <Spans spans={block.caption} />
            </figcaption>
          ) : null}
        </figure>
      );
    }
    case 'divider':
      return <hr className="letter-hr" />;
    case 'code':
      return <pre className="letter-pre">{block.text}</pre>;
    case 'table':
      return (
        <table className="letter-table">
          <tbody>
            {block.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) =>
                  block.header && r === 0 ? (
                    <th key={c} scope="col">
                      <Spans spans={cell} />
                    </th>
                  ) : (
                    <td key={c}>
                      <Spans spans={cell} />
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      );
  }
}

export interface LetterPreviewProps {
  title: string;
  model: TLetterModel;
  onDelete: (id: string) => void;
}

export function LetterPreview({ title, model, onDelete }: LetterPreviewProps) {
  const { t } = useTranslation();
  // The deleted row's button goes with it: focus moves to the delete button now in its place
  // (the next row's, or the last row's), so a keyboard user can go on deleting rows.
  const list = useRef<HTMLOListElement>(null);
  const deletedAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = deletedAt.current;
    if (at === null) return;
    deletedAt.current = null;
    const buttons = list.current?.querySelectorAll<HTMLElement>('.letter-row-delete');
    if (buttons?.length) buttons[Math.min(at, buttons.length - 1)]?.focus();
    else list.current?.closest<HTMLElement>('[tabindex="-1"]')?.focus();
  }, [model.blocks]);
  const levels = headingLevels(model.blocks);
  return (
    <div className="letter-paper">
      {title ? <h1 className="letter-title">{title}</h1> : null}
      <ol ref={list} className="letter-rows" aria-label={t('letters.preview.label')}>
        {model.blocks.map((block, index) => {
          const deleteLabel = t('letters.preview.deleteRow', {
            number: index + 1,
            text: rowSummary(block, {
              image: t('letters.preview.imageAlt'),
              divider: t('letters.preview.divider'),
            }),
          });
          return (
            <li key={block.id} className="letter-row" data-type={block.type}>
              <div className="letter-row-content">
                <Row
                  block={block}
                  imageAlt={t('letters.preview.imageAlt')}
                  level={levels.get(block.id)}
                />
              </div>
              <IconButton
                className="letter-row-delete"
                label={deleteLabel}
                onClick={() => {
                  deletedAt.current = index;
                  onDelete(block.id);
                }}
              >
                <X size={16} />
              </IconButton>
            </li>
          );
        })}
      </ol>
      {model.imageButton ? (
        <div className="letter-image-button">
          <a href={model.imageButton.link} target="_blank" rel="noopener noreferrer">
            <img src={model.imageButton.src} alt={t('letters.image.toggle')} />
          </a>
        </div>
      ) : null}
      {model.cta ? (
        <div className="letter-cta-row">
          <a className="letter-cta" href={model.cta.link} target="_blank" rel="noopener noreferrer">
            {model.cta.text}
          </a>
        </div>
      ) : null}
    </div>
  );
}

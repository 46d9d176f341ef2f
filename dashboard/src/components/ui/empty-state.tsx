// An empty list says what will be here and what to do next, beside a small drawing of it (inline
// SVG drawn for the dashboard in the brand's colours: no requests, no outside artwork). The
// drawing is decorative; the title and the next step carry the meaning.
import type { ReactNode } from 'react';

export type EmptyPicture =
  'blocks' | 'letters' | 'audience' | 'results' | 'messages' | 'integrations' | 'search';

const INDIGO = '#3b5bdb';
const PALE = '#dbe4ff';
const AMBER = '#ffd43b';
const LINE = '#c5cbd3';

/** A sheet of paper with text lines, the page every picture stands on. */
function Sheet({ x, y, w, h }: { x: number; y: number; w: number; h: number }) {
  return (
    <>
      <rect x={x} y={y} width={w} height={h} rx="8" fill="#fff" stroke={LINE} strokeWidth="2" />
      <rect x={x + 10} y={y + 10} width={w * 0.5} height="5" rx="2.5" fill={LINE} />
      <rect x={x + 10} y={y + 20} width={w - 20} height="4" rx="2" fill="#e9ecef" />
    </>
  );
}

const DRAWINGS: Record<EmptyPicture, ReactNode> = {
  // a page with an empty, dashed slot for a block and a plus in it
  blocks: (
    <>
      <Sheet x={30} y={8} w={100} h={84} />
      <rect
        x="40"
        y="36"
        width="80"
        height="44"
        rx="8"
        fill={PALE}
        stroke={INDIGO}
        strokeWidth="2"
        strokeDasharray="5 4"
      />
      <circle cx="80" cy="58" r="11" fill={INDIGO} />
      <path d="M80 52v12M74 58h12" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
    </>
  ),
  // an envelope with a letter coming out and an amber stamp
  letters: (
    <>
      <rect x="50" y="10" width="60" height="50" rx="4" fill="#fff" stroke={LINE} strokeWidth="2" />
      <rect x="58" y="19" width="30" height="5" rx="2.5" fill={INDIGO} />
      <rect x="58" y="29" width="44" height="4" rx="2" fill="#e9ecef" />
      <rect x="58" y="37" width="38" height="4" rx="2" fill="#e9ecef" />
      <path
        d="M36 44h88v44H36z"
        fill={PALE}
        stroke={INDIGO}
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d="M36 44l44 26 44-26" fill="none" stroke={INDIGO} strokeWidth="2" />
      <rect x="104" y="50" width="13" height="13" rx="2" fill={AMBER} />
    </>
  ),
  // three people, the one in front in amber, waiting for more
  audience: (
    <>
      <circle cx="52" cy="40" r="11" fill={PALE} />
      <path d="M32 78a20 20 0 0 1 40 0z" fill={PALE} />
      <circle cx="108" cy="40" r="11" fill={PALE} />
      <path d="M88 78a20 20 0 0 1 40 0z" fill={PALE} />
      <circle cx="80" cy="34" r="13" fill={AMBER} />
      <path d="M56 84a24 24 0 0 1 48 0z" fill={INDIGO} />
      <path d="M18 88h124" stroke={LINE} strokeWidth="2" strokeLinecap="round" />
    </>
  ),
  // a chart whose bars are still outlines, and a reaction on its way
  results: (
    <>
      <path d="M26 86h108" stroke={LINE} strokeWidth="2" strokeLinecap="round" />
      {[36, 62, 88].map((x, i) => (
        <rect
          key={x}
          x={x}
          y={60 - i * 14}
          width="18"
          height={26 + i * 14}
          rx="3"
          fill="none"
          stroke={INDIGO}
          strokeWidth="2"
          strokeDasharray="4 3"
        />
      ))}
      <path
        d="M112 14h30a6 6 0 0 1 6 6v16a6 6 0 0 1-6 6h-18l-8 7v-7h-4a6 6 0 0 1-6-6V20a6 6 0 0 1 6-6z"
        fill={AMBER}
      />
      <path d="M121 25h20M121 32h12" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
    </>
  ),
  // two speech bubbles, the second one dashed: a conversation not yet started
  messages: (
    <>
      <path
        d="M26 14h64a8 8 0 0 1 8 8v24a8 8 0 0 1-8 8H50l-12 10V54H26a8 8 0 0 1-8-8V22a8 8 0 0 1 8-8z"
        fill={PALE}
        stroke={INDIGO}
        strokeWidth="2"
      />
      <path d="M32 28h44M32 38h30" stroke={INDIGO} strokeWidth="3" strokeLinecap="round" />
      <path
        d="M74 50h60a8 8 0 0 1 8 8v16a8 8 0 0 1-8 8h-6v10l-12-10H74a8 8 0 0 1-8-8V58a8 8 0 0 1 8-8z"
        fill="#fff"
        stroke={LINE}
        strokeWidth="2"
        strokeDasharray="5 4"
      />
      <circle cx="90" cy="66" r="3" fill={LINE} />
      <circle cx="102" cy="66" r="3" fill={LINE} />
      <circle cx="114" cy="66" r="3" fill={LINE} />
    </>
  ),
  // two tiles joined by a cable: our block and another service
  integrations: (
    <>
      <rect x="14" y="30" width="44" height="44" rx="10" fill={INDIGO} />
      <rect x="24" y="44" width="10" height="14" rx="2" fill="#fff" />
      <rect x="38" y="44" width="10" height="14" rx="2" fill={AMBER} />
      <rect
        x="102"
        y="30"
        width="44"
        height="44"
        rx="10"
        fill="#fff"
        stroke={LINE}
        strokeWidth="2"
      />
      <path
        d="M114 44h20M114 52h20M114 60h12"
        stroke={LINE}
        strokeWidth="3"
        strokeLinecap="round"
      />
      <path
        d="M58 52c14 0 14-14 22-14s8 28 22 14"
        fill="none"
        stroke={INDIGO}
        strokeWidth="2.5"
        strokeDasharray="5 4"
        strokeLinecap="round"
      />
    </>
  ),
  // a magnifier over a page: nothing matches what was asked
  search: (
    <>
      <Sheet x={30} y={10} w={80} h={78} />
      <rect x="40" y="42" width="50" height="4" rx="2" fill="#e9ecef" />
      <rect x="40" y="52" width="40" height="4" rx="2" fill="#e9ecef" />
      <circle
        cx="104"
        cy="54"
        r="18"
        fill={PALE}
        fillOpacity="0.7"
        stroke={INDIGO}
        strokeWidth="4"
      />
      <path d="M117 67l15 15" stroke={INDIGO} strokeWidth="6" strokeLinecap="round" />
    </>
  ),
};

export interface EmptyStateProps {
  picture: EmptyPicture;
  /** What is not here yet, in a few words. */
  title: string;
  /** What will show up here, and how to get there. */
  children?: ReactNode;
  /** The next step as a control (a link or a button), when there is one on this screen. */
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ picture, title, children, action, className }: EmptyStateProps) {
  return (
    <div className={`empty-panel${className ? ` ${className}` : ''}`}>
      <svg
        className="empty-panel-picture"
        width="160"
        height="100"
        viewBox="0 0 160 100"
        aria-hidden="true"
        focusable="false"
      >
        {DRAWINGS[picture]}
      </svg>
      <p className="empty-panel-title">{title}</p>
      {children ? <p className="empty-panel-text">{children}</p> : null}
      {action ? <div className="empty-panel-action">{action}</div> : null}
    </div>
  );
}

// One picture per block type (cards, the create picker, the workspace, the home page grid): a
// rounded tile in the type's colour with a white glyph, drawn here (no icon font, no requests).
// Colours are distinct for all nine types and dark enough for the white glyph (>= 4.5:1).
// Where the type's name is written next to the icon, the icon is decorative (aria-hidden);
// given a `label` it is an image with that name.
import type { ReactNode } from 'react';
import type { BlockType } from '../../lib/db-types';

export const BLOCK_TYPE_COLORS: Record<BlockType, string> = {
  comment: '#3b5bdb',
  qna: '#0b7285',
  like: '#c2255c',
  button: '#c2410c',
  ab: '#6741d9',
  form: '#2b7a3b',
  notion_letter: '#343a40',
  typedream_letter: '#1864ab',
  brunch_letter: '#9c4221',
};

const stroke = {
  fill: 'none',
  stroke: '#fff',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

/** A letter on an envelope: the three letter types differ by their initial. */
function envelope(initial: string): ReactNode {
  return (
    <>
      <rect x="5" y="7.5" width="14" height="10" rx="1.6" {...stroke} />
      <path d="M5.6 8.4 12 13l6.4-4.6" {...stroke} />
      <circle cx="18.2" cy="6.6" r="3.6" fill="#fff" />
      <text
        x="18.2"
        y="8.3"
        textAnchor="middle"
        fontSize="5"
        fontWeight="800"
        fontFamily="system-ui, sans-serif"
        fill="currentColor"
      >
        {initial}
      </text>
    </>
  );
}

const GLYPHS: Record<BlockType, ReactNode> = {
  // a speech bubble with lines of text
  comment: (
    <>
      <path
        d="M5.5 7.5a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v6.5a2 2 0 0 1-2 2H11l-3.5 3v-3h0a2 2 0 0 1-2-2z"
        {...stroke}
      />
      <path d="M9 9.5h6M9 12.3h4" {...stroke} />
    </>
  ),
  // a bubble with a question mark
  qna: (
    <>
      <path
        d="M5.5 7.5a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v6.5a2 2 0 0 1-2 2H11l-3.5 3v-3h0a2 2 0 0 1-2-2z"
        {...stroke}
      />
      <path d="M10.3 9.2a1.8 1.8 0 1 1 2.6 1.6c-.6.3-.9.7-.9 1.3" {...stroke} />
      <circle cx="12" cy="14" r=".9" fill="#fff" />
    </>
  ),
  // a heart
  like: (
    <path
      d="M12 18.5s-6.5-3.9-6.5-8.3A3.4 3.4 0 0 1 12 8.6a3.4 3.4 0 0 1 6.5 1.6c0 4.4-6.5 8.3-6.5 8.3z"
      fill="#fff"
    />
  ),
  // a button with a pointer clicking it
  button: (
    <>
      <rect x="4.5" y="6.5" width="15" height="7" rx="3.5" {...stroke} />
      <path
        d="M12.5 11.5 13.8 19l1.6-2.2 2.4 2.4 1-1-2.4-2.4 2.3-1.5z"
        fill="#fff"
        stroke="#fff"
        strokeWidth=".8"
        strokeLinejoin="round"
      />
    </>
  ),
  // two halves, A and B
  ab: (
    <>
      <path d="M12 5v14" {...stroke} />
      <path d="M5.6 16 7.9 8h.6l2.3 8M6.4 13.4h3.6" {...stroke} strokeWidth={1.6} />
      <path
        d="M14 8h2.6a1.9 1.9 0 0 1 0 3.8H14zm0 3.8h3a2.1 2.1 0 0 1 0 4.2h-3z"
        {...stroke}
        strokeWidth={1.6}
      />
    </>
  ),
  // a clipboard with check boxes
  form: (
    <>
      <rect x="6" y="5.5" width="12" height="14" rx="1.8" {...stroke} />
      <path d="M9.5 5.5V4.6h5v.9" {...stroke} />
      <path
        d="m8.6 10 1 1 1.7-1.8M13 10.2h2.6M8.6 14.6l1 1 1.7-1.8M13 14.8h2.6"
        {...stroke}
        strokeWidth={1.5}
      />
    </>
  ),
  notion_letter: envelope('N'),
  typedream_letter: envelope('T'),
  brunch_letter: envelope('B'),
};

export interface BlockTypeIconProps {
  type: BlockType;
  /** The image's name; without it the icon is decorative (the type is written beside it). */
  label?: string;
  size?: number;
  className?: string;
}

export function BlockTypeIcon({ type, label, size = 28, className }: BlockTypeIconProps) {
  const color = BLOCK_TYPE_COLORS[type];
  return (
    <svg
      className={`type-icon type-icon-${type}${className ? ` ${className}` : ''}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      color={color}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      focusable="false"
    >
      {label ? <title>{label}</title> : null}
      <rect width="24" height="24" rx="6" fill={color} />
      {GLYPHS[type]}
    </svg>
  );
}

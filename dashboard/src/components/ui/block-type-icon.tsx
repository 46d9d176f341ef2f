// One picture per block type (cards, the create picker, the workspace, the home page grid): a
// rounded tile in the type's colour with a white glyph from the dashboard's one icon set (lucide,
// only the icons imported here end up in the bundle; no icon font, no requests). The three letter
// types share the envelope and differ by their initial on a badge.
// Colours are distinct for all nine types and dark enough for the white glyph (>= 4.5:1).
// Where the type's name is written next to the icon, the icon is decorative (aria-hidden);
// given a `label` it is an image with that name.
import {
  ClipboardList,
  Heart,
  Mail,
  MessageCircleQuestionMark,
  MessageSquareText,
  MousePointerClick,
  SquareSplitHorizontal,
  type LucideIcon,
} from 'lucide-react';
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

const GLYPHS: Record<BlockType, LucideIcon> = {
  comment: MessageSquareText,
  qna: MessageCircleQuestionMark,
  like: Heart,
  button: MousePointerClick,
  ab: SquareSplitHorizontal,
  form: ClipboardList,
  notion_letter: Mail,
  typedream_letter: Mail,
  brunch_letter: Mail,
};

const INITIALS: Partial<Record<BlockType, string>> = {
  notion_letter: 'N',
  typedream_letter: 'T',
  brunch_letter: 'B',
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
  const Glyph = GLYPHS[type];
  const initial = INITIALS[type];
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
      <Glyph
        x={initial ? 3 : 4}
        y={initial ? 5 : 4}
        width={16}
        height={16}
        color="#fff"
        strokeWidth={2.1}
      />
      {initial ? (
        <>
          <circle cx="18.2" cy="6.6" r="3.9" fill="#fff" />
          <text
            x="18.2"
            y="8.4"
            textAnchor="middle"
            fontSize="5.2"
            fontWeight="800"
            fontFamily="system-ui, sans-serif"
            fill={color}
          >
            {initial}
          </text>
        </>
      ) : null}
    </svg>
  );
}

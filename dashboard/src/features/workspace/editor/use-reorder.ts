// Reordering a list by HTML5 drag and drop and, for keyboard users, Alt+ArrowUp/ArrowDown on a
// row. No dependency: the lists are short (at most 20 questions, 30 endings).
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';

export interface ReorderOptions {
  /** Called with list positions; the caller decides whether the move is allowed. */
  onMove: (from: number, to: number) => void;
  /** Positions that can be neither dragged nor dropped on (e.g. the pinned default ending). */
  isFixed?: (position: number) => boolean;
}

export function useReorder({ onMove, isFixed = () => false }: ReorderOptions) {
  const dragFrom = useRef<number | null>(null);
  const [dropTarget, setDropTarget] = useState<number | null>(null);
  /** Row to focus after a keyboard move: React may move the focused node, which blurs it. */
  const focusKey = useRef<string | null>(null);
  const rows = useRef(new Map<string, HTMLElement>());

  // After every render: the move re-renders the list, then the moved row gets focus back.
  useEffect(() => {
    const key = focusKey.current;
    if (key === null) return;
    focusKey.current = null;
    rows.current.get(key)?.focus();
  });

  const finish = () => {
    dragFrom.current = null;
    setDropTarget(null);
  };

  /** Props for the draggable row at `position`. */
  const rowProps = (position: number) => {
    const fixed = isFixed(position);
    return {
      draggable: !fixed,
      'data-drop-target': dropTarget === position ? 'true' : undefined,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        if (fixed) return;
        dragFrom.current = position;
        if (event.dataTransfer) {
          event.dataTransfer.effectAllowed = 'move';
          // Firefox starts a drag only when some data is set.
          event.dataTransfer.setData('text/plain', String(position));
        }
      },
      onDragOver: (event: DragEvent<HTMLElement>) => {
        if (dragFrom.current === null || fixed) return;
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
        if (dropTarget !== position) setDropTarget(position);
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        const from = dragFrom.current;
        if (from === null || fixed) return;
        event.preventDefault();
        finish();
        if (from !== position) onMove(from, position);
      },
      onDragEnd: finish,
    };
  };

  /** Props for the focusable control of the row at `position` (key: a stable row id). */
  const handleProps = (position: number, key: string) => ({
    ref: (node: HTMLElement | null) => {
      if (node) rows.current.set(key, node);
      else rows.current.delete(key);
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (!event.altKey || isFixed(position)) return;
      const to =
        event.key === 'ArrowUp' ? position - 1 : event.key === 'ArrowDown' ? position + 1 : null;
      if (to === null) return;
      event.preventDefault();
      if (isFixed(to)) return;
      focusKey.current = key;
      onMove(position, to);
    },
  });

  return { rowProps, handleProps };
}

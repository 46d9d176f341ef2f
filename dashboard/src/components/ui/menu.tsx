// Menu button: a button that opens a list of actions (WAI-ARIA menu button pattern).
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuItem {
  id: string;
  label: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  className?: string;
}

export interface MenuProps {
  label: string;
  button: ReactNode;
  items: MenuItem[];
  className?: string;
  align?: 'start' | 'end';
  placement?: 'below' | 'above';
}

export function Menu({
  label,
  button,
  items,
  className,
  align = 'end',
  placement = 'below',
}: MenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);

  useEffect(() => {
    if (!open) return;
    itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const enabled = items.map((item, index) => (item.disabled ? -1 : index)).filter((i) => i >= 0);

  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };

  const close = (returnFocus = true) => {
    setOpen(false);
    if (returnFocus) trigger.current?.focus();
  };

  const onTriggerKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      openAt(enabled[0] ?? 0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(enabled[enabled.length - 1] ?? 0);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const position = enabled.indexOf(focusIndex);
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setFocusIndex(enabled[(position + 1) % enabled.length] ?? focusIndex);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setFocusIndex(enabled[(position - 1 + enabled.length) % enabled.length] ?? focusIndex);
    } else if (event.key === 'Home') {
      event.preventDefault();
      setFocusIndex(enabled[0] ?? 0);
    } else if (event.key === 'End') {
      event.preventDefault();
      setFocusIndex(enabled[enabled.length - 1] ?? 0);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div className={['menu', className].filter(Boolean).join(' ')} ref={root}>
      <button
        ref={trigger}
        type="button"
        className="menu-trigger"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(event) => {
          event.stopPropagation();
          if (open) close(false);
          else openAt(enabled[0] ?? 0);
        }}
        onKeyDown={onTriggerKey}
      >
        {button}
      </button>
      {open ? (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          className={`menu-list menu-${align} menu-${placement}`}
          onKeyDown={onMenuKey}
          onClick={(event) => event.stopPropagation()}
        >
          {items.map((item, index) => (
            <button
              key={item.id}
              ref={(el) => {
                itemRefs.current[index] = el;
              }}
              type="button"
              role="menuitem"
              className={['menu-item', item.className].filter(Boolean).join(' ')}
              tabIndex={index === focusIndex ? 0 : -1}
              disabled={item.disabled}
              onClick={() => {
                close();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

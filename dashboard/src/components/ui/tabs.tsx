// Tabs (WAI-ARIA tabs pattern with automatic activation). The caller renders the selected tab's
// content in a TabPanel with the same idPrefix: its id and aria-labelledby tie it to its tab.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

export interface TabsProps<T extends string> {
  label: string;
  idPrefix: string;
  items: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  className?: string;
}

function tabIds(idPrefix: string, id: string) {
  return { tab: `${idPrefix}-tab-${id}`, panel: `${idPrefix}-panel-${id}` };
}

export function Tabs<T extends string>({
  label,
  idPrefix,
  items,
  selected,
  onSelect,
  className,
}: TabsProps<T>) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === selected);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const item = items[next]!;
    onSelect(item.id);
    refs.current[item.id]?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      className={['tabs', className].filter(Boolean).join(' ')}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => {
        const ids = tabIds(idPrefix, item.id);
        const active = item.id === selected;
        return (
          <button
            key={item.id}
            ref={(el) => {
              refs.current[item.id] = el;
            }}
            id={ids.tab}
            type="button"
            role="tab"
            className="tab"
            aria-selected={active}
            aria-controls={ids.panel}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(item.id)}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** The selected tab's content, named by its tab. */
export function TabPanel({
  idPrefix,
  selected,
  className,
  focusable = false,
  children,
}: {
  idPrefix: string;
  selected: string;
  className?: string;
  /** In the Tab order itself, for a panel with nothing focusable in it (WAI-ARIA). */
  focusable?: boolean;
  children: ReactNode;
}) {
  const ids = tabIds(idPrefix, selected);
  return (
    <div
      role="tabpanel"
      id={ids.panel}
      aria-labelledby={ids.tab}
      className={className}
      tabIndex={focusable ? 0 : undefined}
    >
      {children}
    </div>
  );
}

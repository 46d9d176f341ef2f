// An accordion section (WAI-ARIA accordion pattern): a heading holding a button that shows or
// hides its region.
import { useId, useState, type ReactNode } from 'react';

export function AccordionSection({
  title,
  badge,
  defaultOpen = false,
  onToggle,
  children,
}: {
  title: string;
  badge?: ReactNode;
  defaultOpen?: boolean;
  /** Told when the section opens or closes (e.g. to load what it shows on first open). */
  onToggle?: (open: boolean) => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const buttonId = useId();
  const regionId = useId();
  return (
    <section className="accordion-section" data-open={open || undefined}>
      <h3 className="accordion-heading">
        <button
          id={buttonId}
          type="button"
          className="accordion-trigger"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => {
            setOpen(!open);
            onToggle?.(!open);
          }}
        >
          <span>{title}</span>
          {badge}
          <span className="accordion-icon" aria-hidden="true">
            {open ? '−' : '+'}
          </span>
        </button>
      </h3>
      <div
        id={regionId}
        role="region"
        aria-labelledby={buttonId}
        className="accordion-panel"
        hidden={!open}
      >
        {children}
      </div>
    </section>
  );
}

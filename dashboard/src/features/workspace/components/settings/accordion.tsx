// An accordion section (WAI-ARIA accordion pattern): a heading holding a button that shows or
// hides its region.
import { useId, type ReactNode } from 'react';
import { useDisclosure } from '../../../../lib/use-disclosure';

export function AccordionSection({
  title,
  badge,
  defaultOpen = false,
  children,
}: {
  title: string;
  badge?: ReactNode;
  defaultOpen?: boolean;
  /** A function of whether the section is open, for contents that load only once it is. */
  children: ReactNode | ((open: boolean) => ReactNode);
}) {
  const section = useDisclosure(defaultOpen);
  const { open } = section;
  const buttonId = useId();
  return (
    <section className="accordion-section" data-open={open || undefined}>
      <h3 className="accordion-heading">
        <button id={buttonId} {...section.toggleProps} className="accordion-trigger">
          <span>{title}</span>
          {badge}
          <span className="accordion-icon" aria-hidden="true">
            {open ? '−' : '+'}
          </span>
        </button>
      </h3>
      <div
        id={section.panelId}
        role="region"
        aria-labelledby={buttonId}
        className="accordion-panel"
        hidden={!open}
      >
        {typeof children === 'function' ? children(open) : children}
      </div>
    </section>
  );
}

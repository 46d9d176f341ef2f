// A disclosure (WAI-ARIA disclosure pattern): a button that shows or hides the content it
// controls. The landing's menu, the create-block picker and the settings' accordion sections.
import { useId, useRef, useState } from 'react';

export function useDisclosure(initiallyOpen = false) {
  const [open, setOpen] = useState(initiallyOpen);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  return {
    open,
    setOpen,
    /** The id the shown or hidden content carries. */
    panelId,
    /** Spread on the button; it names the content it controls and whether it shows. */
    toggleProps: {
      ref: toggleRef,
      type: 'button',
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: () => setOpen((value) => !value),
    } as const,
    /** Closes and gives focus back to the button, as Escape does in a menu. */
    dismiss: () => {
      setOpen(false);
      toggleRef.current?.focus();
    },
  };
}

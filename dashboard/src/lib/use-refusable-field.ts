// A text field that a submit checks: why its value was refused is said under the field until the
// next keystroke clears it. The webhooks' address and the Cafe24 card's mall id.
import { useState } from 'react';

export function useRefusableField() {
  const [value, setValue] = useState('');
  const [error, refuse] = useState<string | undefined>();
  return {
    value,
    setValue,
    /** Says under the field why its value was refused; `undefined` takes that back. */
    refuse,
    /** Spread on the TextField: the value, the refusal, and typing that clears the refusal. */
    fieldProps: {
      value,
      error,
      onChange: (next: string) => {
        setValue(next);
        refuse(undefined);
      },
    },
  };
}

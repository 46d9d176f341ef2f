// A form that stays on its page: a submit (a button or Enter in a field) runs `onSubmit` with the
// form instead of loading a page, and the browser's own checks are off (the fields say what is
// wrong, in the reader's language). The webhooks' address, the Cafe24 mall id, moderation's search.
import type { ComponentProps } from 'react';

export interface PageFormProps extends Omit<ComponentProps<'form'>, 'onSubmit' | 'noValidate'> {
  onSubmit: (form: HTMLFormElement) => void;
}

export function PageForm({ onSubmit, ...props }: PageFormProps) {
  return (
    <form
      {...props}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event.currentTarget);
      }}
    />
  );
}

import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Announcement } from './announcement';
import { ConfirmDialog } from './confirm-dialog';
import { Dialog } from './dialog';
import { FormDialog } from './form-dialog';
import { LoadFailed } from './load-failed';
import { CheckboxField, SelectField, TextField } from './fields';
import { Menu } from './menu';
import { useSubmit } from '../../lib/use-submit';

function DialogHarness({ onClose = () => {} }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <Dialog
        open={open}
        title="Title"
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        actions={
          <>
            <button>First</button>
            <button>Last</button>
          </>
        }
      >
        <p>Body</p>
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('moves focus in, traps Tab, closes on Escape and gives focus back', () => {
    const onClose = vi.fn();
    render(<DialogHarness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Title' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const first = screen.getByRole('button', { name: 'First' });
    const last = screen.getByRole('button', { name: 'Last' });
    expect(document.activeElement).toBe(first);
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(last, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('takes focus back when its focused control goes away, so Escape still closes it (rev-owner D2)', async () => {
    function Vanishing({ onClose }: { onClose: () => void }) {
      const [done, setDone] = useState(false);
      return (
        <Dialog
          open
          title="Import"
          onClose={onClose}
          actions={done ? null : <button onClick={() => setDone(true)}>Import</button>}
        >
          <p role={done ? 'status' : undefined}>{done ? 'Imported' : 'Ready'}</p>
        </Dialog>
      );
    }
    const onClose = vi.fn();
    render(<Vanishing onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByRole('status');
    await vi.waitFor(() => expect(document.activeElement).toBe(dialog));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

function ConfirmHarness({ action }: { action: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Delete it</button>
      <ConfirmDialog
        open={open}
        title="Delete?"
        cancelLabel="Keep"
        confirmLabel="Delete"
        onCancel={() => setOpen(false)}
        onConfirm={async () => {
          await action();
          setOpen(false);
        }}
        errorText={(cause) => `Failed: ${(cause as Error).message}`}
      >
        <p>It is gone for good.</p>
      </ConfirmDialog>
    </>
  );
}

describe('ConfirmDialog', () => {
  it('is an alertdialog with the safe choice focused; Escape cancels', () => {
    const action = vi.fn(async () => {});
    render(<ConfirmHarness action={action} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(action).not.toHaveBeenCalled();
  });

  it('runs the action once while busy, cannot be dismissed meanwhile, and closes when done', async () => {
    let finish = () => {};
    const action = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<ConfirmHarness action={action} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    const dialog = screen.getByRole('alertdialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    expect(action).toHaveBeenCalledTimes(1);
    expect(confirm.getAttribute('aria-busy')).toBe('true');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(screen.getByRole('alertdialog')).toBe(dialog);
    await act(async () => finish());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the dialog open with the reason on failure, and a new opening starts clean', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const action = vi.fn(async () => {
      throw new Error('offline');
    });
    render(<ConfirmHarness action={action} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    const dialog = screen.getByRole('alertdialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed: offline');
    expect(
      (within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled,
    ).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    expect(within(screen.getByRole('alertdialog')).queryByRole('alert')).toBeNull();
  });
});

function NameDialog({
  save,
  onClose,
}: {
  save: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const { busy, error, run } = useSubmit();
  return (
    <FormDialog
      title="Rename"
      onClose={onClose}
      onSubmit={() =>
        void run(
          () => save(name),
          (cause) => `Not saved: ${(cause as Error).message}`,
        )
      }
      submitLabel="Save"
      busyLabel="Saving…"
      canSubmit={name.trim() !== ''}
      busy={busy}
      error={error}
    >
      <TextField label="Name" value={name} max={20} onChange={setName} />
    </FormDialog>
  );
}

describe('FormDialog', () => {
  it('submits on Enter only when the form can be sent, and once while busy', async () => {
    let finish = () => {};
    const save = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const onClose = vi.fn();
    render(<NameDialog save={save} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Rename' });
    const field = within(dialog).getByLabelText('Name');
    const action = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(action.disabled).toBe(true);
    fireEvent.submit(field.closest('form')!);
    expect(save).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'Ada' } });
    expect(action.disabled).toBe(false);
    fireEvent.submit(field.closest('form')!);
    fireEvent.submit(field.closest('form')!);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('Ada');
    expect(action.textContent).toBe('Saving…');
    expect(action.getAttribute('aria-busy')).toBe('true');
    // neither Escape nor Cancel drops the dialog while it saves
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => finish());
    expect(action.textContent).toBe('Save');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps what was typed and shows the reason when the action fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const save = vi.fn(async () => {
      throw new Error('offline');
    });
    render(<NameDialog save={save} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog');
    const field = within(dialog).getByLabelText('Name') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'Ada' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    });
    expect(within(dialog).getByRole('alert').textContent).toBe('Not saved: offline');
    expect(field.value).toBe('Ada');
    expect(
      (within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});

describe('fields', () => {
  it('reads the hint, the error and added text with a text field, counts and stops at max', () => {
    const onChange = vi.fn();
    render(
      <TextField
        label="Name"
        value="Kim"
        max={10}
        hint="Shown to visitors"
        error="Too long message"
        describedBy="extra"
        onChange={onChange}
      >
        <p id="extra">Paid plan feature.</p>
      </TextField>,
    );
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('maxlength')).toBe('10');
    const described = input
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)!.textContent);
    expect(described).toEqual(['Shown to visitors', 'Too long message', 'Paid plan feature.']);
    expect(screen.getByText('3/10')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'Lee' } });
    expect(onChange).toHaveBeenCalledWith('Lee');
  });

  it('lets a text area take more than max when asked, and is valid without an error', () => {
    render(<TextField label="Text" value="" max={5} multiline stopAtMax={false} />);
    const area = screen.getByRole('textbox', { name: 'Text' });
    expect(area.tagName).toBe('TEXTAREA');
    expect(area.hasAttribute('maxlength')).toBe(false);
    expect(area.hasAttribute('aria-invalid')).toBe(false);
    expect(area.hasAttribute('aria-describedby')).toBe(false);
  });

  it('marks a field invalid whose problem is said elsewhere, and leaves the count out when asked', () => {
    render(
      <>
        <TextField label="Value" value="Kim" max={10} counted={false} invalid />
        <SelectField
          label="Pick"
          value="a"
          options={[{ value: 'a', label: 'A' }]}
          onChange={() => {}}
          invalid
        />
        <SelectField
          label="Other"
          value="a"
          options={[{ value: 'a', label: 'A' }]}
          onChange={() => {}}
        />
      </>,
    );
    const input = screen.getByRole('textbox', { name: 'Value' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('maxlength')).toBe('10');
    // no line of its own: nothing to describe it, and no count
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText('3/10')).toBeNull();
    const pick = screen.getByRole('combobox', { name: 'Pick' });
    expect(pick.getAttribute('aria-invalid')).toBe('true');
    expect(pick.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.getByRole('combobox', { name: 'Other' }).hasAttribute('aria-invalid')).toBe(
      false,
    );
  });

  it('has a checkbox or a switch, and a select of its options', () => {
    const onCheck = vi.fn();
    const onSelect = vi.fn();
    render(
      <>
        <CheckboxField label="Required" checked={false} onChange={onCheck} />
        <CheckboxField label="Allow replies" checked asSwitch onChange={() => {}} />
        <SelectField
          label="Language"
          value="en"
          options={[
            { value: 'en', label: 'English', lang: 'en' },
            { value: 'ko', label: '한국어', lang: 'ko' },
          ]}
          onChange={onSelect}
        />
      </>,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Required' }));
    expect(onCheck).toHaveBeenCalledWith(true);
    expect(screen.getByRole('switch', { name: 'Allow replies' })).toBeTruthy();
    expect(screen.getByRole('option', { name: '한국어' }).getAttribute('lang')).toBe('ko');
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), {
      target: { value: 'ko' },
    });
    expect(onSelect).toHaveBeenCalledWith('ko');
  });
});

describe('Menu', () => {
  it('opens with ArrowDown, moves with arrows, skips disabled items and closes with Escape', () => {
    const onOpen = vi.fn();
    render(
      <Menu
        label="Actions"
        button="…"
        items={[
          { id: 'a', label: 'Open', onSelect: onOpen },
          { id: 'b', label: 'Duplicate', onSelect: () => {}, disabled: true },
          { id: 'c', label: 'Delete', onSelect: () => {} },
        ]}
      />,
    );
    const trigger = screen.getByRole('button', { name: 'Actions' });
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Open');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Delete');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Open');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    fireEvent.click(trigger);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Open' }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('LoadFailed', () => {
  it('says nothing without a failure, and the reason with a Try again that loads again', () => {
    const onRetry = vi.fn();
    const { rerender } = render(<LoadFailed onRetry={onRetry}>{null}</LoadFailed>);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<LoadFailed onRetry={onRetry}>Could not load: offline</LoadFailed>);
    expect(screen.getByRole('alert').textContent).toContain('Could not load: offline');
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('Announcement', () => {
  it('is one polite live region, hidden while empty and the visible notice with a message', () => {
    const { rerender } = render(<Announcement>{null}</Announcement>);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.className).toBe('visually-hidden');
    rerender(<Announcement>The endpoint was added.</Announcement>);
    expect(screen.getByRole('status')).toBe(region);
    expect(region.className).toBe('notice');
    expect(region.textContent).toBe('The endpoint was added.');
  });
});

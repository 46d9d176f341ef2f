import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/utils';
import type { WorkspaceQuestionRow } from '../api/types';
import { formDraft, optionRow, questionRow } from '../test/fixtures';
import { FormEditor } from './form-editor';
import {
  addCondition,
  liveOptions,
  liveQuestions,
  newEnding,
  updateCondition,
  type FormDraft,
} from './model';

/** A question row; poll gets the option Yes, ab its Good and Bad. */
function question(title: string, index: number, type: WorkspaceQuestionRow['type'] = 'short_text') {
  const options =
    type === 'ab'
      ? [optionRow('Good', 0), optionRow('Bad', 1)]
      : type === 'poll'
        ? [optionRow('Yes', 0)]
        : [];
  return questionRow({ title, index, type, options });
}

interface HarnessProps {
  initial: FormDraft;
  paid?: boolean;
  blockType?: 'form' | 'ab';
  language?: 'en' | 'ko';
  onDraft?: (draft: FormDraft) => void;
  onSelectEnding?: (index: number | null) => void;
}

function Harness({
  initial,
  paid = true,
  blockType = 'form',
  language = 'en',
  onDraft,
  onSelectEnding,
}: HarnessProps) {
  const [draft, setDraft] = useState(initial);
  const [submit, setSubmit] = useState<string | null>(null);
  const [ending, setEnding] = useState<number | null>(null);
  return (
    <FormEditor
      blockType={blockType}
      language={language}
      draft={draft}
      onChange={(next) => {
        setDraft(next);
        onDraft?.(next);
      }}
      paid={paid}
      submitButtonText={submit}
      onSubmitButtonTextChange={setSubmit}
      selectedEnding={ending}
      onSelectEnding={(index) => {
        setEnding(index);
        onSelectEnding?.(index);
      }}
    />
  );
}

function setup(questions: WorkspaceQuestionRow[], props: Omit<HarnessProps, 'initial'> = {}) {
  const onDraft = vi.fn<(draft: FormDraft) => void>();
  const initial = formDraft(...questions);
  const { unmount } = renderWithProviders(
    <Harness initial={initial} onDraft={onDraft} {...props} />,
  );
  const last = () => onDraft.mock.lastCall?.[0] ?? initial;
  return { onDraft, last, unmount };
}

const questionList = () => screen.getByRole('list', { name: 'Questions' });
const rowTitles = () =>
  within(questionList())
    .getAllByRole('button')
    .map((b) => b.querySelector('.editor-list-title')!.textContent);

describe('FormEditor questions', () => {
  it('creates a question through the type picker and focuses its title', () => {
    const { last } = setup([question('Name', 0)]);
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    const picker = screen.getByRole('dialog', { name: 'Choose a question type' });
    for (const name of ['Poll', 'A/B', 'Short text', 'Long text', 'Number', 'Phone', 'Mail']) {
      expect(within(picker).getByRole('button', { name })).toBeTruthy();
    }
    fireEvent.click(within(picker).getByRole('button', { name: 'Poll' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(rowTitles()).toEqual(['1. Name', '2. Untitled question']);
    const title = screen.getByLabelText('Question title');
    expect(document.activeElement).toBe(title);
    fireEvent.change(title, { target: { value: 'Favourite colour?' } });
    expect(rowTitles()[1]).toBe('2. Favourite colour?');
    const poll = liveQuestions(last().questions)[1]!;
    expect(poll).toMatchObject({ type: 'poll', required: true, index: 1 });
    expect(liveOptions(poll).map((o) => o.value)).toEqual(['']);
    expect(screen.getByRole('heading', { name: 'Question 2: Poll' })).toBeTruthy();
  });

  it('shows the title counter and limits the title to 500 characters', () => {
    setup([question('Name', 0)]);
    const title = screen.getByLabelText('Question title');
    expect(title.getAttribute('maxlength')).toBe('500');
    expect(screen.getByText('4/500')).toBeTruthy();
  });

  it('reorders with Alt+Arrow keys, keeps focus on the row and announces it', () => {
    const { last } = setup([question('A', 0), question('B', 1), question('C', 2)]);
    const rowA = within(questionList()).getByRole('button', { name: /1\. A/ });
    rowA.focus();
    fireEvent.keyDown(rowA, { key: 'ArrowDown', altKey: true });
    expect(rowTitles()).toEqual(['1. B', '2. A', '3. C']);
    expect(liveQuestions(last().questions).map((q) => [q.title, q.index])).toEqual([
      ['B', 0],
      ['A', 1],
      ['C', 2],
    ]);
    expect((document.activeElement as HTMLElement).textContent).toContain('2. A');
    expect(screen.getByRole('status').textContent).toBe('A moved to position 2 of 3');
    // Plain arrows do nothing; Alt+Up at the top does nothing.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(rowTitles()).toEqual(['1. B', '2. A', '3. C']);
    const rowB = within(questionList()).getByRole('button', { name: /1\. B/ });
    fireEvent.keyDown(rowB, { key: 'ArrowUp', altKey: true });
    expect(rowTitles()).toEqual(['1. B', '2. A', '3. C']);
  });

  it('reorders with the Move up and Move down buttons of the selected question', () => {
    setup([question('A', 0), question('B', 1), question('C', 2)]);
    fireEvent.click(within(questionList()).getByRole('button', { name: /3\. C/ }));
    expect((screen.getByRole('button', { name: 'Move down' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Move up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move up' }));
    expect(rowTitles()).toEqual(['1. C', '2. A', '3. B']);
    expect((screen.getByRole('button', { name: 'Move up' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('reorders by drag and drop', () => {
    setup([question('A', 0), question('B', 1), question('C', 2)]);
    const rows = within(questionList()).getAllByRole('listitem');
    const dataTransfer = { setData: vi.fn(), effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(rows[0]!, { dataTransfer });
    fireEvent.dragOver(rows[2]!, { dataTransfer });
    fireEvent.drop(rows[2]!, { dataTransfer });
    expect(rowTitles()).toEqual(['1. B', '2. C', '3. A']);
  });

  it('soft-deletes a question after confirmation', () => {
    const { last } = setup([question('A', 0), question('B', 1)]);
    fireEvent.click(within(questionList()).getByRole('button', { name: /1\. A/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete question' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete this question?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(rowTitles()).toEqual(['1. A', '2. B']);
    fireEvent.click(screen.getByRole('button', { name: 'Delete question' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(rowTitles()).toEqual(['1. B']);
    expect(last().questions.find((q) => q.title === 'A')).toMatchObject({
      deleted: true,
      index: 9999,
    });
    expect(screen.getByRole('status').textContent).toBe('Question deleted');
  });
});

describe('FormEditor options', () => {
  it('Enter adds an option, Backspace on an empty one deletes it, except the first', () => {
    const { last } = setup([question('Pick', 0, 'poll')]);
    const first = screen.getByRole('textbox', { name: 'Option 1' });
    fireEvent.keyDown(first, { key: 'Enter' });
    const second = screen.getByRole('textbox', { name: 'Option 2' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second, { key: 'Backspace' });
    expect(screen.queryByRole('textbox', { name: 'Option 2' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Option 1' }));
    const poll = last().questions[0]!;
    expect(liveOptions(poll).map((o) => o.value)).toEqual(['Yes']);
    expect(poll.options.filter((o) => o.deleted)).toHaveLength(1);

    // The first option stays even when empty and others follow it.
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    const option1 = screen.getByRole('textbox', { name: 'Option 1' });
    fireEvent.change(option1, { target: { value: '' } });
    fireEvent.keyDown(option1, { key: 'Backspace' });
    expect(screen.getAllByRole('textbox', { name: /^Option/ })).toHaveLength(2);
  });

  it('Backspace in an option with text only edits it', () => {
    setup([question('Pick', 0, 'poll')]);
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    const second = screen.getByRole('textbox', { name: 'Option 2' });
    fireEvent.change(second, { target: { value: 'No' } });
    fireEvent.keyDown(second, { key: 'Backspace' });
    expect(screen.getByRole('textbox', { name: 'Option 2' })).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Delete option 1' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("a new ab question's options are the defaults of the block's language, not the dashboard's", async () => {
    const addAb = (picker: string) => {
      fireEvent.click(screen.getByRole('button', { name: picker }));
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'A/B' }));
    };
    const abValues = (draft: FormDraft) =>
      liveOptions(liveQuestions(draft.questions).find((q) => q.type === 'ab')!).map((o) => o.value);
    const en = setup([question('Name', 0)]);
    addAb('Add question');
    expect(abValues(en.last())).toEqual(['Good', 'Bad']);
    en.unmount();

    // an English dashboard editing a Korean block
    const ko = setup([question('Name', 0)], { language: 'ko' });
    addAb('Add question');
    expect(abValues(ko.last())).toEqual(['좋아요', '별로예요']);
    ko.unmount();

    // a Korean dashboard editing an English block
    await act(() => setLanguage('ko', false));
    const enInKo = setup([question('이름', 0)]);
    addAb('질문 추가');
    expect(abValues(enInKo.last())).toEqual(['Good', 'Bad']);
    enInKo.unmount();
  });

  it('an ab question keeps exactly two options', () => {
    setup([question('Which?', 0, 'ab')]);
    expect(screen.getByRole('textbox', { name: 'Option 1' })).toBeTruthy();
    const second = screen.getByRole('textbox', { name: 'Option 2' });
    fireEvent.change(second, { target: { value: '' } });
    fireEvent.keyDown(second, { key: 'Backspace' });
    fireEvent.keyDown(second, { key: 'Enter' });
    expect(screen.getAllByRole('textbox', { name: /^Option/ })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Add option' })).toBeNull();
  });
});

describe('FormEditor endings', () => {
  it('Add ending stays disabled until the new ending has a complete condition', () => {
    const { last } = setup([question('Name', 0), question('Pick', 1, 'poll')], { paid: true });
    fireEvent.click(screen.getByRole('button', { name: 'Add ending' }));
    const dialog = screen.getByRole('dialog', { name: 'Ending settings' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Title'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add condition' }));
    const addCondition = within(dialog).getByRole('button', {
      name: 'Add condition',
    }) as HTMLButtonElement;
    expect(addCondition.disabled).toBe(true);
    expect(within(dialog).getByText('Please complete the condition')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Question'), {
      target: { value: liveQuestions(last().questions)[1]!.id },
    });
    const value = within(dialog).getByLabelText('Value') as HTMLSelectElement;
    expect(Array.from(value.options).map((o) => o.textContent)).toEqual([
      'Choose an option',
      'Yes',
    ]);
    expect(addCondition.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect((screen.getByRole('button', { name: 'Add ending' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(
      screen.getByText("Complete the last ending's conditions before adding another."),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Edit ending' }));
    const again = screen.getByRole('dialog', { name: 'Ending settings' });
    fireEvent.change(within(again).getByLabelText('Value'), { target: { value: 'Yes' } });
    expect(within(again).queryByText('Please complete the condition')).toBeNull();
    expect(
      (within(again).getByRole('button', { name: 'Add condition' }) as HTMLButtonElement).disabled,
    ).toBe(false);
    fireEvent.keyDown(again, { key: 'Escape' });
    expect((screen.getByRole('button', { name: 'Add ending' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(last().endings[1]!.conditions[0]).toMatchObject({ type: 'equal', value: 'Yes' });
  });

  it("reads a condition's problem with its group and marks its value invalid", () => {
    const { last } = setup([question('Name', 0), question('Pick', 1, 'poll')], { paid: true });
    fireEvent.click(screen.getByRole('button', { name: 'Add ending' }));
    const dialog = screen.getByRole('dialog', { name: 'Ending settings' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add condition' }));
    const group = within(dialog).getByRole('group', { name: 'Condition 1' });
    const problem = within(group).getByText('Please complete the condition');
    expect(group.getAttribute('aria-describedby')).toBe(problem.id);
    expect(problem.id).not.toBe('');
    // the question and the type are not what is wrong: only the value is marked
    expect(within(group).getByLabelText('Question').getAttribute('aria-invalid')).toBeNull();
    expect(within(group).getByLabelText('Type').getAttribute('aria-invalid')).toBeNull();

    // a poll question: the value is one of its options, the stale one said so
    fireEvent.change(within(group).getByLabelText('Question'), {
      target: { value: liveQuestions(last().questions)[1]!.id },
    });
    const choice = within(group).getByLabelText('Value') as HTMLSelectElement;
    expect(choice.tagName).toBe('SELECT');
    expect(choice.getAttribute('aria-invalid')).toBe('true');
    expect(choice.value).toBe('');
    expect(
      Array.from(within(group).getByLabelText('Question').querySelectorAll('option')).map(
        (o) => o.textContent,
      ),
    ).toEqual(['Choose a question', '1. Name', '2. Pick']);

    // a text question: a text value, stopped at the schema's limit, with no counter in the row
    fireEvent.change(within(group).getByLabelText('Question'), {
      target: { value: liveQuestions(last().questions)[0]!.id },
    });
    const text = within(group).getByLabelText('Value') as HTMLInputElement;
    expect(text.tagName).toBe('INPUT');
    expect(text.maxLength).toBe(1000);
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(group.querySelector('.field-count')).toBeNull();
    fireEvent.change(text, { target: { value: 'Kim' } });
    expect(text.getAttribute('aria-invalid')).toBeNull();
    expect(group.getAttribute('aria-describedby')).toBeNull();
    expect(within(group).queryByText('Please complete the condition')).toBeNull();
    expect(last().endings[1]!.conditions[0]).toMatchObject({ type: 'equal', value: 'Kim' });

    // a type without a value has no value field
    fireEvent.change(within(group).getByLabelText('Type'), { target: { value: 'not_empty' } });
    expect(within(group).queryByLabelText('Value')).toBeNull();
    expect(group.getAttribute('aria-describedby')).toBeNull();
  });

  it('keeps a value that is no longer an option, chosen and named as such', () => {
    const draft = formDraft(question('Pick', 0, 'poll'));
    const empty = addCondition(newEnding());
    const ending = updateCondition(empty, empty.conditions[0]!.id, {
      question_id: liveQuestions(draft.questions)[0]!.id,
      value: 'Gone',
    });
    renderWithProviders(
      <Harness initial={{ ...draft, endings: [...draft.endings, { ...ending, title: 'Old' }] }} />,
    );
    const list = screen.getByRole('list', { name: 'Form view and endings' });
    fireEvent.click(within(list).getByRole('button', { name: /Old/ }));
    fireEvent.click(within(list).getByRole('button', { name: /Old/ }));
    const group = within(screen.getByRole('dialog')).getByRole('group', { name: 'Condition 1' });
    const value = within(group).getByLabelText('Value') as HTMLSelectElement;
    expect(value.value).toBe('Gone');
    expect(Array.from(value.options).map((o) => o.textContent)).toEqual([
      'Choose an option',
      'Yes',
      'Gone (no longer an option)',
    ]);
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(group.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('selects an ending for the preview and opens it when selected again', () => {
    const onSelectEnding = vi.fn();
    setup([question('Name', 0)], { onSelectEnding });
    const list = screen.getByRole('list', { name: 'Form view and endings' });
    fireEvent.click(within(list).getByRole('button', { name: /Default ending/ }));
    expect(onSelectEnding).toHaveBeenLastCalledWith(0);
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(within(list).getByRole('button', { name: /Default ending/ }));
    const dialog = screen.getByRole('dialog', { name: 'Default ending settings' });
    expect(within(dialog).queryByRole('button', { name: 'Add condition' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Delete ending' })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Closing text'), {
      target: { value: 'Thanks!' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    fireEvent.click(within(list).getByRole('button', { name: 'Questions' }));
    expect(onSelectEnding).toHaveBeenLastCalledWith(null);
  });

  it('reorders custom endings with Alt+Arrow keys and keeps the previewed one selected', () => {
    const onSelectEnding = vi.fn();
    const { last } = setup([question('Name', 0)], { paid: true, onSelectEnding });
    for (const title of ['First', 'Second']) {
      fireEvent.click(screen.getByRole('button', { name: 'Add ending' }));
      const dialog = screen.getByRole('dialog', { name: 'Ending settings' });
      fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: title } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add condition' }));
      fireEvent.change(within(dialog).getByLabelText('Question'), {
        target: { value: last().questions[0]!.id },
      });
      fireEvent.change(within(dialog).getByLabelText('Type'), { target: { value: 'not_empty' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    }
    // Closing the dialog focuses the new ending in the list (Add ending may be disabled).
    expect(document.activeElement?.textContent).toContain('Second');
    expect(onSelectEnding).toHaveBeenLastCalledWith(2);
    const list = screen.getByRole('list', { name: 'Form view and endings' });
    const names = () =>
      within(list)
        .getAllByRole('button')
        .map((b) => b.querySelector('.editor-list-title')?.textContent)
        .filter(Boolean);
    fireEvent.keyDown(within(list).getByRole('button', { name: /Second/ }), {
      key: 'ArrowUp',
      altKey: true,
    });
    expect(names()).toEqual(['Questions', 'Default ending', 'Second', 'First']);
    expect(onSelectEnding).toHaveBeenLastCalledWith(1);
    expect(screen.getByRole('status').textContent).toBe('Second moved to position 1 of 2');
    // The default ending stays first.
    fireEvent.keyDown(within(list).getByRole('button', { name: /Second/ }), {
      key: 'ArrowUp',
      altKey: true,
    });
    fireEvent.keyDown(within(list).getByRole('button', { name: /Default ending/ }), {
      key: 'ArrowDown',
      altKey: true,
    });
    expect(names()).toEqual(['Questions', 'Default ending', 'Second', 'First']);
    expect(last().endings.map((e) => e.index)).toEqual([0, 1, 2]);
  });

  it('refuses a bad open URL with the schema message', () => {
    setup([question('Name', 0)], { paid: true });
    fireEvent.click(screen.getByRole('button', { name: /Default ending/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit ending' }));
    const dialog = screen.getByRole('dialog');
    const url = within(dialog).getByRole('textbox', { name: 'Open URL' });
    fireEvent.change(url, { target: { value: 'not a link' } });
    expect(
      within(dialog).getByText(/^Enter the full address, starting with https:\/\//),
    ).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Button' }));
    expect(within(dialog).getByLabelText('Button text').getAttribute('maxlength')).toBe('99');
  });

  it('deletes a custom ending from its editor after confirmation', () => {
    const { last } = setup([question('Name', 0)], { paid: true });
    fireEvent.click(screen.getByRole('button', { name: 'Add ending' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete ending' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(last().endings).toHaveLength(1);
    expect(document.activeElement?.textContent).toBe('Questions');
  });
});

describe('FormEditor on the free plan', () => {
  it('shows paid features disabled with an upgrade hint to /profile/plan', () => {
    setup([question('Mail', 0, 'mail')], { paid: false });
    const addEnding = screen.getByRole('button', { name: 'Add ending' }) as HTMLButtonElement;
    expect(addEnding.disabled).toBe(true);
    expect(screen.getByText(/Custom endings are a paid plan feature/)).toBeTruthy();
    const capture = screen.getByRole('checkbox', {
      name: "Save as the respondent's email",
    }) as HTMLInputElement;
    expect(capture.disabled).toBe(true);
    const links = screen.getAllByRole('link', { name: 'Upgrade' });
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) expect(link.getAttribute('href')).toBe('/profile/plan');

    // The default ending stays editable; opening a link after submit is paid.
    fireEvent.click(screen.getByRole('button', { name: /Default ending/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit ending' }));
    const dialog = screen.getByRole('dialog', { name: 'Default ending settings' });
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).disabled).toBe(false);
    expect((within(dialog).getByLabelText('Open URL') as HTMLInputElement).disabled).toBe(true);
    expect(
      within(dialog).getByText(/Opening a link on submit is a paid plan feature/),
    ).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/profile/plan',
    );
  });

  it('allows 5 questions on the free plan', () => {
    setup(
      [0, 1, 2, 3].map((i) => question(`Q${i}`, i)),
      { paid: false },
    );
    const add = screen.getByRole('button', { name: 'Add question' }) as HTMLButtonElement;
    expect(add.disabled).toBe(false);
    fireEvent.click(add);
    fireEvent.click(screen.getByRole('button', { name: 'Number' }));
    expect(add.disabled).toBe(true);
    expect(screen.getByText('The free plan allows up to 5 questions.')).toBeTruthy();
  });

  it('lets a paid owner capture the email and add up to 20 questions', () => {
    const { last } = setup(
      Array.from({ length: 5 }, (_, i) => question(`Q${i}`, i, i === 0 ? 'mail' : 'short_text')),
      { paid: true },
    );
    fireEvent.click(screen.getByRole('checkbox', { name: "Save as the respondent's email" }));
    expect(last().questions[0]!.as_visitor_info).toBe('email');
    expect(
      (screen.getByRole('button', { name: 'Add question' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});

describe('FormEditor for an ab block', () => {
  it('edits only the ab question: title and two options', () => {
    setup([question('Cats or dogs?', 0, 'ab')], { blockType: 'ab' });
    expect(screen.getByRole('heading', { name: 'A/B question' })).toBeTruthy();
    expect((screen.getByLabelText('Question title') as HTMLInputElement).value).toBe(
      'Cats or dogs?',
    );
    expect(screen.getAllByRole('textbox', { name: /^Option/ })).toHaveLength(2);
    for (const name of ['Add question', 'Add ending', 'Delete question', 'Move up']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByLabelText('Submit button text')).toBeNull();
  });
});

describe('FormEditor in Korean', () => {
  it('renders the Korean texts', async () => {
    await act(() => setLanguage('ko', false));
    setup([question('이름', 0)], { paid: false });
    expect(screen.getByRole('button', { name: '질문 추가' })).toBeTruthy();
    expect(screen.getByLabelText('질문 제목')).toBeTruthy();
    expect(screen.getByRole('button', { name: '엔딩 추가' })).toBeTruthy();
    expect(screen.getByText(/맞춤 엔딩은 유료 플랜 기능입니다/)).toBeTruthy();
  });
});

// The form block's editor: questions through Add question and the type picker (one of them by
// keyboard only, reordered with Alt+ArrowUp), options, capture of the respondent's name and
// email (paid), the submit button text, a custom ending with a condition (paid), Save, and a
// reload that shows all of it.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, type Journey, waitForValue } from './support.ts';
import { expectModes, NAMES, openWorkspace, shadowText } from './workspace.ts';

/** What the visitor will answer and see; the questions after the keyboard reorder. */
export const FORM = {
  rows: ['1. Your name Short text', '2. Favourite colour Poll', '3. Email Mail'],
  titles: ['Your name', 'Favourite colour', 'Email'],
  submit: 'Send answers',
  ending: { title: 'Blue fans', closing: 'Thanks, blue fan!' },
};

async function questionRows(page: Page) {
  const rows = await page
    .getByRole('list', { name: 'Questions' })
    .getByRole('button')
    .allTextContents();
  return rows.map((row) => row.replace(/\s+/g, ' ').trim());
}

/** The accessible text of the focused element (its label, else its text); runs in the page. */
function focusedText() {
  const el = document.activeElement as HTMLElement | null;
  if (!el) return '';
  const labelledBy = el.getAttribute('aria-labelledby');
  const label =
    el.getAttribute('aria-label') ??
    (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
    (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null);
  return (label ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
}

async function focused(page: Page) {
  return page.evaluate(focusedText);
}

/** Waits until the focused element's text matches (focus moves in effects after a render). */
async function waitForFocus(page: Page, expected: RegExp) {
  const condition = `new RegExp(${JSON.stringify(expected.source)}).test((${focusedText.toString()})())`;
  await page
    .waitForFunction(condition, undefined, { timeout: 5000 })
    .catch(async () => assert.match(await focused(page), expected));
}

/** Presses `key` until the focused element's text starts with `target` (at most `max` times). */
async function tabTo(page: Page, key: 'Tab' | 'Shift+Tab', target: string, max = 12) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if ((await focused(page)).startsWith(target)) return;
  }
  assert.fail(`${key} never reached "${target}" (at "${await focused(page)}")`);
}

async function addQuestionWithMouse(page: Page, type: string, title: string) {
  await page.getByRole('button', { name: 'Add question' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose a question type' });
  await picker.getByRole('button', { name: type, exact: true }).click();
  await picker.waitFor({ state: 'detached' });
  // The new question is selected and its title field has focus.
  await waitForFocus(page, /^Question title$/);
  await page.getByLabel('Question title').fill(title);
}

export async function editForm(page: Page, journey: Journey, id: string) {
  await openWorkspace(page, journey, id);
  await expectModes(page, 'form', 'Edit');
  await page.getByRole('textbox', { name: 'Block name' }).fill(NAMES.form);

  // A poll with two options.
  await addQuestionWithMouse(page, 'Poll', 'Favourite colour');
  await page.getByLabel('Option 1', { exact: true }).fill('Red');
  await page.getByRole('button', { name: 'Add option' }).click();
  await page.getByLabel('Option 2', { exact: true }).fill('Blue');

  // An optional mail question that gives the respondent's email (paid).
  await addQuestionWithMouse(page, 'Mail', 'Email');
  await page.getByRole('checkbox', { name: 'Required' }).uncheck();
  await page.getByRole('checkbox', { name: "Save as the respondent's email" }).check();

  // By keyboard only: a required short text that gives the respondent's name, moved to the top.
  await page.getByRole('button', { name: 'Add question' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Choose a question type' }).waitFor();
  await waitForFocus(page, /^Poll$/); // the picker focuses its first type
  await tabTo(page, 'Tab', 'Short text');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Choose a question type' }).waitFor({ state: 'detached' });
  await waitForFocus(page, /^Question title$/); // the new question's title field
  await page.keyboard.type('Your name');
  await tabTo(page, 'Tab', 'Placeholder');
  await page.keyboard.type('First and last name');
  // New questions that visitors answer start required.
  await tabTo(page, 'Tab', 'Required');
  assert.equal(await page.getByRole('checkbox', { name: 'Required' }).isChecked(), true);
  await tabTo(page, 'Tab', "Save as the respondent's name");
  await page.keyboard.press('Space');
  assert.equal(
    await page.getByRole('checkbox', { name: "Save as the respondent's name" }).isChecked(),
    true,
  );
  assert.deepEqual(await questionRows(page), [
    '1. Favourite colour Poll',
    '2. Email Mail',
    '3. Your name Short text',
  ]);
  // Back to its row in the list, then Alt+ArrowUp twice; focus stays on the moved row.
  await tabTo(page, 'Shift+Tab', '3. Your name');
  await page.keyboard.press('Alt+ArrowUp');
  await page.getByText('Your name moved to position 2 of 3').waitFor();
  await waitForFocus(page, /^2\. Your name/);
  await page.keyboard.press('Alt+ArrowUp');
  await page.getByText('Your name moved to position 1 of 3').waitFor();
  await waitForFocus(page, /^1\. Your name/);
  assert.deepEqual(await questionRows(page), FORM.rows);

  await page.getByLabel('Submit button text').fill(FORM.submit);

  // A custom ending (paid) shown when the poll answer is Blue.
  await page.getByRole('button', { name: 'Add ending' }).click();
  const ending = page.getByRole('dialog', { name: 'Ending settings' });
  await ending.waitFor();
  await ending.getByLabel('Title', { exact: true }).fill(FORM.ending.title);
  await ending.getByRole('button', { name: 'Add condition' }).click();
  await ending
    .getByLabel('Question', { exact: true })
    .selectOption({ label: '2. Favourite colour' });
  assert.equal(await ending.getByLabel('Type', { exact: true }).inputValue(), 'equal');
  await ending.getByLabel('Value', { exact: true }).selectOption('Blue');
  await ending.getByLabel('Closing text').fill(FORM.ending.closing);
  await ending.getByRole('button', { name: 'Done' }).click();
  await ending.waitFor({ state: 'detached' });
  const endings = page.getByRole('list', { name: 'Form view and endings' });
  await endings.getByRole('button', { name: /Blue fans 1 condition/ }).waitFor();

  // The preview beside the editor shows the draft in the real element.
  await endings.getByRole('button', { name: 'Questions', exact: true }).click();
  await shadowText(page, '.workspace-preview-frame reaction-form', FORM.submit);
  await shadowText(page, '.workspace-preview-frame reaction-form', 'Favourite colour');

  // Save by keyboard.
  await page.getByRole('button', { name: 'Save', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Block link' }).waitFor();

  await page.reload();
  await waitForValue(page.getByRole('textbox', { name: 'Block name' }), NAMES.form);
  await page.getByRole('list', { name: 'Questions' }).waitFor();
  assert.deepEqual(await questionRows(page), FORM.rows);
  assert.equal(await page.getByLabel('Submit button text').inputValue(), FORM.submit);
  // The first question is selected: required, placeholder and name capture were saved.
  assert.equal(await page.getByLabel('Question title').inputValue(), 'Your name');
  assert.equal(await page.getByLabel('Placeholder').inputValue(), 'First and last name');
  assert.equal(await page.getByRole('checkbox', { name: 'Required' }).isChecked(), true);
  assert.equal(
    await page.getByRole('checkbox', { name: "Save as the respondent's name" }).isChecked(),
    true,
  );
  await page.getByRole('button', { name: '2. Favourite colour Poll' }).click();
  await waitForValue(page.getByLabel('Option 2', { exact: true }), 'Blue');
  await page.getByRole('button', { name: '3. Email Mail' }).click();
  assert.equal(await page.getByRole('checkbox', { name: 'Required' }).isChecked(), false);
  assert.equal(
    await page.getByRole('checkbox', { name: "Save as the respondent's email" }).isChecked(),
    true,
  );
  // The ending and its condition came back.
  const savedEnding = page
    .getByRole('list', { name: 'Form view and endings' })
    .getByRole('button', { name: /Blue fans 1 condition/ });
  await savedEnding.click();
  await page.getByRole('button', { name: 'Edit ending' }).click();
  const reopened = page.getByRole('dialog', { name: 'Ending settings' });
  await waitForValue(reopened.getByLabel('Closing text'), FORM.ending.closing);
  assert.equal(await reopened.getByLabel('Value', { exact: true }).inputValue(), 'Blue');
  await reopened.getByRole('button', { name: 'Done' }).click();
  await reopened.waitFor({ state: 'detached' });
  // Selecting the ending previews it in the form element.
  await shadowText(page, '.workspace-preview-frame reaction-form', FORM.ending.title);
  assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).count(), 0);

  await axe(page, 'workspace edit (form)');
}

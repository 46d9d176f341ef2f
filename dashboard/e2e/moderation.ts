// The owner moderates (issue 9): holds new messages through the Spam and abuse settings, sees a
// visitor's comment arrive live in the Comments mode marked Held, approves it, and the public view
// then shows it.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, type Journey } from './support.ts';
import { openWorkspace, save } from './workspace.ts';

async function asVisitor(journey: Journey, fn: string, body: Record<string, unknown>) {
  const headers = { apikey: journey.anonKey, 'content-type': 'application/json' };
  const signup = await fetch(`${journey.apiUrl}/auth/v1/signup`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  const { access_token: token } = (await signup.json()) as { access_token: string };
  const res = await fetch(`${journey.apiUrl}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

export async function moderateComments(page: Page, journey: Journey, blockId: string) {
  await openWorkspace(page, journey, blockId);
  await page.getByRole('button', { name: /Spam and abuse/ }).click();
  await page.getByLabel('Hold new messages for approval').selectOption('all');
  await save(page);

  await openWorkspace(page, journey, blockId, 'comments');
  await page.getByRole('heading', { name: /^Comments of / }).waitFor();
  await page.getByTestId('moderation-row').first().waitFor();
  // the view says when it is live (joined); what arrives from then on shows without a reload
  await page.getByText('Live: new messages appear as they arrive.').waitFor();
  await axe(page, 'comments mode');

  const content = `Please approve me ${Date.now()}`;
  const posted = await asVisitor(journey, 'post_message', {
    p_block_id: blockId,
    p_content: content,
    p_creator_name: 'Waiting Visitor',
    p_honeypot: '',
  });
  assert.equal(posted.status, 'held');
  // live: it appears without a reload, held, and is announced
  const row = page.getByTestId('moderation-row').filter({ hasText: content });
  await row.waitFor({ timeout: 10000 });
  await row.getByText('Held', { exact: true }).waitFor();
  await page.getByRole('status').filter({ hasText: '1 new message arrived.' }).waitFor();
  const hidden = await fetch(`${journey.apiUrl}/rest/v1/rpc/get_block_view`, {
    method: 'POST',
    headers: { apikey: journey.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ p_block_id: blockId }),
  });
  assert.ok(!(await hidden.text()).includes(content), 'a held comment is not public');

  await row.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
  await row.getByText('Held', { exact: true }).waitFor({ state: 'detached' });
  const shown = await fetch(`${journey.apiUrl}/rest/v1/rpc/get_block_view`, {
    method: 'POST',
    headers: { apikey: journey.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ p_block_id: blockId }),
  });
  assert.ok((await shown.text()).includes(content), 'the approved comment is public');

  // the filter shows what is waiting; nothing is now
  await page.getByRole('radio', { name: 'Held' }).check();
  await page.getByText('No messages here.').waitFor();
}

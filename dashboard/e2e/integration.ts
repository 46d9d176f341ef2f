// Notion, as an owner connects it: /profile/integration (Not granted), Connect opens the popup,
// the providers server's LOCAL authorise page, Allow access, /oauth/notion finishes and closes
// the popup, the page says Granted; the button block is linked to a data source in the
// workspace's Integration section and saved; a visitor's click reaches the Notion fake as a
// page (through the jobs queue, as in production); Remove unlinks and says Not granted. Axe on
// the integration page in both states and on the workspace with the section open.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, type Journey, until } from './support.ts';
import { openWorkspace, save } from './workspace.ts';

interface WorkspaceState {
  dataSources: Array<{ id: string; title: string }>;
  pages: Array<{ id: string; title: string; parent: { type: string; data_source_id?: string } }>;
}

async function notionState(journey: Journey, ownerId: string): Promise<WorkspaceState> {
  const { rows } = await journey.db.query<{ ws: string }>(
    `select t.token_data ->> 'workspace_id' as ws from public.integrations i
     join private.integration_tokens t on t.integration_id = i.id where i.user_id = $1`,
    [ownerId],
  );
  assert.ok(rows[0]?.ws, 'a connected workspace');
  const res = await fetch(
    `${journey.providersUrl}/notion/_control/state?workspace_id=${rows[0].ws}`,
  );
  return (await res.json()) as WorkspaceState;
}

/** A visitor's click on the button block, through the API as the SDK sends it. */
async function clickAsVisitor(journey: Journey, blockId: string) {
  const headers = { apikey: journey.anonKey, 'content-type': 'application/json' };
  const signup = await fetch(`${journey.apiUrl}/auth/v1/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ data: {} }),
  });
  const session = (await signup.json()) as { access_token: string };
  assert.ok(session.access_token, 'an anonymous visitor');
  const click = await fetch(`${journey.apiUrl}/rest/v1/rpc/record_button_click`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${session.access_token}` },
    body: JSON.stringify({ p_block_id: blockId, p_creator_name: 'Notion visitor' }),
  });
  assert.equal(click.status, 200, await click.text());
}

export async function notionIntegration(
  page: Page,
  journey: Journey,
  ownerId: string,
  buttonId: string,
) {
  await page.goto(`${journey.base}/profile/integration`);
  await page.getByRole('heading', { level: 1, name: 'Integration' }).waitFor();
  const card = page
    .locator('.integration-card')
    .filter({ has: page.getByRole('heading', { name: 'Notion' }) });
  await card.filter({ hasText: 'Not granted' }).waitFor();
  await axe(page, 'integration page (not connected)');

  // Connect: the popup opens on Notion's (local) authorise page
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Connect Notion' }).click(),
  ]);
  await popup
    .getByRole('heading', { name: 'Reaction Blocks would like to access a Notion workspace' })
    .waitFor();
  assert.match(
    (await popup.locator('.notice').textContent()) ?? '',
    /Local development authorisation/,
  );
  await popup.getByLabel('Name of a new workspace').fill('Journey workspace');
  const closed = popup.waitForEvent('close', { timeout: 20000 });
  await popup.getByRole('button', { name: 'Allow access' }).click();
  await popup.waitForURL(/\/oauth\/notion\?code=/).catch(() => {});
  await closed;
  await page
    .locator('.notice')
    .filter({ hasText: 'Notion is connected (Journey workspace).' })
    .waitFor();
  await card.filter({ hasText: 'Granted' }).waitFor();
  assert.match((await card.textContent()) ?? '', /Workspace: Journey workspace/);
  await axe(page, 'integration page (granted)');

  // Link the button block to the "Responses" data source in the workspace
  await openWorkspace(page, journey, buttonId);
  await page.getByRole('button', { name: 'Integration' }).click();
  const target = page.getByRole('combobox', { name: 'Notion database' });
  await target.locator('option', { hasText: 'Responses' }).waitFor({ state: 'attached' });
  await target.selectOption({ label: 'Responses' });
  await page.getByRole('combobox', { name: 'Title column' }).selectOption('creator');
  await page.getByText('Its columns:').waitFor();
  await axe(page, 'workspace Integration section');
  await save(page);
  const { rows } = await journey.db.query<{ db: string; title: string }>(
    'select notion_database as db, notion_database_title as title from public.block_private where block_id = $1',
    [buttonId],
  );
  const state = await notionState(journey, ownerId);
  const responses = state.dataSources.find((d) => d.title === 'Responses');
  assert.deepEqual(rows[0], { db: responses?.id, title: 'creator' });

  // A visitor's click becomes a page in Notion (the schedule runs the worker within seconds)
  await clickAsVisitor(journey, buttonId);
  await until('the click reached Notion', async () =>
    (await notionState(journey, ownerId)).pages.find(
      (p) => p.parent.data_source_id === responses!.id && p.title === 'Notion visitor',
    ),
  );

  // Remove: confirmation, unlinked, Not granted
  await page.goto(`${journey.base}/profile/integration`);
  await page.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove the Notion integration?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: 'Notion was removed. 1 block was unlinked.' })
    .waitFor();
  await card.filter({ hasText: 'Not granted' }).waitFor();
  const after = await journey.db.query<{ db: string | null }>(
    'select notion_database as db from public.block_private where block_id = $1',
    [buttonId],
  );
  assert.equal(after.rows[0]?.db, null);
}

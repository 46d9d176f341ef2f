// The letters and audience part of the dashboard journey on its own (letters.ts), against a
// throwaway stack: npm run e2e:letters -w @reaction-blocks/dashboard (after the builds).
import assert from 'node:assert/strict';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { lettersJourney } from './letters.ts';
import { step } from './support.ts';

const stack = await startThrowawayStack('letters-e2e');
const browser = await chromium.launch(chromiumLaunchOptions);
const db = new pg.Client({ connectionString: stack.dbUrl });
db.on('error', () => {});
await db.connect();
try {
  const errors: string[] = [];
  await step('letters and audience (en, ko)', () =>
    lettersJourney(
      {
        base: stack.webUrl.replace(/\/$/, ''),
        apiUrl: stack.apiUrl,
        anonKey: stack.anonKey,
        browser,
        db,
        providersUrl: stack.providersUrl,
      },
      errors,
    ),
  );
  assert.deepEqual(errors, []);
  console.log('letters e2e: ok');
} finally {
  await db.end().catch(() => {});
  await browser.close();
  await stack.stop();
}

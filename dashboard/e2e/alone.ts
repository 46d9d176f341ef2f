// One part of the dashboard journey on its own, against a throwaway stack of its own (after the
// builds): letters.e2e.ts, sign-in-return.e2e.ts.
import assert from 'node:assert/strict';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { startThrowawayStack } from '../../supabase/local/throwaway.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { type Journey, step } from './support.ts';

/** Runs `part` as the journey step `label`; no page error may be left. Logs `<name>: ok`. */
export async function runAlone(
  name: string,
  label: string,
  part: (journey: Journey, errors: string[]) => Promise<unknown>,
) {
  const stack = await startThrowawayStack(name);
  const browser = await chromium.launch(chromiumLaunchOptions);
  const db = new pg.Client({ connectionString: stack.dbUrl });
  db.on('error', () => {});
  await db.connect();
  try {
    const errors: string[] = [];
    await step(label, () =>
      part(
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
    console.log(`${name.replace(/-e2e$/, ' e2e')}: ok`);
  } finally {
    await db.end().catch(() => {});
    await browser.close();
    await stack.stop();
  }
}

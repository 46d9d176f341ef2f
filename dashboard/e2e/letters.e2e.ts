// The letters and audience part of the dashboard journey on its own (letters.ts), against a
// throwaway stack: npm run e2e:letters -w @reaction-blocks/dashboard (after the builds).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { DEFAULT_JWT_SECRET, freePorts } from '../../supabase/local/config.ts';
import { startStack } from '../../supabase/local/stack.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { lettersJourney } from './letters.ts';
import { step } from './support.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'rb-letters-e2e-'));
const stack = await startStack({
  ports: await freePorts(),
  dataDir,
  jwtSecret: DEFAULT_JWT_SECRET,
  // a throwaway database: speed over surviving a crash (docs/getting-started.md)
  durable: false,
  web: true,
});
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
  rmSync(dataDir, { recursive: true, force: true });
}

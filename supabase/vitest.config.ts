import { defineConfig } from 'vitest/config';
import { contracts } from '../scripts/contracts.mjs';

export default defineConfig({
  plugins: [contracts()],
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // one shared stack; files run in parallel against it with their own users
    pool: 'forks',
  },
});

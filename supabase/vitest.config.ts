import { defineConfig } from 'vitest/config';
import { contracts } from '../scripts/contracts.mjs';

export default defineConfig({
  plugins: [contracts()],
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    // a test process ends when vitest's own process is gone (tests/support/setup.ts)
    setupFiles: ['tests/support/setup.ts'],
    // deadlines that only bound a hang: on a busy machine (2 cores at load 20) a test that takes
    // a few seconds alone takes minutes; a wait for a state (scripts/poll.ts's eventually, 60 s
    // by default; expect.poll) answers as soon as the state holds
    testTimeout: 180_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 60_000 } },
    // one shared stack; files run in parallel against it with their own users
    pool: 'forks',
  },
});

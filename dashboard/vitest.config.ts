import { defineConfig } from 'vitest/config';
import { contracts } from '../scripts/contracts.mjs';

export default defineConfig({
  plugins: [contracts()],
  esbuild: { jsx: 'automatic' },
  define: {
    'process.env.SUPABASE_URL': JSON.stringify('http://127.0.0.1:54321'),
    'process.env.SUPABASE_ANON_KEY': JSON.stringify('test-anon-key'),
    'process.env.SDK_URL': JSON.stringify(''),
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'viewer/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // a hang bound, above testing-library's wait (src/test/setup.ts): vitest's default 5 s was
    // missed at load 22 by tests whose lazy route takes seconds to import there
    testTimeout: 120_000,
  },
});

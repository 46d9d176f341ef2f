import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { fileURLToPath } from 'node:url';

export default {
  rootDir: fileURLToPath(new URL('..', import.meta.url)),
  files: [fileURLToPath(new URL('./src/**/*.test.ts', import.meta.url))],
  nodeResolve: true,
  // One page at a time: test pages share one origin, so they would share localStorage.
  concurrency: 1,
  testFramework: { config: { timeout: 5000 } },
  testsFinishTimeout: 60000,
  plugins: [
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
    }),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        args: [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      },
    }),
  ],
};

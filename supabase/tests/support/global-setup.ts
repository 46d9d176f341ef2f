// Starts one throwaway stack for the integration tests: free ports, a temporary data directory,
// so tests never touch the developer's data and can run beside `npm start`.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { Stack } from '../../local/stack.ts';
import { startThrowawayStack, type ThrowawayStack } from '../../local/throwaway.ts';

/** What the tests get of the stack: where its parts answer and its keys (a Stack's fields). */
export type StackInfo = Pick<
  Stack,
  'apiUrl' | 'providersUrl' | 'dnsNameserver' | 'dbUrl' | 'anonKey' | 'serviceRoleKey' | 'jwtSecret'
>;

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

let stack: ThrowawayStack | undefined;
let file: WriteStream | undefined;

/**
 * Every line the stack's services print during the run, for reading after a failure
 * (.ci/run prints its error lines when the tests fail): a 500's cause is only in the function's log.
 */
export const STACK_LOG = join(dirname(fileURLToPath(import.meta.url)), '../../.tmp/test-stack.log');

export async function setup(project: TestProject) {
  const logs: string[] = [];
  mkdirSync(dirname(STACK_LOG), { recursive: true });
  file = createWriteStream(STACK_LOG);
  try {
    stack = await startThrowawayStack('test', {
      web: false,
      // every test file signs up its visitors and signs in its owners from this one address;
      // the tests of the limits (hostile-visitor.test.ts) run auth servers of their own with
      // the defaults
      auth: {
        rateLimitAnonymousUsers: 100_000,
        rateLimitOtp: 100_000,
        rateLimitVerify: 100_000,
        rateLimitTokenRefresh: 100_000,
        rateLimitEmailSent: 100_000,
      },
      log: (service, line) => {
        logs.push(`[${service}] ${line}`);
        file?.write(`[${service}] ${line}\n`);
        if (process.env.STACK_LOG === '1') console.log(`[${service}] ${line}`);
      },
    });
  } catch (err) {
    console.error(logs.slice(-50).join('\n'));
    throw err;
  }
  // The stack's SNS subscription retries an event for about 2.5 minutes (10 retries, up to 20 s
  // apart), as docs/architecture.md tells production to set its delivery policy, instead of SNS's
  // default 3 retries within 7 s: on a busy machine ses-events answered slower than SNS waits
  // and a Delivery event was given up (letter-triggers.test's delivered count stayed 0).
  const retry = await fetch(`${stack.providersUrl}/ses/_control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ retry: { numRetries: 10, minDelayMs: 1000, maxDelayMs: 20_000 } }),
  });
  if (!retry.ok) throw new Error(`the SES fake's retry policy: ${retry.status}`);
  project.provide('stack', {
    apiUrl: stack.apiUrl,
    providersUrl: stack.providersUrl,
    dnsNameserver: stack.dnsNameserver,
    dbUrl: stack.dbUrl,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    jwtSecret: stack.jwtSecret,
  });
}

export async function teardown() {
  await stack?.stop();
  // its last lines, the ones a failure is read for, written before the run's process ends
  await new Promise<void>((resolve) => (file ? file.end(resolve) : resolve()));
}

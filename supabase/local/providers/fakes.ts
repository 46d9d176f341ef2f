// Every fake the providers server mounts, one module each (see README.md: adding a fake).
import type { FakeFactory } from './fake.ts';
import { createDnsFake } from './dns/index.ts';
import { createSesFake } from './ses/index.ts';
import { createTurnstileFake } from './turnstile/index.ts';

export const FAKES: FakeFactory[] = [createSesFake, createDnsFake, createTurnstileFake];

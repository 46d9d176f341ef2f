// Every fake the providers server mounts, one module each (see README.md: adding a fake).
import type { FakeFactory } from './fake.ts';
import { createDnsFake } from './dns/index.ts';
import { createNotionFake } from './notion/index.ts';
import { createPayPalFake } from './paypal/index.ts';
import { createPortOneFake } from './portone/index.ts';
import { createSesFake } from './ses/index.ts';
import { createPagesFake } from './pages/index.ts';
import { createTurnstileFake } from './turnstile/index.ts';

export const FAKES: FakeFactory[] = [
  createSesFake,
  createDnsFake,
  createPortOneFake,
  createPayPalFake,
  createNotionFake,
  createPagesFake,
  createTurnstileFake,
];

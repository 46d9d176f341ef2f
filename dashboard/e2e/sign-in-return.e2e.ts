// The sign-in return part of the dashboard journey on its own (sign-in-return.ts), against a
// throwaway stack: npm run e2e:sign-in -w @reaction-blocks/dashboard (after the builds).
import { runAlone } from './alone.ts';
import { signInReturnSurvives } from './sign-in-return.ts';

await runAlone(
  'sign-in-e2e',
  'a provider return survives the page being left',
  signInReturnSurvives,
);

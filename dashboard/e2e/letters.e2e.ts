// The letters and audience part of the dashboard journey on its own (letters.ts), against a
// throwaway stack: npm run e2e:letters -w @reaction-blocks/dashboard (after the builds).
import { runAlone } from './alone.ts';
import { lettersJourney } from './letters.ts';

await runAlone('letters-e2e', 'letters and audience (en, ko)', lettersJourney);

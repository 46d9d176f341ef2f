export { ConsentGate } from './components/consent-gate';

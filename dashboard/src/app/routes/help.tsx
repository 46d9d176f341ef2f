// /help: a landing page in a chunk of its own, so the home page does not load it.
export { HelpPage } from '../../features/landing';

export { LetterWorkspacePage } from './components/letter-workspace';
export { registerLetterTranslations } from './locales';

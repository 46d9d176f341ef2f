export { AudiencePage } from './components/audience-page';
export { registerAudienceTranslations } from './locales';

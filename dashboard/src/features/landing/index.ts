export { LandingLayout } from './components/landing-layout';
export { HomePage } from './components/home-page';
export { ReactionPage } from './components/reaction-page';
export { SendPage } from './components/send-page';
export { ShowcasePage } from './components/showcase-page';
export { PricingPage } from './components/pricing-page';
export { HelpPage } from './components/help-page';
export { CookiePage, TermsPage } from './components/policy-pages';
export { registerLandingPageTranslations } from './locales/pages';

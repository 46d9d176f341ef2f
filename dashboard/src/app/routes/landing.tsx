export {
  LandingLayout,
  HomePage,
  ReactionPage,
  SendPage,
  ShowcasePage,
  PricingPage,
  HelpPage,
  TermsPage,
  CookiePage,
} from '../../features/landing';

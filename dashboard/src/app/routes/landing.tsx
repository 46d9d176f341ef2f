export {
  LandingLayout,
  HomePage,
  ReactionPage,
  SendPage,
  ShowcasePage,
  PricingPage,
  HelpPage,
} from '../../features/landing';

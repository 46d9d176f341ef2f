// The landing's layout (nav bar, footer) and home page; every other landing page is a route module
// of its own (reaction.tsx, send.tsx, ...), loaded only where it is shown.
export { LandingLayout, HomePage } from '../../features/landing';

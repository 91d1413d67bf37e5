/** The billing chunk's route pages (pages.tsx): pricing and join-team. */
export { PricingPage } from './PricingPage';
export { JoinTeamPage } from './JoinTeamPage';

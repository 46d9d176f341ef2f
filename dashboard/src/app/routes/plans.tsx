// The plan screens, one lazy chunk: /profile/plan, /purchase, /purchase/payment.
export { PlanPage as default, PurchasePage } from '../../features/plans';

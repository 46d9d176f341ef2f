export { PlanPage } from './components/plan-page';
export { PurchasePage } from './components/purchase-page';

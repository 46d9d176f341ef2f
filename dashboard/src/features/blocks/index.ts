export { BlockDashboard } from './components/block-dashboard';

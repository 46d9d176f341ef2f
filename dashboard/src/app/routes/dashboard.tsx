import { BlockDashboard } from '../../features/blocks';

export default BlockDashboard;

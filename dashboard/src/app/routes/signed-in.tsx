import { Outlet } from 'react-router-dom';
import { DashboardLayout } from '../../components/layouts/dashboard-layout';
import { ConsentGate } from '../../features/consent';

export default function SignedInLayout() {
  return (
    <DashboardLayout>
      <Outlet />
      <ConsentGate />
    </DashboardLayout>
  );
}

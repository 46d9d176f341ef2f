import { Outlet } from 'react-router-dom';
import { DashboardLayout } from '../../components/layouts/dashboard-layout';
import { ConsentGate } from '../../features/consent';
import { QueryProvider } from '../../lib/query-provider';

export default function SignedInLayout() {
  return (
    <QueryProvider>
      <DashboardLayout>
        <Outlet />
        <ConsentGate />
      </DashboardLayout>
    </QueryProvider>
  );
}

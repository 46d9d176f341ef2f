// /work/{blockId}[/{mode}]: the block workspace, a lazy chunk of its own. It has its own top bar
// (back, name, modes, actions) instead of the dashboard shell's, so it is not inside
// DashboardLayout; the consent gate still applies. Letter blocks have their own workspace
// (features/letters); /work/{id}/audience is the audience of the block (features/audience),
// inside the shell, once the block is known to be the owner's. Features are put together here: the block link dialog of the blocks feature
// is handed to the workspace.
import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router-dom';
import { z } from 'zod';
import { DashboardLayout } from '../../components/layouts/dashboard-layout';
import { PageLoading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { BlockLinkDialog } from '../../features/blocks/components/block-link-dialog';
import { ConsentGate } from '../../features/consent';
import { AudiencePage, registerAudienceTranslations } from '../../features/audience';
import { LetterWorkspacePage, registerLetterTranslations } from '../../features/letters';
import { registerWorkspaceTranslations, WorkspacePage } from '../../features/workspace';
import { isLetterType } from '../../lib/db-types';
import { useSession } from '../../lib/session';
import { queryRoots } from '../../lib/query-keys';
import { QueryProvider } from '../../lib/query-provider';
import { supabase } from '../../lib/supabase';

registerWorkspaceTranslations();
registerLetterTranslations();
registerAudienceTranslations();

/**
 * The block's type and name (the owner's blocks only); null when it is not theirs, or when the id
 * is not a uuid (not asked: PostgREST would answer 400, as the workspace's load does not ask).
 */
async function blockSummary(blockId: string, ownerId: string, signal: AbortSignal) {
  if (!z.uuid().safeParse(blockId).success) return null;
  const { data, error } = await supabase
    .from('blocks')
    .select('type, name')
    .eq('id', blockId)
    .eq('owner_id', ownerId)
    .abortSignal(signal)
    .maybeSingle();
  if (error) throw error;
  return data;
}

export default function WorkRoute() {
  return (
    <QueryProvider>
      <WorkScreen />
    </QueryProvider>
  );
}

function WorkScreen() {
  const { blockId = '', mode } = useParams();
  const { user } = useSession();
  const ownerId = user?.id ?? '';
  const summary = useQuery({
    queryKey: [...queryRoots.blocks, ownerId, blockId, 'summary'],
    queryFn: ({ signal }) => blockSummary(blockId, ownerId, signal),
    enabled: !!ownerId,
  });
  if (mode === 'audience') {
    // Another owner's block, the demo block, a malformed id or a failed read: where the workspace
    // goes when its load fails (spec), not the owner's own audience under an "Untitled" heading.
    if (summary.data === null || summary.isError) {
      return <Navigate to={paths.dashboardReaction} replace />;
    }
    if (!summary.data) return <PageLoading />;
    return (
      <DashboardLayout>
        <AudiencePage blockId={blockId} blockName={summary.data.name} />
        <ConsentGate />
      </DashboardLayout>
    );
  }
  if (summary.isPending && summary.fetchStatus !== 'idle') {
    return <PageLoading />;
  }
  return (
    <>
      {summary.data && isLetterType(summary.data.type) ? (
        <LetterWorkspacePage />
      ) : (
        <WorkspacePage
          renderBlockLink={(block, onClose) => <BlockLinkDialog block={block} onClose={onClose} />}
        />
      )}
      <ConsentGate />
    </>
  );
}

// /work/{blockId}[/{mode}]: the block workspace, a lazy chunk of its own. It has its own top bar
// (back, name, modes, actions) instead of the dashboard shell's, so it is not inside
// DashboardLayout; the consent gate still applies. The block link dialog of the blocks feature
// is handed to the workspace here, where features are put together.
import { BlockLinkDialog } from '../../features/blocks/components/block-link-dialog';
import { ConsentGate } from '../../features/consent';
import { registerWorkspaceTranslations, WorkspacePage } from '../../features/workspace';

registerWorkspaceTranslations();

export default function WorkRoute() {
  return (
    <>
      <WorkspacePage
        renderBlockLink={(block, onClose) => <BlockLinkDialog block={block} onClose={onClose} />}
      />
      <ConsentGate />
    </>
  );
}

// The block workspace (/work/{blockId}): settings, preview, form editor, results.
export { WorkspacePage, type WorkspacePageProps } from './components/workspace-page';
export { registerWorkspaceTranslations } from './locales';

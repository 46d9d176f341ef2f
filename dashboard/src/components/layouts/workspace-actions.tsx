// The right end of a workspace's top bar (the reaction workspace's and the letter workspace's):
// the save state line, then the mode's buttons (Save, Block link, Send letter, Export CSV). When
// a save takes the Save button away, keyboard focus stays in the bar (useFocusAfterSave).
import { useRef, type ReactNode } from 'react';
import { SaveState, useFocusAfterSave } from './workspace-header';

export interface WorkspaceActionsProps {
  saving: boolean;
  saved: boolean;
  dirty: boolean;
  /** The save state line when there is nothing about saving to say. */
  otherwise?: string;
  children: ReactNode;
}

export function WorkspaceActions({
  saving,
  saved,
  dirty,
  otherwise,
  children,
}: WorkspaceActionsProps) {
  const actions = useRef<HTMLDivElement>(null);
  useFocusAfterSave(dirty, actions);
  return (
    <div className="workspace-actions" ref={actions}>
      <SaveState saving={saving} saved={saved} dirty={dirty} otherwise={otherwise} />
      {children}
    </div>
  );
}

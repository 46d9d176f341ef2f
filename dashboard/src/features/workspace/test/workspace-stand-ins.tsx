// Stand-ins for the workspace page's tests (workspace-page.test.tsx, workspace-settings.test.tsx):
// the results area and the form editor are other parts with their own tests; here they show
// where they plug in and let the page's own behaviour be driven. The tests' vi.mock factories
// import this module.
import { vi } from 'vitest';
import type { FormEditorProps } from '../editor';

export const exportResultsCsv = vi.fn(async () => {});

export function ResultsStandIn({
  block,
  newSinceLastVisit,
}: {
  block: { name: string };
  newSinceLastVisit?: number;
}) {
  return (
    <p>
      results of {block.name}
      {newSinceLastVisit ? ` (${newSinceLastVisit} new)` : ''}
    </p>
  );
}

export function FormEditorStandIn({
  draft,
  onChange,
  onSelectEnding,
  selectedEnding,
}: FormEditorProps) {
  return (
    <div>
      <p>editor with {draft.questions.length} questions</p>
      <button
        type="button"
        onClick={() =>
          onChange({
            ...draft,
            questions: draft.questions.map((q) => ({ ...q, title: 'Renamed question' })),
          })
        }
      >
        rename question
      </button>
      <button type="button" onClick={() => onSelectEnding(selectedEnding === null ? 0 : null)}>
        toggle ending
      </button>
    </div>
  );
}

// The form and A/B editor of the workspace: the draft model, its load and save conversions,
// validation, and the editor component.
export { FormEditor, type FormEditorProps } from './form-editor';
export {
  formDraftFromView,
  formDraftToSave,
  type ConditionRow,
  type EndingRowWithConditions,
  type OptionRow,
  type QuestionRowWithOptions,
} from './draft';
export type { FormDraft } from './model';
export { formDraftIssues, type DraftIssue } from './validation';

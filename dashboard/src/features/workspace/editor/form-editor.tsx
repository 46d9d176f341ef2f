// The form and A/B editor of the workspace. A form block gets the question list (create, select,
// reorder, delete), the selected question's editor, the submit button text and the ending list
// with its modal. An ab block holds exactly the one ab question it was created with: the ab
// viewer shows that question's title and two options and submits on a click, so questions,
// submit text and endings would never be seen and are not offered.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { blockDefaults } from '@reaction-blocks/contracts/block-defaults';
import type { TLanguage } from '@reaction-blocks/contracts/enums';
import {
  BLOCK_LIMITS,
  type TQuestionDraft,
  type TQuestionType,
} from '@reaction-blocks/contracts/schemas';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PaidHint } from '../components/paid-hint';
import { EndingEditor } from './ending-editor';
import { EndingList } from './ending-list';
import { TextField } from './fields';
import {
  appendQuestion,
  createEnding,
  createQuestion,
  deleteEnding,
  endingAddBlocker,
  liveQuestions,
  moveEnding,
  moveQuestion,
  questionLimit,
  questionLimitReason,
  renameOption,
  softDeleteQuestion,
  updateEnding,
  updateQuestion,
  type EditorBlockType,
  type FormDraft,
} from './model';
import { QuestionEditor } from './question-editor';
import { QuestionList } from './question-list';
import { QuestionTypePicker } from './question-type-picker';
import { questionErrors } from './validation';

export interface FormEditorProps {
  blockType: EditorBlockType;
  /** The block's language: a new ab question's options are its defaults. */
  language: TLanguage;
  draft: FormDraft;
  onChange: (next: FormDraft) => void;
  /** The owner's plan: more than 5 questions, custom endings, capture and open link need it. */
  paid: boolean;
  submitButtonText: string | null;
  onSubmitButtonTextChange: (value: string) => void;
  /** null: the questions view; a number: that ending (index into draft.endings) is previewed. */
  selectedEnding: number | null;
  onSelectEnding: (index: number | null) => void;
}

type FocusTarget = 'title' | 'questions' | 'endings';

export function FormEditor({
  blockType,
  language,
  draft,
  onChange,
  paid,
  submitButtonText,
  onSubmitButtonTextChange,
  selectedEnding,
  onSelectEnding,
}: FormEditorProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const limitId = useId();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [deleteId, setDeleteId] = useState<string | null>(null);
  const [editingEndingId, setEditingEndingId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  /** Where focus goes once the change has rendered and any closing dialog gave focus back. */
  const focusTarget = useRef<FocusTarget | null>(null);
  const editorRef = useRef<HTMLDivElement>(null);
  const questionsRef = useRef<HTMLElement>(null);
  const endingsRef = useRef<HTMLDivElement>(null);

  const abOptions = blockDefaults(language).abOptions;
  const live = liveQuestions(draft.questions);
  const isForm = blockType === 'form';
  const selected = isForm
    ? (live.find((q) => q.id === selectedId) ?? live[0])
    : (live.find((q) => q.type === 'ab') ?? live[0]);
  const position = selected ? live.indexOf(selected) : -1;

  // After every render: a closing dialog's clean-up has given focus to its opener by then.
  useEffect(() => {
    const wanted = focusTarget.current;
    if (!wanted) return;
    focusTarget.current = null;
    const root =
      wanted === 'title'
        ? editorRef.current
        : wanted === 'questions'
          ? questionsRef.current
          : endingsRef.current;
    const target =
      wanted === 'title'
        ? root?.querySelector<HTMLElement>('input, textarea')
        : (root?.querySelector<HTMLElement>('[aria-current="true"]') ??
          root?.querySelector<HTMLElement>('button:not([disabled])'));
    target?.focus();
  });

  const patchSelected = (patch: Parameters<typeof updateQuestion>[2]) => {
    if (selected) onChange(updateQuestion(draft, selected.id, patch));
  };

  const replaceSelected = (question: TQuestionDraft) =>
    onChange({
      ...draft,
      questions: draft.questions.map((q) => (q.id === question.id ? question : q)),
    });

  const addQuestion = (type: TQuestionType) => {
    setPickerOpen(false);
    if (questionLimitReason(draft, paid)) return;
    const question = createQuestion(type, abOptions);
    onChange(appendQuestion(draft, question));
    setSelectedId(question.id);
    if (selectedEnding !== null) onSelectEnding(null);
    focusTarget.current = 'title';
  };

  const move = (from: number, to: number) => {
    const moved = live[from];
    if (!moved || to < 0 || to >= live.length || from === to) return;
    onChange(moveQuestion(draft, from, to));
    setAnnouncement(
      t('editor.moved', {
        title: moved.title.trim() || t('editor.untitledQuestion'),
        position: to + 1,
        count: live.length,
      }),
    );
  };

  const confirmDelete = () => {
    const id = deleteId;
    setDeleteId(null);
    if (!id) return;
    const at = live.findIndex((q) => q.id === id);
    const neighbour = live[at + 1] ?? live[at - 1];
    onChange(softDeleteQuestion(draft, id));
    setSelectedId(neighbour?.id ?? null);
    setAnnouncement(t('editor.question.deleted'));
    focusTarget.current = 'questions';
  };

  const endingIndexOf = (id: string | null) =>
    id === null ? -1 : draft.endings.findIndex((e) => e.id === id);

  /** Keeps the previewed ending selected when the list is reordered. */
  const moveEndingAndFollow = (from: number, to: number) => {
    const next = moveEnding(draft, from, to);
    if (next === draft) return;
    onChange(next);
    const selectedEndingId = selectedEnding === null ? null : draft.endings[selectedEnding]?.id;
    if (selectedEndingId) {
      const index = next.endings.findIndex((e) => e.id === selectedEndingId);
      if (index !== selectedEnding) onSelectEnding(index);
    }
    const moved = next.endings[to];
    const firstCustom = next.endings[0]?.is_default ? 1 : 0;
    if (moved) {
      setAnnouncement(
        t('editor.moved', {
          title: moved.title.trim() || t('editor.endings.untitled'),
          position: to - firstCustom + 1,
          count: next.endings.length - firstCustom,
        }),
      );
    }
  };

  const addEnding = () => {
    const result = createEnding(draft, paid);
    if (result.index === null) return;
    onChange(result.draft);
    onSelectEnding(result.index);
    setEditingEndingId(result.draft.endings[result.index]!.id);
  };

  const editingIndex = endingIndexOf(editingEndingId);
  const editingEnding = editingIndex >= 0 ? draft.endings[editingIndex]! : null;
  const limitReason = questionLimitReason(draft, paid);
  const overLimit = live.length > questionLimit(paid);
  const deleting = live.find((q) => q.id === deleteId);
  const deletingUsedInConditions =
    deleting !== undefined &&
    draft.endings.some((e) => e.conditions.some((c) => c.question_id === deleting.id));

  const questionEditor = selected ? (
    <div ref={editorRef}>
      <QuestionEditor
        blockType={blockType}
        question={selected}
        position={position}
        count={live.length}
        paid={paid}
        errors={questionErrors(selected)}
        onPatch={patchSelected}
        onOptionsChange={replaceSelected}
        onRenameOption={(optionId, value) =>
          onChange(renameOption(draft, selected.id, optionId, value))
        }
        onMove={(to) => move(position, to)}
        onDelete={() => setDeleteId(selected.id)}
      />
    </div>
  ) : null;

  if (!isForm) {
    return (
      <div className="form-editor" role="region" aria-label={t('editor.label')}>
        {questionEditor ?? (
          <button type="button" className="button" onClick={() => addQuestion('ab')}>
            {t('editor.addQuestion')}
          </button>
        )}
      </div>
    );
  }

  return (
    <div className="form-editor" role="region" aria-label={t('editor.label')}>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      <section className="editor-questions" aria-labelledby={headingId} ref={questionsRef}>
        <div className="editor-section-head">
          <h3 id={headingId}>{t('editor.questions')}</h3>
          <span className="hint">
            {t('editor.questionCount', { count: live.length, limit: questionLimit(paid) })}
          </span>
        </div>
        <QuestionList
          questions={live}
          selectedId={selected?.id ?? null}
          onSelect={(id) => {
            setSelectedId(id);
            if (selectedEnding !== null) onSelectEnding(null);
          }}
          onMove={move}
        />
        <button
          type="button"
          className="button button-primary"
          disabled={limitReason !== null}
          aria-describedby={limitReason ? limitId : undefined}
          onClick={() => setPickerOpen(true)}
        >
          {t('editor.addQuestion')}
        </button>
        {overLimit ? (
          <p className="error-text">
            {t('editor.errors.tooManyQuestions', { count: questionLimit(paid) })}
          </p>
        ) : null}
        {limitReason === 'free' ? (
          <PaidHint
            id={limitId}
            text={t('editor.limitFree', { count: BLOCK_LIMITS.questionCountFree })}
          />
        ) : limitReason === 'max' ? (
          <p id={limitId} className="hint">
            {t('editor.limitMax', { count: BLOCK_LIMITS.questionCountMax })}
          </p>
        ) : null}
      </section>

      {questionEditor}

      <TextField
        label={t('editor.submitButtonText')}
        value={submitButtonText ?? ''}
        max={BLOCK_LIMITS.submitButtonText}
        placeholder={t('editor.submitDefault')}
        onChange={onSubmitButtonTextChange}
      />

      <div ref={endingsRef}>
        <EndingList
          endings={draft.endings}
          questions={draft.questions}
          selected={
            selectedEnding !== null && draft.endings[selectedEnding] ? selectedEnding : null
          }
          onSelect={onSelectEnding}
          onEdit={(index) => setEditingEndingId(draft.endings[index]?.id ?? null)}
          onMove={moveEndingAndFollow}
          onAdd={addEnding}
          addBlocker={endingAddBlocker(draft, paid)}
        />
      </div>

      <QuestionTypePicker
        open={pickerOpen}
        onPick={addQuestion}
        onClose={() => setPickerOpen(false)}
      />

      <ConfirmDialog
        open={deleting !== undefined}
        title={t('editor.question.deleteTitle')}
        confirmLabel={t('editor.question.deleteConfirm')}
        onCancel={() => setDeleteId(null)}
        onConfirm={confirmDelete}
      >
        <p>{t('editor.question.deleteText')}</p>
        {deletingUsedInConditions ? <p>{t('editor.question.deleteConditions')}</p> : null}
      </ConfirmDialog>

      <EndingEditor
        ending={editingEnding}
        index={editingIndex}
        count={draft.endings.length}
        hasDefault={draft.endings[0]?.is_default === true}
        questions={draft.questions}
        paid={paid}
        onChange={(patch) => onChange(updateEnding(draft, editingIndex, patch))}
        onMove={(to) => moveEndingAndFollow(editingIndex, to)}
        onDelete={() => {
          onChange(deleteEnding(draft, editingIndex));
          setEditingEndingId(null);
          onSelectEnding(null);
          focusTarget.current = 'endings';
        }}
        onClose={() => {
          setEditingEndingId(null);
          // The opener may be Add ending, now disabled until the new ending is complete.
          focusTarget.current = 'endings';
        }}
      />
    </div>
  );
}

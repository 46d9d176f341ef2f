// The editor of the selected question: title, the fields of its type, options, settings, and
// (in a form) move and delete.
import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BLOCK_LIMITS,
  type TQuestionDraft,
  type TQuestionType,
} from '@reaction-blocks/contracts/schemas';
import { CheckboxField } from '../../../components/ui/fields';
import { Spinner } from '../../../components/ui/spinner';
import { PaidHint } from '../components/paid-hint';
import { translateMessage } from '../model/messages';
import { OptionalUrlField, TextField } from './fields';
import {
  DISPLAY_ONLY_TYPES,
  OPTION_TYPES,
  visitorInfoFor,
  type EditorBlockType,
  type QuestionPatch,
} from './model';
import { MoveButtons } from './move-buttons';
import { OptionsEditor } from './options-editor';
import { TriggerLetterField } from './trigger-letter-field';
import type { QuestionField } from './validation';
import { DangerButton } from '../../../components/ui/danger-button';

// Its own chunk: only description questions need it (about 7 KB gzip).
const RichTextEditor = lazy(() =>
  import('./rich-text/rich-text-editor').then((m) => ({ default: m.RichTextEditor })),
);

const PLACEHOLDER_TYPES: readonly TQuestionType[] = [
  'short_text',
  'long_text',
  'number',
  'phone',
  'mail',
];

export interface QuestionEditorProps {
  blockType: EditorBlockType;
  question: TQuestionDraft;
  /** 0-based position in the list and the number of live questions. */
  position: number;
  count: number;
  paid: boolean;
  errors: Partial<Record<QuestionField, string>>;
  onPatch: (patch: QuestionPatch) => void;
  onOptionsChange: (question: TQuestionDraft) => void;
  onRenameOption: (optionId: string, value: string) => void;
  onMove: (to: number) => void;
  onDelete: () => void;
}

export function QuestionEditor({
  blockType,
  question,
  position,
  count,
  paid,
  errors,
  onPatch,
  onOptionsChange,
  onRenameOption,
  onMove,
  onDelete,
}: QuestionEditorProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const paidHintId = useId();
  const type = question.type;
  const typeName = t(`editor.types.${type}`);
  const error = (field: QuestionField) =>
    errors[field] ? translateMessage(t, errors[field]) : undefined;
  const capture = visitorInfoFor(type);
  const inForm = blockType === 'form';

  return (
    <section className="question-editor" aria-labelledby={headingId}>
      <div className="question-editor-head">
        <h3 id={headingId}>
          {inForm
            ? t('editor.question.heading', { position: position + 1, type: typeName })
            : t('editor.question.abTitle')}
        </h3>
        {inForm ? (
          <div className="question-editor-tools">
            <MoveButtons index={position} first={0} last={count - 1} onMove={onMove} />
            <DangerButton onClick={onDelete}>{t('editor.question.delete')}</DangerButton>
          </div>
        ) : null}
      </div>

      <TextField
        label={t('editor.question.title')}
        value={question.title}
        max={BLOCK_LIMITS.questionTitle}
        error={error('title')}
        hint={type === 'image' ? t('editor.question.imageTitleHint') : undefined}
        onChange={(title) => onPatch({ title })}
      />

      {type === 'description' ? (
        <Suspense fallback={<Spinner />}>
          {/* keyed by question: each description has its own undo history and caret */}
          <RichTextEditor
            key={question.id}
            label={t('editor.question.content')}
            value={question.content ?? ''}
            hint={t('editor.question.contentHint')}
            error={error('content')}
            onChange={(content) => onPatch({ content })}
          />
        </Suspense>
      ) : null}

      {type === 'image' ? (
        <OptionalUrlField
          label={t('editor.question.imageUrl')}
          value={question.image_src}
          error={error('image_src')}
          onChange={(image_src) => onPatch({ image_src })}
        />
      ) : null}

      {PLACEHOLDER_TYPES.includes(type) ? (
        <TextField
          label={t('editor.question.placeholder')}
          value={question.placeholder ?? ''}
          max={BLOCK_LIMITS.placeholder}
          error={error('placeholder')}
          onChange={(value) => onPatch({ placeholder: value === '' ? null : value })}
        />
      ) : null}

      {OPTION_TYPES.includes(type) ? (
        <OptionsEditor question={question} onChange={onOptionsChange} onRename={onRenameOption} />
      ) : null}

      {inForm && !DISPLAY_ONLY_TYPES.includes(type) ? (
        <CheckboxField
          label={t('editor.question.required')}
          checked={question.required}
          onChange={(required) => onPatch({ required })}
        />
      ) : null}

      {type === 'poll' ? (
        <CheckboxField
          label={t('editor.question.multiSelect')}
          checked={question.allow_multi_select}
          onChange={(allow_multi_select) => onPatch({ allow_multi_select })}
        />
      ) : null}

      {capture ? (
        <>
          <CheckboxField
            label={
              capture === 'email'
                ? t('editor.question.captureEmail')
                : t('editor.question.captureName')
            }
            checked={question.as_visitor_info === capture}
            disabled={!paid}
            describedBy={paid ? undefined : paidHintId}
            onChange={(on) => onPatch({ as_visitor_info: on ? capture : null })}
          />
          {!paid ? <PaidHint id={paidHintId} text={t('editor.paidFeature')} /> : null}
        </>
      ) : null}

      {inForm && type === 'mail' ? (
        <TriggerLetterField
          value={question.trigger_letter_block}
          paid={paid}
          onChange={(trigger_letter_block) => onPatch({ trigger_letter_block })}
        />
      ) : null}
    </section>
  );
}

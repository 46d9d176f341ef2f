// Rows as the workspace reads them, and the editor's draft of them, for the workspace's tests.
// Questions, options and endings get their own ids, so a test can make as many as it needs.
import type { ReactionType } from '../../../lib/db-types';
import type {
  WorkspaceBlockRow,
  WorkspaceData,
  WorkspaceEndingRow,
  WorkspaceOptionRow,
  WorkspaceQuestionRow,
} from '../api/types';
import { formDraftFromView } from '../editor/draft';
import { createQuestion, newEnding, type FormDraft } from '../editor/model';

export const BLOCK_ID = '11111111-1111-4111-8111-111111111111';
const CREATED_AT = '2026-01-01T00:00:00Z';
const uuid = () => crypto.randomUUID();

export function blockRow(
  type: ReactionType,
  overrides: Partial<WorkspaceBlockRow> = {},
): WorkspaceBlockRow {
  return {
    id: BLOCK_ID,
    owner_id: 'user-1',
    type,
    name: 'My block',
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    response_count: 0,
    new_response_count: 0,
    like_count: 0,
    tags: [],
    deactivated: false,
    theme: 'light',
    custom_color: null,
    custom_label_color: null,
    custom_label_name: { admin: 'Admin', me: 'Me' },
    embeded_url: null,
    welcome_message: null,
    placeholder: null,
    submit_button_text: null,
    language: 'en',
    block_anonymous: false,
    allow_reaction: true,
    allow_reply: true,
    admin_only_reply: false,
    show_count: false,
    show_profile: false,
    owner_name: 'Owner',
    owner_photo_url: null,
    qna_subject: null,
    align: 'center',
    button_text: null,
    url_to_open: null,
    open_graph: null,
    allow_creator_email: false,
    mode: null,
    ending_mode: null,
    hold_messages: 'off',
    honeypot: false,
    captcha: false,
    rate_limits: null,
    ...overrides,
  };
}

/** A custom ending as the database creates it (no title, no text, no conditions). */
export function endingRow(overrides: Partial<WorkspaceEndingRow> = {}): WorkspaceEndingRow {
  // the editor's new ending has the database's defaults
  return {
    ...newEnding(),
    id: uuid(),
    block_id: BLOCK_ID,
    created_at: CREATED_AT,
    conditions: [],
    ...overrides,
  };
}

/** The ending every form has: shown when no custom ending matches. */
export function defaultEndingRow(overrides: Partial<WorkspaceEndingRow> = {}): WorkspaceEndingRow {
  return endingRow({ is_default: true, closing_text: 'Thank you', ...overrides });
}

/** An option of a poll or ab question; questionRow sets its question_id. */
export function optionRow(
  value: string,
  index: number,
  overrides: Partial<WorkspaceOptionRow> = {},
): WorkspaceOptionRow {
  return {
    id: uuid(),
    block_id: BLOCK_ID,
    question_id: '',
    value,
    index,
    deleted: false,
    response_count: 0,
    created_at: CREATED_AT,
    ...overrides,
  };
}

export function questionRow(overrides: Partial<WorkspaceQuestionRow> = {}): WorkspaceQuestionRow {
  // the editor's new short-text question has the database's defaults
  const row: WorkspaceQuestionRow = {
    ...createQuestion('short_text'),
    id: uuid(),
    block_id: BLOCK_ID,
    title: 'Your name?',
    created_at: CREATED_AT,
    options: [],
    ...overrides,
  };
  return { ...row, options: row.options.map((o) => ({ ...o, question_id: row.id })) };
}

/** The editor's draft of a form with these questions and only the default ending. */
export function formDraft(...questions: WorkspaceQuestionRow[]): FormDraft {
  return formDraftFromView(questions, [defaultEndingRow()]);
}

export function workspaceData(
  type: ReactionType,
  overrides: Partial<WorkspaceBlockRow> = {},
): WorkspaceData {
  const form = type === 'form' || type === 'ab';
  return {
    block: blockRow(type, overrides),
    private: {
      block_id: BLOCK_ID,
      owner_id: 'user-1',
      mail_to: null,
      notion_database: null,
      notion_page: null,
      notion_database_title: 'response_id',
      mail_from: null,
      mail_name: null,
      mail_html: null,
      template_mode: 'default',
      brunch_profile_page: null,
      publish_mode: null,
      mail_title: null,
      mail_text: null,
      page_url: null,
      letter: null,
      updated_at: CREATED_AT,
    },
    questions: form ? [questionRow()] : [],
    endings: form ? [defaultEndingRow()] : [],
  };
}

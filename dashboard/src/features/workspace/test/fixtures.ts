// Rows as the workspace reads them, for the component tests.
import type { ReactionType } from '../../../lib/db-types';
import type {
  WorkspaceBlockRow,
  WorkspaceData,
  WorkspaceEndingRow,
  WorkspaceQuestionRow,
} from '../api/types';

export const BLOCK_ID = '11111111-1111-4111-8111-111111111111';

export function blockRow(
  type: ReactionType,
  overrides: Partial<WorkspaceBlockRow> = {},
): WorkspaceBlockRow {
  return {
    id: BLOCK_ID,
    owner_id: 'user-1',
    type,
    name: 'My block',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
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
    ...overrides,
  };
}

export function defaultEndingRow(): WorkspaceEndingRow {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    block_id: BLOCK_ID,
    is_default: true,
    index: 0,
    title: '',
    closing_text: 'Thank you',
    open_url: null,
    open_link_type: 'submit',
    open_url_text: null,
    resubmit_text: null,
    block_submit_another: false,
    created_at: '2026-01-01T00:00:00Z',
    conditions: [],
  };
}

export function questionRow(overrides: Partial<WorkspaceQuestionRow> = {}): WorkspaceQuestionRow {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    block_id: BLOCK_ID,
    type: 'short_text',
    title: 'Your name?',
    required: true,
    index: 0,
    placeholder: null,
    allow_multi_select: false,
    as_visitor_info: null,
    trigger_letter_block: null,
    content: null,
    image_src: null,
    deleted: false,
    created_at: '2026-01-01T00:00:00Z',
    options: [],
    ...overrides,
  };
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
      updated_at: '2026-01-01T00:00:00Z',
    },
    questions: form ? [questionRow()] : [],
    endings: form ? [defaultEndingRow()] : [],
  };
}

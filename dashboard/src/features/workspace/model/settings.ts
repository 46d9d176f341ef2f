// The settings draft: the block's settings columns and its private settings as the owner edits
// them, what changed since the last save, and the field problems (with the shared schema, so the
// messages are the server's).
import {
  HOLD_MESSAGES,
  ZBlockPrivateSettings,
  ZBlockSettings,
  type TBlockPrivateSettings,
  type TBlockSettings,
} from '@reaction-blocks/contracts/schemas';
import type { ReactionType } from '../../../lib/db-types';
import type { WorkspaceBlockRow, WorkspacePrivateRow } from '../api/types';

export type SettingsDraft = Required<TBlockSettings>;
export type SettingKey = keyof SettingsDraft;
export type PrivateDraft = Required<TBlockPrivateSettings>;
export type PrivateKey = keyof PrivateDraft;

export type CustomColors = NonNullable<SettingsDraft['custom_color']>;
export type CustomLabelColors = NonNullable<SettingsDraft['custom_label_color']>;
export type OpenGraph = NonNullable<SettingsDraft['open_graph']>;

/** Every setting the workspace edits, in the order of ZBlockSettings. */
export const SETTING_KEYS = Object.keys(ZBlockSettings.shape) as SettingKey[];
export const PRIVATE_KEYS = Object.keys(ZBlockPrivateSettings.shape) as PrivateKey[];

/** Spec defaults of the custom theme colours (section 9); button blocks use a white secondary. */
export function defaultCustomColors(type: ReactionType): Required<CustomColors> {
  return {
    '--PRIMARY': '#4C4C4C',
    '--SECONDARY': type === 'button' ? '#FFFFFF' : '#E4E4E4',
    '--TERTIARY': '#FFFFFF',
    '--BACKGROUND': '#FFFFFF',
  };
}

const asObject = <T>(value: unknown): T | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as T) : null;

export function settingsFromBlock(block: WorkspaceBlockRow): SettingsDraft {
  const labels = asObject<{ admin?: string; me?: string }>(block.custom_label_name);
  return {
    name: block.name,
    theme: block.theme,
    custom_color: asObject<CustomColors>(block.custom_color),
    custom_label_color: asObject<CustomLabelColors>(block.custom_label_color),
    custom_label_name: { admin: labels?.admin ?? 'Admin', me: labels?.me ?? 'Me' },
    embeded_url: block.embeded_url,
    welcome_message: block.welcome_message,
    placeholder: block.placeholder,
    submit_button_text: block.submit_button_text,
    language: block.language,
    block_anonymous: block.block_anonymous,
    allow_reaction: block.allow_reaction,
    allow_reply: block.allow_reply,
    admin_only_reply: block.admin_only_reply,
    show_count: block.show_count,
    show_profile: block.show_profile,
    owner_name: block.owner_name,
    owner_photo_url: block.owner_photo_url,
    qna_subject: block.qna_subject,
    align: block.align,
    button_text: block.button_text,
    url_to_open: block.url_to_open,
    open_graph: asObject<OpenGraph>(block.open_graph),
    allow_creator_email: block.allow_creator_email,
    hold_messages: (HOLD_MESSAGES as readonly string[]).includes(block.hold_messages)
      ? (block.hold_messages as SettingsDraft['hold_messages'])
      : 'off',
    honeypot: block.honeypot,
    captcha: block.captcha,
  };
}

export function privateFromRow(row: WorkspacePrivateRow | null): PrivateDraft {
  return {
    mail_to: row?.mail_to ?? null,
    notion_database: row?.notion_database ?? null,
    notion_page: row?.notion_page ?? null,
    notion_database_title:
      (row?.notion_database_title as PrivateDraft['notion_database_title'] | undefined) ??
      'response_id',
  };
}

/** JSON with sorted keys, so {a, b} and {b, a} compare equal. */
function stable(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

/** The keys whose value differs from the saved one: only these are sent. */
export function changedFields<T extends object>(saved: T, draft: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(draft) as (keyof T)[]) {
    if (!sameValue(saved[key], draft[key])) out[key] = draft[key];
  }
  return out;
}

/** Field problems by path ("name", "open_graph.title", "custom_color.--PRIMARY"). */
export type FieldErrors = Record<string, string>;

function issuesByPath(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

/** Problems of the changed settings (values kept from earlier saves are not re-judged). */
export function settingsErrors(changed: Partial<SettingsDraft>): FieldErrors {
  const parsed = ZBlockSettings.safeParse(changed);
  return parsed.success ? {} : issuesByPath(parsed.error.issues);
}

export function privateErrors(changed: Partial<PrivateDraft>): FieldErrors {
  const parsed = ZBlockPrivateSettings.safeParse(changed);
  return parsed.success ? {} : issuesByPath(parsed.error.issues);
}

/** An empty text is no value: nullable text settings store null rather than ''. */
export function textOrNull(value: string): string | null {
  return value === '' ? null : value;
}

/** Open Graph with every field empty is no override. */
export function normalizeOpenGraph(value: OpenGraph | null): OpenGraph | null {
  if (!value) return null;
  const kept = Object.fromEntries(
    Object.entries(value).filter(([, v]) => typeof v === 'string' && v !== ''),
  ) as OpenGraph;
  return Object.keys(kept).length > 0 ? kept : null;
}

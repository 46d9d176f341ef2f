/** Shapes returned by the public RPCs (see docs/embedding.md, "Server contract"). */
import type { TAlign, TBlockType, TQuestionType, TTheme } from '@reaction-blocks/contracts/enums';

/** The database's block types (a newer server may send one this version does not know). */
export type BlockType = TBlockType | (string & {});
export type Theme = TTheme;

export interface Block {
  id: string;
  owner_id: string;
  type: BlockType;
  name?: string;
  theme?: Theme | null;
  custom_color?: Record<string, string> | null;
  custom_label_color?: Record<string, string> | null;
  custom_label_name?: { admin?: string; me?: string } | null;
  welcome_message?: string | null;
  placeholder?: string | null;
  submit_button_text?: string | null;
  language?: string | null;
  block_anonymous?: boolean;
  allow_reaction?: boolean;
  allow_reply?: boolean;
  admin_only_reply?: boolean;
  show_count?: boolean;
  show_profile?: boolean;
  owner_name?: string | null;
  owner_photo_url?: string | null;
  qna_subject?: string | null;
  response_count?: number;
  like_count?: number;
  /** The oldest transaction running when this view was read (core/live.ts: replayed changes). */
  read_xmin?: number;
  align?: TAlign | null;
  button_text?: string | null;
  url_to_open?: string | null;
  allow_creator_email?: boolean;
  deactivated?: boolean;
  /** The captcha a visitor who trips a rate limit may solve (blocks with the captcha on). */
  captcha?: CaptchaConfig | null;
  /** The page whose thread and counts this view holds (absent: the block's own thread). */
  page_key?: string;
  /** Editor preview only (dummy mode): "ending" shows the ending whose index is ending_mode. */
  mode?: string | null;
  ending_mode?: string | null;
}

export interface CaptchaConfig {
  provider: 'turnstile';
  site_key: string;
  /** The widget script (Cloudflare's, or the local stand-in on the providers server). */
  script_url: string;
}

export interface Option {
  id: string;
  value: string;
  index: number;
  response_count?: number;
}

export type QuestionType = TQuestionType;

export interface Question {
  id: string;
  type: QuestionType;
  title: string;
  required?: boolean;
  index: number;
  placeholder?: string | null;
  allow_multi_select?: boolean;
  as_visitor_info?: string | null;
  content?: string | null;
  image_src?: string | null;
  options?: Option[];
}

export interface Condition {
  index: number;
  question_id: string;
  type: 'equal' | 'empty' | 'not_empty' | 'notEmpty' | 'include';
  value?: string | null;
}

export interface Ending {
  id: string;
  is_default?: boolean;
  index: number;
  title?: string | null;
  closing_text?: string | null;
  open_url?: string | null;
  open_link_type?: 'submit' | 'button' | null;
  open_url_text?: string | null;
  resubmit_text?: string | null;
  block_submit_another?: boolean;
  conditions?: Condition[];
}

export interface Message {
  id: string;
  block_id: string;
  parent_id: string | null;
  creator_id: string;
  creator_name: string;
  creator_photo_url?: string | null;
  color?: string | null;
  home_url?: string | null;
  content: string;
  is_edited?: boolean;
  resolved?: boolean;
  like_count?: number;
  reply_count?: number;
  /** Whether the caller likes it (list_messages / get_block_view). */
  liked?: boolean;
  /** published; held (waiting for the owner's approval: shown to its writer and the owner); hidden (owner only). */
  status?: 'published' | 'held' | 'hidden';
  /** Pinned to the top by the owner. */
  pinned_at?: string | null;
  /** The writer's name reads like the owner's (the server decides); marked "Not the owner". */
  imitates_owner?: boolean;
  created_at: string;
  replies?: Message[];
  /**
   * post_message only: the email left for replies is not (yet) the writer's own confirmed one;
   * replies reach it only once it confirms (double opt-in). The same for every other state.
   */
  email_confirmation?: 'pending';
}

export interface BlockView {
  block: Block;
  questions?: Question[];
  endings?: Ending[];
  messages?: Message[];
  /** The caller's own state: like, liked messages, and the option ids of their A/B vote (or null). */
  me?: {
    liked?: boolean;
    liked_message_ids?: string[];
    /** Messages the caller reported to the owner. */
    reported_message_ids?: string[];
    vote?: string[] | null;
    /** The vote is held by escalation: received, counted once the owner approves it. */
    vote_held?: boolean;
  };
}

export type Answers = Record<string, string | string[]>;

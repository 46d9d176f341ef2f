// Which controls need a paid plan (spec: workspace section 6 "Paid-only", account section 6).
// save_block refuses the same features for free owners, so a disabled control is not only a
// matter of the interface.
import type { ReactionType } from '../../../lib/db-types';
import type { SettingKey } from './settings';

const PAID_SETTINGS: Partial<Record<SettingKey, readonly ReactionType[] | 'all'>> = {
  // style customizing
  custom_color: 'all',
  custom_label_color: 'all',
  // open graph customizing (its own section)
  open_graph: 'all',
  // the creator email option
  allow_creator_email: 'all',
  // anonymous / like / reply / show-count toggles on comment, show-count on qna
  block_anonymous: ['comment'],
  allow_reaction: ['comment'],
  allow_reply: ['comment'],
  show_count: ['comment', 'qna'],
  // like button position
  align: ['like'],
  // visitor trust (issue 9): holding messages, the honeypot, the captcha
  hold_messages: ['comment', 'qna'],
  honeypot: ['comment', 'qna', 'form'],
  captcha: 'all',
};

export function isPaidSetting(type: ReactionType, key: SettingKey): boolean {
  const types = PAID_SETTINGS[key];
  return types === 'all' || (types?.includes(type) ?? false);
}

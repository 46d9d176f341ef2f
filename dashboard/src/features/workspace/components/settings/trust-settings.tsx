// The "Spam and abuse" section (issue 9): holding new messages for approval (comment, qna), the
// honeypot (comment, qna, form) and the captcha once the rate limits trip (every reaction
// block). Paid: disabled with the upgrade hint for owners without a plan, as save_block
// refuses them.
import { useTranslation } from 'react-i18next';
import { HOLD_MESSAGES, type THoldMessages } from '@reaction-blocks/contracts/schemas';
import type { ReactionType } from '../../../../lib/db-types';
import { isPaidSetting } from '../../model/paid';
import type { SettingKey, SettingsDraft } from '../../model/settings';
import { PaidSection } from '../paid-hint';
import { SelectField, ToggleField } from './fields';

export interface TrustSettingsProps {
  type: ReactionType;
  settings: SettingsDraft;
  paid: boolean;
  onChange: <K extends SettingKey>(key: K, value: SettingsDraft[K]) => void;
}

export function TrustSettings({ type, settings, paid, onChange }: TrustSettingsProps) {
  const { t } = useTranslation();
  const lockedNames: string[] = [];
  const locked = (key: SettingKey) => {
    const is = !paid && isPaidSetting(type, key);
    if (is) lockedNames.push(t(`moderation.settings.${key}`));
    return is;
  };
  const messages = type === 'comment' || type === 'qna';
  const toggle = (key: 'honeypot' | 'captcha') => (
    <ToggleField
      label={t(`moderation.settings.${key}`)}
      checked={settings[key]}
      onChange={(value) => onChange(key, value)}
      hint={t(`moderation.settings.${key}Hint`)}
      locked={locked(key)}
    />
  );
  // built first: building it names the locked controls, which the section's hint lists
  const fields = (
    <div className="settings-fields">
      <p className="hint">{t('moderation.settings.limitsNote')}</p>
      {messages ? (
        <SelectField<THoldMessages>
          label={t('moderation.settings.hold_messages')}
          value={settings.hold_messages}
          options={HOLD_MESSAGES.map((value) => ({
            value,
            label: t(`moderation.settings.hold_${value}`),
          }))}
          onChange={(value) => onChange('hold_messages', value)}
          hint={t('moderation.settings.holdHint', { mode: t(`moderation.mode.${type}`) })}
          locked={locked('hold_messages')}
        />
      ) : null}
      {messages || type === 'form' ? toggle('honeypot') : null}
      {toggle('captcha')}
    </div>
  );
  return <PaidSection features={lockedNames}>{fields}</PaidSection>;
}

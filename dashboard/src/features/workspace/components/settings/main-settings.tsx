// The main settings of each block type (spec: Block entity fields; workspace section 3).
import { useTranslation } from 'react-i18next';
import { ALIGNS } from '@reaction-blocks/contracts/enums';
import { BLOCK_LIMITS } from '@reaction-blocks/contracts/schemas';
import { LanguageField } from '../../../../components/ui/language-field';
import { contrast } from '../../../../lib/contrast';
import type { ReactionType } from '../../../../lib/db-types';
import { isPaidSetting } from '../../model/paid';
import {
  defaultCustomColors,
  textOrNull,
  type FieldErrors,
  type SettingKey,
  type SettingsDraft,
} from '../../model/settings';
import { PaidSection } from '../paid-hint';
import { ColorField, SelectField, TextField, ToggleField } from './fields';

export interface MainSettingsProps {
  type: ReactionType;
  settings: SettingsDraft;
  errors: FieldErrors;
  paid: boolean;
  onChange: <K extends SettingKey>(key: K, value: SettingsDraft[K]) => void;
}

const COLOR_KEYS = ['--PRIMARY', '--SECONDARY', '--TERTIARY', '--BACKGROUND'] as const;
const LABEL_COLOR_KEYS = ['--ADMIN_LABEL', '--ME_LABEL'] as const;
/** What each colour paints and what it is when the owner leaves it unset (locales). */
const colorHints = {
  '--PRIMARY': 'primaryHint',
  '--SECONDARY': 'secondaryHint',
  '--TERTIARY': 'tertiaryHint',
  '--BACKGROUND': 'backgroundHint',
} as const;

/**
 * The owner's colours with one set or, for undefined, cleared back to the theme's default: only
 * what the owner chose is saved (none left: null), so what they never set keeps following from
 * the rest in the element (docs/design.md, "The custom theme is whole").
 */
function withColor<K extends string>(
  colors: Partial<Record<K, string>>,
  key: K,
  value: string | undefined,
): Partial<Record<K, string>> | null {
  const next: Partial<Record<K, string>> = { ...colors };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return Object.keys(next).length ? next : null;
}

export function MainSettings({ type, settings, errors, paid, onChange }: MainSettingsProps) {
  const { t: f } = useTranslation(undefined, { keyPrefix: 'workspace.fields' });
  /** Paid-only and the owner has no plan: shown, disabled, named in the section's one hint. */
  const lockedNames: string[] = [];
  const locked = (key: SettingKey, name: string) => {
    const is = !paid && isPaidSetting(type, key);
    if (is) lockedNames.push(name);
    return is;
  };
  const text = (
    key: Extract<
      SettingKey,
      | 'welcome_message'
      | 'placeholder'
      | 'owner_name'
      | 'owner_photo_url'
      | 'qna_subject'
      | 'button_text'
      | 'url_to_open'
      | 'submit_button_text'
    >,
    max: number,
    options: { multiline?: boolean; url?: boolean; hint?: string } = {},
  ) => (
    <TextField
      label={f(key)}
      value={settings[key] ?? ''}
      onChange={(value) => onChange(key, textOrNull(value))}
      max={max}
      multiline={options.multiline}
      type={options.url ? 'url' : 'text'}
      placeholder={options.url ? 'https://' : undefined}
      hint={options.hint}
      error={errors[key]}
    />
  );
  const toggle = (
    key: Extract<
      SettingKey,
      | 'block_anonymous'
      | 'allow_reaction'
      | 'allow_reply'
      | 'admin_only_reply'
      | 'show_count'
      | 'show_profile'
      | 'allow_creator_email'
    >,
  ) => (
    <ToggleField
      label={f(key)}
      checked={settings[key]}
      onChange={(value) => onChange(key, value)}
      locked={locked(key, f(key))}
    />
  );

  const language = (
    <LanguageField
      label={f('language')}
      value={settings.language}
      onChange={(value) => onChange('language', value)}
    />
  );
  const align = (
    <SelectField
      label={f('align')}
      value={settings.align}
      options={ALIGNS.map((value) => ({
        value,
        label: f(`align_${value}`),
      }))}
      onChange={(value) => onChange('align', value)}
      locked={locked('align', f('align'))}
    />
  );

  const messages = type === 'comment' || type === 'qna';
  const colors = settings.custom_color ?? {};
  const defaults = defaultCustomColors(type);
  const labelColors = settings.custom_label_color ?? {};
  // what an unset label colour takes: the theme's primary (the SDK's core/theme.ts)
  const primary =
    settings.theme === 'custom'
      ? (colors['--PRIMARY'] ?? defaults['--PRIMARY'])
      : settings.theme === 'dark'
        ? '#ECECEF'
        : '#26262B';

  // the owner's own pairs that nothing derives (docs/design.md, "The custom theme is whole"): the
  // button's text on the primary (4.5:1, text) and the primary on the background (3:1, UI parts)
  const custom = { ...defaults, ...colors };
  const low = (a: string, b: string, least: number) => {
    const ratio = contrast(a, b);
    return ratio < least ? (Math.floor(ratio * 100) / 100).toFixed(2) : null;
  };
  const textLow =
    type === 'button' && colors['--SECONDARY'] !== undefined
      ? low(custom['--SECONDARY'], custom['--PRIMARY'], 4.5)
      : null;
  const primaryLow = low(custom['--PRIMARY'], custom['--BACKGROUND'], 3);
  const colorNotes: Partial<Record<(typeof COLOR_KEYS)[number], string>> = {
    '--PRIMARY': primaryLow ? f('primaryOnBackgroundLow', { ratio: primaryLow }) : undefined,
    '--SECONDARY': textLow ? f('textOnPrimaryLow', { ratio: textLow }) : undefined,
  };

  // built first: building it names the locked controls, which the section's hint lists
  const fields = (
    <div className="settings-fields">
      {type === 'qna'
        ? text('qna_subject', BLOCK_LIMITS.qnaSubject, { multiline: true, hint: f('tokenHint') })
        : null}
      {messages ? (
        <>
          {type === 'comment'
            ? text('welcome_message', BLOCK_LIMITS.welcomeMessage, {
                multiline: true,
                hint: f('tokenHint'),
              })
            : null}
          {text('placeholder', BLOCK_LIMITS.placeholder, { hint: f('tokenHint') })}
          {text('owner_name', BLOCK_LIMITS.ownerName)}
          {text('owner_photo_url', BLOCK_LIMITS.photoUrl, { url: true })}
          {type === 'qna' ? toggle('show_profile') : null}
          <fieldset className="settings-group">
            <legend>{f('labels')}</legend>
            {(['admin', 'me'] as const).map((who) => (
              <TextField
                key={who}
                label={f(`${who}Label`)}
                value={settings.custom_label_name[who]}
                onChange={(value) =>
                  onChange('custom_label_name', { ...settings.custom_label_name, [who]: value })
                }
                max={BLOCK_LIMITS.labelName}
                error={errors[`custom_label_name.${who}`]}
              />
            ))}
            {LABEL_COLOR_KEYS.map((key) => (
              <ColorField
                key={key}
                label={f(key === '--ADMIN_LABEL' ? 'adminLabelColor' : 'meLabelColor')}
                value={labelColors[key]}
                fallback={primary}
                hint={f('labelColorHint')}
                onChange={(value) =>
                  onChange('custom_label_color', withColor(labelColors, key, value))
                }
                error={errors[`custom_label_color.${key}`]}
                locked={locked(
                  'custom_label_color',
                  f(key === '--ADMIN_LABEL' ? 'adminLabelColor' : 'meLabelColor'),
                )}
              />
            ))}
          </fieldset>
          {type === 'comment' ? toggle('block_anonymous') : null}
          {type === 'comment' ? toggle('allow_reaction') : null}
          {type === 'comment' ? toggle('allow_reply') : null}
          {toggle('admin_only_reply')}
          {toggle('show_count')}
          {toggle('allow_creator_email')}
        </>
      ) : null}
      {type === 'button' ? (
        <>
          {text('button_text', BLOCK_LIMITS.buttonText)}
          {text('url_to_open', BLOCK_LIMITS.url, { url: true })}
        </>
      ) : null}
      {type === 'like' || type === 'button' ? align : null}
      {language}
      {settings.theme === 'custom' ? (
        <fieldset className="settings-group">
          <legend>{f('customColors')}</legend>
          {COLOR_KEYS.map((key) => (
            <ColorField
              key={key}
              label={f(key.slice(2).toLowerCase())}
              value={colors[key]}
              // fields follow the background (the SDK's custom theme) unless set
              fallback={
                key === '--TERTIARY'
                  ? (colors['--BACKGROUND'] ?? defaults['--BACKGROUND'])
                  : defaults[key]
              }
              hint={f(
                type === 'button' && key === '--SECONDARY' ? 'buttonTextHint' : colorHints[key],
              )}
              note={colorNotes[key]}
              onChange={(value) => onChange('custom_color', withColor(colors, key, value))}
              error={errors[`custom_color.${key}`]}
              locked={locked('custom_color', f('customColors'))}
            />
          ))}
        </fieldset>
      ) : null}
    </div>
  );
  return <PaidSection features={lockedNames}>{fields}</PaidSection>;
}

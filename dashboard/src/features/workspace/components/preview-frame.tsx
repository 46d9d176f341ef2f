// The right-hand preview: the light / dark / custom theme switch (the block's theme setting)
// and the real element showing the draft.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { THEMES } from '@reaction-blocks/contracts/enums';
import type { ReactionType } from '../../../lib/db-types';
import type { PreviewView } from '../model/preview';
import type { SettingsDraft } from '../model/settings';
import { BlockPreview } from './block-preview';
import { PaidHint } from './paid-hint';

export function ThemeSwitch({
  value,
  onChange,
  paid,
}: {
  value: SettingsDraft['theme'];
  onChange: (theme: SettingsDraft['theme']) => void;
  paid: boolean;
}) {
  const { t } = useTranslation();
  const name = useId();
  const hintId = useId();
  // a custom theme kept from a paid period stays selectable
  const customLocked = !paid && value !== 'custom';
  return (
    <fieldset className="theme-switch">
      <legend>{t('workspace.preview.theme')}</legend>
      <div className="theme-switch-options">
        {THEMES.map((theme) => {
          const disabled = theme === 'custom' && customLocked;
          return (
            <label key={theme} className="theme-option" data-disabled={disabled || undefined}>
              <input
                type="radio"
                name={name}
                value={theme}
                checked={value === theme}
                disabled={disabled}
                aria-describedby={disabled ? hintId : undefined}
                onChange={() => onChange(theme)}
              />
              {t(`workspace.preview.${theme}`)}
            </label>
          );
        })}
      </div>
      {customLocked ? <PaidHint id={hintId} /> : null}
    </fieldset>
  );
}

export function PreviewFrame({
  type,
  view,
  theme,
  onThemeChange,
  paid,
}: {
  type: ReactionType;
  view: PreviewView;
  theme: SettingsDraft['theme'];
  onThemeChange: (theme: SettingsDraft['theme']) => void;
  paid: boolean;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="workspace-preview" aria-labelledby={headingId}>
      <div className="workspace-preview-head">
        <h2 id={headingId} className="workspace-panel-title">
          {t('workspace.preview.title')}
        </h2>
        <ThemeSwitch value={theme} onChange={onThemeChange} paid={paid} />
      </div>
      {view.block.mode === 'ending' ? (
        <p className="hint">{t('workspace.preview.showingEnding')}</p>
      ) : null}
      <div className="workspace-preview-frame" data-theme={theme}>
        <BlockPreview type={type} view={view} />
      </div>
    </section>
  );
}

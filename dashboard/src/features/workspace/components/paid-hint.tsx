// The workspace's upgrade hints: next to a paid-only control (the general sentence, or what the
// plan would allow there) and one per settings section (PaidSection).
import { createContext, useContext, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UpgradeHint } from '../../../components/ui/upgrade-hint';

/** `text` says what the plan would allow, where the general sentence is not enough. */
export function PaidHint({ id, text }: { id: string; text?: string }) {
  const { t } = useTranslation();
  return (
    <UpgradeHint
      id={id}
      text={text ?? t('workspace.paid.hint')}
      link={t('workspace.paid.upgrade')}
    />
  );
}

export function PaidBadge() {
  const { t } = useTranslation();
  return <span className="paid-badge">{t('workspace.paid.badge')}</span>;
}

const SectionHintId = createContext<string | null>(null);

/** The id of the section's upgrade hint, for a locked control inside a PaidSection. */
export const useSectionPaidHint = () => useContext(SectionHintId);

/**
 * One upgrade hint for a settings section instead of one under every paid control: it names what
 * the plan unlocks there ("With a subscription you can also change: Allow likes, Show count."),
 * and each locked control in the section points at it with aria-describedby. Nothing when no
 * control of the section is locked.
 */
export function PaidSection({ features, children }: { features: string[]; children: ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  if (features.length === 0) return <>{children}</>;
  return (
    <SectionHintId.Provider value={id}>
      <PaidHint
        id={id}
        text={t('workspace.paid.section', { features: [...new Set(features)].join(', ') })}
      />
      {children}
    </SectionHintId.Provider>
  );
}

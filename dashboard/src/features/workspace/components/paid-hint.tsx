// The upgrade hint next to a paid-only control (spec: a tooltip says to start a subscription and
// links to /profile/plan). Always in the page, not on hover, so keyboard and screen-reader users
// get it too: the disabled control points at it with aria-describedby.
import { createContext, useContext, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

/** `text` says what the plan would allow, where the general sentence is not enough. */
export function PaidHint({ id, text }: { id: string; text?: string }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="paid-hint">
      {text ?? t('workspace.paid.hint')}{' '}
      <Link to={paths.profilePlan} className="paid-hint-link">
        {t('workspace.paid.upgrade')}
      </Link>
    </p>
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

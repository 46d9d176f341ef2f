// The upgrade hint next to a paid-only control (spec: a tooltip says to start a subscription and
// links to /profile/plan). Always in the page, not on hover, so keyboard and screen-reader users
// get it too: the disabled control points at it with aria-describedby.
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

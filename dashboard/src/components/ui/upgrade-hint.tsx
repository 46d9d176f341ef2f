// The upgrade hint beside what a paid plan unlocks (spec: it says to start a subscription and
// links to /profile/plan). Always in the page, not on hover, so keyboard and screen-reader users
// get it too: a disabled control points at it with aria-describedby.
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';

export function UpgradeHint({ id, text, link }: { id: string; text: string; link: string }) {
  return (
    <p id={id} className="paid-hint">
      {text}{' '}
      <Link to={paths.profilePlan} className="paid-hint-link">
        {link}
      </Link>
    </p>
  );
}

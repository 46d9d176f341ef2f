// The brand (docs/design.md, Brand): the mark, a speech bubble holding two blocks (a reaction made
// of blocks: one in the brand's indigo, one in amber), on an indigo tile; and the wordmark, the
// product's name in the brand type with its last word in indigo. public/favicon.svg is the same
// mark as a file, for pages without React (the public block page, mails).
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';

export const BRAND_INDIGO = '#3b5bdb';
export const BRAND_AMBER = '#ffd43b';

/** The mark alone, decorative (the name is written beside it or given by the link). */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg
      className="logo-mark"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="9" fill={BRAND_INDIGO} />
      <path
        d="M8 8.5h16a2.5 2.5 0 0 1 2.5 2.5v9a2.5 2.5 0 0 1-2.5 2.5H14l-5 4.2v-4.2H8A2.5 2.5 0 0 1 5.5 20v-9A2.5 2.5 0 0 1 8 8.5z"
        fill="#fff"
      />
      <rect x="9" y="12" width="6" height="7" rx="1.5" fill={BRAND_INDIGO} />
      <rect x="17" y="12" width="6" height="7" rx="1.5" fill={BRAND_AMBER} />
    </svg>
  );
}

/** The product's name as the wordmark: its last word in the brand colour (en and ko alike). */
export function Wordmark() {
  const { t } = useTranslation();
  const name = t('common.appName');
  const cut = name.lastIndexOf(' ');
  return (
    <span className="logo-text" aria-hidden="true">
      {cut > 0 ? (
        <>
          {name.slice(0, cut + 1)}
          <span className="logo-text-accent">{name.slice(cut + 1)}</span>
        </>
      ) : (
        name
      )}
    </span>
  );
}

/** The mark and the wordmark, a link home named for screen readers. */
export function Logo() {
  const { t } = useTranslation();
  return (
    <Link to={paths.home} className="logo" aria-label={t('common.logoHome')}>
      <LogoMark />
      <Wordmark />
    </Link>
  );
}

import { useTranslation } from 'react-i18next';

/** The keyboard's first stop: a link past the bars to the page's main region (`#target`). */
export function SkipLink({ target = 'main' }: { target?: string }) {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href={`#${target}`}>
      {t('common.skipToContent')}
    </a>
  );
}

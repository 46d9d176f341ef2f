import { useTranslation } from 'react-i18next';

/** Something under way, said to screen readers: `label`, "Loading…" by default. */
export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <span className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
    </span>
  );
}

/** A page or a workspace not loaded yet: the spinner alone on the page ("Loading…" by default). */
export function PageLoading({ label }: { label?: string }) {
  return (
    <div className="page-loading">
      <Spinner label={label} />
    </div>
  );
}

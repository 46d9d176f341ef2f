import { useTranslation } from 'react-i18next';

export function Spinner({ label }: { label: string }) {
  return (
    <span className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** A page or a workspace not loaded yet: the spinner alone on the page ("Loading…" by default). */
export function PageLoading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="page-loading">
      <Spinner label={label ?? t('common.loading')} />
    </div>
  );
}

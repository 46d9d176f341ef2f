// A load that failed, told at once (ErrorText's role="alert" paragraph) with its reason and a
// Try again button that loads again. Nothing while there is no failure. RetryButton is that
// button where a page places it itself (the public link pages' row of actions).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from './error-text';

export function LoadFailed({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  if (children === null || children === undefined || children === false || children === '')
    return null;
  return (
    <ErrorText>
      {children} <RetryButton className="button button-ghost" onRetry={onRetry} />
    </ErrorText>
  );
}

/** Try again: loads again what failed to load. */
export function RetryButton({ className, onRetry }: { className: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className={className} onClick={onRetry}>
      {t('common.retry')}
    </button>
  );
}

// A load that failed, told at once (ErrorText's role="alert" paragraph) with its reason and a
// Try again button that loads again. Nothing while there is no failure.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from './error-text';

export function LoadFailed({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  const { t } = useTranslation();
  if (children === null || children === undefined || children === false || children === '')
    return null;
  return (
    <ErrorText>
      {children}{' '}
      <button type="button" className="button button-ghost" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </ErrorText>
  );
}

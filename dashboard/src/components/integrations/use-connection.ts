// Connecting a service in its popup (Notion from /profile/integration and the workspace's
// Integration section, Cafe24 from its card): busy while the popup is open, then what came of it,
// a refusal or a failure said as integrations.failed, and the screen's data read again (also after
// a popup closed without a word: the status then says what happened).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectResult } from '../../lib/integrations';
import { integrationReason } from './texts';

export interface ConnectionHandlers {
  onConnected?: (workspaceName: string) => void;
  onCancelled: () => void;
  /** A failure in the reader's language. */
  onFailed: (message: string) => void;
  /** Reads the screen's data again once the popup has answered. */
  reload: () => Promise<unknown>;
}

export function useConnection({ onConnected, onCancelled, onFailed, reload }: ConnectionHandlers) {
  const { t } = useTranslation();
  const [connecting, setConnecting] = useState(false);
  const failed = (reason: string) => onFailed(t('integrations.failed', { reason }));
  const connect = (open: () => Promise<ConnectResult>) => {
    setConnecting(true);
    open()
      .then(async (result) => {
        if (result.status === 'connected') onConnected?.(result.workspaceName);
        else if (result.status === 'cancelled') onCancelled();
        else if (result.status === 'failed') failed(result.message);
        await reload();
      })
      .catch((cause: unknown) => failed(integrationReason(t, cause)))
      .finally(() => setConnecting(false));
  };
  return { connecting, connect };
}

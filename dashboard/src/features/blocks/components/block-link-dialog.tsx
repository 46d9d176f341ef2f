import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogWithClose } from '../../../components/ui/dialog-with-close';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import type { BlockRow } from '../../../lib/db-types';
import { saveBlob, saveUrl } from '../../../lib/download';
import { env } from '../../../lib/env';
import { blockName } from '../utils/block-utils';
import {
  copyText,
  embedSnippet,
  handoutHtml,
  QR_CODE_SIZE,
  qrCodeDataUrl,
  qrCodeFileName,
} from '../utils/embed';
import { ErrorText } from '../../../components/ui/error-text';

type QrState = { url: string; dataUrl: string | null; failed: boolean };

/** The QR code PNG of `url` (null while it is made or without a url). */
function useQrCode(url: string | null): { dataUrl: string | null; failed: boolean } {
  const [state, setState] = useState<QrState | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    qrCodeDataUrl(url).then(
      (dataUrl) => {
        if (current) setState({ url, dataUrl, failed: false });
      },
      (cause: unknown) => {
        console.error('[reaction-dashboard] QR code failed', cause);
        if (current) setState({ url, dataUrl: null, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [url]);
  // A result made for an earlier url is never shown for this one.
  return state && state.url === url ? state : { dataUrl: null, failed: false };
}

export function BlockLinkDialog({
  block,
  onClose,
}: {
  block: BlockRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const urlId = useId();
  const snippetId = useId();
  const [copied, setCopied] = useState<'url' | 'snippet' | null>(null);
  const publicUrl = block
    ? paths.publicBlock(window.location.origin, block.owner_id, block.id)
    : null;
  const qr = useQrCode(publicUrl);
  if (!block || !publicUrl) return null;
  const name = blockName(block, t);
  const snippet = embedSnippet(block, env);

  const copy = async (kind: 'url' | 'snippet') => {
    try {
      await copyText(kind === 'url' ? publicUrl : snippet);
      setCopied(kind);
    } catch (cause) {
      console.error('[reaction-dashboard] copy failed', cause);
    }
  };

  const saveHandout = () => {
    const html = handoutHtml({
      title: t('blocks.linkDialog.handoutTitle'),
      blockName: name,
      publicUrl,
      snippet,
      snippetHelp: t('blocks.linkDialog.snippetHelp'),
    });
    saveBlob(
      new Blob([html], { type: 'text/html' }),
      `reaction-block-${name.replace(/[^\p{L}\p{N}_-]+/gu, '_')}.html`,
    );
  };

  return (
    <DialogWithClose
      open
      title={t('blocks.linkDialog.title')}
      onClose={onClose}
      className="link-dialog"
      before={
        <button type="button" className="button button-ghost" onClick={saveHandout}>
          {t('blocks.linkDialog.handout')}
        </button>
      }
    >
      <label htmlFor={urlId}>{t('blocks.linkDialog.publicUrl')}</label>
      <div className="copy-row">
        <input id={urlId} readOnly value={publicUrl} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button button-ghost" onClick={() => void copy('url')}>
          {copied === 'url' ? t('common.copied') : t('blocks.linkDialog.copyUrl')}
        </button>
      </div>
      <div className="qr-code">
        <div className="qr-code-image">
          {qr.dataUrl ? (
            <img
              src={qr.dataUrl}
              width={QR_CODE_SIZE}
              height={QR_CODE_SIZE}
              alt={t('blocks.linkDialog.qrAlt', { name })}
            />
          ) : qr.failed ? null : (
            <Spinner label={t('blocks.linkDialog.qrLoading')} />
          )}
        </div>
        <div>
          <button
            type="button"
            className="button button-ghost"
            disabled={!qr.dataUrl}
            onClick={() => qr.dataUrl && saveUrl(qr.dataUrl, qrCodeFileName(block.name))}
          >
            {t('blocks.linkDialog.qrDownload')}
          </button>
          {qr.failed ? <ErrorText>{t('blocks.linkDialog.qrError')}</ErrorText> : null}
        </div>
      </div>
      <label htmlFor={snippetId}>{t('blocks.linkDialog.snippet')}</label>
      <p className="hint">{t('blocks.linkDialog.snippetHelp')}</p>
      <textarea
        id={snippetId}
        readOnly
        rows={5}
        value={snippet}
        className="code"
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="button" className="button button-ghost" onClick={() => void copy('snippet')}>
        {copied === 'snippet' ? t('common.copied') : t('blocks.linkDialog.copySnippet')}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('common.copied') : ''}
      </span>
    </DialogWithClose>
  );
}

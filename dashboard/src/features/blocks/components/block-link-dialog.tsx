import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { paths } from '../../../config/paths';
import type { BlockRow } from '../../../lib/db-types';
import { env } from '../../../lib/env';
import { blockName } from '../utils/block-utils';
import { copyText, downloadFile, embedSnippet, handoutHtml } from '../utils/embed';

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
  if (!block) return null;
  const name = blockName(block, t);
  const publicUrl = paths.publicBlock(window.location.origin, block.owner_id, block.id);
  const snippet = embedSnippet(block, env);

  const copy = async (kind: 'url' | 'snippet') => {
    try {
      await copyText(kind === 'url' ? publicUrl : snippet);
      setCopied(kind);
    } catch (cause) {
      console.error('[reaction-dashboard] copy failed', cause);
    }
  };

  return (
    <Dialog
      open
      title={t('blocks.linkDialog.title')}
      onClose={onClose}
      className="link-dialog"
      actions={
        <>
          <button
            type="button"
            className="button button-ghost"
            onClick={() =>
              downloadFile(
                `reaction-block-${name.replace(/[^\p{L}\p{N}_-]+/gu, '_')}.html`,
                handoutHtml({
                  title: t('blocks.linkDialog.handoutTitle'),
                  blockName: name,
                  publicUrl,
                  snippet,
                  snippetHelp: t('blocks.linkDialog.snippetHelp'),
                }),
                'text/html',
              )
            }
          >
            {t('blocks.linkDialog.handout')}
          </button>
          <button type="button" className="button button-primary" onClick={onClose}>
            {t('common.close')}
          </button>
        </>
      }
    >
      <label htmlFor={urlId}>{t('blocks.linkDialog.publicUrl')}</label>
      <div className="copy-row">
        <input id={urlId} readOnly value={publicUrl} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button button-ghost" onClick={() => void copy('url')}>
          {copied === 'url' ? t('common.copied') : t('common.copy')}
        </button>
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
        {copied === 'snippet' ? t('common.copied') : t('common.copy')}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('common.copied') : ''}
      </span>
    </Dialog>
  );
}

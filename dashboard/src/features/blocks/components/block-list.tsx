import { useTranslation } from 'react-i18next';
import type { BlockRow } from '../../../lib/db-types';
import { BlockCard, type CardAction } from './block-card';

export interface BlockListProps {
  blocks: readonly BlockRow[];
  filtered: boolean;
  selectedId: string | null;
  canDuplicate: boolean;
  onActivate: (block: BlockRow) => void;
  onAction: (action: CardAction, block: BlockRow) => void;
}

export function BlockList({
  blocks,
  filtered,
  selectedId,
  canDuplicate,
  onActivate,
  onAction,
}: BlockListProps) {
  const { t } = useTranslation();
  if (blocks.length === 0) {
    return (
      <p className="empty-message">{filtered ? t('blocks.emptyFiltered') : t('blocks.empty')}</p>
    );
  }
  return (
    <ul className="block-list" aria-label={t('blocks.listLabel')}>
      {blocks.map((block) => (
        <BlockCard
          key={block.id}
          block={block}
          selected={block.id === selectedId}
          canDuplicate={canDuplicate}
          onActivate={onActivate}
          onAction={onAction}
        />
      ))}
    </ul>
  );
}

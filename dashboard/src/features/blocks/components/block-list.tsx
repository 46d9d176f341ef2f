import { useTranslation } from 'react-i18next';
import type { BlockRow } from '../../../lib/db-types';
import { BlockCard, type CardAction } from './block-card';
import { EmptyState } from '../../../components/ui/empty-state';

export interface BlockListProps {
  blocks: readonly BlockRow[];
  filtered: boolean;
  /** The Send pages list letter blocks: their empty state speaks of letters. */
  letters?: boolean;
  selectedId: string | null;
  canDuplicate: boolean;
  onActivate: (block: BlockRow) => void;
  onAction: (action: CardAction, block: BlockRow) => void;
}

export function BlockList({
  blocks,
  filtered,
  letters = false,
  selectedId,
  canDuplicate,
  onActivate,
  onAction,
}: BlockListProps) {
  const { t } = useTranslation();
  if (blocks.length === 0) {
    if (filtered)
      return (
        <EmptyState picture="search" title={t('blocks.emptyFiltered')}>
          {t('blocks.emptyFilteredNext')}
        </EmptyState>
      );
    return letters ? (
      <EmptyState picture="letters" title={t('blocks.emptyLetters')}>
        {t('blocks.emptyLettersNext')}
      </EmptyState>
    ) : (
      <EmptyState picture="blocks" title={t('blocks.empty')}>
        {t('blocks.emptyNext')}
      </EmptyState>
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

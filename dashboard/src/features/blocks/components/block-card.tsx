import { useTranslation } from 'react-i18next';
import { Menu, type MenuItem } from '../../../components/ui/menu';
import type { BlockRow } from '../../../lib/db-types';
import { blockName, responseLine } from '../utils/block-utils';
import { BlockTypeIcon } from '../../../components/ui/block-type-icon';
import { Ellipsis } from '../../../components/ui/icons';

export type CardAction =
  | 'open'
  | 'openNewTab'
  | 'copyLink'
  | 'openPublic'
  | 'changeTag'
  | 'blockLink'
  | 'duplicate'
  | 'delete';

export interface BlockCardProps {
  block: BlockRow;
  selected: boolean;
  canDuplicate: boolean;
  onActivate: (block: BlockRow) => void;
  onAction: (action: CardAction, block: BlockRow) => void;
}

export function BlockCard({ block, selected, canDuplicate, onActivate, onAction }: BlockCardProps) {
  const { t } = useTranslation();
  const name = blockName(block, t);
  const fresh = (block.new_response_count ?? 0) > 0;
  const items: MenuItem[] = [
    { id: 'open', label: t('blocks.menu.open'), disabled: block.deactivated },
    { id: 'openNewTab', label: t('blocks.menu.openNewTab'), disabled: block.deactivated },
    { id: 'copyLink', label: t('blocks.menu.copyLink') },
    { id: 'openPublic', label: t('blocks.menu.openPublic') },
    { id: 'blockLink', label: t('blocks.menu.blockLink') },
    ...(block.deactivated ? [] : [{ id: 'changeTag', label: t('blocks.menu.changeTag') }]),
    { id: 'duplicate', label: t('blocks.menu.duplicate'), disabled: !canDuplicate },
    { id: 'delete', label: t('blocks.menu.delete'), className: 'menu-item-danger' },
  ].map((item) => ({ ...item, onSelect: () => onAction(item.id as CardAction, block) }));

  return (
    <li
      className="block-card"
      data-selected={selected}
      data-deactivated={block.deactivated}
      data-testid="block-card"
    >
      <button
        type="button"
        className="block-card-main"
        aria-pressed={selected}
        onClick={() => onActivate(block)}
      >
        <BlockTypeIcon type={block.type} />
        <span className="block-card-name">{name}</span>
        <span className="block-card-type">{t(`blockTypes.${block.type}`)}</span>
        <span className="block-card-responses" data-new={fresh}>
          {responseLine(block, t)}
        </span>
        {block.deactivated ? (
          <span className="block-card-badge">{t('blocks.deactivated')}</span>
        ) : null}
        {block.tags && block.tags.length > 0 ? (
          <span className="block-card-tags">{block.tags.map((tag) => `#${tag}`).join(' ')}</span>
        ) : null}
      </button>
      <Menu
        label={t('blocks.menu.label', { name })}
        className="block-card-menu"
        button={<Ellipsis size={18} />}
        items={items}
      />
    </li>
  );
}

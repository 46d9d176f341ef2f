import { useTranslation } from 'react-i18next';
import type { UserTagRow } from '../../../lib/db-types';

/** Bottom bar of toggle chips; active tags filter the block list. Hidden at tablet width. */
export function TagBar({
  tags,
  onToggle,
}: {
  tags: readonly UserTagRow[];
  onToggle: (tag: UserTagRow) => void;
}) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  return (
    <div className="tag-bar" role="group" aria-label={t('shell.tags')}>
      {tags.map((tag) => (
        <button
          key={tag.id}
          type="button"
          className="chip"
          aria-pressed={tag.active}
          onClick={() => onToggle(tag)}
        >
          #{tag.label}
        </button>
      ))}
    </div>
  );
}

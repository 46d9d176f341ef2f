// Which blocks the Cafe24 loader shows on which screen of the shop (docs/cafe24.md): rows of
// block, screen, a thread per product (comment, Q&A, like on product pages) and an optional place
// on the page, in order; saved as a whole with the schema the server checks with.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CAFE24_LOCATIONS,
  ZSaveCafe24Placements,
  type TCafe24Location,
} from '@reaction-blocks/contracts/cafe24';
import { CheckboxField, SelectField, TextField } from '../../../components/ui/fields';
import { integrationReason } from '../../../components/integrations/texts';
import { keepsPerProduct, type Cafe24Placement, type PlaceableBlock } from '../../../lib/cafe24';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorText } from '../../../components/ui/error-text';
import { useSubmit } from '../../../lib/use-submit';

export interface Cafe24PlacementsProps {
  blocks: PlaceableBlock[];
  placements: Cafe24Placement[];
  disabled?: boolean;
  onSave: (placements: Cafe24Placement[]) => Promise<void>;
}

interface Row extends Cafe24Placement {
  /** A key that survives reordering and edits. */
  key: number;
}

let nextKey = 1;
const toRows = (list: Cafe24Placement[]): Row[] => list.map((p) => ({ ...p, key: nextKey++ }));

/** The rows as saved: positions by order within each screen; per product only where it applies. */
export function placementsOf(rows: Row[], blocks: PlaceableBlock[]): Cafe24Placement[] {
  const counters: Record<string, number> = {};
  return rows.map(({ key: _key, ...p }) => {
    const type = blocks.find((b) => b.id === p.blockId)?.type ?? '';
    const position = (counters[p.location] = (counters[p.location] ?? -1) + 1);
    return {
      ...p,
      perProduct: p.perProduct && p.location === 'product_detail' && keepsPerProduct(type),
      selector: p.selector.trim(),
      position,
    };
  });
}

export function Cafe24Placements({ blocks, placements, disabled, onSave }: Cafe24PlacementsProps) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'integrations.cafe24.placements' });
  const [rows, setRows] = useState<Row[]>(() => toRows(placements));
  const { busy: saving, error, setError, run } = useSubmit();
  const blockName = (id: string) => {
    const b = blocks.find((x) => x.id === id);
    return b ? `${b.name || s('untitled')}${b.deactivated ? ` ${s('deactivated')}` : ''}` : '?';
  };
  const screenName = (l: TCafe24Location) => t(`integrations.cafe24.screens.${l}`);
  const blockOptions = useMemo(
    () =>
      blocks.map((b) => ({
        value: b.id,
        label: `${b.name || s('untitled')} (${t(`blockTypes.${b.type}`, { defaultValue: b.type })})${b.deactivated ? ` ${s('deactivated')}` : ''}`,
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [blocks, t],
  );
  const screenOptions = CAFE24_LOCATIONS.map((l) => ({ value: l, label: screenName(l) }));
  const update = (key: number, change: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const move = (index: number, by: number) =>
    setRows((list) => {
      const next = [...list];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });

  const save = async () => {
    setError(null);
    const list = placementsOf(rows, blocks);
    const parsed = ZSaveCafe24Placements.safeParse({ placements: list });
    if (!parsed.success) {
      setError(integrationReason(t, new Error(parsed.error.issues[0]?.message ?? '')));
      return;
    }
    await run(
      () => onSave(list),
      (cause) => t('integrations.failed', { reason: integrationReason(t, cause) }),
    );
  };

  return (
    <section className="cafe24-placements" aria-labelledby="cafe24-placements-title">
      <h3 id="cafe24-placements-title">{s('title')}</h3>
      {rows.length === 0 ? (
        <EmptyState picture="integrations" title={s('empty')}>
          {s('emptyNext')}
        </EmptyState>
      ) : null}
      <ol className="cafe24-placement-list">
        {rows.map((row, index) => {
          const type = blocks.find((b) => b.id === row.blockId)?.type ?? '';
          const perProductApplies = row.location === 'product_detail' && keepsPerProduct(type);
          const label = s('row', {
            name: blockName(row.blockId),
            screen: screenName(row.location),
          });
          return (
            <li key={row.key} className="cafe24-placement" aria-label={label}>
              <SelectField
                label={s('block')}
                value={row.blockId}
                options={blockOptions}
                disabled={disabled}
                onChange={(blockId) => update(row.key, { blockId })}
              />
              <SelectField
                label={s('screen')}
                value={row.location}
                options={screenOptions}
                disabled={disabled}
                onChange={(location) => update(row.key, { location })}
              />
              {perProductApplies ? (
                <CheckboxField
                  label={s('perProduct')}
                  hint={s('perProductHint')}
                  checked={row.perProduct}
                  disabled={disabled}
                  onChange={(perProduct) => update(row.key, { perProduct })}
                />
              ) : null}
              <TextField
                label={s('selector')}
                hint={s('selectorHint')}
                className="field cafe24-selector"
                value={row.selector}
                max={200}
                disabled={disabled}
                onChange={(selector) => update(row.key, { selector })}
              />
              <div className="cafe24-placement-actions">
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={disabled || index === 0}
                  aria-label={s('moveUp', { name: blockName(row.blockId) })}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={disabled || index === rows.length - 1}
                  aria-label={s('moveDown', { name: blockName(row.blockId) })}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={disabled}
                  aria-label={s('remove', {
                    name: blockName(row.blockId),
                    screen: screenName(row.location),
                  })}
                  onClick={() => setRows((list) => list.filter((r) => r.key !== row.key))}
                >
                  ×
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {blocks.length === 0 ? <p className="hint">{s('noBlocks')}</p> : null}
      <ErrorText>{error}</ErrorText>
      <div className="integration-actions">
        <button
          type="button"
          className="button"
          disabled={disabled || blocks.length === 0 || rows.length >= 20}
          onClick={() => {
            const first = blocks[0]!;
            setRows((list) => [
              ...list,
              {
                key: nextKey++,
                blockId: first.id,
                location: 'product_detail',
                perProduct: true,
                selector: '',
                position: 0,
              },
            ]);
          }}
        >
          {s('add')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={disabled || saving}
          onClick={() => void save()}
        >
          {saving ? s('saving') : s('save')}
        </button>
      </div>
    </section>
  );
}

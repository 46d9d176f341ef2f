// The owner's Cafe24 shop for /profile/integration (docs/cafe24.md): the connected mall and the
// state of our loader in it, the placements (which block shows on which screen), the blocks that
// can be placed, and saving the placements (save-cafe24-placements, checked with the same schema
// on the server). RLS: the owner's own rows; the tokens are never readable.
import {
  CAFE24_PER_PRODUCT_TYPES,
  ZSaveCafe24Placements,
  type TCafe24Location,
  type TCafe24Placement,
} from '@reaction-blocks/contracts/cafe24';
import { REACTION_BLOCK_TYPES } from '@reaction-blocks/contracts/schemas';
import { invokeFunction, supabase } from './supabase';

export interface Cafe24Shop {
  id: string;
  mall_id: string;
  removing: boolean;
  script_no: string | null;
  /** The screens the loader is on, as the sync job stored them (the contracts' locations). */
  script_locations: TCafe24Location[];
  loader_synced_at: string | null;
  sync_requested_at: string | null;
  loader_error: string | null;
  created_at: string;
}

export interface PlaceableBlock {
  id: string;
  name: string;
  type: string;
  deactivated: boolean;
}

export type Cafe24Placement = TCafe24Placement;

export async function getCafe24Shop(signal: AbortSignal): Promise<Cafe24Shop | null> {
  const { data, error } = await supabase
    .from('cafe24_shops')
    .select(
      'id, mall_id, removing, script_no, script_locations, loader_synced_at, sync_requested_at, loader_error, created_at',
    )
    .abortSignal(signal)
    .maybeSingle();
  if (error) throw error;
  return (data as Cafe24Shop | null) ?? null;
}

export async function listCafe24Placements(signal: AbortSignal): Promise<Cafe24Placement[]> {
  const { data, error } = await supabase
    .from('cafe24_placements')
    .select('block_id, location, per_product, selector, position')
    .order('location')
    .order('position')
    .abortSignal(signal);
  if (error) throw error;
  return (
    (data ?? []) as Array<{
      block_id: string;
      location: TCafe24Location;
      per_product: boolean;
      selector: string;
      position: number;
    }>
  ).map((p) => ({
    blockId: p.block_id,
    location: p.location,
    perProduct: p.per_product,
    selector: p.selector,
    position: p.position,
  }));
}

/** The owner's reaction blocks (letters cannot be placed in a shop). */
export async function listPlaceableBlocks(signal: AbortSignal): Promise<PlaceableBlock[]> {
  const { data, error } = await supabase
    .from('blocks')
    .select('id, name, type, deactivated')
    .in('type', [...REACTION_BLOCK_TYPES])
    .order('created_at', { ascending: false })
    .abortSignal(signal);
  if (error) throw error;
  return (data ?? []) as PlaceableBlock[];
}

export async function saveCafe24Placements(placements: Cafe24Placement[]): Promise<void> {
  await invokeFunction('save-cafe24-placements', ZSaveCafe24Placements.parse({ placements }));
}

/** Whether a block type keeps a thread (or likes) per product on product pages. */
export const keepsPerProduct = (type: string) =>
  (CAFE24_PER_PRODUCT_TYPES as readonly string[]).includes(type);

/**
 * What the owner reads about the loader: being removed; waiting for the queue; installed on some
 * screens; not installed (nothing placed, or no paid plan); failed.
 */
export type LoaderState =
  | { kind: 'removing' }
  | { kind: 'pending' }
  | { kind: 'failed'; error: string }
  | { kind: 'installed'; locations: TCafe24Location[] }
  | { kind: 'none' };

export function loaderState(shop: Cafe24Shop): LoaderState {
  if (shop.removing) return { kind: 'removing' };
  if (
    shop.sync_requested_at &&
    (!shop.loader_synced_at || shop.loader_synced_at < shop.sync_requested_at)
  )
    return shop.loader_error ? { kind: 'failed', error: shop.loader_error } : { kind: 'pending' };
  if (shop.loader_error) return { kind: 'failed', error: shop.loader_error };
  if (shop.script_no) return { kind: 'installed', locations: shop.script_locations };
  return { kind: 'none' };
}

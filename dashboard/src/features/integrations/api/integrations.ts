// The integrations screen's calls, one object a card (the tests hand the page their own): Notion's
// integration and its notes; Cafe24's integration, the shop with our loader, the placements, the
// blocks that can be placed, and its notes.
import {
  getCafe24Shop,
  listCafe24Placements,
  listPlaceableBlocks,
  saveCafe24Placements,
  type Cafe24Placement,
  type Cafe24Shop,
  type PlaceableBlock,
} from '../../../lib/cafe24';
import {
  connectCafe24,
  connectNotion,
  dismissIntegrationNote,
  getIntegration,
  getNotionIntegration,
  listIntegrationNotes,
  removeIntegration,
  type IntegrationNote,
  type NotionIntegration,
} from '../../../lib/integrations';

export interface IntegrationsApi {
  load: (
    signal: AbortSignal,
  ) => Promise<{ notion: NotionIntegration | null; notes: IntegrationNote[] }>;
  connect: (blockedMessage: string) => ReturnType<typeof connectNotion>;
  remove: () => Promise<{ revoked: boolean; unlinked: number }>;
  dismiss: (id: string) => Promise<void>;
}

export const supabaseIntegrationsApi: IntegrationsApi = {
  load: async (signal) => {
    const [notion, notes] = await Promise.all([
      getNotionIntegration(signal),
      listIntegrationNotes(null, 'notion', signal),
    ]);
    return { notion, notes };
  },
  connect: connectNotion,
  remove: () => removeIntegration('notion'),
  dismiss: dismissIntegrationNote,
};

export interface Cafe24Data {
  integration: NotionIntegration | null;
  shop: Cafe24Shop | null;
  placements: Cafe24Placement[];
  blocks: PlaceableBlock[];
  notes: IntegrationNote[];
}

export interface Cafe24Api {
  load: (signal: AbortSignal) => Promise<Cafe24Data>;
  connect: (mallId: string, blockedMessage: string) => ReturnType<typeof connectCafe24>;
  save: (placements: Cafe24Placement[]) => Promise<void>;
  remove: () => Promise<{ removing: boolean }>;
  dismiss: (id: string) => Promise<void>;
}

export const supabaseCafe24Api: Cafe24Api = {
  load: async (signal) => {
    const [integration, shop, placements, blocks, notes] = await Promise.all([
      getIntegration('cafe24', signal),
      getCafe24Shop(signal),
      listCafe24Placements(signal),
      listPlaceableBlocks(signal),
      listIntegrationNotes(null, 'cafe24', signal),
    ]);
    return { integration, shop, placements, blocks, notes };
  },
  connect: connectCafe24,
  save: saveCafe24Placements,
  remove: () => removeIntegration('cafe24'),
  dismiss: dismissIntegrationNote,
};

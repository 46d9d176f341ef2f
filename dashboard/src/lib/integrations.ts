// Integrations (Notion, Cafe24) for the screens that show them: /profile/integration and
// /oauth/{service} (features/integrations) and the workspace's Integration section. The calls are
// the spec's setNotionToken, setCafe24, searchNotionObjects and removeIntegration as edge
// functions, plus reads of the owner's integrations and notes (RLS: their own rows; the tokens are
// never readable). Cafe24's shop and placements: lib/cafe24.ts.
//
// Connecting opens the service's authorise page in a popup: the window is opened in the click (so
// no popup blocker stops it), then sent to the URL the function answers. The service sends it back
// to /oauth/{service}, which finishes the connection and tells this window on a BroadcastChannel
// (the opener may be cut off by the provider's pages), then closes.
import type { TIntegrationStatus } from '@reaction-blocks/contracts/enums';
import {
  ZNotionAuthorize,
  ZRemoveIntegration,
  ZSearchNotionObjects,
  ZSetNotionToken,
  type TNotionObject,
} from '@reaction-blocks/contracts/schemas';
import { ZCafe24Authorize, ZSetCafe24 } from '@reaction-blocks/contracts/cafe24';
import { readRows } from './read-rows';
import { invokeFunction, supabase } from './supabase';

export type { TNotionObject } from '@reaction-blocks/contracts/schemas';

const CHANNEL = 'reaction-blocks:integrations';

export interface NotionIntegration {
  id: string;
  status: TIntegrationStatus;
  workspace_name: string | null;
  status_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type NoteCode =
  | 'column_type'
  | 'target_missing'
  | 'unauthorized'
  | 'write_failed'
  | 'write_uncertain'
  | 'cafe24_unauthorized'
  | 'cafe24_loader_failed'
  | 'cafe24_taken_over';

export type IntegrationProvider = 'notion' | 'cafe24';

export interface IntegrationNote {
  id: string;
  provider: IntegrationProvider;
  block_id: string | null;
  code: NoteCode;
  property: string;
  detail: Record<string, unknown>;
  count: number;
  last_at: string;
}

/** The owner's connection to a service (`workspace_name`: Notion's workspace, Cafe24's mall id). */
export async function getIntegration(
  provider: IntegrationProvider,
  signal: AbortSignal,
): Promise<NotionIntegration | null> {
  const { data, error } = await supabase
    .from('integrations')
    .select('id, status, workspace_name, status_reason, created_at, updated_at')
    .eq('provider', provider)
    .abortSignal(signal)
    .maybeSingle();
  if (error) throw error;
  return (data as NotionIntegration | null) ?? null;
}

export const getNotionIntegration = (signal: AbortSignal) => getIntegration('notion', signal);

/** The notes of one block, or (null) those about the connection itself, of one service. */
export async function listIntegrationNotes(
  blockId: string | null,
  provider: IntegrationProvider,
  signal: AbortSignal,
): Promise<IntegrationNote[]> {
  const query = supabase
    .from('integration_notes')
    .select('id, provider, block_id, code, property, detail, count, last_at')
    .eq('provider', provider)
    .order('last_at', { ascending: false })
    .abortSignal(signal);
  const rows = await readRows(
    blockId === null ? query.is('block_id', null) : query.eq('block_id', blockId),
  );
  return rows as IntegrationNote[];
}

export async function dismissIntegrationNote(id: string): Promise<void> {
  const { error } = await supabase.from('integration_notes').delete().eq('id', id);
  if (error) throw error;
}

/** The services whose authorisation comes back to /oauth/{service}. */
export const OAUTH_SERVICES = ['notion', 'cafe24'] as const;
export type OAuthService = (typeof OAUTH_SERVICES)[number];
export const isOAuthService = (value: string): value is OAuthService =>
  (OAUTH_SERVICES as readonly string[]).includes(value);

export function oauthRedirectUrl(service: OAuthService, origin = window.location.origin): string {
  return `${origin}/oauth/${service}`;
}

export const notionRedirectUrl = (origin?: string) => oauthRedirectUrl('notion', origin);

export type ConnectResult =
  /** `workspaceName`: the Notion workspace or the Cafe24 mall id. */
  | { status: 'connected'; workspaceName: string }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string }
  /** The window was closed before it said anything (reload the status to know). */
  | { status: 'closed' };

interface ChannelMessage {
  type: OAuthService;
  result: ConnectResult;
}

/** /oauth/{service} tells the window that opened the popup how it went. */
export function announceConnection(result: ConnectResult, service: OAuthService = 'notion'): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: service, result } satisfies ChannelMessage);
  channel.close();
}

/**
 * Opens a service's authorise page in a popup and waits for the outcome that /oauth/{service}
 * announces. Call it straight from the click handler: the window has to be opened before anything
 * is awaited. Throws when the popup was blocked or the authorise URL could not be had.
 */
async function authorizeInPopup(
  service: OAuthService,
  blockedMessage: string,
  authorizeUrl: () => Promise<string>,
): Promise<ConnectResult> {
  const popup = window.open('', `reaction-blocks-${service}`, 'popup,width=600,height=760');
  if (!popup) throw new Error(blockedMessage);
  let url: string;
  try {
    url = await authorizeUrl();
  } catch (cause) {
    popup.close();
    throw cause;
  }
  popup.location.href = url;
  return new Promise<ConnectResult>((resolve) => {
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    let timer = 0;
    let done = false;
    const finish = (result: ConnectResult) => {
      if (done) return;
      done = true;
      channel?.close();
      window.clearInterval(timer);
      resolve(result);
    };
    if (channel) {
      channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
        if (event.data?.type === service) finish(event.data.result);
      };
    }
    // a window closed without a word (the owner closed it, or the channel is missing)
    timer = window.setInterval(() => {
      if (popup.closed) window.setTimeout(() => finish({ status: 'closed' }), 300);
    }, 500);
  });
}

/** Notion's authorise page in a popup (see authorizeInPopup). */
export const connectNotion = (blockedMessage: string): Promise<ConnectResult> =>
  authorizeInPopup('notion', blockedMessage, async () => {
    const body = ZNotionAuthorize.parse({ redirectUrl: notionRedirectUrl() });
    return (await invokeFunction<{ url: string }>('notion-authorize', body)).url;
  });

/** The Cafe24 mall's consent page in a popup (see authorizeInPopup). */
export const connectCafe24 = (mallId: string, blockedMessage: string): Promise<ConnectResult> =>
  authorizeInPopup('cafe24', blockedMessage, async () => {
    const body = ZCafe24Authorize.parse({ mallId, redirectUrl: oauthRedirectUrl('cafe24') });
    return (await invokeFunction<{ url: string }>('cafe24-authorize', body)).url;
  });

/**
 * /oauth/{service}: the code the service returned, exchanged by set-notion-token or set-cafe24
 * (the spec's setNotionToken and setCafe24). One call per code.
 */
const completions = new Map<string, Promise<{ workspaceName: string }>>();
export function completeConnection(
  service: OAuthService,
  code: string,
  state: string,
): Promise<{ workspaceName: string }> {
  const key = `${service}:${code}`;
  let pending = completions.get(key);
  if (!pending) {
    pending =
      service === 'cafe24'
        ? invokeFunction<{ integration: { mallId: string } }>(
            'set-cafe24',
            ZSetCafe24.parse({ code, state, redirectUrl: oauthRedirectUrl('cafe24') }),
          ).then((data) => ({ workspaceName: data.integration.mallId }))
        : invokeFunction<{ integration: { workspaceName: string } }>(
            'set-notion-token',
            ZSetNotionToken.parse({ code, state, redirectUrl: notionRedirectUrl() }),
          ).then((data) => ({ workspaceName: data.integration.workspaceName }));
    completions.set(key, pending);
  }
  return pending;
}

export async function searchNotionObjects(
  target: 'database' | 'page',
  query: string | undefined,
  signal: AbortSignal,
): Promise<TNotionObject[]> {
  const body = ZSearchNotionObjects.parse({ target, ...(query ? { query } : {}) });
  return (await invokeFunction<{ objects: TNotionObject[] }>('search-notion-objects', body, signal))
    .objects;
}

export async function removeIntegration(
  mode: 'notion',
): Promise<{ revoked: boolean; unlinked: number }>;
export async function removeIntegration(mode: 'cafe24'): Promise<{ removing: boolean }>;
export async function removeIntegration(mode: IntegrationProvider) {
  return invokeFunction('remove-integration', ZRemoveIntegration.parse({ mode }));
}

// Integrations (Notion) for the screens that show them: /profile/integration and /oauth/notion
// (features/integrations) and the workspace's Integration section. The calls are the spec's
// setNotionToken, searchNotionObjects and removeIntegration as edge functions, plus reads of
// the owner's integrations and notes (RLS: their own rows; the token is never readable).
//
// Connecting opens Notion's authorise page in a popup: the window is opened in the click (so no
// popup blocker stops it), then sent to the URL notion-authorize answers. Notion sends it back to
// /oauth/notion, which finishes the connection and tells this window on a BroadcastChannel (the
// opener may be cut off by the provider's pages), then closes.
import type { TIntegrationStatus } from '@reaction-blocks/contracts/enums';
import {
  ZNotionAuthorize,
  ZRemoveIntegration,
  ZSearchNotionObjects,
  ZSetNotionToken,
  type TNotionObject,
} from '@reaction-blocks/contracts/schemas';
import { invokeFunction, supabase } from './supabase';

export type { TNotionObject } from '@reaction-blocks/contracts/schemas';

export const NOTION_REDIRECT_PATH = '/oauth/notion';
const CHANNEL = 'reaction-blocks:integrations';

export interface NotionIntegration {
  id: string;
  status: TIntegrationStatus;
  workspace_name: string | null;
  status_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type NoteCode = 'column_type' | 'target_missing' | 'unauthorized' | 'write_failed';

export interface IntegrationNote {
  id: string;
  block_id: string | null;
  code: NoteCode;
  property: string;
  detail: Record<string, unknown>;
  count: number;
  last_at: string;
}

export async function getNotionIntegration(): Promise<NotionIntegration | null> {
  const { data, error } = await supabase
    .from('integrations')
    .select('id, status, workspace_name, status_reason, created_at, updated_at')
    .eq('provider', 'notion')
    .maybeSingle();
  if (error) throw error;
  return (data as NotionIntegration | null) ?? null;
}

/** The notes of one block, or (null) those about the connection itself. */
export async function listIntegrationNotes(blockId: string | null): Promise<IntegrationNote[]> {
  const query = supabase
    .from('integration_notes')
    .select('id, block_id, code, property, detail, count, last_at')
    .order('last_at', { ascending: false });
  const { data, error } = await (blockId === null
    ? query.is('block_id', null)
    : query.eq('block_id', blockId));
  if (error) throw error;
  return (data ?? []) as IntegrationNote[];
}

export async function dismissIntegrationNote(id: string): Promise<void> {
  const { error } = await supabase.from('integration_notes').delete().eq('id', id);
  if (error) throw error;
}

export function notionRedirectUrl(origin = window.location.origin): string {
  return `${origin}${NOTION_REDIRECT_PATH}`;
}

export type ConnectResult =
  | { status: 'connected'; workspaceName: string }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string }
  /** The window was closed before it said anything (reload the status to know). */
  | { status: 'closed' };

interface ChannelMessage {
  type: 'notion';
  result: ConnectResult;
}

/** /oauth/notion tells the window that opened the popup how it went. */
export function announceConnection(result: ConnectResult): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'notion', result } satisfies ChannelMessage);
  channel.close();
}

/**
 * Opens Notion's authorise page in a popup and waits for the outcome. Call it straight from the
 * click handler: the window has to be opened before anything is awaited. Throws when the popup
 * was blocked or the authorise URL could not be had.
 */
export async function connectNotion(blockedMessage: string): Promise<ConnectResult> {
  const popup = window.open('', 'reaction-blocks-notion', 'popup,width=600,height=760');
  if (!popup) throw new Error(blockedMessage);
  let url: string;
  try {
    const body = ZNotionAuthorize.parse({ redirectUrl: notionRedirectUrl() });
    url = (await invokeFunction<{ url: string }>('notion-authorize', body)).url;
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
        if (event.data?.type === 'notion') finish(event.data.result);
      };
    }
    // a window closed without a word (the owner closed it, or the channel is missing)
    timer = window.setInterval(() => {
      if (popup.closed) window.setTimeout(() => finish({ status: 'closed' }), 300);
    }, 500);
  });
}

/** /oauth/notion: the code Notion returned, exchanged by set-notion-token. One call per code. */
const completions = new Map<string, Promise<{ workspaceName: string }>>();
export function completeNotionConnection(
  code: string,
  state: string,
): Promise<{ workspaceName: string }> {
  let pending = completions.get(code);
  if (!pending) {
    const body = ZSetNotionToken.parse({ code, state, redirectUrl: notionRedirectUrl() });
    pending = invokeFunction<{ integration: { workspaceName: string } }>(
      'set-notion-token',
      body,
    ).then((data) => ({ workspaceName: data.integration.workspaceName }));
    completions.set(code, pending);
  }
  return pending;
}

export async function searchNotionObjects(
  target: 'database' | 'page',
  query?: string,
): Promise<TNotionObject[]> {
  const body = ZSearchNotionObjects.parse({ target, ...(query ? { query } : {}) });
  return (await invokeFunction<{ objects: TNotionObject[] }>('search-notion-objects', body))
    .objects;
}

export async function removeIntegration(
  mode: 'notion',
): Promise<{ revoked: boolean; unlinked: number }> {
  return invokeFunction('remove-integration', ZRemoveIntegration.parse({ mode }));
}

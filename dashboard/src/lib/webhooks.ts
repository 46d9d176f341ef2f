// Outgoing webhooks for the workspace's Webhooks section (docs/webhooks.md): the owner's endpoints
// that apply to a block (its own and those for every block), their delivery log, and the calls:
// save (save-webhook-endpoint, the same schema on the server), rotate the secret, send a test,
// delete (RLS: the owner's own). The secrets are never readable: the functions answer a new one
// once.
import {
  ZSaveWebhookEndpoint,
  ZWebhookEndpointId,
  type TSaveWebhookEndpoint,
  type TWebhookEvent,
} from '@reaction-blocks/contracts/webhooks';
import { z } from 'zod';
import { invokeFunction, supabase } from './supabase';

export interface WebhookEndpoint {
  id: string;
  block_id: string | null;
  url: string;
  events: TWebhookEvent[];
  description: string;
  enabled: boolean;
  secret_hint: string;
  created_at: string;
}

export interface WebhookDelivery {
  id: string;
  endpoint_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
}

const ENDPOINT_COLUMNS = 'id, block_id, url, events, description, enabled, secret_hint, created_at';

/** The owner's endpoints for this block and for all blocks, oldest first. */
export async function listWebhookEndpoints(
  blockId: string,
  signal: AbortSignal,
): Promise<WebhookEndpoint[]> {
  // written into a PostgREST filter string: exactly a uuid, nothing that could change the filter
  const id = z.uuid().parse(blockId);
  const { data, error } = await supabase
    .from('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .or(`block_id.eq.${id},block_id.is.null`)
    .order('created_at')
    .abortSignal(signal);
  if (error) throw error;
  return (data ?? []) as WebhookEndpoint[];
}

/** The last deliveries of some endpoints, newest first. */
export async function listWebhookDeliveries(
  endpointIds: string[],
  signal: AbortSignal,
  limit = 30,
): Promise<WebhookDelivery[]> {
  if (endpointIds.length === 0) return [];
  const { data, error } = await supabase
    .from('webhook_deliveries')
    .select(
      'id, endpoint_id, event_type, status, attempts, response_status, last_error, created_at, last_attempt_at',
    )
    .in('endpoint_id', endpointIds)
    .order('created_at', { ascending: false })
    .limit(limit)
    .abortSignal(signal);
  if (error) throw error;
  return (data ?? []) as WebhookDelivery[];
}

/** Saves an endpoint; a new one comes with its secret (shown once). */
export async function saveWebhookEndpoint(
  input: Partial<TSaveWebhookEndpoint> & Pick<TSaveWebhookEndpoint, 'url' | 'events' | 'blockId'>,
): Promise<{ endpoint: WebhookEndpoint; secret?: string }> {
  return invokeFunction('save-webhook-endpoint', ZSaveWebhookEndpoint.parse(input));
}

export async function rotateWebhookSecret(endpointId: string): Promise<{ secret: string }> {
  return invokeFunction('rotate-webhook-secret', ZWebhookEndpointId.parse({ endpointId }));
}

export async function sendTestWebhook(
  endpointId: string,
): Promise<{ ok: boolean; status: number | null; error: string | null }> {
  return invokeFunction('send-test-webhook', ZWebhookEndpointId.parse({ endpointId }));
}

export async function deleteWebhookEndpoint(endpointId: string): Promise<void> {
  const { error } = await supabase.from('webhook_endpoints').delete().eq('id', endpointId);
  if (error) throw error;
}

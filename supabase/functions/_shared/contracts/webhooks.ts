// Outgoing webhooks' payloads (docs/webhooks.md), shared by the dashboard and the functions:
// saving an endpoint, rotating its secret, sending a test event.
import { z } from 'zod';

export const WEBHOOK_EVENTS = [
  'response.created',
  'message.created',
  'unsubscribe.created',
] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_MESSAGES = {
  invalidUrl: 'Enter an https address of a server on the Internet',
  noEvents: 'Choose at least one event',
  tooMany: 'Too many webhook endpoints',
  notFound: 'Webhook endpoint doesn’t exists',
  unreachable: 'This address does not lead to a public server',
} as const;

/** At most this many endpoints per owner (the database says so too). */
export const WEBHOOK_ENDPOINTS_MAX = 10;

/**
 * An endpoint address: https, no credentials, the default port, a host name (not an address
 * literal, not localhost). Where it leads is checked by the function (the SSRF guard) when it is
 * saved and again at every delivery.
 */
export const webhookUrl = z
  .string({ error: WEBHOOK_MESSAGES.invalidUrl })
  .trim()
  .max(500, { error: WEBHOOK_MESSAGES.invalidUrl })
  .refine(
    (v) => {
      let url: URL;
      try {
        url = new URL(v);
      } catch {
        return false;
      }
      const host = url.hostname.toLowerCase();
      return (
        url.protocol === 'https:' &&
        (url.port === '' || url.port === '443') &&
        !url.username &&
        !url.password &&
        !url.hash &&
        host.includes('.') &&
        !/^[\d.]+$/.test(host) &&
        !host.startsWith('[') &&
        !/(^|\.)localhost$/.test(host)
      );
    },
    { error: WEBHOOK_MESSAGES.invalidUrl },
  );

export const ZSaveWebhookEndpoint = z.strictObject({
  /** Absent for a new endpoint. */
  id: z.uuid({ error: 'Invalid id' }).optional(),
  /** null: every block of the owner. */
  blockId: z.uuid({ error: 'Invalid id' }).nullable(),
  url: webhookUrl,
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'Unknown event' }))
    .min(1, { error: WEBHOOK_MESSAGES.noEvents })
    .max(3)
    .refine((list) => new Set(list).size === list.length, { error: 'Unknown event' }),
  description: z.string().trim().max(100, { error: 'Too long message' }).default(''),
  enabled: z.boolean().default(true),
});
export type TSaveWebhookEndpoint = z.infer<typeof ZSaveWebhookEndpoint>;

export const ZWebhookEndpointId = z.strictObject({ endpointId: z.uuid({ error: 'Invalid id' }) });
export type TWebhookEndpointId = z.infer<typeof ZWebhookEndpointId>;

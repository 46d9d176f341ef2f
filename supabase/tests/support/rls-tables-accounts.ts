// The RLS matrix's cases for what an owner keeps beside their blocks: sender addresses,
// integrations and Cafe24, webhooks, payments, coupons and refunds, the audience, letters, their
// deliveries and unsubscribes. rls.test.ts runs each against every client role.

import { type TableCase, uid } from './rls-world.ts';

export const ACCOUNT_TABLES: TableCase[] = [
  {
    table: 'sender_emails',
    key: (w) => ({ id: w.senderEmail }),
    readers: ['owner'],
    // added and verified by the mail edge functions
    ownerInsert: { row: () => ({ email: 'mine@example.com', status: 'verified' }), allowed: false },
    strangerInsert: (w) => ({ user_id: w.owner.id, email: 'planted@example.com' }),
    update: {
      patch: { status: 'verified', spf_verified: true, dkim_verified: true },
      ownerMay: false,
    },
    // through delete-mail-verified, which releases the provider's identity with the last claim
    ownerMayDelete: false,
  },
  {
    table: 'integrations',
    key: (w) => ({ id: w.integration }),
    readers: ['owner'],
    ownerInsert: { row: () => ({ provider: 'cafe24' }), allowed: false },
    strangerInsert: (w) => ({ user_id: w.owner.id, provider: 'cafe24' }),
    update: { patch: { status: 'not_granted' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    // written by the jobs worker and the integration functions; the owner reads and dismisses
    table: 'integration_notes',
    key: (w) => ({ id: w.integrationNote }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({ user_id: w.owner.id, block_id: w.formBlock, code: 'write_failed' }),
      allowed: false,
    },
    strangerInsert: (w) => ({ user_id: w.owner.id, block_id: w.formBlock, code: 'unauthorized' }),
    update: { patch: { count: 5 }, ownerMay: false },
    ownerMayDelete: true,
  },
  {
    // written by the cafe24 functions and the jobs worker; the owner reads (no token in it)
    table: 'cafe24_shops',
    key: (w) => ({ id: w.cafe24Shop }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({ integration_id: w.integration, user_id: w.owner.id, mall_id: 'ownerrow1' }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      integration_id: w.integration,
      user_id: w.owner.id,
      mall_id: 'strangerrow1',
    }),
    update: { patch: { removing: true }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    // written through save-cafe24-placements only
    table: 'cafe24_placements',
    key: (w) => ({ id: w.cafe24Placement }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({ user_id: w.owner.id, block_id: w.formBlock, location: 'product_detail' }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      user_id: w.owner.id,
      block_id: w.formBlock,
      location: 'product_detail',
    }),
    update: { patch: { per_product: true }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    // written through save-webhook-endpoint; the owner reads and deletes (no secret in it)
    table: 'webhook_endpoints',
    key: (w) => ({ id: w.webhookEndpoint }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({
        user_id: w.owner.id,
        url: 'https://hooks.example.com/y',
        events: ['message.created'],
      }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      user_id: w.owner.id,
      url: 'https://evil.example.com/',
      events: ['message.created'],
    }),
    update: { patch: { url: 'https://evil.example.com/' }, ownerMay: false },
    ownerMayDelete: true,
  },
  {
    // written by the triggers and the jobs worker; the owner reads the log
    table: 'webhook_deliveries',
    key: (w) => ({ id: w.webhookDelivery }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({
        endpoint_id: w.webhookEndpoint,
        user_id: w.owner.id,
        event_type: 'webhook.test',
        payload: {},
      }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      endpoint_id: w.webhookEndpoint,
      user_id: w.owner.id,
      event_type: 'webhook.test',
      payload: {},
    }),
    update: { patch: { status: 'delivered' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'payments',
    key: (w) => ({ id: w.payment }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({ user_id: w.owner.id, type: 'custom', price: 0 }),
      allowed: false,
    },
    strangerInsert: (w) => ({ user_id: w.owner.id, type: 'custom', price: 0 }),
    update: { patch: { end_date: '2999-12-31' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'coupons',
    key: (w) => ({ id: w.coupon }),
    readers: [],
    ownerInsert: { row: () => ({ code: `MINE-${uid()}` }), allowed: false },
    strangerInsert: () => ({ code: `FREE-${uid()}` }),
    update: { patch: { max_redemptions: 1_000_000 }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'coupon_redemptions',
    key: (w) => ({ id: w.couponRedemption }),
    readers: [],
    ownerInsert: { row: (w) => ({ coupon_id: w.coupon, user_id: w.other.id }), allowed: false },
    strangerInsert: (w) => ({ coupon_id: w.coupon, user_id: w.other.id }),
    update: { patch: { payment_id: null }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'paypal_refunds',
    key: (w) => ({ subscription_id: w.paypalRefund }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({
        subscription_id: `I-MINE${uid().slice(0, 8)}`,
        user_id: w.owner.id,
        reason: 'x',
      }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      subscription_id: `I-PLANT${uid().slice(0, 8)}`,
      user_id: w.owner.id,
      reason: 'x',
    }),
    // the owner cannot clear the notice of a refund not made (only the operator marks it refunded)
    update: { patch: { status: 'refunded' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'audience_groups',
    key: (w) => ({ id: w.audienceGroup }),
    readers: ['owner'],
    ownerInsert: { row: (w) => ({ user_id: w.owner.id, name: 'vip' }), allowed: true },
    strangerInsert: (w) => ({ user_id: w.owner.id, name: 'planted' }),
    update: { patch: { name: 'friends' }, ownerMay: true },
    ownerMayDelete: true,
    forbiddenUpdates: [
      ['set count', () => ({ count: 1000 })],
      ['rename to a reserved name', () => ({ name: 'deactivated' })],
      ['give it to another user', (w) => ({ user_id: w.other.id })],
    ],
    forbiddenInserts: [
      ['a reserved group', (w) => ({ user_id: w.owner.id, name: 'activated' })],
      ['a group with a count', (w) => ({ user_id: w.owner.id, name: 'counted', count: 5 })],
      ['a group for another user', (w) => ({ user_id: w.other.id, name: 'gift' })],
    ],
  },
  {
    table: 'audience_members',
    key: (w) => ({ id: w.audienceMember }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({
        user_id: w.owner.id,
        email: 'imported@example.com',
        creator_name: 'Imported',
      }),
      allowed: true,
    },
    strangerInsert: (w) => ({ user_id: w.owner.id, email: 'planted@example.com' }),
    update: { patch: { creator_name: 'Renamed fan' }, ownerMay: true },
    ownerMayDelete: true,
    upsert: (w) => ({ id: w.audienceMember, user_id: w.owner.id, creator_name: 'Upserted fan' }),
    forbiddenUpdates: [
      ['set sent_count', () => ({ sent_count: 10 })],
      ['set opened_count', () => ({ opened_count: 10 })],
      ['move to another user', (w) => ({ user_id: w.other.id })],
    ],
    forbiddenInserts: [
      [
        'a member with mail counts',
        (w) => ({ user_id: w.owner.id, email: 'counted@example.com', delivered_count: 3 }),
      ],
      ['a member of another user', (w) => ({ user_id: w.other.id, email: 'gift@example.com' })],
    ],
  },
  {
    table: 'letter_templates',
    key: (w) => ({ id: w.letterTemplate }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({ block_id: w.letterBlock, mail_title: 'Second template' }),
      allowed: true,
    },
    strangerInsert: (w) => ({
      block_id: w.letterBlock,
      user_id: w.owner.id,
      mail_title: 'planted',
    }),
    update: { patch: { mail_title: 'Retitled template' }, ownerMay: true },
    ownerMayDelete: true,
    upsert: (w) => ({
      id: w.letterTemplate,
      block_id: w.letterBlock,
      user_id: w.owner.id,
      mail_title: 'Upserted',
    }),
    forbiddenUpdates: [
      ['move to another user', (w) => ({ user_id: w.other.id })],
      ["move to another user's block", (w) => ({ block_id: w.otherBlock })],
    ],
    forbiddenInserts: [
      [
        "a template on another user's block",
        (w) => ({ block_id: w.otherBlock, user_id: w.owner.id, mail_title: 'planted' }),
      ],
    ],
  },
  {
    table: 'publishes',
    key: (w) => ({ id: w.publish }),
    readers: ['owner'],
    ownerInsert: {
      row: (w) => ({ block_id: w.letterBlock, user_id: w.owner.id, subject: 'Direct' }),
      allowed: false,
    },
    strangerInsert: (w) => ({ block_id: w.letterBlock, user_id: w.owner.id, subject: 'planted' }),
    update: { patch: { opened_count: 1000 }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'deliveries',
    key: (w) => ({ id: w.delivery }),
    readers: ['owner'],
    // not provider_message_id nor updated_at (a suppressed address's bounce would show by them)
    readable: 'id, publish_id, user_id, audience_member_id, email, status, reason, created_at',
    ownerInsert: {
      row: (w) => ({ publish_id: w.publish, user_id: w.owner.id, email: 'direct@example.com' }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      publish_id: w.publish,
      user_id: w.owner.id,
      email: 'planted@example.com',
    }),
    update: { patch: { status: 'opened' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'unsubscribes',
    key: (w) => ({ id: w.unsubscribe }),
    readers: ['owner'],
    // written by the unsubscribe edge function; the owner may not unsubscribe or resubscribe people
    ownerInsert: {
      row: (w) => ({ user_id: w.owner.id, email: 'direct@example.com' }),
      allowed: false,
    },
    strangerInsert: (w) => ({ user_id: w.owner.id, email: 'planted@example.com' }),
    update: { patch: { email: 'changed@example.com' }, ownerMay: false },
    ownerMayDelete: false,
  },
];

// The world the RLS matrix (rls.test.ts) runs in: an owner with one row in every table, a stranger,
// a visitor; the matrix's types, and the helpers that read rows as the superuser and check a refusal.

import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { anonClient, newGuest, newUser, sql, stack, type TestUser } from './clients.ts';

// ---------------------------------------------------------------------------------------------
// a world: an owner with one row in every table, a stranger, a visitor
// ---------------------------------------------------------------------------------------------

export interface World {
  owner: TestUser;
  other: TestUser;
  guest: TestUser;
  formBlock: string;
  /** A form block of the other user, to try moving rows into. */
  otherBlock: string;
  commentBlock: string;
  letterBlock: string;
  tag: string;
  question: string;
  option: string;
  ending: string;
  defaultEnding: string;
  condition: string;
  response: string;
  message: string;
  /** The other user's report of the guest's message. */
  report: string;
  /** The other user, blocked by the owner from the comment block. */
  blockedWriter: string;
  senderEmail: string;
  integration: string;
  integrationNote: string;
  cafe24Shop: string;
  cafe24Placement: string;
  webhookEndpoint: string;
  webhookDelivery: string;
  payment: string;
  coupon: string;
  couponRedemption: string;
  paypalRefund: string;
  audienceGroup: string;
  reservedGroup: string;
  audienceMember: string;
  letterTemplate: string;
  publish: string;
  delivery: string;
  unsubscribe: string;
}

const COMMENTER_EMAIL = 'commenter-secret@example.com';
const INTEGRATION_TOKEN = 'secret-notion-access-token';

async function withDb<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: stack().dbUrl });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

export async function makeWorld(): Promise<World> {
  const [owner, other, guest] = await Promise.all([newUser('owner'), newUser('other'), newGuest()]);
  return withDb(async (db) => {
    const one = async (text: string, params: unknown[]) => {
      const { rows } = await db.query<{ id: string }>(text, params);
      return rows[0]!.id;
    };
    await db.query('update public.profiles set block_limit = 10 where id = $1', [owner.id]);
    const block = (type: string) =>
      one('insert into public.blocks (owner_id, type, name) values ($1, $2, $3) returning id', [
        owner.id,
        type,
        `${type} block`,
      ]);
    const formBlock = await block('form');
    const commentBlock = await block('comment');
    const letterBlock = await block('notion_letter');
    const otherBlock = await one(
      "insert into public.blocks (owner_id, type, name) values ($1, 'form', 'their block') returning id",
      [other.id],
    );
    const tag = await one(
      'insert into public.user_tags (user_id, label) values ($1, $2) returning id',
      [owner.id, 'mine'],
    );
    const question = await one(
      "insert into public.questions (block_id, type, title) values ($1, 'poll', 'Pick') returning id",
      [formBlock],
    );
    const option = await one(
      "insert into public.options (question_id, block_id, value) values ($1, $2, 'A') returning id",
      [question, formBlock],
    );
    const ending = await one(
      "insert into public.endings (block_id, index, title) values ($1, 1, 'Custom') returning id",
      [formBlock],
    );
    const defaultEnding = await one(
      'select id from public.endings where block_id = $1 and is_default',
      [formBlock],
    );
    const condition = await one(
      "insert into public.ending_conditions (ending_id, block_id, question_id, type, value) values ($1, $2, $3, 'equal', 'A') returning id",
      [ending, formBlock, question],
    );
    const response = await one(
      "insert into public.responses (block_id, kind, creator_id, creator_name, answers) values ($1, 'form', $2, 'Visitor', '{}') returning id",
      [formBlock, guest.id],
    );
    const message = await one(
      "insert into public.messages (block_id, creator_id, creator_name, content) values ($1, $2, 'Visitor', 'hello') returning id",
      [commentBlock, guest.id],
    );
    await db.query(
      'insert into public.message_private (message_id, block_id, creator_email) values ($1, $2, $3)',
      [message, commentBlock, COMMENTER_EMAIL],
    );
    await db.query('insert into public.message_likes (message_id, user_id) values ($1, $2)', [
      message,
      owner.id,
    ]);
    await db.query(
      "insert into public.message_reports (message_id, block_id, user_id, reason) values ($1, $2, $3, 'spam')",
      [message, commentBlock, other.id],
    );
    await db.query('insert into public.blocked_writers (block_id, user_id) values ($1, $2)', [
      commentBlock,
      other.id,
    ]);
    const senderEmail = await one(
      "insert into public.sender_emails (user_id, email) values ($1, 'letters@example.com') returning id",
      [owner.id],
    );
    const integration = await one(
      "insert into public.integrations (user_id, provider) values ($1, 'notion') returning id",
      [owner.id],
    );
    await db.query(
      'insert into private.integration_tokens (integration_id, access_token, refresh_token) values ($1, $2, $3)',
      [integration, INTEGRATION_TOKEN, 'secret-refresh-token'],
    );
    const integrationNote = await one(
      "insert into public.integration_notes (user_id, block_id, code, property, detail) values ($1, $2, 'column_type', 'Score', '{\"column_type\":\"checkbox\"}') returning id",
      [owner.id, formBlock],
    );
    const cafe24Integration = await one(
      "insert into public.integrations (user_id, provider) values ($1, 'cafe24') returning id",
      [owner.id],
    );
    const cafe24Shop = await one(
      'insert into public.cafe24_shops (integration_id, user_id, mall_id) values ($1, $2, $3) returning id',
      [cafe24Integration, owner.id, `w${uid().replace(/-/g, '').slice(0, 12)}`],
    );
    const cafe24Placement = await one(
      "insert into public.cafe24_placements (user_id, block_id, location) values ($1, $2, 'main') returning id",
      [owner.id, formBlock],
    );
    const webhookEndpoint = await one(
      "insert into public.webhook_endpoints (user_id, block_id, url, events) values ($1, $2, 'https://hooks.example.com/x', '{message.created}') returning id",
      [owner.id, formBlock],
    );
    const webhookDelivery = await one(
      "insert into public.webhook_deliveries (endpoint_id, user_id, event_type, payload) values ($1, $2, 'message.created', '{}') returning id",
      [webhookEndpoint, owner.id],
    );
    const payment = await one(
      "insert into public.payments (user_id, type, method, provider_payment_id) values ($1, 'basic', 'paypal', 'PAY-SECRET') returning id",
      [owner.id],
    );
    const coupon = await one(
      'insert into public.coupons (code, content) values ($1, \'{"blockLimit": 8}\') returning id',
      [`CODE-${randomUUID()}`],
    );
    const couponRedemption = await one(
      'insert into public.coupon_redemptions (coupon_id, user_id, payment_id) values ($1, $2, $3) returning id',
      [coupon, owner.id, payment],
    );
    const paypalRefund = `I-RLS${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
    await db.query(
      "insert into public.paypal_refunds (subscription_id, user_id, reason, status) values ($1, $2, 'Not a plan', 'failed')",
      [paypalRefund, owner.id],
    );
    // adding audience members and groups is paid (supabase/schemas/audience.sql)
    await db.query('update public.profiles set paid = true where id = $1', [owner.id]);
    const audienceGroup = await one(
      "insert into public.audience_groups (user_id, name) values ($1, 'fans') returning id",
      [owner.id],
    );
    const reservedGroup = await one(
      "select id from public.audience_groups where user_id = $1 and name = 'activated'",
      [owner.id],
    );
    const audienceMember = await one(
      "insert into public.audience_members (user_id, creator_id, creator_name, email, group_name) values ($1, $2, 'Fan', 'fan@example.com', 'fans') returning id",
      [owner.id, guest.id],
    );
    const letterTemplate = await one(
      "insert into public.letter_templates (block_id, user_id, mail_title) values ($1, $2, 'Template') returning id",
      [letterBlock, owner.id],
    );
    const publish = await one(
      "insert into public.publishes (block_id, user_id, subject) values ($1, $2, 'Issue 1') returning id",
      [letterBlock, owner.id],
    );
    const delivery = await one(
      "insert into public.deliveries (publish_id, user_id, email) values ($1, $2, 'reader@example.com') returning id",
      [publish, owner.id],
    );
    const unsubscribe = await one(
      "insert into public.unsubscribes (user_id, block_id, email) values ($1, $2, 'gone@example.com') returning id",
      [owner.id, letterBlock],
    );
    return {
      owner,
      other,
      guest,
      formBlock,
      otherBlock,
      commentBlock,
      letterBlock,
      tag,
      question,
      option,
      ending,
      defaultEnding,
      condition,
      response,
      message,
      report: message,
      blockedWriter: other.id,
      senderEmail,
      integration,
      integrationNote,
      cafe24Shop,
      cafe24Placement,
      webhookEndpoint,
      webhookDelivery,
      payment,
      coupon,
      couponRedemption,
      paypalRefund,
      audienceGroup,
      reservedGroup,
      audienceMember,
      letterTemplate,
      publish,
      delivery,
      unsubscribe,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// the matrix's types
// ---------------------------------------------------------------------------------------------

export type Row = Record<string, unknown>;
export type Stranger = 'anon' | 'other' | 'guest';
export const STRANGERS: Stranger[] = ['anon', 'other', 'guest'];
export type Role = 'owner' | Stranger;

export interface TableCase {
  table: string;
  /** Filter that finds the owner's row of this table in the world. */
  key: (w: World) => Row;
  /** Which roles see that row through select. */
  readers: Role[];
  /** The columns a client may read, where not all (column grants); `*` otherwise. */
  readable?: string;
  /** What the owner tries to insert (or upsert), and whether it is allowed. */
  ownerInsert: { row: (w: World) => Row; allowed: boolean; via?: 'upsert' };
  /** What a stranger tries to insert: a row attached to the owner's data. Always refused. */
  strangerInsert: (w: World) => Row;
  /** A harmless change; `ownerMay` says whether the owner may make it. Strangers never may. */
  update: { patch: Row; ownerMay: boolean };
  /** Whether the owner may delete the row. Strangers never may. */
  ownerMayDelete: boolean;
  /**
   * Changes the owner must not make to their own row (counters, ownership, server-kept state):
   * refused, or (for tables the dashboard upserts) accepted with those columns kept as stored.
   */
  forbiddenUpdates?: Array<[string, (w: World) => Row]>;
  /** Inserts the owner must not make: refused, or stored without the forbidden values. */
  forbiddenInserts?: Array<[string, (w: World) => Row]>;
  /** Tables the dashboard saves with PostgREST upserts: the owner's row with a change. */
  upsert?: (w: World) => Row;
}

export const uid = () => randomUUID();

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

export function clientOf(w: World, role: Role): SupabaseClient {
  if (role === 'anon') return anonClient();
  return w[role].client;
}

/** The rows of `table` that contain `match` (as jsonb), read as the superuser. */
export async function rowsMatching(table: string, match: Row): Promise<Row[]> {
  const rows = await sql<{ row: Row }>(
    `select to_jsonb(t) as row from public.${table} t where to_jsonb(t) @> $1::jsonb`,
    [JSON.stringify(match)],
  );
  return rows.map((r) => r.row);
}

export interface ApiResult {
  error: { code?: string; message: string } | null;
  count?: number | null;
  data?: unknown;
}

/** Refused: a privilege or RLS error (42501), or nothing affected. */
export function expectRefusedWrite(res: ApiResult, what: string) {
  if (res.error) {
    expect(res.error.code, `${what}: ${res.error.message}`).toBe('42501');
  } else {
    expect(res.count ?? 0, `${what}: affected rows`).toBe(0);
  }
}

export function expectRefusedInsert(res: ApiResult, what: string) {
  expect(res.error, `${what}: insert should fail`).not.toBeNull();
  expect(res.error!.code, `${what}: ${res.error!.message}`).toBe('42501');
}

// Row-level security matrix: every table of the public schema x every client role (anon without a
// JWT, the owner of the rows, another signed-in user, an anonymous visitor) x select / insert /
// update / delete, through the unmodified supabase-js against the running stack. Each case says
// what is allowed and what is refused; refused writes are checked in the database afterwards.
// Grants on schemas private and auth, and the list of RPCs a client role may call, are checked
// from the catalogue so that a new table or function without a decision fails this suite.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { anonClient, newGuest, newUser, sql, stack, type TestUser } from './support/clients.ts';

// ---------------------------------------------------------------------------------------------
// a world: an owner with one row in every table, a stranger, a visitor
// ---------------------------------------------------------------------------------------------

interface World {
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

async function makeWorld(): Promise<World> {
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
// the matrix
// ---------------------------------------------------------------------------------------------

type Row = Record<string, unknown>;
type Stranger = 'anon' | 'other' | 'guest';
const STRANGERS: Stranger[] = ['anon', 'other', 'guest'];
type Role = 'owner' | Stranger;

interface TableCase {
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

const uid = () => randomUUID();

const TABLES: TableCase[] = [
  {
    table: 'profiles',
    key: (w) => ({ id: w.owner.id }),
    readers: ['owner'],
    ownerInsert: { row: () => ({ id: uid(), name: 'second profile' }), allowed: false },
    strangerInsert: () => ({ id: uid(), name: 'intruder' }),
    update: { patch: { name: 'New name' }, ownerMay: true },
    ownerMayDelete: false,
    forbiddenUpdates: [
      ['raise block_limit', () => ({ block_limit: 999 })],
      ['change paid (the world owner is paid)', () => ({ paid: false })],
      ['set agree', () => ({ agree: true })],
      ['raise response_monthly_limit', () => ({ response_monthly_limit: 1_000_000 })],
      ['reset block_count', () => ({ block_count: 0 })],
      ['change email', () => ({ email: 'someone-else@example.com' })],
      ['change id', (w) => ({ id: w.other.id })],
    ],
  },
  {
    table: 'user_tags',
    key: (w) => ({ id: w.tag }),
    readers: ['owner'],
    ownerInsert: { row: (w) => ({ user_id: w.owner.id, label: 'new tag' }), allowed: true },
    strangerInsert: (w) => ({ user_id: w.owner.id, label: 'planted' }),
    update: { patch: { label: 'renamed' }, ownerMay: true },
    ownerMayDelete: true,
    forbiddenUpdates: [['give the tag to another user', (w) => ({ user_id: w.other.id })]],
    forbiddenInserts: [['a tag for another user', (w) => ({ user_id: w.other.id, label: 'gift' })]],
  },
  {
    table: 'blocks',
    key: (w) => ({ id: w.formBlock }),
    // the owner only: visitors read a block's public settings through get_block_view (never
    // its tags, unread count or trust settings)
    readers: ['owner'],
    // created by create_block and duplicate_block only, so no block starts with settings that
    // skipped save-block's schema and plan checks
    ownerInsert: { row: () => ({ type: 'like', name: `direct ${uid()}` }), allowed: false },
    strangerInsert: (w) => ({ owner_id: w.owner.id, type: 'like', name: 'planted' }),
    // the block list's tag dialog; every other setting goes through save-block
    update: { patch: { tags: ['renamed'] }, ownerMay: true },
    ownerMayDelete: true,
    forbiddenUpdates: [
      ['give the block away', (w) => ({ owner_id: w.other.id })],
      ['change the type', () => ({ type: 'comment' })],
      ['set response_count', () => ({ response_count: 100 })],
      ['set like_count', () => ({ like_count: 100 })],
      ['raise new_response_count', () => ({ new_response_count: 5 })],
      ['reactivate / deactivate', () => ({ deactivated: true })],
      ['change created_at', () => ({ created_at: '2000-01-01T00:00:00Z' })],
      ['rename it past save-block', () => ({ name: 'Renamed' })],
      ['change a setting past save-block', () => ({ welcome_message: 'direct' })],
      ['turn on the custom theme past save-block', () => ({ theme: 'custom' })],
      ['set an Open Graph override past save-block', () => ({ open_graph: { title: 'Mine' } })],
      ['set the preview mode', () => ({ mode: 'ending', ending_mode: '0' })],
      ['hold messages past save-block', () => ({ hold_messages: 'all' })],
      ['turn on the captcha past save-block', () => ({ captcha: true })],
      ['raise its own rate limits', () => ({ rate_limits: { message: { visitor_burst: 1000 } } })],
      ['tag with a blank label', () => ({ tags: [' '] })],
      ['tag with an untrimmed label', () => ({ tags: ['padded\n'] })],
      ['tag longer than 50 characters', () => ({ tags: ['x'.repeat(51)] })],
    ],
    forbiddenInserts: [
      ['a block for another user', (w) => ({ owner_id: w.other.id, type: 'like' })],
      ['a block with counters', () => ({ type: 'like', response_count: 50, like_count: 50 })],
      ['a deactivated block', () => ({ type: 'like', deactivated: true })],
      ['a block with the custom theme', () => ({ type: 'comment', theme: 'custom' })],
    ],
  },
  {
    table: 'block_private',
    key: (w) => ({ block_id: w.formBlock }),
    readers: ['owner'],
    // created with the block (a definer trigger), written by save_block only
    ownerInsert: {
      row: (w) => ({
        block_id: w.commentBlock,
        owner_id: w.owner.id,
        mail_to: 'upserted@example.com',
      }),
      allowed: false,
      via: 'upsert',
    },
    strangerInsert: (w) => ({ block_id: w.formBlock, owner_id: w.owner.id }),
    update: { patch: { mail_to: 'notify@example.com' }, ownerMay: false },
    ownerMayDelete: false,
    forbiddenUpdates: [
      ['change owner_id', (w) => ({ owner_id: w.other.id })],
      ["move to another user's block", (w) => ({ block_id: w.otherBlock })],
      ['connect Notion past save-block', () => ({ notion_database: 'db', notion_page: 'page' })],
    ],
    forbiddenInserts: [
      [
        'an upsert of the existing row',
        (w) => ({ block_id: w.formBlock, owner_id: w.owner.id, notion_page: 'upserted page' }),
      ],
      [
        "settings for another user's block as themselves",
        (w) => ({ block_id: w.otherBlock, owner_id: w.owner.id, mail_to: 'steal@example.com' }),
      ],
      [
        "settings for another user's block as them",
        (w) => ({ block_id: w.otherBlock, owner_id: w.other.id, mail_to: 'steal@example.com' }),
      ],
    ],
  },
  // Form content: read with the block, written by save_block only (the save-block edge function
  // validates with ZSaveBlock and refuses paid-only features). Owners hold no write rights.
  {
    table: 'questions',
    key: (w) => ({ id: w.question }),
    readers: ['owner', 'anon', 'other', 'guest'],
    ownerInsert: {
      row: (w) => ({ block_id: w.formBlock, type: 'short_text', title: 'New question' }),
      allowed: false,
    },
    strangerInsert: (w) => ({ block_id: w.formBlock, type: 'short_text', title: 'planted' }),
    update: { patch: { title: 'Retitled' }, ownerMay: false },
    ownerMayDelete: false,
    forbiddenUpdates: [
      ["move to another user's block", (w) => ({ block_id: w.otherBlock })],
      ["capture the respondent's email past save-block", () => ({ as_visitor_info: 'email' })],
      ['soft delete', () => ({ deleted: true })],
    ],
    forbiddenInserts: [
      [
        'an upsert of the existing row',
        (w) => ({ id: w.question, block_id: w.formBlock, type: 'poll', title: 'Upserted' }),
      ],
      [
        "a question in another user's block",
        (w) => ({ block_id: w.otherBlock, type: 'short_text', title: 'planted' }),
      ],
    ],
  },
  {
    table: 'options',
    key: (w) => ({ id: w.option }),
    readers: ['owner', 'anon', 'other', 'guest'],
    ownerInsert: {
      row: (w) => ({ question_id: w.question, block_id: w.formBlock, value: 'B', index: 1 }),
      allowed: false,
    },
    strangerInsert: (w) => ({ question_id: w.question, block_id: w.formBlock, value: 'planted' }),
    update: { patch: { value: 'A2' }, ownerMay: false },
    ownerMayDelete: false,
    // refused (no client grant nor policy to write) before the trigger keep_from_clients sees
    // them: keep-from-clients.test.ts covers the trigger
    forbiddenUpdates: [
      ['set response_count', () => ({ response_count: 42 })],
      ["move to another user's block", (w) => ({ block_id: w.otherBlock })],
    ],
    forbiddenInserts: [
      [
        'an upsert of the existing row',
        (w) => ({
          id: w.option,
          question_id: w.question,
          block_id: w.formBlock,
          value: 'Upserted',
        }),
      ],
      [
        'an option with a count',
        (w) => ({ question_id: w.question, block_id: w.formBlock, value: 'C', response_count: 9 }),
      ],
    ],
  },
  {
    table: 'endings',
    key: (w) => ({ id: w.ending }),
    readers: ['owner', 'anon', 'other', 'guest'],
    // a new custom ending is paid-only (save_block checks the plan)
    ownerInsert: {
      row: (w) => ({ block_id: w.formBlock, index: 2, title: 'Another ending' }),
      allowed: false,
    },
    strangerInsert: (w) => ({ block_id: w.formBlock, index: 2, title: 'planted' }),
    update: { patch: { title: 'Retitled ending' }, ownerMay: false },
    ownerMayDelete: false,
    // refused (no client grant nor policy to write) before the trigger keep_from_clients sees
    // it: keep-from-clients.test.ts covers the trigger
    forbiddenUpdates: [
      ['make it the default', () => ({ is_default: true })],
      ["move to another user's block", (w) => ({ block_id: w.otherBlock })],
      ['open a link on submit past save-block', () => ({ open_url: 'https://example.com' })],
    ],
    forbiddenInserts: [
      [
        'an upsert of the existing row',
        (w) => ({ id: w.ending, block_id: w.formBlock, title: 'Upserted ending' }),
      ],
      [
        'a second default ending',
        (w) => ({ block_id: w.formBlock, is_default: true, title: 'Default 2' }),
      ],
    ],
  },
  {
    table: 'ending_conditions',
    key: (w) => ({ id: w.condition }),
    readers: ['owner', 'anon', 'other', 'guest'],
    ownerInsert: {
      row: (w) => ({
        ending_id: w.ending,
        block_id: w.formBlock,
        question_id: w.question,
        type: 'empty',
        index: 1,
      }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      ending_id: w.ending,
      block_id: w.formBlock,
      question_id: w.question,
      type: 'empty',
      index: 7,
    }),
    update: { patch: { value: 'B' }, ownerMay: false },
    ownerMayDelete: false,
    forbiddenUpdates: [["move to another user's block", (w) => ({ block_id: w.otherBlock })]],
    forbiddenInserts: [
      [
        'an upsert of the existing row',
        (w) => ({
          id: w.condition,
          ending_id: w.ending,
          block_id: w.formBlock,
          question_id: w.question,
          type: 'equal',
          value: 'Up',
        }),
      ],
    ],
  },
  {
    table: 'responses',
    key: (w) => ({ id: w.response }),
    readers: ['owner'],
    // visitors respond through submit_response; nobody inserts rows directly
    ownerInsert: {
      row: (w) => ({ block_id: w.formBlock, kind: 'form', creator_id: w.owner.id, answers: {} }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      block_id: w.formBlock,
      kind: 'form',
      creator_id: uid(),
      answers: { forged: true },
    }),
    update: { patch: { creator_name: 'Edited' }, ownerMay: false },
    ownerMayDelete: true,
  },
  {
    table: 'messages',
    key: (w) => ({ id: w.message }),
    readers: ['owner', 'anon', 'other', 'guest'],
    // written through post_message / edit_message / delete_message only
    ownerInsert: {
      row: (w) => ({ block_id: w.commentBlock, creator_id: w.owner.id, content: 'direct' }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      block_id: w.commentBlock,
      creator_id: w.guest.id,
      content: 'planted',
    }),
    update: { patch: { content: 'edited' }, ownerMay: false },
    ownerMayDelete: false,
    forbiddenUpdates: [
      ['set like_count', () => ({ like_count: 99 })],
      // moderation goes through moderate_messages
      ['hide it past moderate_messages', () => ({ status: 'hidden' })],
      ['pin it past moderate_messages', () => ({ pinned_at: '2001-01-01T00:00:00Z' })],
    ],
  },
  {
    table: 'message_reports',
    key: (w) => ({ message_id: w.report, user_id: w.other.id }),
    // the block owner, and the visitor who reported it (their own report)
    readers: ['owner', 'other'],
    // written by report_message only
    ownerInsert: {
      row: (w) => ({ message_id: w.message, block_id: w.commentBlock, user_id: w.owner.id }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      message_id: w.message,
      block_id: w.commentBlock,
      user_id: w.guest.id,
      reason: 'planted',
    }),
    update: { patch: { reason: 'changed' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'blocked_writers',
    key: (w) => ({ block_id: w.commentBlock, user_id: w.blockedWriter }),
    readers: ['owner'],
    // written by block_writer only
    ownerInsert: {
      row: (w) => ({ block_id: w.commentBlock, user_id: w.guest.id }),
      allowed: false,
    },
    strangerInsert: (w) => ({ block_id: w.commentBlock, user_id: w.guest.id }),
    update: { patch: { created_at: '2001-01-01T00:00:00Z' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'message_private',
    key: (w) => ({ message_id: w.message }),
    // the block owner, and the guest because they wrote the message (their own address)
    readers: ['owner', 'guest'],
    ownerInsert: {
      row: (w) => ({
        message_id: w.message,
        block_id: w.commentBlock,
        creator_email: 'x@example.com',
      }),
      allowed: false,
    },
    strangerInsert: (w) => ({
      message_id: w.message,
      block_id: w.commentBlock,
      creator_email: 'planted@example.com',
    }),
    update: { patch: { creator_email: 'changed@example.com' }, ownerMay: false },
    ownerMayDelete: false,
  },
  {
    table: 'message_likes',
    key: (w) => ({ message_id: w.message, user_id: w.owner.id }),
    readers: ['owner'],
    // toggle_message_like keeps messages.like_count in step; no direct rows
    ownerInsert: { row: (w) => ({ message_id: w.message, user_id: w.owner.id }), allowed: false },
    strangerInsert: (w) => ({ message_id: w.message, user_id: w.owner.id }),
    update: { patch: { created_at: '2001-01-01T00:00:00Z' }, ownerMay: false },
    ownerMayDelete: false,
  },
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

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

function clientOf(w: World, role: Role): SupabaseClient {
  if (role === 'anon') return anonClient();
  return w[role].client;
}

/** The rows of `table` that contain `match` (as jsonb), read as the superuser. */
async function rowsMatching(table: string, match: Row): Promise<Row[]> {
  const rows = await sql<{ row: Row }>(
    `select to_jsonb(t) as row from public.${table} t where to_jsonb(t) @> $1::jsonb`,
    [JSON.stringify(match)],
  );
  return rows.map((r) => r.row);
}

interface ApiResult {
  error: { code?: string; message: string } | null;
  count?: number | null;
  data?: unknown;
}

/** Refused: a privilege or RLS error (42501), or nothing affected. */
function expectRefusedWrite(res: ApiResult, what: string) {
  if (res.error) {
    expect(res.error.code, `${what}: ${res.error.message}`).toBe('42501');
  } else {
    expect(res.count ?? 0, `${what}: affected rows`).toBe(0);
  }
}

function expectRefusedInsert(res: ApiResult, what: string) {
  expect(res.error, `${what}: insert should fail`).not.toBeNull();
  expect(res.error!.code, `${what}: ${res.error!.message}`).toBe('42501');
}

// ---------------------------------------------------------------------------------------------
// the matrix tests
// ---------------------------------------------------------------------------------------------

describe('RLS matrix', () => {
  it('covers exactly the tables of the public schema', async () => {
    const rows = await sql<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by 1",
    );
    expect(TABLES.map((t) => t.table).sort()).toEqual(rows.map((r) => r.tablename).sort());
  });

  describe.each(TABLES)('$table', (tc) => {
    it('select: only the listed roles see the row', async () => {
      const w = await makeWorld();
      for (const role of ['owner', ...STRANGERS] as Role[]) {
        const { data, error } = await clientOf(w, role)
          .from(tc.table)
          .select(tc.readable ?? '*')
          .match(tc.key(w));
        if (tc.readers.includes(role)) {
          expect(error, `${role} reads ${tc.table}`).toBeNull();
          expect(data, `${role} reads ${tc.table}`).toHaveLength(1);
        } else if (error) {
          expect(error.code, `${role} reads ${tc.table}: ${error.message}`).toBe('42501');
        } else {
          expect(data, `${role} must not read ${tc.table}`).toEqual([]);
        }
      }
    });

    it('insert: strangers are refused; the owner only as listed', async () => {
      const w = await makeWorld();
      for (const role of STRANGERS) {
        const row = tc.strangerInsert(w);
        // the stranger's row may equal one that already exists (message_likes)
        const before = (await rowsMatching(tc.table, row)).length;
        const res = await clientOf(w, role).from(tc.table).insert(row);
        expectRefusedInsert(res, `${role} inserts into ${tc.table}`);
        expect(await rowsMatching(tc.table, row), `${role} wrote into ${tc.table}`).toHaveLength(
          before,
        );
      }
      const row = tc.ownerInsert.row(w);
      const before = (await rowsMatching(tc.table, row)).length;
      const table = w.owner.client.from(tc.table);
      const res = await (tc.ownerInsert.via === 'upsert' ? table.upsert(row) : table.insert(row));
      if (tc.ownerInsert.allowed) {
        expect(res.error, `owner inserts into ${tc.table}`).toBeNull();
        expect(await rowsMatching(tc.table, row)).toHaveLength(
          tc.ownerInsert.via === 'upsert' ? 1 : before + 1,
        );
      } else {
        expectRefusedInsert(res, `owner inserts into ${tc.table}`);
        expect(await rowsMatching(tc.table, row)).toHaveLength(before);
      }
      for (const [what, make] of tc.forbiddenInserts ?? []) {
        const bad = make(w);
        const n = (await rowsMatching(tc.table, bad)).length;
        await w.owner.client.from(tc.table).insert(bad);
        await w.owner.client.from(tc.table).upsert(bad);
        // refused, or stored with the forbidden values replaced: no row holds what was sent
        expect(await rowsMatching(tc.table, bad), `owner inserted ${what}`).toHaveLength(n);
      }
    });

    it('update: strangers change nothing; the owner only as listed', async () => {
      const w = await makeWorld();
      const key = tc.key(w);
      const [original] = await rowsMatching(tc.table, key);
      expect(original).toBeDefined();
      for (const role of STRANGERS) {
        const res = await clientOf(w, role)
          .from(tc.table)
          .update(tc.update.patch, { count: 'exact' })
          .match(key);
        expectRefusedWrite(res, `${role} updates ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toEqual([original]);
      }
      for (const [what, make] of tc.forbiddenUpdates ?? []) {
        // an accepted (kept) change may have touched updated_at: compare with the row as it is now
        const [current] = await rowsMatching(tc.table, key);
        const patch = make(w);
        for (const column of Object.keys(patch)) {
          expect(
            current![column],
            `${what}: the patch must differ from the stored row`,
          ).not.toEqual(patch[column]);
        }
        const res = await w.owner.client
          .from(tc.table)
          .update(patch, { count: 'exact' })
          .match(key);
        const rows = await rowsMatching(tc.table, key);
        if (res.error || !res.count) {
          // refused: the row is untouched
          expect(rows, `owner may not ${what}`).toEqual([current]);
        } else {
          // accepted (an upsert-friendly table): the forbidden columns keep their stored value
          expect(rows, `owner may not ${what}`).toHaveLength(1);
          for (const column of Object.keys(patch)) {
            expect(rows[0]![column], `owner may not ${what}`).toEqual(current![column]);
          }
        }
      }
      const [beforeOwner] = await rowsMatching(tc.table, key);
      const res = await w.owner.client
        .from(tc.table)
        .update(tc.update.patch, { count: 'exact' })
        .match(key);
      if (tc.update.ownerMay) {
        expect(res.error, `owner updates ${tc.table}`).toBeNull();
        expect(res.count).toBe(1);
        const [after] = await rowsMatching(tc.table, key);
        expect(after).toMatchObject(tc.update.patch);
      } else {
        expectRefusedWrite(res, `owner updates ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toEqual([beforeOwner]);
      }
    });

    const upsert = tc.upsert;
    if (upsert)
      it('upsert: the owner saves their row; strangers cannot take it over', async () => {
        const w = await makeWorld();
        const key = tc.key(w);
        const [original] = await rowsMatching(tc.table, key);
        const row = upsert(w);
        for (const role of STRANGERS) {
          const res = await clientOf(w, role).from(tc.table).upsert(row);
          expect(res.error, `${role} upserts into ${tc.table}`).not.toBeNull();
          expect(await rowsMatching(tc.table, key)).toEqual([original]);
        }
        const res = await w.owner.client.from(tc.table).upsert(row);
        expect(res.error, `owner upserts into ${tc.table}`).toBeNull();
        expect(await rowsMatching(tc.table, row)).toHaveLength(1);
      });

    it('delete: strangers delete nothing; the owner only as listed', async () => {
      const w = await makeWorld();
      const key = tc.key(w);
      for (const role of STRANGERS) {
        const res = await clientOf(w, role).from(tc.table).delete({ count: 'exact' }).match(key);
        expectRefusedWrite(res, `${role} deletes from ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toHaveLength(1);
      }
      const res = await w.owner.client.from(tc.table).delete({ count: 'exact' }).match(key);
      if (tc.ownerMayDelete) {
        expect(res.error, `owner deletes from ${tc.table}`).toBeNull();
        expect(res.count).toBe(1);
        expect(await rowsMatching(tc.table, key)).toHaveLength(0);
      } else {
        expectRefusedWrite(res, `owner deletes from ${tc.table}`);
        expect(await rowsMatching(tc.table, key)).toHaveLength(1);
      }
    });
  });
});

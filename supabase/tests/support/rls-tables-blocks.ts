// The RLS matrix's cases for a block and what visitors leave in it: profiles and tags, blocks, a
// form's questions, options, endings and responses, a comment block's messages, reports, blocked
// writers and likes. rls.test.ts runs each against every client role.

import { type TableCase, uid } from './rls-world.ts';

export const BLOCK_TABLES: TableCase[] = [
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
];

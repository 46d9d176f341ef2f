// Payload schemas shared by the edge functions, the dashboard and the SDK, so that the client
// and the server validate with the same rules and answer with the same messages.
import { z } from 'zod';
import { emailAddress } from './email.ts';
import {
  ALIGNS,
  BLOCK_TYPES,
  CONDITION_TYPES,
  HOLD_MESSAGES,
  LANGUAGES,
  NOTION_DATABASE_TITLES,
  OPEN_LINK_TYPES,
  QUESTION_TYPES,
  THEMES,
  VISITOR_INFO,
} from './enums.ts';
import { BLOCK_LIMITS, LIMITS, SENDER_EMAIL_LIMITS, SENDER_EMAIL_MAX } from './limits.ts';
import { MESSAGES } from './messages.ts';

// The enums and limits the schemas use, for the modules that import them from here.
export {
  BLOCK_TYPES,
  CONDITION_TYPES,
  HOLD_MESSAGES,
  QUESTION_TYPES,
  REACTION_BLOCK_TYPES,
  type TBlockType,
  type TConditionType,
  type THoldMessages,
  type TQuestionType,
} from './enums.ts';
export { BLOCK_LIMITS, LIMITS, SENDER_EMAIL_LIMITS, SENDER_EMAIL_MAX } from './limits.ts';
export { MESSAGES } from './messages.ts';

export const ZCreateBlock = z.object({
  blockType: z.enum(BLOCK_TYPES, { error: MESSAGES.invalidBlock }),
});
export type TCreateBlock = z.infer<typeof ZCreateBlock>;

/** An http(s) URL, or empty to clear the field. */
const optionalUrl = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: MESSAGES.tooLong })
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { error: MESSAGES.invalidUrl });

export const ZUpdateProfile = z
  .strictObject({
    name: z
      .string({ error: 'Must be text' })
      .trim()
      .max(LIMITS.profileName, { error: MESSAGES.tooLong }),
    photoUrl: optionalUrl(LIMITS.photoUrl),
    homeUrl: optionalUrl(LIMITS.homeUrl),
    language: z.enum(LANGUAGES, { error: 'Language must be en or ko' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: MESSAGES.nothingToUpdate });
export type TUpdateProfile = z.infer<typeof ZUpdateProfile>;

/** Calls without a body (submit-agreement, delete-user) accept only an empty object. */
export const ZEmpty = z.strictObject({});

// ---------------------------------------------------------------------------------------------
// Saving a block from the workspace (save-block function). Field names are the database
// columns, so a draft is the row the dashboard read, edited. One call saves the settings, the
// private settings and, for form and ab, the whole question and ending lists in one transaction.

export const BLOCK_MESSAGES = {
  notValidType: 'Not valid type',
  blockNotFound: "block doesn't exists",
  invalidColor: 'Invalid color',
  invalidEmail: 'Invalid email address.',
  incompleteCondition: 'Please complete the condition',
  abTwoOptions: 'An A/B question has exactly two options',
  pollOneOption: 'A poll question has at least one option',
  defaultEndingDeleted: 'The default ending cannot be deleted',
  paidPlanRequired: 'Paid plan required',
} as const;

/** The question-count message of the spec's limits (the database trigger says the same). */
export const tooManyQuestions = (max: number) => `Too many questions (at most ${max})`;

const text = (max: number) =>
  z.string({ error: 'Must be text' }).max(max, { error: MESSAGES.tooLong });
const httpUrl = (max: number) =>
  text(max).refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), {
    error: MESSAGES.invalidUrl,
  });
const color = z
  .string({ error: BLOCK_MESSAGES.invalidColor })
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, { error: BLOCK_MESSAGES.invalidColor });
const index = z.int({ error: 'Invalid index' }).min(0).max(10000);
const id = z.uuid({ error: 'Invalid id' });

/** Public block settings an owner may change (never counters, owner, type or deactivated). */
export const ZBlockSettings = z
  .strictObject({
    name: text(BLOCK_LIMITS.blockName),
    theme: z.enum(THEMES),
    custom_color: z
      .strictObject({
        '--PRIMARY': color,
        '--SECONDARY': color,
        '--TERTIARY': color,
        '--BACKGROUND': color,
      })
      .partial()
      .nullable(),
    custom_label_color: z
      .strictObject({ '--ADMIN_LABEL': color, '--ME_LABEL': color })
      .partial()
      .nullable(),
    custom_label_name: z.strictObject({
      admin: text(BLOCK_LIMITS.labelName),
      me: text(BLOCK_LIMITS.labelName),
    }),
    embeded_url: httpUrl(BLOCK_LIMITS.url).nullable(),
    welcome_message: text(BLOCK_LIMITS.welcomeMessage).nullable(),
    placeholder: text(BLOCK_LIMITS.placeholder).nullable(),
    submit_button_text: text(BLOCK_LIMITS.submitButtonText).nullable(),
    language: z.enum(LANGUAGES, { error: 'Language must be en or ko' }),
    block_anonymous: z.boolean(),
    allow_reaction: z.boolean(),
    allow_reply: z.boolean(),
    admin_only_reply: z.boolean(),
    show_count: z.boolean(),
    show_profile: z.boolean(),
    owner_name: text(BLOCK_LIMITS.ownerName).nullable(),
    owner_photo_url: httpUrl(BLOCK_LIMITS.photoUrl).nullable(),
    qna_subject: text(BLOCK_LIMITS.qnaSubject).nullable(),
    align: z.enum(ALIGNS),
    button_text: text(BLOCK_LIMITS.buttonText).nullable(),
    url_to_open: httpUrl(BLOCK_LIMITS.url).nullable(),
    open_graph: z
      .strictObject({
        title: text(BLOCK_LIMITS.openGraphTitle),
        description: text(BLOCK_LIMITS.openGraphDescription),
        image_url: httpUrl(BLOCK_LIMITS.openGraphImageUrl),
      })
      .partial()
      .nullable(),
    allow_creator_email: z.boolean(),
    // visitor trust (paid): hold new comments for approval, the honeypot field, a captcha once
    // the rate limits trip
    hold_messages: z.enum(HOLD_MESSAGES),
    honeypot: z.boolean(),
    captcha: z.boolean(),
  })
  .partial();
export type TBlockSettings = z.infer<typeof ZBlockSettings>;

/** Owner-only settings kept in block_private (notification address, Notion target). */
export const ZBlockPrivateSettings = z
  .strictObject({
    mail_to: z
      .union([z.literal(''), emailAddress(BLOCK_MESSAGES.invalidEmail)])
      .refine((v) => v.length <= BLOCK_LIMITS.mailTo, { error: MESSAGES.tooLong })
      .nullable(),
    notion_database: text(BLOCK_LIMITS.notionTarget).nullable(),
    notion_page: text(BLOCK_LIMITS.notionTarget).nullable(),
    notion_database_title: z.enum(NOTION_DATABASE_TITLES),
  })
  .partial();
export type TBlockPrivateSettings = z.infer<typeof ZBlockPrivateSettings>;

export const ZOptionDraft = z.strictObject({
  id,
  value: text(BLOCK_LIMITS.optionValue),
  index,
  deleted: z.boolean(),
});
export type TOptionDraft = z.infer<typeof ZOptionDraft>;

export const ZQuestionDraft = z.strictObject({
  id,
  type: z.enum(QUESTION_TYPES, { error: BLOCK_MESSAGES.notValidType }),
  title: text(BLOCK_LIMITS.questionTitle),
  required: z.boolean(),
  index,
  placeholder: text(BLOCK_LIMITS.placeholder).nullable(),
  allow_multi_select: z.boolean(),
  as_visitor_info: z.enum(VISITOR_INFO).nullable(),
  trigger_letter_block: id.nullable(),
  content: text(BLOCK_LIMITS.descriptionContent).nullable(),
  image_src: httpUrl(BLOCK_LIMITS.url).nullable(),
  deleted: z.boolean(),
  options: z.array(ZOptionDraft).max(BLOCK_LIMITS.optionsPerQuestion),
});
export type TQuestionDraft = z.infer<typeof ZQuestionDraft>;

export const ZConditionDraft = z
  .strictObject({
    id,
    index,
    question_id: id,
    type: z.enum(CONDITION_TYPES, { error: BLOCK_MESSAGES.notValidType }),
    value: text(BLOCK_LIMITS.conditionValue).nullable(),
  })
  .refine((c) => c.type === 'empty' || c.type === 'not_empty' || (c.value ?? '') !== '', {
    error: BLOCK_MESSAGES.incompleteCondition,
  });
export type TConditionDraft = z.infer<typeof ZConditionDraft>;

export const ZEndingDraft = z.strictObject({
  id,
  is_default: z.boolean(),
  index,
  title: text(BLOCK_LIMITS.endingTitle),
  closing_text: text(BLOCK_LIMITS.closingText),
  open_url: httpUrl(BLOCK_LIMITS.url).nullable(),
  open_link_type: z.enum(OPEN_LINK_TYPES),
  open_url_text: text(BLOCK_LIMITS.openUrlText).nullable(),
  resubmit_text: text(BLOCK_LIMITS.resubmitText).nullable(),
  block_submit_another: z.boolean(),
  conditions: z.array(ZConditionDraft).max(BLOCK_LIMITS.conditionsPerEnding),
});
export type TEndingDraft = z.infer<typeof ZEndingDraft>;

/**
 * A complete question list: at most 20 questions that are not deleted (the free plan's 5 is the
 * server's check, it depends on the owner), every live ab question with exactly two live
 * options and every live poll with at least one (spec: an empty poll gets one option). The
 * save_block SQL function checks the same again.
 */
export const ZQuestionList = z
  .array(ZQuestionDraft)
  .max(100)
  .superRefine((list, ctx) => {
    if (list.filter((q) => !q.deleted).length > BLOCK_LIMITS.questionCountMax) {
      ctx.addIssue({ code: 'custom', message: tooManyQuestions(BLOCK_LIMITS.questionCountMax) });
    }
    list.forEach((q, i) => {
      if (q.deleted) return;
      const live = q.options.filter((o) => !o.deleted).length;
      const message =
        q.type === 'ab' && live !== 2
          ? BLOCK_MESSAGES.abTwoOptions
          : q.type === 'poll' && live === 0
            ? BLOCK_MESSAGES.pollOneOption
            : null;
      if (message) ctx.addIssue({ code: 'custom', message, path: [i, 'options'] });
    });
  });

/**
 * One workspace save. `questions` and `endings`, when present, are the complete lists: soft
 * deleted questions and options are sent with `deleted: true`; custom endings and conditions
 * missing from the list are deleted; the default ending cannot be removed.
 */
export const ZSaveBlock = z
  .strictObject({
    blockId: id,
    settings: ZBlockSettings.optional(),
    privateSettings: ZBlockPrivateSettings.optional(),
    questions: ZQuestionList.optional(),
    endings: z.array(ZEndingDraft).max(BLOCK_LIMITS.endingsMax).optional(),
  })
  .refine(
    (v) =>
      Object.keys(v.settings ?? {}).length > 0 ||
      Object.keys(v.privateSettings ?? {}).length > 0 ||
      v.questions !== undefined ||
      v.endings !== undefined,
    { error: MESSAGES.nothingToUpdate },
  );
export type TSaveBlock = z.infer<typeof ZSaveBlock>;

// ---------------------------------------------------------------------------------------------
// Sender emails (/profile/email): requestMailVerify, checkMailVerified, checkSpfDkim,
// deleteMailVerified. The spec's payload names; one address each.

const senderEmail = z
  .string({ error: BLOCK_MESSAGES.invalidEmail })
  .trim()
  .max(SENDER_EMAIL_MAX, { error: MESSAGES.tooLong })
  .pipe(emailAddress(BLOCK_MESSAGES.invalidEmail))
  .transform((v) => v.toLowerCase());

export const ZMailVerify = z.strictObject({ emailToVerify: senderEmail });

/** The sender-email functions' refusals (the dashboard shows them in the reader's language). */
export const SENDER_MESSAGES = {
  tooMany: `You can add up to ${SENDER_EMAIL_LIMITS.addresses} sender emails`,
  tooManyRequests: 'Too many verification requests',
  unavailable: 'The mail service is not available; try again in a moment',
  invalidLink: 'This confirmation link is not valid any more; ask for a new one',
  otherAccount:
    'This confirmation link is for another account; sign in with the account that added the address',
  suppressed: 'This address asked not to get mail from Reaction Blocks, or could not receive it',
  sentToday: 'A confirmation link went to this address less than a day ago',
} as const;
export type TMailVerify = z.infer<typeof ZMailVerify>;

/** The token of the confirmation link mailed to a sender address (base64url, 43 characters). */
export const ZMailConfirm = z.strictObject({
  token: z
    .string({ error: SENDER_MESSAGES.invalidLink })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: SENDER_MESSAGES.invalidLink }),
});
export type TMailConfirm = z.infer<typeof ZMailConfirm>;

export const ZMailDelete = z.strictObject({ emailToDelete: senderEmail });
export type TMailDelete = z.infer<typeof ZMailDelete>;

/** The unsubscribe page and one-click POSTs carry the signed token of the mail's link. */
export const ZUnsubscribe = z.strictObject({
  token: z
    .string({ error: 'Invalid link' })
    .min(10, { error: 'Invalid link' })
    .max(2000, { error: 'Invalid link' }),
});
export type TUnsubscribe = z.infer<typeof ZUnsubscribe>;

/**
 * The /confirm-email page's answer to a confirmation mail (double opt-in of an address a visitor
 * typed): the mail's single-use token (base64url, 43 characters) and yes or "not me".
 */
export const ZMailConsent = z.strictObject({
  token: z
    .string({ error: 'Invalid link' })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'Invalid link' }),
  answer: z.enum(['confirm', 'not-me']),
});
export type TMailConsent = z.infer<typeof ZMailConsent>;

// ---------------------------------------------------------------------------------------------
// Integrations (/profile/integration, the workspace's Integration section, /oauth/notion):
// notion-authorize, setNotionToken, searchNotionObjects, removeIntegration.

export const INTEGRATION_MESSAGES = {
  invalidRedirect: 'The redirect URL must be this site’s /oauth page of the service',
  invalidState: 'This authorisation link has expired or belongs to another session; connect again',
  notConnected: 'Connect Notion first',
  notGranted: 'Notion access was removed; connect Notion again',
  notSaved: 'The connection was not saved: the service was briefly unavailable; connect again',
  /** save_block_private's refusal of a link after the connection was removed (another tab). */
  notionGone: 'Notion is not connected: connect it again, then choose',
  /** save_block_private's refusal of a target the current connection did not list (another workspace). */
  notionNotListed: 'This Notion database or page is not in the connected workspace: choose again',
} as const;

/** The dashboard's /oauth/<service> page an authorisation returns to (its origin is checked by the function). */
export const oauthRedirectUrl = (service: 'notion' | 'cafe24') =>
  z
    .string({ error: INTEGRATION_MESSAGES.invalidRedirect })
    .max(500, { error: INTEGRATION_MESSAGES.invalidRedirect })
    .refine((v) => new RegExp(`^https?://[^/?#]+/oauth/${service}$`, 'i').test(v), {
      error: INTEGRATION_MESSAGES.invalidRedirect,
    });
const redirectUrl = oauthRedirectUrl('notion');

/** Starts a connection: the function answers Notion's authorise URL with a signed state. */
export const ZNotionAuthorize = z.strictObject({ redirectUrl });
export type TNotionAuthorize = z.infer<typeof ZNotionAuthorize>;

/** The spec's setNotionToken: the code /oauth/notion read, and the redirect URL it came to. */
export const ZSetNotionToken = z.strictObject({
  code: z.string({ error: 'Missing code' }).min(1, { error: 'Missing code' }).max(500),
  redirectUrl,
  state: z.string({ error: INTEGRATION_MESSAGES.invalidState }).min(1).max(1000),
});
export type TSetNotionToken = z.infer<typeof ZSetNotionToken>;

/** The spec's searchNotionObjects: data sources ("database") for most blocks, pages for like. */
export const ZSearchNotionObjects = z.strictObject({
  target: z.enum(['database', 'page'], { error: 'target must be database or page' }),
  query: z.string().max(100, { error: MESSAGES.tooLong }).optional(),
});
export type TSearchNotionObjects = z.infer<typeof ZSearchNotionObjects>;

/** The spec's removeIntegration: `mode` names the service. */
export const ZRemoveIntegration = z.strictObject({
  mode: z.enum(['notion', 'cafe24'], { error: 'Unknown integration' }),
});
export type TRemoveIntegration = z.infer<typeof ZRemoveIntegration>;

/** One object of a search answer. `properties` (data sources only): the columns, by name. */
export interface TNotionObject {
  id: string;
  object: 'data_source' | 'page';
  title: string;
  url: string | null;
  properties?: Array<{ name: string; type: string }>;
}
// Visitor trust (issue 9): a captcha solved after the rate limits tripped (verify-captcha).

export const ZVerifyCaptcha = z.strictObject({
  blockId: id,
  token: z
    .string({ error: 'Invalid captcha' })
    .min(1, { error: 'Invalid captcha' })
    .max(4096, { error: 'Invalid captcha' }),
});
export type TVerifyCaptcha = z.infer<typeof ZVerifyCaptcha>;

-- Enums shared by several tables. A new value is added at the end of its list (a migration adds
-- it with `alter type ... add value`, which cannot be used in the transaction that adds it).

create type public.block_type as enum (
  'comment', 'qna', 'like', 'button', 'ab', 'form', 'notion_letter', 'typedream_letter', 'brunch_letter'
);
create type public.block_theme as enum ('light', 'dark', 'custom');
create type public.block_align as enum ('left', 'center', 'right');
create type public.question_type as enum (
  'poll', 'ab', 'short_text', 'long_text', 'number', 'phone', 'mail', 'description', 'image'
);
create type public.condition_type as enum ('equal', 'empty', 'not_empty', 'include');
create type public.response_kind as enum ('form', 'ab', 'like', 'button');
create type public.language_code as enum ('en', 'ko');
create type public.payment_type as enum ('custom', 'basic', 'coupon', 'promote_coupon', 'subscription');
create type public.payment_method as enum ('iamport', 'paypal');
-- skipped: the address unsubscribed or was suppressed between the reservation and the send, or
-- the sender was suspended meanwhile; failed: the provider refused the mail for good
create type public.delivery_status as enum (
  'reserved', 'sent', 'delivered', 'opened', 'bounced', 'rejected', 'complaint', 'skipped', 'failed'
);
create type public.sender_email_status as enum ('pending', 'not_verified', 'verified');
create type public.integration_status as enum ('granted', 'not_granted');

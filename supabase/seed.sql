-- Demo data for a fresh local database: a demo owner on a paid plan (signs in through the local
-- Google page as demo@reaction-blocks.local) who owns one block of each of the nine types.
-- Ids are fixed so examples and tests can address them:
--   owner  00000000-0000-4000-8000-000000000001
--   blocks 00000000-0000-4000-8000-0000000001NN, NN = 01 comment, 02 qna, 03 like, 04 button,
--          05 ab, 06 form, 07 notion_letter, 08 typedream_letter, 09 brunch_letter
--   messages 00000000-0000-4000-8000-0000000002NN, form questions ...0003NN, options ...0004NN

insert into auth.users (
  instance_id, id, aud, role, email, email_confirmed_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous
) values (
  '00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-000000000001',
  'authenticated', 'authenticated', 'demo@reaction-blocks.local', now(), now(),
  '{"provider": "google", "providers": ["google"]}',
  '{"full_name": "Demo Owner", "email": "demo@reaction-blocks.local"}',
  now(), now(), false
);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
values (
  'demo@reaction-blocks.local', '00000000-0000-4000-8000-000000000001',
  '{"sub": "demo@reaction-blocks.local", "email": "demo@reaction-blocks.local", "full_name": "Demo Owner", "email_verified": true}',
  'google', now()
);

-- the auth.users trigger created the profile
update public.profiles
  set agree = true, home_url = 'https://reaction-blocks.local'
  where id = '00000000-0000-4000-8000-000000000001';

-- The demo owner's plan history: a legacy "$7 Plan" of the old system (expired), then a Custom
-- plan of 20 blocks and 10,000 emails a month ($13) paid through a PayPal subscription that the
-- local PayPal fake knows (I-DEMO0PLAN0001, supabase/local/providers/paypal), so Stop and Change
-- work against it. The limits follow the active row through private.apply_plan_limits, the one
-- writer of paid, block_limit and response_monthly_limit.
insert into public.payments (user_id, type, price, method, start_date, end_date, is_active, content,
                             created_at)
values (
  '00000000-0000-4000-8000-000000000001', 'subscription', 7, 'paypal', current_date - 400,
  current_date - 370, false, '{"planName": "$7 Plan", "blockLimit": 8, "responseMonthlyLimit": 1000}',
  now() - interval '400 days'
);
insert into public.payments (user_id, type, price, method, start_date, end_date, is_active, content,
                             provider_payment_id, auto_renew)
values (
  '00000000-0000-4000-8000-000000000001', 'custom', 13, 'paypal', current_date,
  (current_date + interval '1 month')::date - 1, true,
  '{"planName": "Custom", "blockLimit": 16, "responseMonthlyLimit": 9000}', 'I-DEMO0PLAN0001', true
);
select private.apply_plan_limits('00000000-0000-4000-8000-000000000001');

insert into public.user_tags (user_id, label, active) values
  ('00000000-0000-4000-8000-000000000001', 'demo', false),
  ('00000000-0000-4000-8000-000000000001', 'blog', false);

-- blocks (the insert trigger counts them, and adds the default endings and the ab question)
insert into public.blocks (id, owner_id, type, name, tags, language, owner_name, welcome_message,
                           placeholder, allow_creator_email, show_count, qna_subject, show_profile,
                           button_text, url_to_open, submit_button_text, align)
values
  ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000001', 'comment',
   'Demo comments', '{demo,blog}', 'en', 'Demo Owner', 'Join $responseCount$ others in the conversation',
   'Write a comment...', true, true, null, false, null, null, null, 'center'),
  ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-000000000001', 'qna',
   'Demo Q&A', '{demo}', 'en', 'Demo Owner', 'Ask me anything', 'Your question...', false, true,
   'Ask me anything about Reaction Blocks', true, null, null, null, 'center'),
  ('00000000-0000-4000-8000-000000000103', '00000000-0000-4000-8000-000000000001', 'like',
   'Demo like', '{demo}', 'en', 'Demo Owner', null, null, false, true, null, false, null, null, null, 'center'),
  ('00000000-0000-4000-8000-000000000104', '00000000-0000-4000-8000-000000000001', 'button',
   'Demo button', '{demo}', 'en', 'Demo Owner', null, null, false, false, null, false,
   'Read the docs', 'https://github.com/', null, 'center'),
  ('00000000-0000-4000-8000-000000000105', '00000000-0000-4000-8000-000000000001', 'ab',
   'Demo A/B', '{demo}', 'en', 'Demo Owner', null, null, false, true, null, false, null, null, null, 'center'),
  ('00000000-0000-4000-8000-000000000106', '00000000-0000-4000-8000-000000000001', 'form',
   'Demo feedback form', '{demo}', 'en', 'Demo Owner', null, null, false, false, null, false, null, null,
   'Send feedback', 'center'),
  ('00000000-0000-4000-8000-000000000107', '00000000-0000-4000-8000-000000000001', 'notion_letter',
   'Demo Notion letter', '{}', 'en', 'Demo Owner', null, null, false, false, null, false, null, null, null, 'center'),
  ('00000000-0000-4000-8000-000000000108', '00000000-0000-4000-8000-000000000001', 'typedream_letter',
   'Demo Typedream letter', '{}', 'en', 'Demo Owner', null, null, false, false, null, false, null, null, null, 'center'),
  ('00000000-0000-4000-8000-000000000109', '00000000-0000-4000-8000-000000000001', 'brunch_letter',
   'Demo Brunch letter', '{}', 'en', 'Demo Owner', null, null, false, false, null, false, null, null, null, 'center');

update public.block_private set mail_to = 'demo@reaction-blocks.local'
  where block_id in ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000102',
                     '00000000-0000-4000-8000-000000000106');
update public.block_private set mail_name = 'Demo Owner', template_mode = 'default'
  where block_id in ('00000000-0000-4000-8000-000000000107', '00000000-0000-4000-8000-000000000108',
                     '00000000-0000-4000-8000-000000000109');

-- comment: two messages from visitors and a reply from the owner
insert into public.messages (id, block_id, parent_id, creator_id, creator_name, color, content, created_at)
values
  ('00000000-0000-4000-8000-000000000201', '00000000-0000-4000-8000-000000000101', null,
   '00000000-0000-4000-8000-00000000a001', 'Curious Otter', '#3F8EFC',
   'Love how small this widget is!', now() - interval '2 hours'),
  ('00000000-0000-4000-8000-000000000202', '00000000-0000-4000-8000-000000000101', null,
   '00000000-0000-4000-8000-00000000a002', 'Brave Fox', '#F2545B',
   'Does it work with dark mode?', now() - interval '1 hour'),
  ('00000000-0000-4000-8000-000000000203', '00000000-0000-4000-8000-000000000101',
   '00000000-0000-4000-8000-000000000202', '00000000-0000-4000-8000-000000000001', 'Demo Owner', '#4C4C4C',
   'Yes: set the theme to dark, or pick custom colours.', now() - interval '30 minutes');

-- qna: a question and the owner's answer
insert into public.messages (id, block_id, parent_id, creator_id, creator_name, color, content, created_at)
values
  ('00000000-0000-4000-8000-000000000204', '00000000-0000-4000-8000-000000000102', null,
   '00000000-0000-4000-8000-00000000a003', 'Quiet Owl', '#7BC950',
   'Can I embed several blocks on one page?', now() - interval '3 hours'),
  ('00000000-0000-4000-8000-000000000205', '00000000-0000-4000-8000-000000000102',
   '00000000-0000-4000-8000-000000000204', '00000000-0000-4000-8000-000000000001', 'Demo Owner', '#4C4C4C',
   'Yes, as many as you like.', now() - interval '2 hours');
update public.messages set resolved = true where id = '00000000-0000-4000-8000-000000000204';

-- ab: the trigger created the question with options Good and Bad
update public.questions set title = 'Do you like the new landing page?'
  where block_id = '00000000-0000-4000-8000-000000000105';

-- form: several question types and an ending chosen when an email was given
insert into public.questions (id, block_id, type, title, required, index, placeholder, allow_multi_select,
                              as_visitor_info, content)
values
  ('00000000-0000-4000-8000-000000000301', '00000000-0000-4000-8000-000000000106', 'description',
   'Tell us what you think', false, 0, null, false, null,
   '<p>It takes less than a minute.</p>'),
  ('00000000-0000-4000-8000-000000000302', '00000000-0000-4000-8000-000000000106', 'short_text',
   'Your name', true, 1, 'Jane Doe', false, 'name', null),
  ('00000000-0000-4000-8000-000000000303', '00000000-0000-4000-8000-000000000106', 'mail',
   'Email (if you want an answer)', false, 2, 'you@example.com', false, 'email', null),
  ('00000000-0000-4000-8000-000000000304', '00000000-0000-4000-8000-000000000106', 'poll',
   'Which blocks do you use?', true, 3, null, true, null, null),
  ('00000000-0000-4000-8000-000000000305', '00000000-0000-4000-8000-000000000106', 'number',
   'How many sites do you run?', false, 4, '1', false, null, null),
  ('00000000-0000-4000-8000-000000000306', '00000000-0000-4000-8000-000000000106', 'long_text',
   'Anything else?', false, 5, 'Your feedback...', false, null, null);

insert into public.options (id, question_id, block_id, value, index)
values
  ('00000000-0000-4000-8000-000000000401', '00000000-0000-4000-8000-000000000304',
   '00000000-0000-4000-8000-000000000106', 'Comment', 0),
  ('00000000-0000-4000-8000-000000000402', '00000000-0000-4000-8000-000000000304',
   '00000000-0000-4000-8000-000000000106', 'Like', 1),
  ('00000000-0000-4000-8000-000000000403', '00000000-0000-4000-8000-000000000304',
   '00000000-0000-4000-8000-000000000106', 'Form', 2);

insert into public.endings (id, block_id, is_default, index, title, closing_text, open_link_type)
values ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000106', false, 1,
        'Email given', '<p>Thanks! We will write back soon.</p>', 'submit');

insert into public.ending_conditions (ending_id, block_id, index, question_id, type)
values ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000106', 0,
        '00000000-0000-4000-8000-000000000303', 'not_empty');

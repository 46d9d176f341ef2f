-- Demo data for a fresh local database, part 1 of 2 (config.toml `[db.seed] sql_paths` gives the
-- order): a demo owner on a paid plan (signs in through the local Google page as
-- demo@reaction-blocks.local) who owns one block of each of the nine types, the six reaction
-- blocks again with their texts in Korean, and a coupon any owner can try.
-- Ids are fixed so examples and tests can address them:
--   owner  00000000-0000-4000-8000-000000000001
--   blocks 00000000-0000-4000-8000-0000000001NN, NN = 01 comment, 02 qna, 03 like, 04 button,
--          05 ab, 06 form, 07 notion_letter, 08 typedream_letter, 09 brunch_letter; the same six
--          reaction blocks in Korean, NN = 11 comment ... 16 form (the landing's live demo on a
--          Korean page: dashboard/src/lib/env.ts DEFAULT_DEMO)
--   form questions ...0003NN, options ...0004NN, the form's conditional ending ...000501 (the
--          Korean form's ...00031N, ...00041N, ...000511)
--   visitors (anonymous auth users, part 2) 00000000-0000-4000-8000-0000000aNNNN, NNNN = 0001..0320
--
-- Part 2 (02-demo-history.sql) gives these blocks their history.

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
-- plan of 16 more blocks and 9,000 more emails a month ($13; 19 and 9,100 with Starter's) paid
-- through a PayPal subscription that the local PayPal fake knows (I-DEMO0PLAN0001,
-- supabase/local/providers/paypal), so Stop and Change work against it. The limits follow the
-- active row through private.apply_plan_limits, the one writer of paid, block_limit and
-- response_monthly_limit.
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
   'Demo Brunch letter', '{}', 'ko', 'Demo Owner', null, null, false, false, null, false, null, null, null, 'center');

-- The six reaction blocks again with the owner's texts in Korean, ids ...11N for ...10N: /reaction
-- and /showcase show these on a Korean page (their elements' own words follow the page's language,
-- the owner's texts are the block's), so a Korean visitor meets no English in the live demo.
insert into public.blocks (id, owner_id, type, name, tags, language, owner_name, welcome_message,
                           placeholder, allow_creator_email, show_count, qna_subject, show_profile,
                           button_text, url_to_open, submit_button_text, align)
select ('00000000-0000-4000-8000-00000000011' || right(b.id::text, 1))::uuid, b.owner_id, b.type,
       ko.name, '{demo}', 'ko', '데모 운영자', ko.welcome_message, ko.placeholder,
       b.allow_creator_email, b.show_count, ko.qna_subject, b.show_profile, ko.button_text,
       b.url_to_open, ko.submit_button_text, b.align
from public.blocks b
join (values
  ('comment', '데모 댓글', '$responseCount$명과 함께 이야기를 나눠 보세요', '댓글을 남겨 주세요...', null, null, null),
  ('qna', '데모 Q&A', '무엇이든 물어보세요', '질문을 입력하세요...', '리액션 블록스에 대해 무엇이든 물어보세요', null, null),
  ('like', '데모 좋아요', null, null, null, null, null),
  ('button', '데모 버튼', null, null, null, '문서 읽기', null),
  ('ab', '데모 A/B', null, null, null, null, null),
  ('form', '데모 피드백 폼', null, null, null, null, '의견 보내기')
) as ko (type, name, welcome_message, placeholder, qna_subject, button_text, submit_button_text)
  on ko.type = b.type::text
where b.owner_id = '00000000-0000-4000-8000-000000000001' and b.language = 'en'
order by b.id;

update public.block_private set mail_to = 'demo@reaction-blocks.local'
  where block_id in ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000102',
                     '00000000-0000-4000-8000-000000000106', '00000000-0000-4000-8000-000000000111',
                     '00000000-0000-4000-8000-000000000112', '00000000-0000-4000-8000-000000000116');
update public.block_private set mail_name = 'Demo Owner', template_mode = 'default'
  where block_id in ('00000000-0000-4000-8000-000000000107', '00000000-0000-4000-8000-000000000108',
                     '00000000-0000-4000-8000-000000000109');

-- The letters' sender: the demo owner's own address, confirmed (the platform's domain,
-- reaction-blocks.local, is a verified identity of the local SES fake), and the brunch writer's
-- profile the Brunch letter's articles come from (the `/pages` fixture writer). The letters' pages
-- are loaded through the functions once the stack runs (supabase/local/demo-letters.ts).
insert into public.sender_emails (user_id, email, status, spf_verified, dkim_verified, confirmed_at)
values ('00000000-0000-4000-8000-000000000001', 'demo@reaction-blocks.local', 'verified', true, true, now());
update public.block_private set brunch_profile_page = 'https://brunch.co.kr/@letterwriter'
  where block_id = '00000000-0000-4000-8000-000000000109';

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
        'Thanks for leaving your email', '<p>We will write back soon.</p>', 'submit');

insert into public.ending_conditions (ending_id, block_id, index, question_id, type)
values ('00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000106', 0,
        '00000000-0000-4000-8000-000000000303', 'not_empty');

-- the Korean ab and form: the English ones' question, options and ending in Korean (the trigger
-- gave the ab 좋아요 and 별로예요), ids ...31N, ...41N and ...511 for ...30N, ...40N and ...501
update public.questions set title = '새 랜딩 페이지가 마음에 드시나요?'
  where block_id = '00000000-0000-4000-8000-000000000115';

insert into public.questions (id, block_id, type, title, required, index, placeholder, allow_multi_select,
                              as_visitor_info, content)
select ('00000000-0000-4000-8000-00000000031' || (q.index + 1))::uuid,
       '00000000-0000-4000-8000-000000000116', q.type, ko.title, q.required, q.index,
       coalesce(ko.placeholder, q.placeholder), q.allow_multi_select, q.as_visitor_info, ko.content
from public.questions q
join (values (0, '의견을 들려주세요', null, '<p>1분이면 충분합니다.</p>'), (1, '이름', '홍길동', null),
             (2, '이메일 (답장을 받으시려면)', null, null), (3, '어떤 블록을 쓰시나요?', null, null),
             (4, '운영하는 사이트는 몇 개인가요?', null, null),
             (5, '더 하고 싶은 말씀이 있나요?', '의견을 남겨 주세요...', null))
  as ko (index, title, placeholder, content) on ko.index = q.index
where q.block_id = '00000000-0000-4000-8000-000000000106';

insert into public.options (id, question_id, block_id, value, index)
select ('00000000-0000-4000-8000-00000000041' || (o.index + 1))::uuid,
       '00000000-0000-4000-8000-000000000314', '00000000-0000-4000-8000-000000000116',
       (array['댓글', '좋아요', '폼'])[o.index + 1], o.index
from public.options o where o.question_id = '00000000-0000-4000-8000-000000000304';

insert into public.endings (id, block_id, is_default, index, title, closing_text, open_link_type)
select '00000000-0000-4000-8000-000000000511', '00000000-0000-4000-8000-000000000116', e.is_default,
       e.index, '이메일을 남겨 주셔서 감사합니다', '<p>곧 답장 드릴게요.</p>', e.open_link_type
from public.endings e where e.id = '00000000-0000-4000-8000-000000000501';
insert into public.ending_conditions (ending_id, block_id, index, question_id, type)
select '00000000-0000-4000-8000-000000000511', '00000000-0000-4000-8000-000000000116', c.index,
       '00000000-0000-4000-8000-000000000313', c.type
from public.ending_conditions c where c.ending_id = '00000000-0000-4000-8000-000000000501';

-- A coupon any owner of the local stack can try on /profile/plan (README, getting-started):
-- a Basic plan for 30 days, redeemable once per owner.
insert into public.coupons (code, type, content, duration_days)
values ('DEMO-BASIC-30', 'coupon', '{"planName":"Demo coupon","blockLimit":8,"responseMonthlyLimit":1000}', 30)
on conflict (code) do nothing;

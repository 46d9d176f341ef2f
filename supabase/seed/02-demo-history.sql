-- Demo data for a fresh local database, part 2 of 2: the history of the demo blocks that
-- 01-demo-owner.sql made (their ids are in its header), so the result pages, the CSV and
-- the cards are not empty on a first run: comments with replies and likes, questions with the
-- owner's answers, form responses, A/B votes, likes and button clicks from a few hundred
-- visitors over the last six weeks, in English and some Korean. It is written through the same
-- functions the SDK calls (post_message, submit_response, toggle_block_like, ...), acting as
-- each visitor, so every counter, option count and audience member is what the product itself
-- would have made; only the timestamps are moved into the past afterwards. A later migration
-- that changes those tables keeps this seed right as long as the functions keep their
-- signatures. supabase/tests/demo-owner.test.ts checks the counters against the rows.
-- Everything here is generated.

-- Visitor n (1..320): an anonymous auth user, as the local auth server creates on a first write.
create function pg_temp.visitor(n integer) returns uuid
language sql immutable as $$
  select ('00000000-0000-4000-8000-' || lpad(to_hex(655360 + n), 12, '0'))::uuid;
$$;

insert into auth.users (instance_id, id, aud, role, encrypted_password, raw_app_meta_data,
                        raw_user_meta_data, created_at, updated_at, last_sign_in_at, is_anonymous)
select '00000000-0000-0000-0000-000000000000', pg_temp.visitor(n), 'authenticated', 'authenticated', '',
       '{"provider": "anonymous", "providers": ["anonymous"]}', '{}', now(), now(), now(), true
from generate_series(1, 320) n;

-- Six weeks of visitors arrive here in a few seconds: the visitor rate limits (issue 9) are off
-- while the seed writes, and on again right after.
insert into private.settings (key, value) values ('limits.enabled', 'false')
  on conflict (key) do update set value = excluded.value;

-- The functions below read the caller from the request's JWT claims, as PostgREST sets them.
create function pg_temp.act_as(p_uid uuid) returns void
language sql as $$
  select set_config('request.jwt.claims', jsonb_build_object(
    'sub', p_uid, 'role', 'authenticated',
    'is_anonymous', p_uid <> '00000000-0000-4000-8000-000000000001')::text, false);
$$;

-- A moment in the last six weeks, more of them recent than old.
create function pg_temp.some_time_ago() returns timestamptz
language sql volatile as $$
  select now() - power(random(), 1.7) * interval '42 days' - (10 + random() * 80) * interval '1 minute';
$$;

do $$
declare
  v_owner constant uuid := '00000000-0000-4000-8000-000000000001';
  v_comment constant uuid := '00000000-0000-4000-8000-000000000101';
  v_qna constant uuid := '00000000-0000-4000-8000-000000000102';
  v_like constant uuid := '00000000-0000-4000-8000-000000000103';
  v_button constant uuid := '00000000-0000-4000-8000-000000000104';
  v_ab constant uuid := '00000000-0000-4000-8000-000000000105';
  v_form constant uuid := '00000000-0000-4000-8000-000000000106';
  q_name constant text := '00000000-0000-4000-8000-000000000302';
  q_mail constant text := '00000000-0000-4000-8000-000000000303';
  q_poll constant text := '00000000-0000-4000-8000-000000000304';
  q_sites constant text := '00000000-0000-4000-8000-000000000305';
  q_more constant text := '00000000-0000-4000-8000-000000000306';
  poll_options constant text[] := array['00000000-0000-4000-8000-000000000401',
    '00000000-0000-4000-8000-000000000402', '00000000-0000-4000-8000-000000000403'];

  -- what the SDK gives a visitor who never typed a name, and its colours
  animals constant text[] := array['Otter', 'Fox', 'Panda', 'Koala', 'Tiger', 'Rabbit', 'Owl',
    'Whale', 'Dolphin', 'Penguin', 'Hedgehog', 'Squirrel', 'Deer', 'Seal', 'Wolf', 'Bear', 'Lynx',
    'Heron', 'Badger', 'Beaver', 'Falcon', 'Moose', 'Zebra', 'Llama'];
  colors constant text[] := array['#1565c0', '#2e7d32', '#6a1b9a', '#ad1457', '#c62828', '#00695c',
    '#4e342e', '#37474f', '#283593', '#d84315'];
  zones constant text[] := array['Asia/Seoul', 'Asia/Seoul', 'Asia/Seoul', 'America/New_York',
    'America/Los_Angeles', 'Europe/Berlin', 'Europe/London', 'Asia/Tokyo', 'America/Chicago',
    'Australia/Sydney', 'Asia/Singapore', 'Europe/Paris'];
  -- names are a given name and a family name picked apart, so few visitors share one
  given_en constant text[] := array['Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Lucas', 'Mia', 'Ethan',
    'Sofia', 'James', 'Chloe', 'Daniel', 'Hannah', 'Leo', 'Grace', 'Oscar', 'Isla', 'Mateo', 'Zoe',
    'Samuel'];
  family_en constant text[] := array['Wilson', 'Chen', 'Garcia', 'Patel', 'Johnson', 'Martin', 'Rossi',
    'Brown', 'Silva', 'Nguyen', 'Dubois', 'Kim', 'Schmidt', 'Tanaka', 'Okafor', 'Larsen', 'Novak'];
  given_ko constant text[] := array['민지', '서준', '지우', '하은', '도윤', '서연', '예준', '수아', '시우',
    '지호', '유나', '현우'];
  family_ko constant text[] := array['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한'];
  -- romanised for email addresses, in the same order
  given_ko_latin constant text[] := array['minji', 'seojun', 'jiwoo', 'haeun', 'doyun', 'seoyeon',
    'yejun', 'sua', 'siwoo', 'jiho', 'yuna', 'hyunwoo'];
  family_ko_latin constant text[] := array['kim', 'lee', 'park', 'choi', 'jung', 'kang', 'cho',
    'yoon', 'jang', 'lim', 'han'];
  feedback_en constant text[] := array[
    'Setup took two minutes. The snippet just worked on my Hugo blog.',
    'Would love a way to export comments too, not only form answers.',
    'The dark theme matches my site perfectly.',
    'Please add a rating question type (1 to 5 stars).',
    'Great for collecting quick feedback after a webinar.',
    'I use the like button on every post now. Simple and fast.',
    'It would be nice to get a weekly email summary of new responses.',
    'The form looks clean on mobile. Thanks!',
    'Custom colours are great, but I would like to change the font as well.',
    'Works fine inside Notion embeds as far as I can tell.',
    'Can I limit one response per visitor on forms?',
    'Exporting to CSV saved me a lot of copy and paste.'];
  feedback_ko constant text[] := array[
    '설치가 정말 간단했어요. 블로그에 바로 붙였습니다.',
    '댓글도 CSV로 내보낼 수 있으면 좋겠어요.',
    '다크 테마가 제 사이트와 잘 어울려요.',
    '별점 질문 유형이 있으면 좋겠습니다.',
    '모바일에서도 폼이 깔끔하게 보여요. 감사합니다!',
    '새 응답을 주간 메일로 받아볼 수 있으면 좋겠어요.',
    '좋아요 버튼을 모든 글에 달았어요.'];
  comments_en constant text[] := array[
    'Love how small this widget is!', 'Does it work with dark mode?',
    'Installed it on my portfolio, took less than five minutes.',
    'Is there a WordPress plugin, or do I paste the script tag?',
    'The reply notifications are a nice touch.', 'Can I moderate comments before they show up?',
    'Great write-up, thanks for sharing the numbers.', 'Any plans for emoji reactions on comments?',
    'This is exactly what my static site needed.', 'How does it handle spam?',
    'The Korean translation reads naturally, nice work.', 'Bookmarked. Trying it this weekend.'];
  comments_ko constant text[] := array[
    '위젯이 가벼워서 좋네요!', '정적 사이트에 딱 필요한 기능이에요.', '다크 모드도 지원하나요?',
    '댓글 알림 기능이 유용해요.', '이번 주말에 블로그에 적용해 볼게요.'];
  replies_en constant text[] := array[
    'Same here, it was the easiest part of my setup.', 'Good question, I was wondering too.',
    '+1, would use that.', 'Thanks, that helped!', 'It worked for me on Ghost as well.'];
  owner_replies constant text[] := array[
    'Yes: set the theme to dark, or pick custom colours.',
    'Paste the script tag once in your theme and add the element where you want it.',
    'Thanks! Glad it helped.', 'Not yet, but it is on the list.',
    'Anonymous visitors can be blocked in the block settings.', '감사합니다! 곧 더 좋아질 거예요.'];
  questions_en constant text[] := array[
    'Can I embed several blocks on one page?', 'Is there a free plan?',
    'Does the form work without JavaScript?', 'Can I change the text of the submit button?',
    'Can I show the answers publicly?', 'Where is the data stored?',
    'How do I get notified about new questions?'];
  questions_ko constant text[] := array[
    '한 페이지에 블록을 여러 개 넣을 수 있나요?', '결과를 CSV로 받을 수 있나요?', '무료로 쓸 수 있나요?'];
  -- the owner's answers to the questions answered below, in order: questions 1, 2, 3, 4 and 6
  -- (questions_en), 8 and 9 (questions_ko 1 and 2)
  answers constant text[] := array[
    'Yes, as many as you like.', 'Yes: the Starter plan is free, with three blocks.',
    'It needs JavaScript; visitors without it see the fallback text you put inside the element.',
    'Yes, in the form editor, under "Submit button text".',
    'In a Postgres database; you can delete responses at any time.',
    '네, 원하는 만큼 넣을 수 있어요.', '네, 결과 페이지에서 Export CSV를 누르세요.'];

  v_uid uuid;
  v_kor boolean;
  v_given integer;
  v_family integer;
  v_mail text;
  v_name text;
  v_alias text;
  v_color text;
  v_zone text;
  v_answers jsonb;
  v_options jsonb;
  v_result jsonb;
  v_when timestamptz;
  v_id uuid;
  v_parent uuid;
  v_parent_when timestamptz;
  v_good uuid;
  v_bad uuid;
  v_text text;
  n integer;
  i integer;
  k integer;
begin
  perform setseed(0.2026);

  -- form: 260 responses
  for n in 1..260 loop
    v_uid := pg_temp.visitor(n);
    v_kor := n % 4 = 0;
    if v_kor then
      v_given := 1 + n % array_length(given_ko, 1);
      v_family := 1 + (n * 7) % array_length(family_ko, 1);
      v_name := family_ko[v_family] || given_ko[v_given];
      v_mail := given_ko_latin[v_given] || '.' || family_ko_latin[v_family] || n || '@example.kr';
    else
      v_given := 1 + n % array_length(given_en, 1);
      v_family := 1 + (n * 7) % array_length(family_en, 1);
      v_name := given_en[v_given] || ' ' || family_en[v_family];
      v_mail := lower(given_en[v_given] || '.' || family_en[v_family]) || n || '@example.com';
    end if;
    v_alias := animals[1 + n % array_length(animals, 1)];
    v_color := colors[1 + n % array_length(colors, 1)];
    v_zone := case when v_kor then 'Asia/Seoul' else zones[1 + (n * 7) % array_length(zones, 1)] end;
    v_answers := jsonb_build_object(q_name, v_name);
    if random() < 0.45 then
      v_answers := v_answers || jsonb_build_object(q_mail, v_mail);
    end if;
    v_options := '[]'::jsonb;
    if random() < 0.7 then v_options := v_options || to_jsonb(poll_options[1]); end if;
    if random() < 0.45 then v_options := v_options || to_jsonb(poll_options[2]); end if;
    if random() < 0.55 or v_options = '[]'::jsonb then v_options := v_options || to_jsonb(poll_options[3]); end if;
    v_answers := v_answers || jsonb_build_object(q_poll, v_options);
    if random() < 0.7 then
      v_answers := v_answers || jsonb_build_object(q_sites, (1 + floor(power(random(), 3) * 12))::int::text);
    end if;
    if random() < 0.5 then
      v_answers := v_answers || jsonb_build_object(q_more, case when v_kor
        then feedback_ko[1 + n % array_length(feedback_ko, 1)]
        else feedback_en[1 + n % array_length(feedback_en, 1)] end);
    end if;
    perform pg_temp.act_as(v_uid);
    v_result := public.submit_response(v_form, v_answers, v_alias, v_color, v_zone);
    update public.responses set created_at = pg_temp.some_time_ago() where id = (v_result ->> 'id')::uuid;
  end loop;

  -- ab: 210 votes, about two in three Good
  select id into v_good from public.options where block_id = v_ab and value = 'Good';
  select id into v_bad from public.options where block_id = v_ab and value = 'Bad';
  for n in 41..250 loop
    v_uid := pg_temp.visitor(n);
    perform pg_temp.act_as(v_uid);
    v_result := public.submit_response(v_ab,
      jsonb_build_object((select id::text from public.questions where block_id = v_ab and type = 'ab'),
                         case when random() < 0.67 then v_good else v_bad end),
      animals[1 + n % array_length(animals, 1)], colors[1 + n % array_length(colors, 1)],
      zones[1 + (n * 7) % array_length(zones, 1)]);
    update public.responses set created_at = pg_temp.some_time_ago() where id = (v_result ->> 'id')::uuid;
  end loop;

  -- like: 148 visitors like it
  for n in 60..320 loop
    continue when n % 7 in (1, 4, 6);
    v_uid := pg_temp.visitor(n);
    perform pg_temp.act_as(v_uid);
    perform public.toggle_block_like(v_like, animals[1 + n % array_length(animals, 1)],
                                     colors[1 + n % array_length(colors, 1)], true);
    update public.responses set created_at = pg_temp.some_time_ago()
      where block_id = v_like and creator_id = v_uid and kind = 'like';
  end loop;

  -- button: 175 clicks from about 120 visitors (some click twice)
  for i in 1..175 loop
    n := 100 + (i * 37) % 120;
    v_uid := pg_temp.visitor(n);
    perform pg_temp.act_as(v_uid);
    perform public.record_button_click(v_button, animals[1 + n % array_length(animals, 1)],
                                       colors[1 + n % array_length(colors, 1)]);
    -- the click just made is the one still dated now()
    update public.responses set created_at = pg_temp.some_time_ago()
      where id = (select id from public.responses where block_id = v_button and creator_id = v_uid
                  order by created_at desc limit 1);
  end loop;

  -- comment: 17 threads, replies from visitors and the owner, likes on messages
  for i in 1..17 loop
    n := 3 + i * 17;
    v_kor := i % 4 = 0;
    v_text := case when v_kor then comments_ko[1 + i % array_length(comments_ko, 1)]
                   else comments_en[1 + i % array_length(comments_en, 1)] end;
    v_name := case when i % 3 = 0 then animals[1 + n % array_length(animals, 1)]
                   when v_kor then family_ko[1 + i % array_length(family_ko, 1)] || given_ko[1 + i % array_length(given_ko, 1)]
                   else given_en[1 + i % array_length(given_en, 1)] end;
    perform pg_temp.act_as(pg_temp.visitor(n));
    v_result := public.post_message(v_comment, null, v_text, v_name, colors[1 + n % array_length(colors, 1)],
                                    null, null, null, case when v_kor then 'Asia/Seoul' else zones[1 + n % array_length(zones, 1)] end);
    v_parent := (v_result ->> 'id')::uuid;
    v_parent_when := pg_temp.some_time_ago();
    update public.messages set created_at = v_parent_when where id = v_parent;
    -- replies: a visitor on some threads, the owner on others
    for k in 1..(i % 3) loop
      v_when := least(v_parent_when + (k * random() * interval '20 hours'), now() - interval '5 minutes');
      if (i + k) % 2 = 0 then
        perform pg_temp.act_as(v_owner);
        v_result := public.post_message(v_comment, v_parent, owner_replies[1 + (i + k) % array_length(owner_replies, 1)],
                                        'Demo Owner', '#4C4C4C');
      else
        perform pg_temp.act_as(pg_temp.visitor(n + k));
        v_result := public.post_message(v_comment, v_parent, replies_en[1 + (i + k) % array_length(replies_en, 1)],
                                        animals[1 + (n + k) % array_length(animals, 1)],
                                        colors[1 + (n + k) % array_length(colors, 1)]);
      end if;
      update public.messages set created_at = v_when where id = (v_result ->> 'id')::uuid;
    end loop;
    for k in 1..(i * 5) % 9 loop
      perform pg_temp.act_as(pg_temp.visitor(1 + (n + k * 13) % 320));
      perform public.toggle_message_like(v_parent, true);
    end loop;
  end loop;

  -- qna: 10 questions; the owner answers 7 and marks 4 of them resolved
  for i in 1..10 loop
    n := 11 + i * 29;
    v_kor := i > 7;
    v_text := case when v_kor then questions_ko[i - 7] else questions_en[i] end;
    perform pg_temp.act_as(pg_temp.visitor(n));
    v_result := public.post_message(v_qna, null, v_text, animals[1 + n % array_length(animals, 1)],
                                    colors[1 + n % array_length(colors, 1)], null, null, null,
                                    case when v_kor then 'Asia/Seoul' else zones[1 + n % array_length(zones, 1)] end);
    v_parent := (v_result ->> 'id')::uuid;
    v_parent_when := pg_temp.some_time_ago();
    update public.messages set created_at = v_parent_when where id = v_parent;
    if i in (1, 2, 3, 4, 6, 8, 9) then
      perform pg_temp.act_as(v_owner);
      v_result := public.post_message(v_qna, v_parent,
        answers[case i when 6 then 5 when 8 then 6 when 9 then 7 else i end], 'Demo Owner', '#4C4C4C');
      update public.messages
        set created_at = least(v_parent_when + random() * interval '30 hours', now() - interval '5 minutes')
        where id = (v_result ->> 'id')::uuid;
      if i in (1, 2, 4, 8) then
        perform public.set_message_resolved(v_parent, true);
      end if;
    end if;
    for k in 1..(i * 3) % 5 loop
      perform pg_temp.act_as(pg_temp.visitor(1 + (n + k * 11) % 320));
      perform public.toggle_message_like(v_parent, true);
    end loop;
  end loop;

  perform set_config('request.jwt.claims', '', false);
end;
$$;

-- The Korean demo blocks: a shorter history, by Korean visitors (visitors 1..320 again)
create function pg_temp.korean_demo(p_type text) returns uuid
language sql stable as $$
  select id from public.blocks
  where owner_id = '00000000-0000-4000-8000-000000000001' and language = 'ko' and type::text = p_type;
$$;

do $$
declare
  v_owner constant uuid := '00000000-0000-4000-8000-000000000001';
  v_comment constant uuid := pg_temp.korean_demo('comment');
  v_qna constant uuid := pg_temp.korean_demo('qna');
  v_like constant uuid := pg_temp.korean_demo('like');
  v_button constant uuid := pg_temp.korean_demo('button');
  v_ab constant uuid := pg_temp.korean_demo('ab');
  v_form constant uuid := pg_temp.korean_demo('form');
  poll_options constant text[] := array['00000000-0000-4000-8000-000000000411',
    '00000000-0000-4000-8000-000000000412', '00000000-0000-4000-8000-000000000413'];
  animals constant text[] := array['수달', '여우', '판다', '코알라', '호랑이', '토끼', '부엉이', '고래'];
  colors constant text[] := array['#1565c0', '#2e7d32', '#6a1b9a', '#ad1457', '#c62828', '#00695c'];
  given constant text[] := array['민지', '서준', '지우', '하은', '도윤', '서연', '예준', '수아', '시우',
    '지호', '유나', '현우'];
  family constant text[] := array['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한'];
  feedback constant text[] := array[
    '설치가 정말 간단했어요. 블로그에 바로 붙였습니다.', '댓글도 CSV로 내보낼 수 있으면 좋겠어요.',
    '다크 테마가 제 사이트와 잘 어울려요.', '별점 질문 유형이 있으면 좋겠습니다.',
    '모바일에서도 폼이 깔끔하게 보여요. 감사합니다!'];
  comments constant text[] := array[
    '위젯이 가벼워서 좋네요!', '정적 사이트에 딱 필요한 기능이에요.', '다크 모드도 지원하나요?',
    '댓글 알림 기능이 유용해요.', '이번 주말에 블로그에 적용해 볼게요.', '설정이 5분도 안 걸렸어요.'];
  owner_replies constant text[] := array['감사합니다! 곧 더 좋아질 거예요.',
    '네, 테마를 다크로 바꾸거나 원하는 색을 고르시면 됩니다.'];
  questions constant text[] := array[
    '한 페이지에 블록을 여러 개 넣을 수 있나요?', '결과를 CSV로 받을 수 있나요?', '무료로 쓸 수 있나요?',
    '노션 페이지에도 넣을 수 있나요?'];
  answers constant text[] := array['네, 원하는 만큼 넣을 수 있어요.', '네, 결과 페이지에서 CSV로 내보내기를 누르세요.',
    '네, 스타터 요금제는 블록 3개까지 무료입니다.'];
  v_result jsonb;
  v_answers jsonb;
  v_options jsonb;
  v_parent uuid;
  v_parent_when timestamptz;
  v_good uuid;
  v_bad uuid;
  n integer;
  i integer;
begin
  perform setseed(0.2027);

  -- form: 48 responses
  for n in 1..48 loop
    v_answers := jsonb_build_object('00000000-0000-4000-8000-000000000312',
      family[1 + (n * 7) % array_length(family, 1)] || given[1 + n % array_length(given, 1)]);
    v_options := to_jsonb(array[poll_options[1 + n % 3]]);
    if random() < 0.4 then v_options := v_options || to_jsonb(poll_options[1 + (n + 1) % 3]); end if;
    v_answers := v_answers || jsonb_build_object('00000000-0000-4000-8000-000000000314', v_options);
    if random() < 0.5 then
      v_answers := v_answers || jsonb_build_object('00000000-0000-4000-8000-000000000316',
        feedback[1 + n % array_length(feedback, 1)]);
    end if;
    perform pg_temp.act_as(pg_temp.visitor(n));
    v_result := public.submit_response(v_form, v_answers, animals[1 + n % array_length(animals, 1)],
                                       colors[1 + n % array_length(colors, 1)], 'Asia/Seoul');
    update public.responses set created_at = pg_temp.some_time_ago() where id = (v_result ->> 'id')::uuid;
  end loop;

  -- ab: 64 votes, about two in three 좋아요
  select id into v_good from public.options where block_id = v_ab and value = '좋아요';
  select id into v_bad from public.options where block_id = v_ab and value = '별로예요';
  for n in 101..164 loop
    perform pg_temp.act_as(pg_temp.visitor(n));
    v_result := public.submit_response(v_ab,
      jsonb_build_object((select id::text from public.questions where block_id = v_ab and type = 'ab'),
                         case when random() < 0.67 then v_good else v_bad end),
      animals[1 + n % array_length(animals, 1)], colors[1 + n % array_length(colors, 1)], 'Asia/Seoul');
    update public.responses set created_at = pg_temp.some_time_ago() where id = (v_result ->> 'id')::uuid;
  end loop;

  -- like: 40 visitors like it; button: 36 clicks
  for n in 201..240 loop
    perform pg_temp.act_as(pg_temp.visitor(n));
    perform public.toggle_block_like(v_like, animals[1 + n % array_length(animals, 1)],
                                     colors[1 + n % array_length(colors, 1)], true);
    update public.responses set created_at = pg_temp.some_time_ago()
      where block_id = v_like and creator_id = pg_temp.visitor(n) and kind = 'like';
    continue when n % 10 in (3, 7);
    perform public.record_button_click(v_button, animals[1 + n % array_length(animals, 1)],
                                       colors[1 + n % array_length(colors, 1)]);
    update public.responses set created_at = pg_temp.some_time_ago()
      where block_id = v_button and creator_id = pg_temp.visitor(n);
  end loop;

  -- comment: 6 threads, the owner replying to two
  for i in 1..6 loop
    n := 250 + i * 7;
    perform pg_temp.act_as(pg_temp.visitor(n));
    v_result := public.post_message(v_comment, null, comments[i],
                                    family[1 + i % array_length(family, 1)] || given[1 + (i * 5) % array_length(given, 1)],
                                    colors[1 + n % array_length(colors, 1)], null, null, null, 'Asia/Seoul');
    v_parent := (v_result ->> 'id')::uuid;
    v_parent_when := pg_temp.some_time_ago();
    update public.messages set created_at = v_parent_when where id = v_parent;
    if i in (1, 3) then
      perform pg_temp.act_as(v_owner);
      v_result := public.post_message(v_comment, v_parent, owner_replies[1 + i / 2], '데모 운영자', '#4C4C4C');
      update public.messages
        set created_at = least(v_parent_when + random() * interval '20 hours', now() - interval '5 minutes')
        where id = (v_result ->> 'id')::uuid;
    end if;
  end loop;

  -- qna: 4 questions; the owner answers 3 and marks 2 of them resolved
  for i in 1..4 loop
    n := 290 + i * 5;
    perform pg_temp.act_as(pg_temp.visitor(n));
    v_result := public.post_message(v_qna, null, questions[i], animals[1 + n % array_length(animals, 1)],
                                    colors[1 + n % array_length(colors, 1)], null, null, null, 'Asia/Seoul');
    v_parent := (v_result ->> 'id')::uuid;
    v_parent_when := pg_temp.some_time_ago();
    update public.messages set created_at = v_parent_when where id = v_parent;
    if i <= 3 then
      perform pg_temp.act_as(v_owner);
      v_result := public.post_message(v_qna, v_parent, answers[i], '데모 운영자', '#4C4C4C');
      update public.messages
        set created_at = least(v_parent_when + random() * interval '30 hours', now() - interval '5 minutes')
        where id = (v_result ->> 'id')::uuid;
      if i <= 2 then
        perform public.set_message_resolved(v_parent, true);
      end if;
    end if;
  end loop;

  perform set_config('request.jwt.claims', '', false);
end;
$$;

delete from private.settings where key = 'limits.enabled';

-- A visitor's account, and the owner's audience member for them, date from their first reaction.
with first_seen as (
  select creator_id, min(created_at) as at from (
    select creator_id, created_at from public.responses
    union all
    select creator_id, created_at from public.messages
  ) activity
  group by creator_id
)
update auth.users u set created_at = f.at, updated_at = f.at, last_sign_in_at = f.at
  from first_seen f where u.id = f.creator_id and u.is_anonymous;

update public.audience_members a set created_at = u.created_at
  from auth.users u
  where a.user_id = '00000000-0000-4000-8000-000000000001' and u.id = a.creator_id;

-- "New" responses are those since the owner last looked, a day ago; the monthly quota counts the
-- form and A/B responses of this calendar month (what submit_response would count).
update public.blocks b set new_response_count = (
    select count(*) from public.responses r where r.block_id = b.id and r.created_at > now() - interval '1 day'
  ) + (
    select count(*) from public.messages m where m.block_id = b.id and m.created_at > now() - interval '1 day'
  )
  where b.owner_id = '00000000-0000-4000-8000-000000000001';

select private.set_monthly_response_count(p.id, (
      select count(*)::integer from public.responses r join public.blocks b on b.id = r.block_id
      where b.owner_id = p.id and r.kind in ('form', 'ab') and r.created_at >= date_trunc('month', now())))
  from public.profiles p where p.id = '00000000-0000-4000-8000-000000000001';

-- The visitor functions above enqueued a notification for every seeded message and response
-- (the demo blocks have a notification address): weeks of made-up history is not news, so those
-- jobs go. A new comment on a demo block after start-up is mailed to the local mailbox as usual.
delete from private.jobs where kind in ('notify.owner', 'notify.reply');

-- From now on the form's mail question sends the Typedream letter to whoever gives an address
-- (a letter a form sends by itself); set after the made-up history, which sends nothing.
update public.questions set trigger_letter_block = '00000000-0000-4000-8000-000000000108'
  where id = '00000000-0000-4000-8000-000000000303';

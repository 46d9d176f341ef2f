-- The form content of a block: questions, options, endings and ending conditions. Written through
-- save_block only; visitors read the content of published blocks, owners their own. Triggers keep
-- what clients must not change (option counts, the default-ending flag) at their stored value.

-- The access of each of the four tables (p_what: its rows in the policies' names): anyone reads
-- the content of a published block, a signed-in user that and their own blocks' too; no client
-- writes it. A soft-deleted row (p_soft_deleted: the table has a deleted column) is its owner's
-- only: a visitor reads none, whatever the block.
create procedure private.block_content_read(p_table regclass, p_what text, p_soft_deleted boolean default false)
language plpgsql set search_path = '' as $$
declare
  v_visible text := case when p_soft_deleted then 'not deleted and private.block_is_published(block_id)'
                         else 'private.block_is_published(block_id)' end;
begin
  call private.clients_read(p_table,
    format('Users can read %s of published or own blocks', p_what),
    format('(%s) or private.is_block_owner(block_id)', v_visible),
    format('Anyone can read %s of published blocks', p_what),
    v_visible);
end;
$$;
revoke execute on procedure private.block_content_read(regclass, text, boolean) from public;

create table public.questions (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  type public.question_type not null,
  title text not null default '' check (char_length(title) <= 500),
  required boolean not null default true,
  index integer not null default 0,
  placeholder text check (char_length(placeholder) <= 500),
  allow_multi_select boolean not null default false,
  as_visitor_info text check (as_visitor_info in ('email', 'name')),
  trigger_letter_block uuid references public.blocks (id) on delete set null,
  content text check (char_length(content) <= 10000),
  image_src text check (char_length(image_src) <= 2000),
  deleted boolean not null default false,
  created_at timestamptz not null default now(),
  unique (id, block_id)
);
comment on table public.questions is
  'Questions of a form or ab block, ordered by index; deleted marks a soft delete.';
call private.block_content_read('public.questions', 'questions', p_soft_deleted => true);
create index questions_block_id_index_idx on public.questions (block_id, index);
create index questions_trigger_letter_block_idx on public.questions (trigger_letter_block);

create table public.options (
  id uuid primary key default gen_random_uuid(),
  question_id uuid not null,
  block_id uuid not null,
  value text not null default '' check (char_length(value) <= 500),
  response_count integer not null default 0 check (response_count >= 0),
  index integer not null default 0,
  deleted boolean not null default false,
  created_at timestamptz not null default now(),
  foreign key (question_id, block_id) references public.questions (id, block_id) on delete cascade
)
-- count updates stay HOT (heap-only tuples)
with (fillfactor = 80);
comment on table public.options is
  'Choices of a poll or ab question with their response counts; deleted marks a soft delete.';
call private.block_content_read('public.options', 'options', p_soft_deleted => true);
create index options_question_id_index_idx on public.options (question_id, index);
create index options_block_id_idx on public.options (block_id);

create table public.endings (
  id uuid primary key default gen_random_uuid(),
  block_id uuid not null references public.blocks (id) on delete cascade,
  is_default boolean not null default false,
  index integer not null default 0,
  title text not null default '' check (char_length(title) <= 200),
  closing_text text not null default '' check (char_length(closing_text) <= 1000),
  open_url text check (char_length(open_url) <= 2000),
  open_link_type text not null default 'submit' check (open_link_type in ('submit', 'button')),
  open_url_text text check (char_length(open_url_text) < 100),
  resubmit_text text check (char_length(resubmit_text) <= 100),
  block_submit_another boolean not null default false,
  created_at timestamptz not null default now(),
  unique (id, block_id)
);
comment on table public.endings is
  'Endings (closing logic) of a form or ab block; exactly one default ending per such block, created with it.';
call private.block_content_read('public.endings', 'endings');
create unique index endings_one_default_per_block_idx on public.endings (block_id) where is_default;
create index endings_block_id_index_idx on public.endings (block_id, index);

create table public.ending_conditions (
  id uuid primary key default gen_random_uuid(),
  ending_id uuid not null,
  block_id uuid not null,
  index integer not null default 0,
  question_id uuid not null,
  type public.condition_type not null,
  value text check (char_length(value) <= 1000),
  created_at timestamptz not null default now(),
  foreign key (ending_id, block_id) references public.endings (id, block_id) on delete cascade,
  foreign key (question_id, block_id) references public.questions (id, block_id) on delete cascade,
  check (type in ('empty', 'not_empty') or coalesce(value, '') <> '')
);
comment on table public.ending_conditions is
  'Conditions of an ending: all must hold for the ending to be chosen (equal, empty, not_empty, include).';
call private.block_content_read('public.ending_conditions', 'ending conditions');
create index ending_conditions_ending_id_index_idx on public.ending_conditions (ending_id, index);
create index ending_conditions_block_id_idx on public.ending_conditions (block_id);
create index ending_conditions_question_id_idx on public.ending_conditions (question_id);

-- Question count: 20 per block, 5 for owners without a paid plan (spec limits questionCountMax,
-- questionCountMaxFree). The block row is locked so concurrent inserts count right.
create function private.questions_check_count()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  v_paid boolean;
  v_count integer;
  v_max integer;
begin
  if new.deleted then
    return new;
  end if;
  if tg_op = 'UPDATE' and not old.deleted then
    return new;
  end if;
  select p.paid into v_paid
    from public.blocks b join public.profiles p on p.id = b.owner_id
    where b.id = new.block_id
    for update of b;
  v_max := case when coalesce(v_paid, false) then 20 else 5 end;
  select count(*) into v_count from public.questions
    where block_id = new.block_id and not deleted and id <> new.id;
  if v_count >= v_max then
    raise exception 'Too many questions (at most %)', v_max using errcode = 'P0001';
  end if;
  return new;
end;
$$;

create trigger questions_check_count before insert or update of deleted on public.questions
  for each row execute function private.questions_check_count();
create trigger options_keep_counts before insert or update on public.options
  for each row execute function private.keep_from_clients('response_count');
create trigger endings_keep_default before update on public.endings
  for each row execute function private.keep_from_clients('is_default');

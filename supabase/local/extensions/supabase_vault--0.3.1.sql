-- LOCAL-ONLY stand-in for supabase_vault 0.3.1 (https://github.com/supabase/vault), written in SQL
-- and PL/pgSQL for the embedded PostgreSQL of the local stack, which has no C extensions to load.
-- Never installed on a Supabase project: hosted Supabase has the real Vault (enabled by default).
-- Same table, view and functions as the real one. The real one encrypts with libsodium
-- (deterministic XChaCha20-SIV, the secret's id as associated data) under a root key kept outside
-- the database. Here pgcrypto's PGP symmetric encryption (AES-256, integrity-checked) does it, with
-- a key derived from a random root key, the secret's id and its nonce; the root key sits in a table
-- of this schema that only the extension's owner (a superuser) can read. Good enough that secrets
-- are not stored in clear and cannot be moved to another row; not a key management system.

\echo Use "create extension supabase_vault" to load this file. \quit

create table vault._root_key (
  only_row boolean primary key default true check (only_row),
  key bytea not null default @extschema:pgcrypto@.gen_random_bytes(32)
);
insert into vault._root_key default values;
revoke all on table vault._root_key from public;
comment on table vault._root_key is
  'LOCAL-ONLY: root key of the Vault stand-in; readable by superusers only.';

-- The password for one secret: HMAC of its id (associated data) and nonce under the root key.
-- key_id and context are accepted for compatibility and ignored, as key_id is by Vault 0.3.
create function vault._secret_key(additional bytea, nonce bytea)
returns text
language sql
stable
security definer -- reads the root key, which the caller must not see
set search_path = ''
as $$
  select pg_catalog.encode(
    @extschema:pgcrypto@.hmac(additional || coalesce(nonce, ''::bytea), k.key, 'sha256'), 'base64')
  from vault._root_key as k
$$;
revoke all on function vault._secret_key(bytea, bytea) from public;

create function vault._crypto_aead_det_encrypt(
  message bytea,
  additional bytea,
  key_id bigint,
  context bytea = 'pgsodium',
  nonce bytea = null
)
returns bytea
language sql
security definer -- calls vault._secret_key
set search_path = ''
as $$
  select @extschema:pgcrypto@.pgp_sym_encrypt_bytea(
    message, vault._secret_key(additional, nonce), 'cipher-algo=aes256')
$$;

create function vault._crypto_aead_det_decrypt(
  message bytea,
  additional bytea,
  key_id bigint,
  context bytea = 'pgsodium',
  nonce bytea = null
)
returns bytea
language sql
security definer -- calls vault._secret_key
set search_path = ''
as $$
  select @extschema:pgcrypto@.pgp_sym_decrypt_bytea(message, vault._secret_key(additional, nonce))
$$;

create function vault._crypto_aead_det_noncegen()
returns bytea
language sql
set search_path = ''
as $$
  select @extschema:pgcrypto@.gen_random_bytes(16)
$$;

create table vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea default vault._crypto_aead_det_noncegen(),
  created_at timestamptz not null default current_timestamp,
  updated_at timestamptz not null default current_timestamp
);
comment on table vault.secrets is
  'Table with encrypted `secret` column for storing sensitive information on disk.';
create unique index on vault.secrets using btree (name) where name is not null;

create view vault.decrypted_secrets as
select
  s.id,
  s.name,
  s.description,
  s.secret,
  pg_catalog.convert_from(
    vault._crypto_aead_det_decrypt(
      message := pg_catalog.decode(s.secret, 'base64'),
      additional := pg_catalog.convert_to(s.id::text, 'utf8'),
      key_id := 0,
      context := 'pgsodium'::bytea,
      nonce := s.nonce
    ),
    'utf8'
  ) as decrypted_secret,
  s.key_id,
  s.nonce,
  s.created_at,
  s.updated_at
from vault.secrets as s;

create function vault.create_secret(
  new_secret text,
  new_name text = null,
  new_description text = '',
  -- unused
  new_key_id uuid = null
)
returns uuid
language plpgsql
security definer -- writes vault.secrets and encrypts, for callers granted only this function
set search_path = ''
as $$
declare
  new_id uuid := gen_random_uuid();
  new_nonce bytea := vault._crypto_aead_det_noncegen();
begin
  -- encrypted before the insert: the plain secret never reaches the table
  insert into vault.secrets (id, secret, name, description, nonce)
  values (
    new_id,
    pg_catalog.encode(vault._crypto_aead_det_encrypt(
      message := pg_catalog.convert_to(new_secret, 'utf8'),
      additional := pg_catalog.convert_to(new_id::text, 'utf8'),
      key_id := 0,
      context := 'pgsodium'::bytea,
      nonce := new_nonce
    ), 'base64'),
    new_name,
    new_description,
    new_nonce
  );
  return new_id;
end
$$;

create function vault.update_secret(
  secret_id uuid,
  new_secret text = null,
  new_name text = null,
  new_description text = null,
  -- unused
  new_key_id uuid = null
)
returns void
language plpgsql
security definer -- as create_secret
set search_path = ''
as $$
begin
  update vault.secrets as s
  set
    secret = case when new_secret is null then s.secret
                  else pg_catalog.encode(vault._crypto_aead_det_encrypt(
                    message := pg_catalog.convert_to(new_secret, 'utf8'),
                    additional := pg_catalog.convert_to(s.id::text, 'utf8'),
                    key_id := 0,
                    context := 'pgsodium'::bytea,
                    nonce := s.nonce
                  ), 'base64') end,
    name = coalesce(new_name, s.name),
    description = coalesce(new_description, s.description),
    updated_at = now()
  where s.id = secret_id;
end
$$;

revoke all on function
  vault._crypto_aead_det_encrypt,
  vault._crypto_aead_det_decrypt,
  vault._crypto_aead_det_noncegen,
  vault.create_secret,
  vault.update_secret
from public;
revoke all on table vault.secrets, vault.decrypted_secrets from public;

select pg_catalog.pg_extension_config_dump('vault.secrets', '');

-- What Supabase's after-create script grants: postgres (with grant option) and service_role may
-- read and delete secrets and call the functions. anon and authenticated get nothing.
do $$
begin
  if exists (select from pg_catalog.pg_roles where rolname = 'postgres') then
    grant usage on schema vault to postgres with grant option;
    grant select, delete on vault.secrets, vault.decrypted_secrets to postgres with grant option;
    grant execute on function vault.create_secret, vault.update_secret,
      vault._crypto_aead_det_decrypt to postgres with grant option;
  end if;
  if exists (select from pg_catalog.pg_roles where rolname = 'service_role') then
    grant usage on schema vault to service_role;
    grant select, delete on vault.secrets, vault.decrypted_secrets to service_role;
    grant execute on function vault.create_secret, vault.update_secret,
      vault._crypto_aead_det_decrypt to service_role;
  end if;
end
$$;

// Password hashing with node:crypto scrypt, stored as "scrypt$N$r$p$salt$hash" (base64url).
// bcrypt hashes ("$2a$..."), as seed files make with pgcrypto's crypt(), are checked by Postgres.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type pg from 'pg';

const N = 1 << 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  opts: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const maxmem = (n: number, r: number) => 128 * n * r * 2;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(
  password: string,
  stored: string | null,
  db: pg.Pool,
): Promise<boolean> {
  if (!stored) return false;
  if (stored.startsWith('scrypt$')) {
    const [, n, r, p, saltText, keyText] = stored.split('$');
    if (!n || !r || !p || !saltText || !keyText) return false;
    const expected = Buffer.from(keyText, 'base64url');
    const key = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: maxmem(Number(n), Number(r)),
    });
    return key.length === expected.length && timingSafeEqual(key, expected);
  }
  if (/^\$2[abxy]\$/.test(stored)) {
    const { rows } = await db.query<{ ok: boolean }>('select extensions.crypt($1, $2) = $2 as ok', [
      password,
      stored,
    ]);
    return rows[0]?.ok === true;
  }
  return false;
}

// LOCAL-ONLY stand-in for Supabase Storage: the part of its HTTP API that the letter pipeline
// uses through the unmodified `supabase.storage` client, backed by a folder.
//   POST|PUT /storage/v1/object/<bucket>/<path>        upload (service role only; x-upsert)
//   GET|HEAD /storage/v1/object/public/<bucket>/<path> a public bucket's file
// A project has Supabase Storage itself (docs/self-hosting.md: the public bucket `letter-images`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { jwtVerify } from 'jose';

export interface StorageOptions {
  /** Where the buckets' files live (one folder per bucket). */
  dir: string;
  jwtSecret: string;
  /** Buckets that exist, all public (their files are readable without a key). */
  publicBuckets: string[];
  /** Largest accepted upload. */
  maxBytes?: number;
}

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A storage-shaped error ({statusCode, error, message}), as storage-js parses them. */
const fail = (res: ServerResponse, status: number, error: string, message: string) =>
  send(res, status, { statusCode: String(status), error, message });

export function createStorage(opts: StorageOptions) {
  const secret = new TextEncoder().encode(opts.jwtSecret);
  const maxBytes = opts.maxBytes ?? 20 * 1024 * 1024;

  /** The file of `bucket/path`, refusing anything that climbs out of the bucket. */
  function fileOf(bucket: string, path: string): string | undefined {
    if (!opts.publicBuckets.includes(bucket) || path === '') return undefined;
    const root = join(opts.dir, bucket);
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    const full = normalize(join(root, decoded));
    return full.startsWith(root + sep) ? full : undefined;
  }

  async function isServiceRole(req: IncomingMessage): Promise<boolean> {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return false;
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
      return payload.role === 'service_role';
    } catch {
      return false;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, subPath: string): Promise<void> {
    const parts = subPath.split('/').filter(Boolean);
    if (parts[0] !== 'object') return fail(res, 404, 'not_found', 'Not found');
    if ((req.method === 'GET' || req.method === 'HEAD') && parts[1] === 'public') {
      const file = fileOf(parts[2] ?? '', parts.slice(3).join('/'));
      if (!file || !existsSync(file) || !statSync(file).isFile()) {
        return fail(res, 404, 'not_found', 'Object not found');
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': statSync(file).size,
        'cache-control': 'public, max-age=31536000, immutable',
        // what Storage answers for a public file: nothing in it can run as a page of ours
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      if (req.method === 'HEAD') return void res.end();
      pipeline(createReadStream(file), res, () => {});
      return;
    }
    if (req.method === 'POST' || req.method === 'PUT') {
      if (!(await isServiceRole(req)))
        return fail(res, 403, 'Unauthorized', 'new row violates row-level security policy');
      const file = fileOf(parts[1] ?? '', parts.slice(2).join('/'));
      if (!file) return fail(res, 404, 'Bucket not found', 'Bucket not found');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > maxBytes)
          return fail(
            res,
            413,
            'Payload too large',
            'The object exceeded the maximum allowed size',
          );
        chunks.push(chunk as Buffer);
      }
      const upsert = req.method === 'PUT' || req.headers['x-upsert'] === 'true';
      if (!upsert && existsSync(file))
        return fail(res, 409, 'Duplicate', 'The resource already exists');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, Buffer.concat(chunks));
      return send(res, 200, { Key: `${parts[1]}/${parts.slice(2).join('/')}`, Id: randomUUID() });
    }
    return fail(res, 405, 'method_not_allowed', 'Method not allowed');
  }

  return { handle };
}

export type LocalStorage = ReturnType<typeof createStorage>;

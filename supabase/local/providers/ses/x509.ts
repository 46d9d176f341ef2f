// A self-signed X.509 v3 certificate for the SNS fake's signing key, written as DER by hand
// (RFC 5280 section 4.1): SNS signs with a key whose certificate it serves at SigningCertURL.
import { generateKeyPair, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

// ---- DER (X.690) ----

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer) =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 | n, content);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const nul = () => Buffer.from([0x05, 0x00]);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps it positive). */
function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && b[1]! < 0x80) b = b.subarray(1);
  if (b[0]! >= 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [];
    let v = part;
    do {
      chunk.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i]! |= 0x80;
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime for years before 2050, GeneralizedTime after (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  basicConstraints: '2.5.29.19',
  subjectAltName: '2.5.29.17',
};

function name(attrs: Array<[string, string]>): Buffer {
  return sequence(...attrs.map(([type, value]) => set(sequence(oid(type), utf8(value)))));
}

export interface SigningIdentity {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The certificate, PEM. */
  certPem: string;
  certDer: Buffer;
}

export interface CertOptions {
  commonName: string;
  organization: string;
  /** Days the certificate stays valid from now (it is also valid from a day ago). */
  days?: number;
  /** Host names it is for (subjectAltName dNSName): a TLS server's certificate. */
  dnsNames?: string[];
}

export function selfSignedCertificate(
  privateKey: KeyObject,
  publicKey: KeyObject,
  opts: CertOptions,
): Buffer {
  const now = Date.now();
  const algorithm = sequence(oid(OID.sha256WithRSA), nul());
  const subject = name([
    [OID.organization, opts.organization],
    [OID.commonName, opts.commonName],
  ]);
  const serial = Buffer.from(crypto.getRandomValues(new Uint8Array(16)));
  serial[0]! &= 0x7f;
  const extensions = explicit(
    3,
    sequence(
      // not a CA (no keyUsage: a self-signed certificate is then its own valid issuer)
      sequence(oid(OID.basicConstraints), bool(true), octets(sequence())),
      ...(opts.dnsNames?.length
        ? [
            sequence(
              oid(OID.subjectAltName),
              octets(sequence(...opts.dnsNames.map((n) => tlv(0x82, Buffer.from(n, 'ascii'))))),
            ),
          ]
        : []),
    ),
  );
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serial),
    algorithm,
    subject, // issuer: self-signed
    sequence(
      time(new Date(now - 86_400_000)),
      time(new Date(now + (opts.days ?? 3650) * 86_400_000)),
    ),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  return sequence(tbs, algorithm, bits(signature));
}

export const toPem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;

/** A new RSA-2048 key and its self-signed certificate (made at every start, never stored). */
export async function makeSigningIdentity(opts: CertOptions): Promise<SigningIdentity> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
  });
  const certDer = selfSignedCertificate(privateKey, publicKey, opts);
  return { privateKey, publicKey, certDer, certPem: toPem(certDer) };
}

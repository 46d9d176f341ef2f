// The public key of an X.509 certificate (PEM), for WebCrypto: walks the DER just far enough to
// take tbsCertificate's subjectPublicKeyInfo (RFC 5280 4.1). Used to check SNS signatures
// without Node's crypto module.

interface Tlv {
  tag: number;
  /** offset of the whole element (tag byte) */
  start: number;
  /** offset of the contents */
  body: number;
  end: number;
}

function readTlv(der: Uint8Array, offset: number): Tlv {
  if (offset + 2 > der.length) throw new Error('truncated certificate');
  const tag = der[offset]!;
  let length = der[offset + 1]!;
  let body = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || body + count > der.length) throw new Error('bad length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[body + i]!;
    body += count;
  }
  const end = body + length;
  if (end > der.length) throw new Error('truncated certificate');
  return { tag, start: offset, body, end };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.body; at < parent.end;) {
    const child = readTlv(der, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(pem);
  if (!match) throw new Error('not a PEM certificate');
  const binary = atob(match[1]!.replace(/\s+/g, ''));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The DER of the certificate's SubjectPublicKeyInfo. */
export function subjectPublicKeyInfo(pem: string): Uint8Array<ArrayBuffer> {
  const der = pemToDer(pem);
  const certificate = readTlv(der, 0);
  const [tbs] = children(der, certificate);
  if (certificate.tag !== 0x30 || !tbs || tbs.tag !== 0x30) throw new Error('not a certificate');
  const fields = children(der, tbs);
  // [0] EXPLICIT version is optional; then serialNumber, signature, issuer, validity, subject, spki
  const index = fields[0]?.tag === 0xa0 ? 6 : 5;
  const spki = fields[index];
  if (!spki || spki.tag !== 0x30) throw new Error('no public key in the certificate');
  return der.slice(spki.start, spki.end);
}

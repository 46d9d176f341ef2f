// Easy DKIM as SES does it: three tokens per domain, published by the domain's owner as
// CNAMEs `<token>._domainkey.<domain>` -> `<token>.dkim.amazonses.com`. The fake derives the
// tokens from the domain name, so a zone can be seeded with them before the identity exists.
import { createHash } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function dkimTokens(domain: string): string[] {
  return [0, 1, 2].map((i) => {
    const digest = createHash('sha256')
      .update(`local-ses-dkim:${domain.toLowerCase()}:${i}`)
      .digest();
    let token = '';
    for (let j = 0; j < 32; j++) token += ALPHABET[digest[j]! % 32];
    return token;
  });
}

export const dkimRecordName = (domain: string, token: string) =>
  `${token}._domainkey.${domain.toLowerCase()}`;

export const dkimTarget = (token: string) => `${token}.dkim.amazonses.com`;

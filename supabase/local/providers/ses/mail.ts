// Mail as SES builds it from SendEmail's Simple content, and as SES reads Raw content (MIME).
import PostalMime, { decodeWords } from 'postal-mime';

export interface Mailbox {
  name: string;
  address: string;
}

const ADDRESS =
  /^[^\s@<>()",;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** `a@b.c`, `Name <a@b.c>` or `"Name" <a@b.c>` (the name may be an RFC 2047 encoded-word). */
export function parseAddress(raw: string): Mailbox | undefined {
  const text = raw.trim();
  const angle = /^(.*?)\s*<([^<>]+)>$/.exec(text);
  const address = (angle ? angle[2]! : text).trim();
  if (!ADDRESS.test(address) || address.length > 320) return undefined;
  let name = angle ? angle[1]!.trim() : '';
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) {
    name = name.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return { name: decodeWords(name), address };
}

export const domainOf = (address: string) =>
  address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** How a mailbox reads in a header: `Name <a@b>` or `a@b`. */
export function formatAddress(m: Mailbox): string {
  if (!m.name) return m.address;
  const name = /[^\x20-\x7e]/.test(m.name)
    ? encodeWord(m.name)
    : /[()<>@,;:\\".[\]]/.test(m.name)
      ? `"${m.name.replace(/(["\\])/g, '\\$1')}"`
      : m.name;
  return `${name} <${m.address}>`;
}

/** How it reads to a person (the mailbox list shows names decoded). */
export const displayAddress = (m: Mailbox) => (m.name ? `${m.name} <${m.address}>` : m.address);

/** RFC 2047 B-encoding for a header value that is not plain ASCII. */
export function encodeWord(value: string): string {
  return /^[\x20-\x7e]*$/.test(value)
    ? value
    : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

export interface BuiltMail {
  /** Header name and value, in order. */
  headers: Array<{ name: string; value: string }>;
  from: Mailbox;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: Mailbox[];
  subject: string;
  html: string | null;
  text: string | null;
}

/** A Simple content's mail: the built mail's fields, with the caller's headers to add. */
export type SimpleInput = Omit<BuiltMail, 'headers'> & {
  /** Content.Simple.Headers */
  extraHeaders: BuiltMail['headers'];
};

/** The headers SES writes for Simple content (Bcc is never written into the message). */
export function buildSimple(input: SimpleInput): BuiltMail {
  const headers: Array<{ name: string; value: string }> = [
    { name: 'From', value: formatAddress(input.from) },
  ];
  if (input.replyTo.length)
    headers.push({ name: 'Reply-To', value: input.replyTo.map(formatAddress).join(', ') });
  if (input.to.length) headers.push({ name: 'To', value: input.to.map(formatAddress).join(', ') });
  if (input.cc.length) headers.push({ name: 'Cc', value: input.cc.map(formatAddress).join(', ') });
  headers.push({ name: 'Subject', value: encodeWord(input.subject) });
  headers.push({ name: 'MIME-Version', value: '1.0' });
  const both = input.html !== null && input.text !== null;
  headers.push({
    name: 'Content-Type',
    value: both
      ? `multipart/alternative; boundary="----=_Part_${Date.now()}"`
      : `${input.html !== null ? 'text/html' : 'text/plain'}; charset=UTF-8`,
  });
  headers.push(...input.extraHeaders);
  return {
    headers,
    from: input.from,
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    replyTo: input.replyTo,
    subject: input.subject,
    html: input.html,
    text: input.text,
  };
}

export class MimeError extends Error {}

/** Reads a raw MIME message: its headers (Bcc taken out, as SES does), addresses and bodies. */
export async function parseRaw(data: Uint8Array): Promise<BuiltMail & { fromHeader?: Mailbox }> {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(data);
  } catch (err) {
    throw new MimeError(`could not parse the raw message: ${(err as Error).message}`);
  }
  if (!email.headers.length) throw new MimeError('the raw message has no headers');
  const flat = (
    list:
      | Array<{ name: string; address?: string; group?: Array<{ name: string; address: string }> }>
      | undefined,
  ): Mailbox[] =>
    (list ?? []).flatMap((a) =>
      a.group ? a.group : a.address ? [{ name: a.name, address: a.address }] : [],
    );
  const from =
    email.from && 'address' in email.from && email.from.address
      ? { name: email.from.name, address: email.from.address }
      : undefined;
  return {
    headers: email.headers
      .filter((h) => h.key !== 'bcc')
      .map((h) => ({ name: h.originalKey, value: h.value })),
    from: from ?? { name: '', address: '' },
    fromHeader: from,
    to: flat(email.to),
    cc: flat(email.cc),
    bcc: flat(email.bcc),
    replyTo: flat(email.replyTo),
    subject: email.subject ?? '',
    html: email.html ?? null,
    text: email.text ?? null,
  };
}

/** Puts SES's open-tracking pixel at the end of the HTML body, as SES does. */
export function withPixel(html: string, src: string): string {
  const img = `<img alt="" src="${src}" style="display: none; width: 1px; height: 1px;">`;
  const close = html.search(/<\/body\s*>/i);
  return close >= 0 ? `${html.slice(0, close)}${img}${html.slice(close)}` : `${html}${img}`;
}

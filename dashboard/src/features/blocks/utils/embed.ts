import type { BlockRow } from '../../../lib/db-types';
import type { ReactionEnv } from '../../../lib/env';
import { safeFileNamePart } from '../../../lib/file-name';

export function escapeHtml(value: string) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The snippet a site owner pastes into a page: the SDK script and the block's element. */
export function embedSnippet(block: Pick<BlockRow, 'id' | 'owner_id' | 'type'>, env: ReactionEnv) {
  const tag = `reaction-${block.type}`;
  const attrs = [
    ['project-url', env.supabaseUrl],
    ['anon-key', env.anonKey],
    ['owner-id', block.owner_id],
    ['block-id', block.id],
  ]
    .map(([name, value]) => `${name}="${escapeHtml(value ?? '')}"`)
    .join(' ');
  return [
    `<script src="${escapeHtml(env.sdkUrl ?? `${window.location.origin}/sdk/cdn/reaction.js`)}"></script>`,
    `<${tag} ${attrs}></${tag}>`,
  ].join('\n');
}

/** A small standalone HTML page with the link and the snippet, for handing to a web editor. */
export function handoutHtml(input: {
  title: string;
  blockName: string;
  publicUrl: string;
  snippet: string;
  snippetHelp: string;
}) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;line-height:1.5">
<h1>${escapeHtml(input.title)}</h1>
<h2>${escapeHtml(input.blockName)}</h2>
<p><a href="${escapeHtml(input.publicUrl)}">${escapeHtml(input.publicUrl)}</a></p>
<p>${escapeHtml(input.snippetHelp)}</p>
<pre style="white-space:pre-wrap;background:#f4f4f5;padding:1rem">${escapeHtml(input.snippet)}</pre>
</body></html>
`;
}

/** Puts `text` on the clipboard; throws when the browser refuses (no permission, no support). */
export async function copyText(text: string) {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('The browser refused the copy');
}

/** The QR code's PNG file: `qrcode_{blockName}.png`. */
export function qrCodeFileName(name: string | null | undefined) {
  return `qrcode_${safeFileNamePart(name)}.png`;
}

/** QR code edge in CSS pixels, and of the downloaded PNG (spec: size 128). */
export const QR_CODE_SIZE = 128;

/** The PNG data URL of a QR code for `text`; the qrcode package loads on first use. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const mod = await import('qrcode');
  // A CommonJS package: bundlers put its exports either on the namespace or on `default`.
  const qrcode = 'toDataURL' in mod ? mod : (mod as unknown as { default: typeof mod }).default;
  return qrcode.toDataURL(text, { width: QR_CODE_SIZE, errorCorrectionLevel: 'M' });
}

import { performance } from 'node:perf_hooks';
import juice from 'juice';
import { convert } from 'html-to-text';
import { LETTER_LIMITS, type TLetterModel } from '@reaction-blocks/contracts/letters';
import { renderLetter } from '/work/wt/letters2/supabase/functions/_shared/letter/render.ts';
import { sanitizeLetterHtml } from '/work/wt/letters2/supabase/functions/_shared/letter/sanitize-letter.ts';
const text = 'x'.repeat(LETTER_LIMITS.spanText);
const blocks = Array.from({ length: 400 }, (_, i) => ({ id: `p${i}`, type: 'paragraph' as const, spans: [{ text }] }));
const model: TLetterModel = { version: 1, source: null, blocks, cta: null, imageButton: null };
const rows = blocks.map(b => `<tr><td class="cell"><p class="p">${text}</p></td></tr>`).join('');
const table = `<table class="letter" role="presentation" width="600">${rows}</table>`;
for (let k = 0; k < 4; k++) {
  let t = performance.now();
  const inl = juice(`<style>.cell{padding:0 32px} .p{margin:0}</style>${table}`, {removeStyleTags:true});
  const a = performance.now() - t; t = performance.now();
  const s = sanitizeLetterHtml(inl);
  const b = performance.now() - t; t = performance.now();
  const tx = convert(s, { wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] });
  const c = performance.now() - t;
  t = performance.now();
  let small = 0; for (const bl of blocks.slice(0, 60)) small += renderLetter('', {...model, blocks:[bl]}).html.length;
  const d = performance.now() - t;
  console.log('juice', a.toFixed(0), 'sanitize', b.toFixed(0), 'text', c.toFixed(0), '60 single renders', d.toFixed(0));
}

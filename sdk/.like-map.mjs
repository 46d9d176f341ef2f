import { rollup } from 'rollup';
import configs from '/work/main/sdk/rollup.config.mjs';
import { SourceMapConsumer } from 'source-map-js';
import { gzipSync } from 'node:zlib';
const name = process.argv[2] || 'like';
const cfg = configs.find((c) => c.input && c.input[name]);
const bundle = await rollup({ ...cfg, onwarn() {} });
const { output } = await bundle.generate({ ...cfg.output, sourcemap: true });
for (const chunk of output) {
  if (chunk.type !== 'chunk') continue;
  const code = chunk.code; const map = new SourceMapConsumer(chunk.map);
  const lines = code.split('\n'); const sizes = {};
  lines.forEach((line, li) => {
    let prevCol = 0, prevSrc = null;
    const cols = [];
    map.eachMapping((m) => { if (m.generatedLine === li + 1) cols.push(m); });
    cols.sort((a,b)=>a.generatedColumn-b.generatedColumn);
    for (let i=0;i<cols.length;i++){ const end = i+1<cols.length?cols[i+1].generatedColumn:line.length; const s=(cols[i].source||'?').replace(/.*node_modules\//,'nm/').replace(/.*sdk\/src\//,'src/'); sizes[s]=(sizes[s]||0)+(end-cols[i].generatedColumn); }
  });
  console.log(chunk.fileName, code.length, 'gz', gzipSync(code,{level:9}).length);
  for (const [s,n] of Object.entries(sizes).sort((a,b)=>b[1]-a[1]).slice(0,40)) console.log(String(n).padStart(7), s);
}

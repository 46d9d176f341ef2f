import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { minify } from 'terser';
// re-minify the unminified like bundle with different options
const src = readFileSync(process.argv[2], 'utf8');
const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;
const variants = {
  base: { ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } },
  p3: { ecma: 2020, module: true, compress: { passes: 3 }, format: { comments: false } },
  unsafe: { ecma: 2020, module: true, compress: { passes: 3, unsafe: true, unsafe_arrows: true, unsafe_methods: true, pure_getters: true, unsafe_comps: true }, format: { comments: false } },
  priv: { ecma: 2020, module: true, compress: { passes: 3 }, mangle: { properties: { regex: /^_[a-z]/ } }, format: { comments: false } },
};
for (const [k, o] of Object.entries(variants)) {
  const r = await minify(src, o);
  console.log(k.padEnd(8), r.code.length, (gz(r.code) / 1024).toFixed(3));
}

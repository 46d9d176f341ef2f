import { rollup } from 'rollup';
import { writeFileSync } from 'node:fs';
import configs from './rollup.config.mjs';
const entry = process.argv[2] || 'like';
const cfg = configs.find((c) => c.input && c.input[entry] && c.output?.dir && !c.output.dir.endsWith('shared'));
const b = await rollup({ ...cfg, onwarn: () => {} });
const { output } = await b.generate({ ...cfg.output, plugins: [], dir: undefined });
writeFileSync(`/tmp/sdk-size/${entry}.unmin.js`, output.find((o) => o.isEntry).code);

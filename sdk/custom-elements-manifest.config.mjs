export default {
  globs: ['src/components/**/*.component.ts', 'src/core/base.ts'],
  exclude: ['**/*.test.ts'],
  outdir: '.',
  litelement: true,
};

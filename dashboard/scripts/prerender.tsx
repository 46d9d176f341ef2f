// Build step (run by rollup.config.mjs after it writes dist/): writes the landing routes as static
// HTML, dist/<route>/index.html (the home page is dist/index.html), from the app shell the build
// wrote to dist/200.html, with the stylesheet inlined. The browser paints them before any script
// runs; main.tsx then hydrates.
// Reads from stdin what rollup knows about the chunks, to preload each route's lazy module.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRERENDER_LANGUAGE, PRERENDERED_ROUTES } from './prerender-routes';

export interface ChunkManifest {
  /** The entry chunk, e.g. assets/main-x.js. */
  entry: string;
  chunks: { fileName: string; facadeModuleId: string | null; imports: string[] }[];
}

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** The route module's chunk and everything it imports statically, minus what the shell loads. */
export function routePreloads(manifest: ChunkManifest, moduleId: string): string[] {
  const byFile = new Map(manifest.chunks.map((c) => [c.fileName, c]));
  const start = manifest.chunks.find((c) => c.facadeModuleId === moduleId);
  if (!start) throw new Error(`prerender: no chunk for ${moduleId}`);
  const shell = new Set([manifest.entry, ...(byFile.get(manifest.entry)?.imports ?? [])]);
  const found: string[] = [];
  const visit = (file: string) => {
    if (shell.has(file) || found.includes(file)) return;
    found.push(file);
    for (const next of byFile.get(file)?.imports ?? []) visit(next);
  };
  visit(start.fileName);
  return found;
}

/** The shell with the page's markup in #root, its path and language on <html>, and preloads. */
export function pageHtml(shell: string, path: string, markup: string, preloads: string[]): string {
  const links = preloads.map((f) => `<link rel="modulepreload" href="/${f}" />\n    `).join('');
  const withRoute = shell.replace(
    /<html lang="[^"]*">/,
    `<html lang="${PRERENDER_LANGUAGE}" data-route="${path}" data-lang="${PRERENDER_LANGUAGE}">`,
  );
  const withRoot = withRoute.replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
  const result = withRoot.replace('<script type="module"', `${links}<script type="module"`);
  if (withRoute === shell || withRoot === withRoute || result === withRoot) {
    throw new Error('prerender: dist/200.html is not the expected app shell');
  }
  return result;
}

/**
 * Renders every prerendered route. Fails on anything React reports through console.error while
 * rendering, and on a page without its <h1> (a redirect rendered nothing, for instance).
 */
export /**
 * Puts the stylesheet into the page: the first paint then needs one request (the HTML) instead
 * of two in a row, which on a slow connection is one round trip less (see docs/benchmarks.md).
 * The app shell keeps the cacheable file for the signed-in app.
 */
function inlineStylesheet(html: string, readCss: (path: string) => string): string {
  const link = /<link rel="stylesheet" href="\/([^"]+\.css)" \/>/.exec(html);
  if (!link) throw new Error('prerender: the app shell has no stylesheet link');
  const css = readCss(link[1]!);
  if (/<\/style/i.test(css)) throw new Error('prerender: the stylesheet cannot be inlined');
  return html.replace(link[0], () => `<style>${css}</style>`);
}

async function renderAll(): Promise<Record<string, string>> {
  // Rendering /login in Node creates the Supabase client, which warns about the build's missing
  // anon key; that does not concern the pages (the browser gets its key from /env.js).
  const consoleWarn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = String(args[0]);
    if (!text.includes('no anon key')) {
      consoleWarn(...args);
    }
  };
  const problems: unknown[][] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => problems.push(args);
  try {
    const { renderPage } = await import('./render-page');
    const pages: Record<string, string> = {};
    for (const path of Object.keys(PRERENDERED_ROUTES)) {
      const markup = await renderPage(path);
      if (problems.length) throw new Error(`prerender ${path}: ${problems.map(String).join('\n')}`);
      if (!markup.includes('<h1')) throw new Error(`prerender ${path}: no <h1> in the markup`);
      pages[path] = markup;
    }
    return pages;
  } finally {
    console.error = consoleError;
    console.warn = consoleWarn;
  }
}

/** Refuses invalid SITE_* settings and says which footer links go to the app's own pages. */
async function checkSiteSettings() {
  const { parseSiteConfig, siteEnv } = await import('../src/config/site');
  const { problems } = parseSiteConfig(siteEnv);
  if (problems.length) throw new Error(`invalid footer settings:\n  ${problems.join('\n  ')}`);
  const unset = (['SITE_TERMS_URL', 'SITE_COOKIE_URL'] as const).filter((key) => !siteEnv[key]);
  if (unset.length) {
    process.stdout.write(
      `footer: ${unset.join(', ')} not set; those links lead to this app's /terms and /cookies pages\n`,
    );
  }
}

async function main() {
  if (process.argv.includes('--markup')) {
    // For the hydration test: the markup of every page as JSON, nothing written.
    process.stdout.write(JSON.stringify(await renderAll()));
    return;
  }
  await checkSiteSettings();
  const manifest = JSON.parse(readFileSync(0, 'utf8')) as ChunkManifest;
  const shell = inlineStylesheet(readFileSync(join(dist, '200.html'), 'utf8'), (file) =>
    readFileSync(join(dist, file), 'utf8'),
  );
  const pages = await renderAll();
  for (const [path, moduleIds] of Object.entries(PRERENDERED_ROUTES)) {
    const preloads = [...new Set(moduleIds.flatMap((id) => routePreloads(manifest, id)))];
    const html = pageHtml(shell, path, pages[path]!, preloads);
    const file = path === '/' ? join(dist, 'index.html') : join(dist, path.slice(1), 'index.html');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  process.stdout.write(`prerendered ${Object.keys(pages).join(' ')}\n`);
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

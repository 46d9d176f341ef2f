// The declarative schema: the files of config.toml `[db.migrations] schema_paths`, in that order,
// as the Supabase CLI reads them (paths relative to supabase/, globs expanded and sorted, each file
// once), applied to a database over one connection.
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type pg from 'pg';
import { configToml } from './config.ts';
import { paths } from './paths.ts';

/** The schema files in the order config.toml gives them (absolute paths). */
export function schemaFiles(): string[] {
  const list = configToml().get('db.migrations')?.get('schema_paths') ?? [];
  const files: string[] = [];
  for (const pattern of Array.isArray(list) ? list : [list]) {
    const matches = /[*?[]/.test(pattern)
      ? globSync(pattern, { cwd: paths.supabase }).sort()
      : [pattern];
    for (const match of matches) {
      const file = join(paths.supabase, match);
      if (!existsSync(file)) throw new Error(`config.toml schema_paths: ${match} does not exist`);
      if (!files.includes(file)) files.push(file);
    }
  }
  return files;
}

/** Applies the schema files in order; an error names the file it came from. */
export async function applySchemas(client: pg.Client, files = schemaFiles()): Promise<void> {
  for (const file of files) {
    try {
      await client.query(readFileSync(file, 'utf8'));
    } catch (err) {
      const e = err as Error & { position?: string };
      const at = e.position
        ? ` (at line ${lineOf(readFileSync(file, 'utf8'), Number(e.position))})`
        : '';
      throw new Error(`${relative(paths.root, file)}${at}: ${e.message}`);
    }
  }
}

function lineOf(text: string, position: number): number {
  return text.slice(0, position).split('\n').length;
}

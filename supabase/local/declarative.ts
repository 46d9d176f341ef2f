// The SQL files config.toml lists, in that order, as the Supabase CLI reads them (paths relative
// to supabase/, globs expanded and sorted, each file once): the declarative schema
// (`[db.migrations] schema_paths`) and the demo seed (`[db.seed] sql_paths`), applied to a
// database over one connection.
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type pg from 'pg';
import { configToml } from './config.ts';
import { paths } from './paths.ts';

/** The files of a config.toml list of paths (absolute paths, in the list's order). */
function listedFiles(section: string, key: string): string[] {
  const list = configToml().get(section)?.get(key) ?? [];
  const files: string[] = [];
  for (const pattern of Array.isArray(list) ? list : [list]) {
    const matches = /[*?[]/.test(pattern)
      ? globSync(pattern, { cwd: paths.supabase }).sort()
      : [pattern];
    for (const match of matches) {
      const file = join(paths.supabase, match);
      if (!existsSync(file)) throw new Error(`config.toml ${key}: ${match} does not exist`);
      if (!files.includes(file)) files.push(file);
    }
  }
  return files;
}

/** The schema files in the order config.toml gives them. */
export function schemaFiles(): string[] {
  return listedFiles('db.migrations', 'schema_paths');
}

/** The seed files in the order config.toml gives them; none when its `[db.seed]` is disabled. */
export function seedFiles(): string[] {
  const enabled = configToml().get('db.seed')?.get('enabled');
  return enabled === 'false' ? [] : listedFiles('db.seed', 'sql_paths');
}

/** Applies SQL files in order (the schema files unless told); an error names its file. */
export async function applyFiles(client: pg.Client, files = schemaFiles()): Promise<void> {
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

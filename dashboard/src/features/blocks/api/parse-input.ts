// A write's input checked by its schema in schemas.ts, which loads (with zod) at the first write
// that parses, not with the block dashboard (schemas.ts says why).
import type { z } from 'zod';
import type * as schemas from './schemas';

type Schemas = typeof schemas;
/** The names of schemas.ts's zod schemas. */
type SchemaName = {
  [K in keyof Schemas]: Schemas[K] extends z.ZodType ? K : never;
}[keyof Schemas];

/** `value` as the schema `name` of schemas.ts parses it (throws as zod does). */
export async function parseInput<N extends SchemaName>(
  name: N,
  value: unknown,
): Promise<z.output<Schemas[N]>> {
  const loaded = await import('./schemas');
  return (loaded[name] as z.ZodType).parse(value) as z.output<Schemas[N]>;
}

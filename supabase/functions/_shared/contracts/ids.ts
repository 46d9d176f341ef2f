// What a row's id looks like, one rule for the elements and the functions: a module of its own
// (as wait.ts), so that an element's first chunk, which checks its block-id, carries it without
// the limits it checks only once the visitor writes.

/**
 * A row's id as the database writes it: a uuid, in any letter case (Postgres reads both). The
 * elements ask for no block whose block-id is not one (the server would refuse it as a bad
 * request); the Open Graph pages read no other. The schemas' z.uuid() takes only these.
 */
export const UUID_RE = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

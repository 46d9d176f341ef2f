// One transaction on one connection, for the local servers and the tests: committed when `fn`
// returns, rolled back when it throws (the error is thrown on).
import type pg from 'pg';

export async function inTransaction<C extends pg.ClientBase, T>(
  client: C,
  fn: (client: C) => Promise<T>,
): Promise<T> {
  await client.query('begin');
  try {
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}

/** `fn` in a transaction on a connection of `pool`, given back to the pool after. */
export async function tx<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await inTransaction(client, fn);
  } finally {
    client.release();
  }
}

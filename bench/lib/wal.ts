/**
 * The WAL a PostgreSQL server writes over a span, in bytes: every database's and autovacuum's, so it is a
 * run's own only with nothing else on the server. Unlike CPU it hardly moves between runs of the same code: it
 * follows the rows, index entries and locks written, so a change to them shows in one run.
 */

/** Runs one statement and returns its rows, through whichever client the caller holds. */
export type ReadRows = (sql: string) => Promise<ReadonlyArray<Record<string, unknown>>>;

/** The server's WAL insert position, as bytes from its start. */
const POSITION = `select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::text as "bytes"`;

async function position(read: ReadRows): Promise<bigint> {
  const [row] = await read(POSITION);
  return BigInt(String(row?.bytes));
}

/** Marks the server's WAL position now; the function returned answers the bytes written since. */
export async function walSince(read: ReadRows): Promise<() => Promise<number>> {
  const start = await position(read);
  return async () => Number((await position(read)) - start);
}

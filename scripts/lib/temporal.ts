import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, temporalCli } from './paths';
import { isPortOpen, waitForPort } from './net';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

export interface TemporalHandle {
  address: string;
  uiUrl: string;
  /** Resolves if a server this process started exits; never for a reused one. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Registers the search attributes the server lacks. `start-dev --search-attribute` registers them only when it
 * creates its database, so a `.data/temporal.db` made before an attribute was added (or a server already
 * running) would refuse the workflows that set it.
 */
async function registerSearchAttributes(address: string, log: (line: string) => void): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const known = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
    const missing = SEARCH_ATTRIBUTES.filter((a) => !(a.name in known.customAttributes));
    if (missing.length === 0) return;
    await connection.operatorService.addSearchAttributes({
      namespace: 'default',
      searchAttributes: Object.fromEntries(
        missing.map((a) => [
          a.name,
          temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${a.cliType.toUpperCase() as 'KEYWORD' | 'DATETIME'}`],
        ]),
      ),
    });
    log(`[temporal] registered search attributes ${missing.map((a) => a.name).join(', ')}`);
  } finally {
    await connection.close();
  }
}

/** Runs (or reuses) `temporal server start-dev` with its SQLite file under .data and our search attributes registered. */
export async function ensureTemporal(port: number, uiPort: number, log: (line: string) => void): Promise<TemporalHandle> {
  const address = `127.0.0.1:${port}`;
  const uiUrl = `http://localhost:${uiPort}`;
  const never = new Promise<number | null>(() => {});
  if (process.env.TEMPORAL_ADDRESS) return { address: process.env.TEMPORAL_ADDRESS, uiUrl, exited: never, stop: async () => {} };
  if (await isPortOpen(port)) {
    await registerSearchAttributes(address, log);
    return { address, uiUrl, exited: never, stop: async () => {} };
  }

  fs.mkdirSync(dataDir, { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--db-filename',
    path.join(dataDir, 'temporal.db'),
    // SQLite's defaults (rollback journal, fsync at every commit) cap the server at ~100 workflow starts/s on a
    // 2-core machine; a write-ahead log synced at checkpoints takes ~2.5 times that, and still survives a crash
    // of the server process (docs/contributors/automations.md "Figures").
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    'synchronous=normal',
    // Tasks are dispatched fairly across projects, their fairness keys (docs/automations.md "Fairness"); one
    // partition per task queue, where fairness is exact (the dev server has no throughput to spread anyway).
    '--dynamic-config-value',
    'matching.enableFairness=true',
    '--dynamic-config-value',
    'matching.numTaskqueueReadPartitions=1',
    '--dynamic-config-value',
    'matching.numTaskqueueWritePartitions=1',
    '--log-level',
    'error',
    ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=${a.cliType}`]),
  ];
  const child: ChildProcess = spawn(temporalCli, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  child.stderr?.on('data', (d: Buffer) => log(`[temporal] ${d.toString().trim()}`));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await waitForPort(port, 'Temporal dev server');
  await registerSearchAttributes(address, log);
  return {
    address,
    uiUrl,
    exited,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

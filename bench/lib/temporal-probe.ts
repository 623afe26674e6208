import { randomBytes } from 'node:crypto';
import type { TemporalGateway } from '../../src/temporal/client';

/** Runs `work` for 0..n-1 with at most `concurrency` at a time. */
export async function inParallel(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/**
 * Workflow starts per second the Temporal server accepts right now (runs nobody works on, terminated after):
 * the ceiling every figure of a benchmark sits under, on a shared machine.
 */
export async function temporalStartsPerSecond(temporal: TemporalGateway, n = 200, concurrency = 50): Promise<number> {
  const ids = Array.from({ length: n }, (_, i) => `bench-probe-${randomBytes(4).toString('hex')}-${i}`);
  const started = performance.now();
  await inParallel(
    n,
    concurrency,
    async (i) =>
      void (await temporal.client.workflow.start('benchProbe', {
        taskQueue: `${temporal.taskQueue}-probe`,
        workflowId: ids[i]!,
        args: [],
        workflowRunTimeout: '1 minute',
      })),
  );
  const rate = n / ((performance.now() - started) / 1000);
  await inParallel(n, concurrency, async (i) => void (await temporal.client.workflow.getHandle(ids[i]!).terminate('probe')));
  return rate;
}

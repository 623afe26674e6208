/**
 * A worker for the empty workflow of ./workflow.ts alone, in a process of its own so that its CPU is counted
 * apart: with it the automation bench measures what the Temporal server and the SDK spend on a workflow that
 * does nothing. Task queue from TEMPORAL_TASK_QUEUE, server from TEMPORAL_ADDRESS; prints `ready` once it polls.
 */
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

async function main(): Promise<void> {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } },
  });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
    workflowsPath: path.join(__dirname, 'workflow.ts'),
  });
  const running = worker.run();
  console.log('ready');
  process.once('SIGTERM', () => worker.shutdown());
  await running;
  await connection.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

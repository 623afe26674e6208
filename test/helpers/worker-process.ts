/**
 * A worker in a process of its own, for tests and benchmarks that kill it (SIGKILL) mid-send: the Temporal
 * worker with every workflow and activity, the events outbox's dispatcher, the email delivery pump and (with
 * SANDBOX_ENABLED) the simulator, as src/main/worker.ts runs them (a benchmark's figures include handing every
 * `email.sent` event to its consumers).
 * Settings come from the environment like the real worker's (a short DELIVERY_LEASE_MS has a killed worker's emails
 * taken over in seconds rather than minutes); `WORKER_WORKFLOW_BUNDLE`
 * names a workflow bundle made once by the parent (bundleWorkflows), which saves each start the bundling.
 * Its heap is limited as the real worker's is (src/main/worker-heap.ts; its parent passes the NODE_OPTIONS).
 * Prints `worker ready` once it polls.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { closeDeps, createDeps, runMain } from '../../src/bootstrap';
import { limitWorkerHeapGrowth } from '../../src/main/worker-heap';
import { eventConsumers } from '../../src/app/consumers';
import { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import { Simulator } from '../../src/modules/sandbox/simulator';
import { workflowsPath } from '../../workflows/path';
import { workerSettings } from '../../src/temporal/worker-settings';

runMain(async () => {
  limitWorkerHeapGrowth();
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } },
  });
  const deps = await createDeps('worker');
  const dispatcher = new EventDispatcher(deps.orm, deps.config.DATABASE_URL, eventConsumers(deps), deps.logger);
  await dispatcher.start();
  // As in the worker: the simulator addresses are served where the pump runs (docs/sandbox.md).
  const simulator = deps.config.SANDBOX_ENABLED ? await Simulator.start(deps) : null;
  const pump = new DeliveryPump(deps);
  await pump.start();
  const connection = await NativeConnection.connect({ address: deps.config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    ...workerSettings(deps.config),
    ...(process.env.WORKER_WORKFLOW_BUNDLE ? { workflowBundle: { codePath: process.env.WORKER_WORKFLOW_BUNDLE } } : { workflowsPath }),
    activities: createActivities(deps),
  });
  const running = worker.run();
  console.log('worker ready');
  await running;
  // Stopped (SIGTERM): shut down in order as the real worker does, so that the process ends by itself
  // (and writes what --cpu-prof collected).
  await pump.stop();
  await simulator?.close();
  await dispatcher.stop();
  await connection.close();
  await closeDeps(deps);
});

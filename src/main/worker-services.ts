import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { workflowsPath } from '../../workflows/path';
import type { Deps } from '../deps';
import { DeliveryPump } from '../modules/emails/delivery/pump';
import { CampaignBodies } from '../modules/campaigns/bodies';
import { Simulator } from '../modules/sandbox/simulator';
import { EventDispatcher } from '../modules/outbox/dispatcher';
import { eventConsumers } from '../app/consumers';
import { startHousekeeping } from './housekeeping';
import { workerSettings } from '../temporal/worker-settings';

/**
 * What a worker process runs, started in order, until its Temporal worker stops (SIGINT or SIGTERM); then they
 * stop in the reverse order. The one place that composes a worker: src/main/worker.ts and the test and benchmark
 * workers that are killed mid-send (test/helpers/worker-process.ts) both run it, so a benchmark measures the real one.
 * `onPolling` is called once the worker polls its task queue.
 */
export async function runWorkerServices(deps: Deps, onPolling: () => void): Promise<void> {
  // Started before Temporal is reached: events keep flowing to consumers, and those that need Temporal retry.
  const dispatcher = new EventDispatcher(deps.orm, deps.config.DATABASE_URL, eventConsumers(deps), deps.logger);
  await dispatcher.start();
  // The simulator addresses are routed before the pump sends anything (docs/sandbox.md).
  const simulator = deps.config.SANDBOX_ENABLED ? await Simulator.start(deps) : null;
  // Email delivery needs only PostgreSQL and SMTP, so it runs whether or not Temporal is reachable.
  const pump = new DeliveryPump(deps, new CampaignBodies(deps));
  await pump.start();
  const stopHousekeeping = startHousekeeping(deps);
  const connection = await NativeConnection.connect({ address: deps.config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    ...workerSettings(deps.config),
    // A prebuilt bundle spares the worker webpack: a faster start and less memory (docs/automations.md).
    ...(deps.config.WORKER_WORKFLOW_BUNDLE ? { workflowBundle: { codePath: deps.config.WORKER_WORKFLOW_BUNDLE } } : { workflowsPath }),
    activities: createActivities(deps),
  });
  // The worker's starts and signals (the automation trigger's) go through its own connection from now on:
  // eager starts hand a run's first task straight to this worker, and the native client costs less CPU.
  const lazy = deps.temporal.client.connection;
  deps.temporal = { ...deps.temporal, client: new Client({ connection, namespace: deps.config.TEMPORAL_NAMESPACE }), eagerStart: true };
  // The dispatcher's connection until now (it may have started runs before the worker was ready) goes.
  await lazy.close();
  const running = worker.run();
  onPolling();
  await running;
  stopHousekeeping();
  await pump.stop();
  await simulator?.close();
  await dispatcher.stop();
  await connection.close();
}

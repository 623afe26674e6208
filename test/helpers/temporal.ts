import { NativeConnection, Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { closeCampaignDrainWatches } from '../../activities/campaigns';
import { workflowsPath } from '../../workflows/path';
import type { TemporalGateway } from '../../src/temporal/client';
import type { Deps } from '../../src/deps';
import { installRuntime } from './temporal-env';
import { workerSettings } from '../../src/temporal/worker-settings';

/** A gateway for the API under test that talks to a time-skipping environment (no search attributes there). */
export function gatewayFor(env: TestWorkflowEnvironment, taskQueue: string): TemporalGateway {
  return { client: env.client, taskQueue, searchAttributes: false };
}

export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** Runs the real worker (all workflows and activities) on the stack's task queue until `stop()`. */
export async function startWorker(deps: Deps, connection?: NativeConnection): Promise<RunningWorker> {
  installRuntime();
  const own = connection ? null : await NativeConnection.connect({ address: deps.config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection: connection ?? own!,
    ...workerSettings(deps.config),
    taskQueue: deps.temporal.taskQueue,
    workflowsPath,
    activities: createActivities(deps),
  });
  const running = worker.run();
  return {
    worker,
    stop: async () => {
      worker.shutdown();
      await running;
      await closeCampaignDrainWatches(deps);
      await own?.close();
    },
  };
}

import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { workflowsPath } from '../../workflows/path';
import type { TemporalGateway } from '../../src/temporal/client';
import type { Deps } from '../../src/deps';

const SDK_LEVELS: Record<string, LogLevel> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN' };
let runtimeInstalled = false;

/** SDK and worker logs only at ERROR unless TEST_LOG_LEVEL asks for more; must precede any connection. */
export function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level = SDK_LEVELS[process.env.TEST_LOG_LEVEL ?? ''] ?? 'ERROR';
  Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level }, forward: {} } } });
}

/** The time-skipping test server, from the binary `npm test` installed (nothing is downloaded). */
export function timeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (!path) throw new Error('TEMPORAL_TEST_SERVER_PATH is not set: run the tests with `npm test`');
  installRuntime();
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
}

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
    namespace: deps.config.TEMPORAL_NAMESPACE,
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
      await own?.close();
    },
  };
}

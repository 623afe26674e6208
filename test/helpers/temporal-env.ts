import { DefaultLogger, Runtime, Worker, bundleWorkflowCode, type LogLevel, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { workflowsPath } from '../../workflows/path';
import { temporalTestServer } from '../../scripts/lib/paths';
import { testServerKeepalive } from '../../src/temporal/test-server-keepalive';

/**
 * The Temporal pieces a test needs without the project's activities or database: the SDK runtime, the
 * time-skipping test server and the workflow bundle. Unit tests import only this; test/helpers/temporal.ts
 * adds the real worker.
 */

const SDK_LEVELS: Record<string, LogLevel> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN' };
let runtimeInstalled = false;

/**
 * Core's warning that the server refused a workflow task's completion. The time-skipping server never times such
 * a task out nor sends it again (temporalio/sdk-java#3088: a task that cancels a timer which fired meanwhile):
 * its run stops there and the task's lock on time skipping stays, so every later skip of the file waits in real
 * time. Printed as an error whatever the level, so that a file hung that way says why.
 */
const REFUSED_COMPLETION = 'Error while completing workflow activation';

/** SDK and worker logs only at ERROR (and refused completions) unless TEST_LOG_LEVEL asks for more; must precede any connection. */
export function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const asked = SDK_LEVELS[process.env.TEST_LOG_LEVEL ?? ''];
  const print = new DefaultLogger(asked ?? 'ERROR');
  const logger = asked
    ? print
    : new DefaultLogger('WARN', ({ level, message, meta }) => {
        if (level === 'ERROR' || message === REFUSED_COMPLETION) print.error(message, meta);
      });
  const level = asked ?? 'WARN';
  Runtime.install({ logger, telemetryOptions: { logging: { filter: { core: level, other: level }, forward: {} } } });
}

/**
 * The time-skipping test server, from the binary that `npm test` installed (nothing is downloaded); jest run on
 * its own finds it in the same place.
 */
export async function timeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = process.env.TEMPORAL_TEST_SERVER_PATH ?? temporalTestServer;
  installRuntime();
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path } },
    plugins: [testServerKeepalive],
  });
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The worker's workflow bundle, built once per test file: building it takes seconds, running it none. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  installRuntime();
  bundle ??= bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('ERROR') });
  return bundle;
}

/**
 * For a file of workflow tests on stub activities: a time-skipping environment and a worker on `taskQueue`, up
 * before the file's first test and down after its last. The returned function gives the environment.
 */
export function stubActivityWorker(taskQueue: string, activities: object): () => TestWorkflowEnvironment {
  let env: TestWorkflowEnvironment | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    env = await timeSkippingEnv();
    worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });
  return () => env!;
}

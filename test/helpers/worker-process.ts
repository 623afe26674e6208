/**
 * A worker in a process of its own, for tests and benchmarks that kill it (SIGKILL) mid-send: the real worker's
 * services (src/main/worker-services.ts), with the Temporal runtime's logs kept to warnings.
 * Settings come from the environment like the real worker's (a short DELIVERY_LEASE_MS has a killed worker's emails
 * taken over in seconds rather than minutes); `WORKER_WORKFLOW_BUNDLE`
 * names a workflow bundle made once by the parent (bundleWorkflows), which saves each start the bundling.
 * Its heap is limited as the real worker's is (src/main/worker-heap.ts; its parent passes the NODE_OPTIONS).
 * Prints `worker ready` once it polls.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { closeDeps, createDeps, runMain } from '../../src/bootstrap';
import { limitWorkerHeapGrowth } from '../../src/main/worker-heap';
import { runWorkerServices } from '../../src/main/worker-services';

runMain(async () => {
  limitWorkerHeapGrowth();
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } },
  });
  const deps = await createDeps('worker');
  // Stopped (SIGTERM), it shuts down in order as the real worker does, so that the process ends by itself
  // (and writes what --cpu-prof collected).
  await runWorkerServices(deps, () => console.log('worker ready'));
  await closeDeps(deps);
});

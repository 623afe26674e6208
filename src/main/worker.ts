import { createDeps, closeDeps, runMain } from '../bootstrap';
import { limitWorkerHeapGrowth } from './worker-heap';
import { runWorkerServices } from './worker-services';

runMain(async () => {
  limitWorkerHeapGrowth();
  const deps = await createDeps('worker');
  await runWorkerServices(deps, () => deps.logger.info({ taskQueue: deps.config.TEMPORAL_TASK_QUEUE }, 'worker running'));
  await closeDeps(deps);
});

import { NativeConnection, Worker } from '@temporalio/worker';
import { createDeps, closeDeps, runMain } from '../bootstrap';
import { createActivities } from '../../activities';
import { workflowsPath } from '../../workflows/path';

runMain(async () => {
  const deps = await createDeps('worker');
  const connection = await NativeConnection.connect({ address: deps.config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowsPath,
    activities: createActivities(deps),
  });
  deps.logger.info({ taskQueue: deps.config.TEMPORAL_TASK_QUEUE }, 'worker running');
  await worker.run();
  await connection.close();
  await closeDeps(deps);
});

import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config';

export interface TemporalGateway {
  client: Client;
  taskQueue: string;
  /** False on the time-skipping test server, which has no visibility store. */
  searchAttributes: boolean;
  /**
   * The client shares its NativeConnection with a worker of the task queue, so a start can ask the server to
   * hand the run's first task straight back to that worker (eager start) instead of through the task queue.
   */
  eagerStart?: boolean;
}

/** A lazily connecting client: the API starts (and keeps answering) while Temporal is unreachable. */
export function createTemporalGateway(config: Config): TemporalGateway {
  const connection = Connection.lazy({ address: config.TEMPORAL_ADDRESS });
  return {
    client: new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    searchAttributes: true,
  };
}

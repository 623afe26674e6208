import { createSimulatedAutomationActivities } from '../../activities/automation';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { Simulator } from '../modules/automations/simulate/service';

/** One simulator per set of dependencies (the API process; each test stack), with its pool of test servers. */
const simulators = new WeakMap<Deps, Simulator>();

export function simulatorFor(deps: Deps): Simulator {
  let simulator = simulators.get(deps);
  if (!simulator) simulators.set(deps, (simulator = new Simulator(deps, createSimulatedAutomationActivities)));
  return simulator;
}

/** Warm-ups not begun yet, which a close cancels. */
const pendingWarmUps = new WeakMap<Deps, () => void>();

/** Without a first request (nothing probes the API), the warm-up begins this long after the API listens. */
const WARM_AFTER_MS = 10_000;

/**
 * The API's start: with SIMULATION_WARM, one test server and its worker start in the background, so that the
 * first simulation does not wait seconds for them. Loading the SDK holds the main thread about a second, so it
 * begins once the API has answered its first request (a readiness probe, the dashboard), or WARM_AFTER_MS after
 * it listens: neither start-up nor readiness waits for it.
 */
export function warmSimulatorWhenReady(deps: Deps, server: Server): void {
  if (!deps.config.SIMULATION_WARM) return;
  const cancel = () => {
    clearTimeout(timer);
    server.off('request', onRequest);
    pendingWarmUps.delete(deps);
  };
  const begin = () => {
    if (!pendingWarmUps.has(deps)) return;
    cancel();
    simulatorFor(deps).warm();
  };
  const onRequest = (_req: IncomingMessage, res: ServerResponse) => res.once('close', begin);
  const timer = setTimeout(begin, WARM_AFTER_MS).unref();
  server.once('request', onRequest);
  pendingWarmUps.set(deps, cancel);
}

/** Stops the simulator's test servers and workers, if it started any. */
export async function closeSimulator(deps: Deps): Promise<void> {
  pendingWarmUps.get(deps)?.();
  await simulators.get(deps)?.close();
  simulators.delete(deps);
}

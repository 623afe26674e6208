import { createSimulatedAutomationActivities } from '../../activities/automation';
import type { Deps } from '../deps';
import { Simulator } from '../modules/automations/simulate/service';

/** One simulator per set of dependencies (the API process; each test stack), with its pool of test servers. */
const simulators = new WeakMap<Deps, Simulator>();

export function simulatorFor(deps: Deps): Simulator {
  let simulator = simulators.get(deps);
  if (!simulator) simulators.set(deps, (simulator = new Simulator(deps, createSimulatedAutomationActivities)));
  return simulator;
}

/**
 * The API's start: with SIMULATION_WARM, one test server and its worker start in the background, so that the
 * first simulation does not wait seconds for them; nothing waits for it.
 */
export function warmSimulator(deps: Deps): void {
  simulatorFor(deps).warm();
}

/** Stops the simulator's test servers and workers, if it started any. */
export async function closeSimulator(deps: Deps): Promise<void> {
  await simulators.get(deps)?.close();
  simulators.delete(deps);
}

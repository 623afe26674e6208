import type { QuickWork } from '../../src/modules/automations/run/advance';
import { splitBranch } from '../../src/modules/automations/run/random-split';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { simulationOf } from './step';

/** RANDOM_SPLIT in advanceAutomation: the contact's branch is its output. */
export const randomSplitWork: QuickWork<'RANDOM_SPLIT'> = async (step, { live }) => ({
  output: { branch: splitBranch(step.config, step.id, live.contact.id) },
});

/** A stored contact splits as its executions will; a sample contact by its email, so that the same sample splits alike. */
export const simulatedRandomSplitWork =
  (runs: SimulationRuns): QuickWork<'RANDOM_SPLIT'> =>
  async (step, { state }) => {
    const { contact } = simulationOf(runs, state);
    return { output: { branch: splitBranch(step.config, step.id, contact.stored ? contact.id : contact.email.toLowerCase()) } };
  };

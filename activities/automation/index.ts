import type { Deps } from '../../src/deps';
import { writeMirror, type MirrorState } from '../../src/modules/automations/records';
import { conditionActivities } from './condition';
import { sendEmailActivities } from './send-email';
import { updateContactActivities } from './update-contact';
import { waitForEventActivities } from './wait-for-event';
import { webhookActivities } from './webhook';

/** The automation workflow's activities: the mirror write, and each step type's own (one line per type that has any). */
export function createAutomationActivities(deps: Deps) {
  return {
    /** The workflow's state, mirrored into the execution record (a local activity). False: nothing left to do. */
    async saveAutomationState(state: MirrorState): Promise<boolean> {
      return writeMirror(deps.orm.em.fork(), state);
    },
    ...sendEmailActivities(deps),
    ...waitForEventActivities(deps),
    ...conditionActivities(deps),
    ...webhookActivities(deps),
    ...updateContactActivities(deps),
  };
}

export type AutomationActivities = ReturnType<typeof createAutomationActivities>;

import path from 'node:path';
import { historyFiles, loadHistory, replayHistory } from '../helpers/histories';
import { HISTORIES_DIR } from './histories';

/**
 * Replays the recorded histories of real automation executions (test/automation/histories, recorded by the
 * time-skipping tests with RECORD_AUTOMATION_HISTORIES=1) against the current workflow code. A change that
 * would make runs in flight take other steps (non-determinism) fails here instead of in production.
 */
const histories = historyFiles(HISTORIES_DIR);

describe('automation workflow replay', () => {
  it('has recorded histories of each step type and ending, of both workflow types', () => {
    expect(histories).toEqual(
      expect.arrayContaining([
        'cancelled-delay.json',
        'delay-update-contact.json',
        'failed-step.json',
        'send-email.json',
        'trigger-wait-event-condition-exit.json',
        'trigger-wait-event-condition-yes.json',
        'wait-timeout.json',
        // Recorded after the automation-wait-in-one-write patch; the three above are from before it.
        'trigger-wait-event-condition-exit-one-write.json',
        'trigger-wait-event-condition-yes-one-write.json',
        'wait-timeout-one-write.json',
        // A SEND_EMAIL held by a suspension, woken by the reinstatement (the hold-while-suspended patch).
        'send-email-held.json',
        // The workflow type automationV2 (docs/automations.md "Versions"): quick steps in one local activity.
        'automationV2-cancelled-delay.json',
        'automationV2-delay-update-contact.json',
        'automationV2-failed-step.json',
        'automationV2-send-email.json',
        'automationV2-send-email-held.json',
        'automationV2-trigger-wait-event-condition-exit.json',
        'automationV2-trigger-wait-event-condition-yes.json',
        'automationV2-wait-timeout.json',
        // RANDOM_SPLIT: the branch decided in advanceAutomation, then a DELAY on branch A.
        'automationV2-random-split-delay.json',
        // A DELAY until 09:00 in the contact's zone: the instant decided in advanceAutomation, the timer to it.
        'automationV2-delay-until-local-time.json',
        // A SEND_EMAIL in its quiet hours: WAITING, a timer to their end, then the email.
        'automationV2-send-email-quiet-hours.json',
        // A goal reached in a DELAY (the automation-goal patch): the timer cancelled, the run ended CONVERTED.
        'automationV2-goal-in-delay.json',
        // A SEND_EMAIL over the frequency cap: WAITING, a timer until the window allows it, then the email.
        'automationV2-send-email-frequency-cap.json',
        // Moved from version 1's DELAY to version 2's SEND_EMAIL by the migrateVersion signal (automation-version-migration).
        'automationV2-migrated-version.json',
      ]),
    );
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });
});

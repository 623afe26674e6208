import { randomBytes, randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { ConsentActivities } from '../../activities/consent';
import type { contactConfirmation } from '../../workflows/consent/confirmation';
import type { contactSnooze } from '../../workflows/consent/snooze';
import {
  CONFIRMATION_SETTLED_SIGNAL,
  CONFIRMATION_TTL_MS,
  REMINDER_AFTER_MS,
  SNOOZE_CHANGED_SIGNAL,
  confirmationWorkflowId,
  snoozeWorkflowId,
} from '../../workflows/consent/ids';
import { stubActivityWorker } from '../helpers/temporal-env';

/**
 * The consent workflows' control flow (workflows/consent/) with stub activities, on the time-skipping server:
 * when a snooze ends and with which end, when a confirmation is reminded of and expires, and what ends them
 * early. What each activity does in the database is the stack tests' concern (test/consent/).
 */

const DAY = 24 * 3_600_000;
const taskQueue = `consent-${randomBytes(4).toString('hex')}`;

/** What the activities were asked, when (the server's time they were scheduled at), by workflow subject (contact or confirmation). */
const calls: Array<{ name: string; subject: string; at: number; until?: string }> = [];
const pending = new Map<string, boolean>();
const now = () => Context.current().info.scheduledTimestampMs;
const activities: ConsentActivities = {
  endContactSnooze: async ({ contactId, until }) => void calls.push({ name: 'end', subject: contactId, at: now(), until }),
  remindConfirmation: async (id) => {
    calls.push({ name: 'remind', subject: id, at: now() });
    return { pending: pending.get(id) ?? true };
  },
  expireConfirmation: async (id) => void calls.push({ name: 'expire', subject: id, at: now() }),
};
const env = stubActivityWorker(taskQueue, activities);

const callsOf = (subject: string) => calls.filter((c) => c.subject === subject);

async function snooze(days: number) {
  const contactId = randomUUID();
  const handle = await env().client.workflow.start<typeof contactSnooze>('contactSnooze', {
    taskQueue,
    workflowId: snoozeWorkflowId(contactId),
    args: [{ projectId: randomUUID(), contactId, until: `until-${days}`, ms: days * DAY }],
  });
  return { contactId, handle, started: (await handle.describe()).startTime.getTime() };
}

describe('contactSnooze', () => {
  it('ends the snooze when its length has passed on its own clock, with the end the API recorded', async () => {
    const { contactId, handle, started } = await snooze(14);
    await handle.result();
    const [end] = callsOf(contactId);
    expect(end).toMatchObject({ name: 'end', until: 'until-14' });
    expect(Math.round((end!.at - started) / DAY)).toBe(14);
  });

  it('moves its end when signalled a new one, and ends with that one', async () => {
    const { contactId, handle, started } = await snooze(14);
    await handle.signal(SNOOZE_CHANGED_SIGNAL, { until: 'until-30', ms: 30 * DAY });
    await handle.result();
    expect(callsOf(contactId).map((c) => [c.name, c.until, Math.round((c.at - started) / DAY)])).toEqual([['end', 'until-30', 30]]);
  });

  it('stops without ending anything when the snooze was ended early', async () => {
    const { contactId, handle } = await snooze(90);
    await handle.signal(SNOOZE_CHANGED_SIGNAL, null);
    await handle.result();
    expect(callsOf(contactId)).toEqual([]);
  });
});

async function confirmation() {
  const id = randomUUID();
  const handle = await env().client.workflow.start<typeof contactConfirmation>('contactConfirmation', {
    taskQueue,
    workflowId: confirmationWorkflowId(id),
    args: [{ confirmationId: id }],
  });
  return { id, handle, started: (await handle.describe()).startTime.getTime() };
}

describe('contactConfirmation', () => {
  it('reminds once a day after the signup and expires the confirmation a week after it', async () => {
    const { id, handle, started } = await confirmation();
    await handle.result();
    const steps = callsOf(id).map((c) => [c.name, Math.round((c.at - started) / 3_600_000)]);
    expect(steps).toEqual([
      ['remind', REMINDER_AFTER_MS / 3_600_000],
      ['expire', CONFIRMATION_TTL_MS / 3_600_000],
    ]);
  });

  it('ends at the reminder when the confirmation is no longer pending', async () => {
    const { id, handle } = await confirmation();
    pending.set(id, false);
    await handle.result();
    expect(callsOf(id).map((c) => c.name)).toEqual(['remind']);
  });

  it('ends at once, reminding of nothing, when settled', async () => {
    const { id, handle } = await confirmation();
    await handle.signal(CONFIRMATION_SETTLED_SIGNAL);
    await handle.result();
    expect(callsOf(id)).toEqual([]);
  });
});
